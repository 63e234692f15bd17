// SPDX-License-Identifier: GPL-2.0
/*
 * cross: a deep user stack whose frames alternate between the program and
 * a shared library built with frame pointers and without SFrame
 * (bench/cross-lib.c, libcross-fp.so), as a program built with SFrame
 * calls into a distribution's libraries built with frame pointers only and
 * is called back by them (qsort()'s comparator, a main loop's callbacks):
 *
 *   main -> down -> cross_lib -> down -> cross_lib -> ... -> down -> leaf
 *
 * so that a walk leaves the program's text for the library's and comes
 * back, LEVELS / 2 times. For scripts/exp/cross.sh (not make bench).
 * Built twice (workloads/Makefile): cross-sframe (SFrame, no frame
 * pointers) and cross-fp (frame pointers, no SFrame), both with the same
 * library.
 *
 * Usage: cross [-d LEVELS] -n ROUNDS   ROUNDS rounds of LEVELS levels (100)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline, noclone))
#define SPIN 200000L
#define DEPTH 100

long cross_lib(long (*fn)(int, long), int level, long n);

#include "../leaf.h"

NOINLINE long down(int level, long n)
{
	volatile char scratch[64];
	long r;

	scratch[level % 64] = (char)level;
	if (level <= 1)
		r = leaf(n);
	else if (level % 2)
		r = cross_lib(down, level - 1, n);
	else
		r = down(level - 1, n);
	return r + scratch[level % 64];
}

int main(int argc, char **argv)
{
	long rounds = -1, sum = 0, i;
	int depth = DEPTH;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-d") && i + 1 < argc)
			depth = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			rounds = atol(argv[++i]);
		else
			break;
	}
	if (i != argc || rounds < 0 || depth < 1 || depth > DEPTH) {
		fprintf(stderr, "usage: cross [-d 1..%d] -n ROUNDS\n", DEPTH);
		return 2;
	}
	for (i = 0; i < rounds; i++)
		sum += down(depth, SPIN);
	printf("depth %d, %ld rounds (%ld)\n", depth, rounds, sum & 1);
	return 0;
}
