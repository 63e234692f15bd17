// SPDX-License-Identifier: GPL-2.0
/*
 * sframe-scale: SFrame lookups in a big section, in the kernel (issue 9
 * item 2; scripts/bench-scaling.sh --kernel runs it under perf in the guest).
 *
 *   sframe-scale FDES DEPTH SECONDS
 *
 * Maps a text range of FDES functions laid end to end, 16 to 1023 bytes
 * each, builds their SFrame V3 section (one FRE a function: CFA = SP + 8,
 * the return address at CFA - 8), the same as scripts/sframe/scale.c's
 * FDES:1 (sframe-gen.h writes both), and registers it with prctl(PR_ADD_SFRAME). Then it spins for SECONDS s
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

#include "sframe-format.h"
#include "sframe-gen.h"

int main(int argc, char **argv)
{
	unsigned long fdes, depth, secs, text_len, len, i, j, f;
	struct sframe_gen g;
	uint64_t *stack;
	uint8_t *text, *sec, *spin;

	if (argc != 4) {
		fprintf(stderr, "usage: sframe-scale FDES DEPTH SECONDS\n");
		return 2;
	}
	fdes = strtoul(argv[1], NULL, 0);
	depth = strtoul(argv[2], NULL, 0);
	secs = strtoul(argv[3], NULL, 0);
	if (!fdes || !depth || !secs)
		return 2;

	/* scale.c's section of FDES functions of one FRE. */
	if (sframe_gen_random(&g, fdes, 1, 0))
		return 1;
	stack = malloc((depth + 2) * sizeof(*stack));
	if (sframe_gen_map(&g, &text, &sec) || !stack) {
		perror("sframe-scale: mmap");
		return 1;
	}
	text_len = g.text_len;
	len = g.len;

	/* jmp . at a random place of a random function. */
	i = sframe_gen_rng() % fdes;
	for (f = 0, j = 0; j < i; j++)
		f += g.funcs[j].size;
	spin = text + f + sframe_gen_rng() % (g.funcs[i].size - 1);
	spin[0] = 0xeb;
	spin[1] = 0xfe;

	for (i = 0; i < depth; i++)
		stack[i] = (unsigned long)text + 1 + sframe_gen_rng() % (text_len - 1);
	stack[depth] = 0;
	stack[depth + 1] = 0;

	if (prctl(PR_ADD_SFRAME, (unsigned long)sec, (unsigned long)sec + len,
		  (unsigned long)text, (unsigned long)text + text_len)) {
		perror("sframe-scale: prctl(PR_ADD_SFRAME)");
		return 1;
	}
	printf("sframe-scale: %lu FDEs, text %lu bytes at %#lx, section %lu bytes, depth %lu\n",
	       fdes, text_len, (unsigned long)text, len, depth);
	fflush(stdout);

	signal(SIGALRM, SIG_DFL);
	alarm(secs);
	asm volatile("mov %0, %%rsp\n\tjmp *%1"
		     : : "r" (stack), "r" (spin) : "memory");
	__builtin_unreachable();
}
