// SPDX-License-Identifier: GPL-2.0
/*
 * guesses: the glibc stage's case of code without SFrame, where the kernel
 * guesses (scripts/glibc-e2e.sh). Built against the SFrame C library with
 * SFrame, but for guesses-nosframe.c, built without it (and with frame
 * pointers in its non-leaf function), as code from a library without
 * SFrame would be. Its .eh_frame describes it, so --call-graph dwarf
 * unwinds it exactly, and the glibc stage compares the kernel's chains
 * with dwarf's:
 *
 *   g_leaf <- fp_mid <- g_top <- main   fp_mid: no SFrame, a frame pointer:
 *                                       the frame-pointer guess after an
 *                                       SFrame frame
 *   ns_leaf <- g_top <- main            ns_leaf: no SFrame, a leaf that does
 *                                       not touch the stack, called from
 *                                       code with SFrame: the leaf guess
 *
 * Not here: ns_leaf called from fp_mid. There the leaf guess does not
 * apply (its caller has no SFrame) and the frame-pointer guess in the top
 * frame takes fp_mid's frame for ns_leaf's: the chain misses fp_mid, as
 * frame pointers alone do (README, "The glibc stage").
 *
 * Functions are noinline and noclone and use their callee's value (no tail
 * jumps), as in workloads/chain.c.
 *
 * Usage: guesses [SECONDS]   run for SECONDS of process CPU time (default 2)
 */
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline, noclone))
#define SPIN 20000L

long fp_mid(long n);	/* guesses-nosframe.c */
long ns_leaf(long n);	/* guesses-nosframe.c */

NOINLINE long g_leaf(long n)
{
	volatile long acc = 1;
	long i;

	for (i = 0; i < n; i++)
		acc = acc * 6364136223846793005L + i;
	return acc;
}

NOINLINE long g_top(long n)
{
	volatile long scratch[16];

	scratch[n & 15] = n;
	return fp_mid(n) + ns_leaf(n) + scratch[n & 15] + 1;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2.0, t0 = cpu_seconds();
	volatile long sink = 0;
	long rounds = 0;

	do {
		sink += g_top(SPIN);
	} while (++rounds % 16 || cpu_seconds() - t0 < secs);
	return sink == 42;
}
