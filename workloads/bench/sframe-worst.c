// SPDX-License-Identifier: GPL-2.0
/*
 * sframe-worst: the most work per sample for the kernel's SFrame unwinder
 * (issue 8, worst case; scripts/bench-scaling.sh --worst runs it under perf
 * in the guest).
 *
 *   sframe-worst DEPTH FUNCS[:FILLER] SECONDS
 *
 * Maps FUNCS functions of 65536 bytes each with 65535 FREs each (the most
 * a function may have: one every byte, ADDR2 starts), and after them a
 * small function of one FRE that holds the spin loop, and registers their
 * SFrame V3 section with prctl(PR_ADD_SFRAME). Every FRE says CFA = SP + 8,
 * the return address at CFA - 8, so the walk goes up a made-up stack of
 * DEPTH return addresses and a 0. The spin loop (no stack use, registers
 * only) rewrites those return addresses continuously with random addresses
 * inside the big functions, at offsets below 2 * 32768 / DEPTH (at most
 * 65533): a lookup at offset OFF reads OFF + 2 FREs, on average about
 * 32768 / DEPTH, so the walk's budget (SFRAME_MAX_WALK_FRES, 32768 FREs)
 * runs out around the end of the stack, and with 2^16 * FUNCS possible
 * return addresses the section's cache (16 entries) misses on almost every
 * frame. FILLER more functions of 16 bytes and one FRE each (none by
 * default) come after the spin loop's: they make the binary search of
 * every lookup longer (20 probes for 10^6) and the cache bigger (256
 * entries, against 2^16 * FUNCS return addresses). SIGALRM ends it after
 * SECONDS s. Prints first
 *   sframe-worst: FUNCS functions x 65535 FREs + FILLER, text T bytes, section S bytes, depth DEPTH, lookups at offsets LO..HI
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

#define FUNC_SIZE	65536UL
#define FUNC_FRES	65535U
#define WALK_FRES	32768UL		/* SFRAME_MAX_WALK_FRES */
#define LOOP_SIZE	256U
#define FILL_SIZE	16U

/*
 * The spin loop, copied into the registered text: rdi = the stack, rsi =
 * DEPTH, rbx = xorshift state, rcx = the text, r8 = FUNCS, r9 = span, r10 =
 * the lowest return address offset. Forever: stack[i] = text +
 * (r % FUNCS) * 65536 + r10 + (r >> 20) % span, i = 0 .. DEPTH - 1.
 */
extern const unsigned char worst_loop[], worst_loop_end[];
asm(".pushsection .rodata\n"
    "worst_loop:\n"
    "0:	xor %r11d, %r11d\n"
    "1:	mov %rbx, %rax\n	shr $12, %rax\n	xor %rax, %rbx\n"
    "	mov %rbx, %rax\n	shl $25, %rax\n	xor %rax, %rbx\n"
    "	mov %rbx, %rax\n	shr $27, %rax\n	xor %rax, %rbx\n"
    "	mov %rbx, %rax\n	xor %edx, %edx\n	div %r8\n"
    "	mov %rdx, %r12\n	shl $16, %r12\n"
    "	mov %rbx, %rax\n	shr $20, %rax\n	xor %edx, %edx\n	div %r9\n"
    "	add %r10, %rdx\n	add %rcx, %rdx\n	add %r12, %rdx\n"
    "	mov %rdx, (%rdi,%r11,8)\n"
    "	inc %r11\n	cmp %rsi, %r11\n	jb 1b\n"
    "	jmp 0b\n"
    "worst_loop_end:\n"
    ".popsection\n");

int main(int argc, char **argv)
{
	unsigned long depth, funcs, secs, fill = 0, text_len, len, i, mean, lo, span;
	struct sframe_gen_funcs runs[3];
	struct sframe_gen g = { .n = 3, .funcs = runs };
	uint8_t *text, *sec;
	uint64_t *stack;
	char *end;

	if (argc != 4) {
		fprintf(stderr, "usage: sframe-worst DEPTH FUNCS[:FILLER] SECONDS\n");
		return 2;
	}
	depth = strtoul(argv[1], NULL, 0);
	funcs = strtoul(argv[2], &end, 0);
	if (*end == ':')
		fill = strtoul(end + 1, NULL, 0);
	secs = strtoul(argv[3], NULL, 0);
	if (!depth || !funcs || funcs > 4096 || !secs || fill > 10000000 ||
	    worst_loop_end - worst_loop > LOOP_SIZE)
		return 2;

	/* Return address offsets lo + 1 .. lo + span (lookups at lo .. lo + span - 1). */
	mean = (WALK_FRES + depth - 1) / depth;
	if (2 * mean >= FUNC_FRES - 1) {
		span = FUNC_FRES - 1 - mean;	/* every lookup ends the walk */
		lo = mean;
	} else {
		span = 2 * mean;
		lo = 0;
	}

	/* FUNCS big functions, the spin loop's, FILLER small ones. */
	runs[0] = (struct sframe_gen_funcs){ FUNC_SIZE, FUNC_FRES, funcs };
	runs[1] = (struct sframe_gen_funcs){ LOOP_SIZE, 1, 1 };
	runs[2] = (struct sframe_gen_funcs){ FILL_SIZE, 1, fill };
	stack = calloc(depth + 2, sizeof(*stack));
	if (sframe_gen_map(&g, &text, &sec) || !stack) {
		perror("sframe-worst: mmap");
		return 1;
	}
	text_len = g.text_len;
	len = g.len;
	memset(text, 0xcc, text_len);
	memcpy(text + funcs * FUNC_SIZE, worst_loop, worst_loop_end - worst_loop);

	for (i = 0; i < depth; i++)
		stack[i] = (unsigned long)text + lo + 1 + i % span;

	if (prctl(PR_ADD_SFRAME, (unsigned long)sec, (unsigned long)sec + len,
		  (unsigned long)text, (unsigned long)text + text_len)) {
		perror("sframe-worst: prctl(PR_ADD_SFRAME)");
		return 1;
	}
	printf("sframe-worst: %lu functions x %u FREs + %lu, text %lu bytes at %#lx, section %lu bytes, depth %lu, lookups at offsets %lu..%lu\n",
	       funcs, FUNC_FRES, fill, text_len, (unsigned long)text, len, depth,
	       lo, lo + span - 1);
	fflush(stdout);

	signal(SIGALRM, SIG_DFL);
	alarm(secs);
	{
		register unsigned long r8 asm("r8") = funcs;
		register unsigned long r9 asm("r9") = span;
		register unsigned long r10 asm("r10") = lo + 1;

		asm volatile("mov %0, %%rsp\n\tjmp *%1"
			     : : "r" (stack), "r" (text + funcs * FUNC_SIZE),
			       "D" (stack), "S" (depth), "b" (0x9e3779b97f4a7c15ULL),
			       "c" (text), "r" (r8), "r" (r9), "r" (r10)
			     : "memory");
	}
	__builtin_unreachable();
}
