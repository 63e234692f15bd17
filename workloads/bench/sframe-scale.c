// SPDX-License-Identifier: GPL-2.0
/*
 * sframe-scale: SFrame lookups in a big section, in the kernel (issue 9
 * item 2; scripts/bench-scaling.sh --kernel runs it under perf in the guest).
 *
 *   sframe-scale FDES DEPTH SECONDS
 *
 * Maps a text range of FDES functions laid end to end, 16 to 1023 bytes
 * each (the sizes of scripts/sframe/scale.c), builds their SFrame V3
 * section (one FRE a function: CFA = SP + 8, the return address at CFA - 8)
 * and registers it with prctl(PR_ADD_SFRAME). Then it spins for SECONDS s
 * (SIGALRM ends it) in a "jmp ." written into one of the functions, with
 * the stack pointer on a made-up stack of DEPTH return addresses, random
 * IPs in the text, and a 0 that ends the chain: every deferred walk of a
 * sample there looks up DEPTH + 1 IPs in the section (the spin's, then
 * each return address less one), DEPTH + 1 frames. Prints first
 *   sframe-scale: FDES FDEs, text T bytes, section S bytes, depth DEPTH
 * A kernel without PR_ADD_SFRAME makes it fail.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#ifndef PR_ADD_SFRAME
#define PR_ADD_SFRAME		82
#endif

struct header {
	uint16_t	magic;
	uint8_t		version;
	uint8_t		flags;
	uint8_t		abi_arch;
	int8_t		cfa_fixed_fp_offset;
	int8_t		cfa_fixed_ra_offset;
	uint8_t		auxhdr_len;
	uint32_t	num_fdes;
	uint32_t	num_fres;
	uint32_t	fre_len;
	uint32_t	fdeoff;
	uint32_t	freoff;
} __attribute__((packed));

struct fde {
	int64_t		func_start_offset;	/* PCREL: from this field */
	uint32_t	func_size;
	uint32_t	func_start_fre_off;
} __attribute__((packed));

/* Attribute record and its one FRE: ADDR1 start 0, info, one 1-byte word. */
struct fda_fre {
	uint16_t	num_fres;
	uint8_t		info;
	uint8_t		info2;
	uint8_t		rep_size;
	uint8_t		fre_start;
	uint8_t		fre_info;
	int8_t		cfa_offset;
} __attribute__((packed));

/* FRE info: CFA based on SP (bit 0), one data word (N = 1), of 1 byte. */
#define FRE_INFO_SP_N1		(1 | 1 << 1)

static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

int main(int argc, char **argv)
{
	unsigned long fdes, depth, secs, text_len = 0, len, i, j;
	struct header *h;
	struct fde *fde;
	struct fda_fre *fre;
	uint32_t *size;
	uint64_t *stack;
	uint8_t *text, *sec, *spin;
	unsigned long f;

	if (argc != 4) {
		fprintf(stderr, "usage: sframe-scale FDES DEPTH SECONDS\n");
		return 2;
	}
	fdes = strtoul(argv[1], NULL, 0);
	depth = strtoul(argv[2], NULL, 0);
	secs = strtoul(argv[3], NULL, 0);
	if (!fdes || !depth || !secs)
		return 2;

	/* The sizes that scale.c gives a 1-FRE section of FDES functions. */
	rng_state = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)fdes << 32) ^ 1;
	size = malloc(fdes * sizeof(*size));
	if (!size)
		return 1;
	for (i = 0; i < fdes; i++) {
		size[i] = 16 + rng() % 1008;
		text_len += size[i];
	}

	text = mmap(NULL, text_len, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	len = sizeof(*h) + fdes * (sizeof(*fde) + sizeof(*fre));
	sec = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	stack = malloc((depth + 2) * sizeof(*stack));
	if (text == MAP_FAILED || sec == MAP_FAILED || !stack) {
		perror("sframe-scale: mmap");
		return 1;
	}

	h = (struct header *)sec;
	*h = (struct header){
		.magic = 0xdee2, .version = 3, .flags = 0x5, .abi_arch = 3,
		.cfa_fixed_ra_offset = -8, .num_fdes = fdes, .num_fres = fdes,
		.fre_len = fdes * sizeof(*fre), .fdeoff = 0,
		.freoff = fdes * sizeof(*fde),
	};
	fde = (struct fde *)(h + 1);
	fre = (struct fda_fre *)(fde + fdes);
	for (i = 0, f = (unsigned long)text; i < fdes; f += size[i], i++) {
		struct fde e = {
			.func_start_offset = (int64_t)(f - (unsigned long)&fde[i]),
			.func_size = size[i],
			.func_start_fre_off = i * sizeof(*fre),
		};
		struct fda_fre r = {
			.num_fres = 1, .info = 0 /* ADDR1 */, .info2 = 0 /* DEFAULT */,
			.fre_start = 0, .fre_info = FRE_INFO_SP_N1, .cfa_offset = 8,
		};

		memcpy(&fde[i], &e, sizeof(e));
		memcpy(&fre[i], &r, sizeof(r));
	}

	/* jmp . at a random place of a random function. */
	i = rng() % fdes;
	for (f = 0, j = 0; j < i; j++)
		f += size[j];
	spin = text + f + rng() % (size[i] - 1);
	spin[0] = 0xeb;
	spin[1] = 0xfe;

	for (i = 0; i < depth; i++)
		stack[i] = (unsigned long)text + 1 + rng() % (text_len - 1);
	stack[depth] = 0;
	stack[depth + 1] = 0;

	if (prctl(PR_ADD_SFRAME, (unsigned long)sec, (unsigned long)sec + len,
		  (unsigned long)text, (unsigned long)text + text_len)) {
		perror("sframe-scale: prctl(PR_ADD_SFRAME)");
		return 1;
	}
	printf("sframe-scale: %lu FDEs, text %lu bytes, section %lu bytes, depth %lu\n",
	       fdes, text_len, len, depth);
	fflush(stdout);

	signal(SIGALRM, SIG_DFL);
	alarm(secs);
	asm volatile("mov %0, %%rsp\n\tjmp *%1"
		     : : "r" (stack), "r" (spin) : "memory");
	__builtin_unreachable();
}
