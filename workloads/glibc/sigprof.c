// SPDX-License-Identifier: GPL-2.0
/*
 * sigprof: the glibc stage's signal case (scripts/glibc-e2e.sh). A
 * SIGPROF handler that spends about half of the process's CPU time, so
 * that many samples land in it and unwind through the handler's return
 * to libc's __restore_rt into the code the signal interrupted, and on to
 * main and _start:
 *
 *   h_leaf <- h_mid <- on_prof <- __restore_rt <- (interrupted) ... <- main
 *
 * where the interrupted code is work(), cmp() called back by libc's lfind,
 * lfind's own code or memset in libc: built against the SFrame C library
 * (scripts/glibc.sh), every frame of it but __restore_rt has SFrame. No
 * recursion (qsort's merge sort would have been one): a chain's functions
 * are one of a few sequences, which the glibc stage compares with dwarf's.
 * Functions are noinline and noclone and use their callee's value (no tail
 * jumps: no frame missing), as in workloads/chain.c.
 *
 * Usage: sigprof [SECONDS]   run for SECONDS of process CPU time (default 2)
 * The interval timer (ITIMER_PROF) fires every 4 ms of the process's CPU
 * time; the handler spins for about 2 ms, measured at start (over 20 ms
 * of spinning, in main: those samples have no signal frame).
 */
#include <search.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define NOINLINE __attribute__((noinline, noclone))
#define INTERVAL_US 4000
#define NVALS 2048
#define ROUNDS_PER_CLOCK 64	/* rounds between two reads of the clock */
#define CALIBRATIONS 5		/* timings of the handler's spins */

static long handler_spins;
static volatile unsigned long handled, signals;
static int vals[NVALS];
static char buf[1 << 16];

NOINLINE long h_leaf(long n)
{
	volatile long acc = 1;
	long i;

	for (i = 0; i < n; i++)
		acc = acc * 6364136223846793005L + i;
	return acc;
}

NOINLINE long h_mid(long n)
{
	volatile long scratch[8];

	scratch[n & 7] = n;
	return h_leaf(n) + scratch[n & 7] + 1;
}

NOINLINE void on_prof(int sig)
{
	handled += h_mid(handler_spins) + sig;
	signals++;
}

NOINLINE int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

NOINLINE long work(unsigned int seed)
{
	volatile long acc = 0;
	size_t n = NVALS;
	int i, key;

	for (i = 0; i < NVALS; i++) {
		seed = seed * 1103515245u + 12345u;
		vals[i] = (int)(seed >> 8);
		acc += vals[i] & 0xff;
	}
	memset(buf, (int)seed, sizeof(buf));
	key = (int)seed;	/* not in vals: lfind looks at all of them */
	acc += lfind(&key, vals, &n, sizeof(vals[0]), cmp) != NULL;
	return acc + vals[seed % NVALS] + buf[seed % sizeof(buf)];
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2.0, t0, t, t1;
	struct itimerval it = { { 0, INTERVAL_US }, { 0, INTERVAL_US } };
	struct sigaction sa = { .sa_handler = on_prof, .sa_flags = SA_RESTART };
	long rounds = 0, probe;
	int i;
	volatile long sink = 0;

	/*
	 * How many spins take half an interval: the handler's share. Timed
	 * over 20 ms at least: a guest's CPU clock can be coarse. Then the
	 * fastest of CALIBRATIONS timings: under a busy host, a vCPU that
	 * does not run can still be charged CPU time, which only ever makes
	 * a timing longer (and so the handler's share smaller).
	 */
	for (probe = 10000;; probe *= 2) {
		t0 = cpu_seconds();
		sink += h_leaf(probe);
		t = cpu_seconds() - t0;
		if (t >= 0.02)
			break;
	}
	for (i = 1; i < CALIBRATIONS; i++) {
		t0 = cpu_seconds();
		sink += h_leaf(probe);
		t1 = cpu_seconds() - t0;
		if (t1 < t)
			t = t1;
	}
	handler_spins = (long)(probe * (INTERVAL_US / 2e6) / t);

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPROF, &sa, NULL) || setitimer(ITIMER_PROF, &it, NULL)) {
		perror("sigprof");
		return 1;
	}
	t0 = cpu_seconds();
	do {
		sink += work((unsigned int)rounds++);
	} while (rounds % ROUNDS_PER_CLOCK || cpu_seconds() - t0 < secs);
	it.it_value.tv_usec = it.it_interval.tv_usec = 0;
	setitimer(ITIMER_PROF, &it, NULL);
	printf("sigprof: %ld rounds, %lu signals handled (%ld spins each), %.2f s CPU\n",
	       rounds, (unsigned long)signals, handler_spins,
	       cpu_seconds() - t0);
	return sink == 42;
}
