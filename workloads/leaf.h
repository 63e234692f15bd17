/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The spinning leaf of the workloads (chain.c, deep.c, bench/cross.c): n
 * iterations, in a real frame of its own. NOINLINE: the includer's;
 * LEAF_MARK(), if the includer defines it, runs after the loop (chain.c's
 * USDT marker).
 */
#ifndef WORKLOADS_LEAF_H
#define WORKLOADS_LEAF_H

#ifndef LEAF_MARK
#define LEAF_MARK() do { } while (0)
#endif

NOINLINE long leaf(long n)
{
	volatile long acc = 1;	/* in memory: leaf keeps a stack frame */
	volatile char pad[24];
	long i;

	pad[0] = (char)n;
	for (i = 0; i < n; i++)
		acc = acc * 6364136223846793005L + i + pad[0];
	LEAF_MARK();
	return acc;
}

#endif
