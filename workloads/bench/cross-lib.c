// SPDX-License-Identifier: GPL-2.0
/*
 * libcross-fp.so: the library half of bench/cross.c, built with frame
 * pointers and without SFrame: it calls back into the program. Its frame
 * stays a real one (a local in memory, the callee's result used).
 */
#define NOINLINE __attribute__((noinline, noclone))

NOINLINE long cross_lib(long (*fn)(int, long), int level, long n)
{
	volatile char s[32];

	s[level % 32] = (char)level;
	return fn(level, n) + s[level % 32];
}
