// SPDX-License-Identifier: GPL-2.0
/*
 * Functions whose SFrame rows the real programs that the harness, fuzz and
 * difftest stages read (scripts/sframe-inputs.sh) lack or have few of: a
 * realigned stack (FLEX FDEs with DRAP, CFA = *(rbp - 8)), frames large
 * enough for 2- and 4-byte data words, a function long enough for 2-byte
 * start offsets; samples.S adds an outermost function, a signal trampoline
 * and FLEX rules with other registers. Built twice, with and without frame
 * pointers (CFA based on rbp in the first).
 */
#include <string.h>

int sample_use(char *p, int n);
int sample_outermost(void);

__attribute__((noinline)) int sample_use(char *p, int n)
{
	p[0] = 1;
	return p[n - 1];
}

__attribute__((noinline)) int sample_realign(int n)
{
	char *p = __builtin_alloca(n);
	__attribute__((aligned(64))) char x[64];

	memset(x, n, sizeof(x));
	return sample_use(p, n) + sample_use(x, sizeof(x));
}

__attribute__((noinline)) int sample_frame_2k(int n)
{
	char buf[2000];

	memset(buf, n, sizeof(buf));
	return sample_use(buf, sizeof(buf));
}

__attribute__((noinline)) int sample_frame_100k(int n)
{
	char buf[100000];

	memset(buf, n, sizeof(buf));
	return sample_use(buf, sizeof(buf));
}

/* Unrolled into a few hundred bytes of code, with calls between. */
__attribute__((noinline)) int sample_long(int n)
{
	char buf[64];
	int i, s = 0;

#pragma GCC unroll 64
	for (i = 0; i < 64; i++) {
		buf[i] = n + i;
		s += sample_use(buf, i + 1) * i;
	}
	return s;
}

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 5)
		return sample_outermost();
	return sample_realign(argc + 10) + sample_frame_2k(argc) +
	       sample_frame_100k(argc) + sample_long(argc);
}
