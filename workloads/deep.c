// SPDX-License-Identifier: GPL-2.0
/*
 * deep: a CPU-bound workload with a deep user stack, for the benchmark
 * (scripts/bench.sh).
 *
 *   main -> down -> down -> ... -> down -> leaf   (DEPTH downs; leaf spins)
 *
 * Every down keeps about 200 bytes of locals, so the stack below leaf is
 * DEPTH * ~224 bytes (about 22 KiB for 100): far more than the 8 KiB that
 * perf record --call-graph dwarf copies per sample, so DWARF unwinding in
 * perf stops short of main, while an in-kernel unwinder (frame pointers,
 * SFrame) walks the whole stack. DEPTH stays below perf's default
 * kernel.perf_event_max_stack (127) with room for libc's start code.
 *
 * Built in the three flavours of workloads/Makefile like chain.c. The
 * functions are noinline and noclone, and down uses its callee's return
 * value, so gcc can neither inline the recursion, nor turn it into a loop or
 * a tail jump: every level is a real frame. leaf keeps a stack frame for the
 * frame-pointer flavour (see chain.c).
 *
 * Usage: deep [-d LEVELS] [SECONDS]  run for SECONDS of process CPU time
 *                                    (default 1.5)
 *        deep [-d LEVELS] -n ROUNDS  run exactly ROUNDS rounds (fully
 *                                    deterministic)
 * A round descends LEVELS levels (default DEPTH, 1 to DEPTH) and spins SPIN
 * iterations in leaf; the clock is read in main, between rounds. Prints the
 * depth and the CPU and wall time of the rounds. The benchmark runs two
 * depths to tell the cost of a frame from the cost of a walk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline, noclone))
#define SPIN 200000L	/* leaf iterations per round, as in chain.c */
#ifndef DEPTH
#define DEPTH 100
#endif
#define FRAME 200	/* bytes of locals in every down */

#include "leaf.h"

NOINLINE long down(int level, long n)
{
	volatile char scratch[FRAME];
	long r;

	scratch[level % FRAME] = (char)level;
	if (level <= 1)
		r = leaf(n);
	else
		r = down(level - 1, n);
	return r + scratch[level % FRAME];
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
	int depth = DEPTH;

	if (argc >= 3 && strcmp(argv[1], "-d") == 0) {
		depth = atoi(argv[2]);
		argc -= 2;
		argv += 2;
	}
	if (depth < 1 || depth > DEPTH) {
		fprintf(stderr, "deep: LEVELS must be 1 to %d\n", DEPTH);
		return 2;
	}
	if (argc == 3 && strcmp(argv[1], "-n") == 0)
		fixed = atol(argv[2]);
	else if (argc == 2)
		limit = atof(argv[1]);
	else if (argc != 1) {
		fprintf(stderr, "usage: %s [-d LEVELS] [SECONDS] | [-d LEVELS] -n ROUNDS\n",
			argv[0]);
		return 2;
	}

	cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
	wall0 = seconds(CLOCK_MONOTONIC);
	if (fixed >= 0) {
		for (rounds = 0; rounds < fixed; rounds++)
			sum += down(depth, SPIN);
	} else {
		while (seconds(CLOCK_PROCESS_CPUTIME_ID) < cpu0 + limit) {
			sum += down(depth, SPIN);
			rounds++;
		}
	}
	printf("deep: %ld rounds of %ld at depth %d, %.4f s CPU, %.4f s wall, checksum %lx\n",
	       rounds, SPIN, depth, seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0,
	       seconds(CLOCK_MONOTONIC) - wall0, (unsigned long)sum);
	return 0;
}
