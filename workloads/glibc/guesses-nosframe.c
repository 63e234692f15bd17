// SPDX-License-Identifier: GPL-2.0
/*
 * The part of workloads/glibc/guesses.c built without SFrame (no
 * -Wa,--gsframe-3) and with frame pointers but in leaves
 * (-fno-omit-frame-pointer -momit-leaf-frame-pointer): fp_mid keeps a
 * frame pointer, ns_leaf is a leaf that never touches the stack (its
 * accumulator stays in a register), as string functions of a C library
 * without SFrame are. workloads/Makefile checks both. guesses.c's g_top
 * calls both.
 */
#define NOINLINE __attribute__((noinline, noclone))

long g_leaf(long n);	/* guesses.c, with SFrame */

NOINLINE long ns_leaf(long n)
{
	long acc = 1, i;

	for (i = 0; i < n; i++) {
		acc = acc * 6364136223846793005L + i;
		__asm__ volatile("" : "+r"(acc));
	}
	return acc;
}

NOINLINE long fp_mid(long n)
{
	return g_leaf(n) + 1;
}
