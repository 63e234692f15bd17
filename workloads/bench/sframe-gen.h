/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic SFrame V3 sections, written once for the lookup benchmarks:
 * scripts/sframe/scale.c (the reader in user space, make bench-scaling),
 * workloads/bench/sframe-scale.c (the kernel, bench-scaling.sh --kernel:
 * the same sections), workloads/bench/sframe-worst.c (--worst) and
 * workloads/bench/sframe-regs.c (make bench: sections of one function).
 *
 * Include it after the format's definitions: workloads/bench/sframe-format.h,
 * or the kernel's own header where kernel/unwind/sframe.c is compiled in.
 *
 * A section describes functions laid end to end from its text start, in
 * runs of functions alike: funcs[r].count functions of funcs[r].size bytes
 * with funcs[r].fres FREs each (at most 65535), FRE j at offset
 * j * (size / fres), with 1-, 2- or 4-byte start offsets as the size needs
 * (SFRAME_FRE_TYPE_ADDR1/2/4). Every
 * FRE says CFA = SP + sframe_gen_cfa(), the return address at CFA - 8;
 * with .fp, FREs 1 and up save the frame pointer at CFA - 16 too (a second
 * data word) and their CFA offsets vary, 16 to 72.
 *
 * The kernel's tools are sampled while they build their sections (perf
 * record runs them whole), and the worst case writes 4 million FREs and
 * 10^6 functions more: a run is laid out at once, and an FRE takes a loop
 * of a few instructions (no more than the tools' own loops took before).
 */
#ifndef SFRAME_GEN_H
#define SFRAME_GEN_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* @count functions of @size bytes and @fres FREs each. */
struct sframe_gen_funcs {
	uint32_t	size;
	uint32_t	fres;
	unsigned long	count;
};

struct sframe_gen {
	unsigned long	n;	/* runs of functions */
	struct sframe_gen_funcs *funcs;
	int		fp;	/* FREs after the first save the FP */
	/* sframe_gen_layout() */
	unsigned long	num_fdes;	/* functions */
	unsigned long	text_len;	/* bytes of text */
	unsigned long	len;		/* bytes of the section */
};

/* The CFA offset of FRE @j of a function, in a section with or without @fp. */
static inline int sframe_gen_cfa(int fp, unsigned int j)
{
	return fp && j ? 16 + 8 * (j & 7) : 8;
}

/* Bytes of a start offset in a function of @size bytes. */
static inline unsigned int sframe_gen_addr_size(uint32_t size)
{
	return size <= 0x100 ? 1 : size <= 0x10000 ? 2 : 4;
}

/* @g's num_fdes, text_len and len, from its runs. */
static inline void sframe_gen_layout(struct sframe_gen *g)
{
	const int fp = !!g->fp;
	unsigned long r, fdes = 0, text = 0, fre_len = 0;

	for (r = 0; r < g->n; r++) {
		const struct sframe_gen_funcs *f = &g->funcs[r];

		/* The FDA, then FREs of a start offset, info and 1 or 2 words. */
		fre_len += f->count * (sizeof(struct sframe_fda) - fp + (unsigned long)f->fres *
				       (sframe_gen_addr_size(f->size) + 2 + fp));
		text += f->count * f->size;
		fdes += f->count;
	}
	g->num_fdes = fdes;
	g->text_len = text;
	g->len = sizeof(struct sframe_header) + fdes * sizeof(struct sframe_fde) +
		 fre_len;
}

/*
 * The FREs of one function: @nfres of them, @step bytes apart, with
 * @as-byte start offsets. Called with constant @as and @fp, so that each
 * of the six loops is compiled on its own, its rows stored whole.
 */
static inline __attribute__((always_inline)) uint8_t *
sframe_gen_fres(uint8_t *p, const unsigned int as, const int fp,
		uint32_t nfres, uint32_t step)
{
	/* Little-endian rows: start offset, info, CFA word (, FP word). */
	const uint64_t info1 = (uint64_t)(SFRAME_FRE_CFA_BASE_SP | 1 << 1 |
					  SFRAME_FRE_DATAWORD_1B << 5) << 8 * as;
	const uint64_t info2 = (uint64_t)(SFRAME_FRE_CFA_BASE_SP | 2 << 1 |
					  SFRAME_FRE_DATAWORD_1B << 5) << 8 * as |
			       (uint64_t)(uint8_t)-16 << (8 * as + 16);
	const uint64_t cfa8 = (uint64_t)8 << (8 * as + 8);
	uint32_t j, off;

	if (!fp) {
		/* Rows of one length, CFA = SP + 8. */
		for (j = nfres, off = 0; j; j--, p += as + 2, off += step) {
			uint64_t row = off | info1 | cfa8;

			memcpy(p, &row, as + 2);
		}
		return p;
	}
	for (j = 0, off = 0; j < nfres; j++, off += step) {
		uint64_t cfa = (uint64_t)(uint8_t)sframe_gen_cfa(fp, j) << (8 * as + 8);
		uint64_t row;

		if (j) {
			row = off | info2 | cfa;
			memcpy(p, &row, as + 3);
			p += as + 3;
		} else {
			row = off | info1 | cfa;
			memcpy(p, &row, as + 2);
			p += as + 2;
		}
	}
	return p;
}

#define SFRAME_GEN_FRES(p, as, fp, nfres, step)				\
	((fp) ? sframe_gen_fres(p, as, 1, nfres, step) :		\
		sframe_gen_fres(p, as, 0, nfres, step))

/*
 * Writes the section of @g, laid out, into @buf, at the address it is read
 * at (the FDEs' function starts are relative to their own addresses), for
 * text at @text. Returns the bytes written: g->len unless it is wrong.
 */
static inline unsigned long sframe_gen_write(const struct sframe_gen *g,
					     uint8_t *buf, unsigned long text)
{
	struct sframe_header h = {
		.magic = SFRAME_MAGIC,
		.version = SFRAME_VERSION_3,
		.flags = SFRAME_F_ALL,
		.abi_arch = SFRAME_ABI_AMD64_ENDIAN_LITTLE,
		.cfa_fixed_ra_offset = SFRAME_AMD64_CFA_FIXED_RA_OFFSET,
		.num_fdes = g->num_fdes,
		.fdes_off = 0,
		.fres_off = g->num_fdes * sizeof(struct sframe_fde),
	};
	uint8_t *at = buf + sizeof(h), *fres = at + h.fres_off, *p = fres;
	const int fp = g->fp;
	unsigned long r, k, func = text;
	uint32_t num_fres = 0;

	for (r = 0; r < g->n; r++) {
		const uint32_t size = g->funcs[r].size, nfres = g->funcs[r].fres;
		const unsigned long count = g->funcs[r].count;
		const uint32_t step = size / nfres;
		const unsigned int as = sframe_gen_addr_size(size);
		struct sframe_fda fda = {
			.num_fres = nfres,
			.info = as == 1 ? SFRAME_FRE_TYPE_ADDR1 :
				as == 2 ? SFRAME_FRE_TYPE_ADDR2 :
					  SFRAME_FRE_TYPE_ADDR4,
			.info2 = SFRAME_FDE_TYPE_DEFAULT,
		};

		for (k = 0; k < count; k++) {
			struct sframe_fde fde = {
				.func_start_off = (int64_t)(func - (unsigned long)at),
				.func_size = size,
				.fda_off = p - fres,
			};

			memcpy(at, &fde, sizeof(fde));
			at += sizeof(fde);
			memcpy(p, &fda, sizeof(fda));
			p += sizeof(fda);
			p = as == 1 ? SFRAME_GEN_FRES(p, 1, fp, nfres, step) :
			    as == 2 ? SFRAME_GEN_FRES(p, 2, fp, nfres, step) :
				      SFRAME_GEN_FRES(p, 4, fp, nfres, step);
			func += size;
		}
		num_fres += count * nfres;
	}
	h.num_fres = num_fres;
	h.fre_len = p - fres;
	memcpy(buf, &h, sizeof(h));
	return p - buf;
}

/*
 * Lays @g out, maps its text (readable, writable, executable: g->text_len
 * bytes at *@text) and its section (g->len bytes at *@sec), and writes the
 * section for that text. Returns 0, or -1 with errno set.
 */
static inline int sframe_gen_map(struct sframe_gen *g, uint8_t **text,
				 uint8_t **sec)
{
	sframe_gen_layout(g);
	*text = mmap(NULL, g->text_len, PROT_READ | PROT_WRITE | PROT_EXEC,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	*sec = mmap(NULL, g->len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*text == MAP_FAILED || *sec == MAP_FAILED)
		return -1;
	if (sframe_gen_write(g, *sec, (unsigned long)*text) != g->len) {
		fprintf(stderr, "sframe_gen_write(): not the %lu bytes planned\n", g->len);
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* xorshift64*: the same numbers on every run. */
static uint64_t sframe_gen_rng_state;

static inline uint64_t sframe_gen_rng(void)
{
	sframe_gen_rng_state ^= sframe_gen_rng_state >> 12;
	sframe_gen_rng_state ^= sframe_gen_rng_state << 25;
	sframe_gen_rng_state ^= sframe_gen_rng_state >> 27;
	return sframe_gen_rng_state * 0x2545F4914F6CDD1DULL;
}

/*
 * @g: a section of @fdes functions of @fres FREs each (runs of one,
 * g->funcs[i] the function i), 16 to 1023 bytes at random, at least
 * 2 * @fres; with @fp; to be laid out (sframe_gen_layout(), or
 * sframe_gen_map()). Seeds sframe_gen_rng() from @fdes and @fres: its next
 * numbers are the same for the same section. Returns -1 when out of
 * memory; free(g->funcs) frees it.
 */
static inline int sframe_gen_random(struct sframe_gen *g, unsigned long fdes,
				    unsigned int fres, int fp)
{
	unsigned long i;

	*g = (struct sframe_gen){
		.n = fdes, .fp = fp,
		.funcs = malloc(fdes * sizeof(*g->funcs)),
	};
	if (!g->funcs)
		return -1;
	sframe_gen_rng_state = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)fdes << 32) ^ fres;
	for (i = 0; i < fdes; i++) {
		uint32_t size = 16 + sframe_gen_rng() % 1008;

		g->funcs[i] = (struct sframe_gen_funcs){
			.size = size < 2 * fres ? 2 * fres : size,
			.fres = fres,
			.count = 1,
		};
	}
	return 0;
}

#endif /* SFRAME_GEN_H */
