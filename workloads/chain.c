// SPDX-License-Identifier: GPL-2.0
/*
 * chain: a CPU-bound workload with a fixed call chain for profiler checks.
 *
 *   main -> top -> mid1 -> mid2 -> leaf   (leaf spins)
 *
 * Built in three flavours by workloads/Makefile: frame pointers (-fp),
 * SFrame V3 without frame pointers (-sframe), and neither (-nofp). A
 * profiler that unwinds the user stack correctly sees every sample taken in
 * leaf with the complete chain leaf, mid2, mid1, top, main.
 *
 * Every function is noinline and noclone (so the symbols keep their names)
 * and uses its callee's return value (so gcc cannot turn a call into a tail
 * jump, which would drop a frame). The functions keep stack frames of
 * different sizes, so an unwinder that guesses a fixed frame layout fails.
 * leaf keeps a frame too: gcc 16 gives a leaf without a stack frame no frame
 * pointer even with -mno-omit-leaf-frame-pointer, which would drop mid2
 * from every frame-pointer sample taken in leaf.
 * leaf ends with a USDT marker, sdt_chain:leaf_done (workloads/sdt.h), for
 * the e2e stage's probes.
 *
 * Usage: chain [SECONDS]   run for SECONDS of process CPU time (default 1.5)
 *        chain -n ROUNDS   run exactly ROUNDS rounds (fully deterministic)
 * The clock is read in main, between rounds, so leaf never leaves the chain.
 * Prints the CPU and wall time of the rounds (the benchmark's cost figure).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sdt.h"

#define NOINLINE __attribute__((noinline, noclone))
#define SPIN 200000L	/* leaf iterations per round: well under 1 ms */

/* In leaf's middle: the e2e stage probes it (perf probe sdt_chain:leaf_done). */
#define LEAF_MARK() SDT_MARKER(chain, leaf_done)
#include "leaf.h"

NOINLINE long mid2(long n)
{
	volatile long scratch[6];	/* 48 bytes */

	scratch[n & 3] = n;
	return leaf(n) + scratch[n & 3] + 1;
}

NOINLINE long mid1(long n)
{
	volatile long scratch[30];	/* 240 bytes */

	scratch[n % 30] = n;
	return mid2(n) + scratch[n % 30] + 2;
}

NOINLINE long top(long n)
{
	volatile char scratch[1000];	/* about 1 KiB */

	memset((char *)scratch, (int)n, sizeof(scratch));
	return mid1(n) + scratch[n % 1000] + 3;
}

static double seconds(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long rounds = 0, fixed = -1, sum = 0;
	double limit = 1.5, cpu0, wall0;

	if (argc == 3 && strcmp(argv[1], "-n") == 0)
		fixed = atol(argv[2]);
	else if (argc == 2)
		limit = atof(argv[1]);
	else if (argc != 1) {
		fprintf(stderr, "usage: %s [SECONDS] | -n ROUNDS\n", argv[0]);
		return 2;
	}

	cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
	wall0 = seconds(CLOCK_MONOTONIC);
	if (fixed >= 0) {
		for (rounds = 0; rounds < fixed; rounds++)
			sum += top(SPIN);
	} else {
		while (seconds(CLOCK_PROCESS_CPUTIME_ID) < cpu0 + limit) {
			sum += top(SPIN);
			rounds++;
		}
	}
	printf("chain: %ld rounds of %ld, %.4f s CPU, %.4f s wall, checksum %lx\n",
	       rounds, SPIN, seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0,
	       seconds(CLOCK_MONOTONIC) - wall0, (unsigned long)sum);
	return 0;
}
