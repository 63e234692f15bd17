// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rules that binutils' libsframe finds for every IP of the executable
 * segments of an ELF file, in the format of the kernel reader's harness
 * ("sframe_test dump", tools/testing/sframe/main.c), so that the two can be
 * compared line by line (scripts/sframe/compare.py):
 *
 *   sframe ADDR SIZE text START END decode ok|ERROR
 *   START END fde=FUNC/SIZE cfa=RULE ra=RULE fp=RULE [signal]
 *   START END fde=FUNC/SIZE outermost [signal]
 *   START END fde=FUNC/SIZE nofres [signal]     (an FDE without FREs)
 *   START END ENOENT
 *
 * for consecutive IPs [START, END) with the same result.  A rule is "same",
 * "cfa+N", "*(cfa+N)", "rREG+N" or "*(rREG+N)", with DWARF register numbers
 * (rsp 7, rbp 6).  libsframe decodes the FREs and their data words; only the
 * meaning of a FLEX FDE's control words (bit 0 register, bit 1 dereference,
 * bits 3 and up the register) is read here, as the SFrame spec gives it.
 *
 *   oracle ELF
 *
 * GPL-2.0-or-later, not GPL-2.0 only: it links libsframe (GPL-3.0-or-later).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sframe-api.h>

#ifndef PT_GNU_SFRAME
#define PT_GNU_SFRAME	0x6474e554
#endif

struct fde {
	uint64_t	start;
	uint32_t	size;
	uint32_t	num_fres;
	unsigned char	info, info2;
	uint8_t		rep_size;
};

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "oracle: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	exit(2);
}

static int32_t sext(uint32_t v, unsigned int size)
{
	if (size == 1)
		return (int8_t)v;
	if (size == 2)
		return (int16_t)v;
	return (int32_t)v;
}

/* One (control, offset) pair of a FLEX FDE, as the spec defines it. */
static void flex_rule(char *p, size_t n, uint32_t ctl, int32_t off)
{
	unsigned int reg = SFRAME_V3_FLEX_FDE_CTRLWORD_REGNUM(ctl);
	int deref = SFRAME_V3_FLEX_FDE_CTRLWORD_DEREF_P(ctl);

	if (SFRAME_V3_FLEX_FDE_CTRLWORD_REG_P(ctl))
		snprintf(p, n, deref ? "*(r%u%+d)" : "r%u%+d", reg, off);
	else
		snprintf(p, n, deref ? "*(cfa%+d)" : "cfa%+d", off);
}

static void result(char *out, size_t n, sframe_decoder_ctx *dctx,
		   const struct fde *f, const sframe_frame_row_entry *fre)
{
	unsigned int type = SFRAME_V3_FDE_TYPE(f->info2);
	unsigned int words = SFRAME_V3_FRE_DATAWORD_COUNT(fre->fre_info);
	unsigned int size = 1U << SFRAME_V3_FRE_DATAWORD_SIZE(fre->fre_info);
	const char *sig = SFRAME_V3_FDE_SIGNAL_P(f->info) ? " signal" : "";
	char cfa[32], ra[32], fp[32];
	int err = 0, len;
	int32_t off;

	len = snprintf(out, n, "fde=%#lx/%#x", (unsigned long)f->start, f->size);
	if (sframe_fre_get_ra_undefined_p(dctx, fre, &err)) {
		snprintf(out + len, n - len, " outermost%s", sig);
		return;
	}
	if (type == SFRAME_FDE_TYPE_DEFAULT) {
		off = sframe_fre_get_cfa_offset(dctx, fre, type, &err);
		snprintf(cfa, sizeof(cfa), "r%u%+d",
			 sframe_fre_get_base_reg_id(fre, &err) ==
			 SFRAME_BASE_REG_SP ? 7 : 6, off);
		snprintf(ra, sizeof(ra), "*(cfa%+d)",
			 sframe_decoder_get_fixed_ra_offset(dctx));
		err = 0;
		off = sframe_fre_get_fp_offset(dctx, fre, type, &err);
		if (err)
			snprintf(fp, sizeof(fp), "same");
		else
			snprintf(fp, sizeof(fp), "*(cfa%+d)", off);
	} else if (type == SFRAME_FDE_TYPE_FLEX) {
		uint32_t w[6] = { 0 };
		unsigned int i;

		for (i = 0; i < words && i < 6; i++) {
			err = 0;
			w[i] = sframe_get_fre_udata(fre, i, &err);
			if (err) {
				snprintf(out + len, n - len, " bad-word%u", i);
				return;
			}
		}
		/* The getters give the offsets; check ours against them. */
		err = 0;
		off = sframe_fre_get_cfa_offset(dctx, fre, type, &err);
		if (err || off != sext(w[1], size)) {
			snprintf(out + len, n - len, " cfa-offset-mismatch");
			return;
		}
		flex_rule(cfa, sizeof(cfa), w[0], off);
		/* N = 5: w[2] is the padding word, RA at its fixed place. */
		if ((words == 4 || words == 6) && w[2]) {
			err = 0;
			off = sframe_fre_get_ra_offset(dctx, fre, type, &err);
			if (err || off != sext(w[3], size)) {
				snprintf(out + len, n - len, " ra-offset-mismatch");
				return;
			}
			flex_rule(ra, sizeof(ra), w[2], off);
		} else {
			snprintf(ra, sizeof(ra), "*(cfa%+d)",
				 sframe_decoder_get_fixed_ra_offset(dctx));
		}
		if (words >= 5) {
			/* The FP pair is the last one. */
			err = 0;
			off = sframe_fre_get_fp_offset(dctx, fre, type, &err);
			if (err || off != sext(w[words - 1], size)) {
				snprintf(out + len, n - len,
					 " fp-offset-mismatch");
				return;
			}
			flex_rule(fp, sizeof(fp), w[words - 2], off);
		} else {
			snprintf(fp, sizeof(fp), "same");
		}
	} else {
		snprintf(out + len, n - len, " type%u", type);
		return;
	}
	snprintf(out + len, n - len, " cfa=%s ra=%s fp=%s%s", cfa, ra, fp, sig);
}

int main(int argc, char **argv)
{
	uint64_t sf_addr = 0, sf_off = 0, sf_size = 0, lo = UINT64_MAX, hi = 0;
	char cur[160], prev[160] = "";
	sframe_decoder_ctx *dctx;
	sframe_frame_row_entry fre;
	uint64_t ip, run = 0;
	const Elf64_Ehdr *eh;
	const Elf64_Phdr *ph;
	struct fde *fdes;
	uint32_t i, nfdes, a, b;
	struct stat st;
	char *file;
	int fd, err = 0;

	if (argc != 2)
		die("usage: oracle ELF%s", "");
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die("cannot open %s", argv[1]);
	file = malloc(st.st_size);
	if (!file || read(fd, file, st.st_size) != st.st_size)
		die("cannot read %s", argv[1]);
	eh = (const void *)file;
	if ((size_t)st.st_size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(*ph) > (uint64_t)st.st_size)
		die("%s: not a 64-bit ELF file", argv[1]);
	ph = (const void *)(file + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++, ph++) {
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			lo = ph->p_vaddr < lo ? ph->p_vaddr : lo;
			hi = ph->p_vaddr + ph->p_memsz > hi ?
			     ph->p_vaddr + ph->p_memsz : hi;
		}
		if (ph->p_type == PT_GNU_SFRAME) {
			sf_addr = ph->p_vaddr;
			sf_off = ph->p_offset;
			sf_size = ph->p_filesz;
		}
	}
	if (!sf_size || sf_off + sf_size > (uint64_t)st.st_size)
		die("%s: no PT_GNU_SFRAME", argv[1]);

	dctx = sframe_decode(file + sf_off, sf_size, &err);
	printf("sframe %#lx %#lx text %#lx %#lx decode %s\n",
	       (unsigned long)sf_addr, (unsigned long)sf_size,
	       (unsigned long)lo, (unsigned long)hi,
	       dctx ? "ok" : sframe_errmsg(err));
	if (!dctx)
		return 0;

	/* The FDEs as libsframe decodes them, at their text addresses. */
	nfdes = sframe_decoder_get_num_fidx(dctx);
	fdes = calloc(nfdes + 1, sizeof(*fdes));
	for (i = 0; i < nfdes; i++) {
		int64_t start;

		int32_t start2;

		if (sframe_decoder_get_version(dctx) == SFRAME_VERSION_2) {
			/* No FDE types but DEFAULT, no attribute records. */
			err = sframe_decoder_get_funcdesc_v2(dctx, i,
					&fdes[i].num_fres, &fdes[i].size,
					&start2, &fdes[i].info,
					&fdes[i].rep_size);
			start = start2;
		} else {
			err = sframe_decoder_get_funcdesc_v3(dctx, i,
					&fdes[i].num_fres, &fdes[i].size,
					&start, &fdes[i].info, &fdes[i].info2,
					&fdes[i].rep_size);
		}
		if (err)
			die("%s: an FDE that libsframe cannot read", argv[1]);
		/* PCREL: from the FDE's start address field. */
		fdes[i].start = sf_addr + start +
			sframe_decoder_get_offsetof_fde_start_addr(dctx, i, &err);
	}

	for (ip = lo; ip < hi; ip++) {
		/* The FDE: the last one starting at or below ip. */
		a = 0;
		b = nfdes;
		while (a < b) {
			uint32_t m = a + (b - a) / 2;

			if (fdes[m].start <= ip)
				a = m + 1;
			else
				b = m;
		}
		if (!a || ip - fdes[a - 1].start >= fdes[a - 1].size) {
			snprintf(cur, sizeof(cur), "ENOENT");
		} else if (!fdes[a - 1].num_fres) {
			snprintf(cur, sizeof(cur), "fde=%#lx/%#x nofres%s",
				 (unsigned long)fdes[a - 1].start,
				 fdes[a - 1].size,
				 SFRAME_V3_FDE_SIGNAL_P(fdes[a - 1].info) ?
				 " signal" : "");
		} else if (sframe_find_fre(dctx, ip - sf_addr, &fre)) {
			snprintf(cur, sizeof(cur), "ENOENT");
		} else {
			result(cur, sizeof(cur), dctx, &fdes[a - 1], &fre);
		}
		if (strcmp(cur, prev)) {
			if (ip != lo)
				printf("%#lx %#lx %s\n", (unsigned long)run,
				       (unsigned long)ip, prev);
			strcpy(prev, cur);
			run = ip;
		}
	}
	printf("%#lx %#lx %s\n", (unsigned long)run, (unsigned long)hi, prev);
	sframe_decoder_free(&dctx);
	free(fdes);
	free(file);
	return 0;
}
