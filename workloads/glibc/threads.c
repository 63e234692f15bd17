// SPDX-License-Identifier: GPL-2.0
/*
 * threads: the glibc stage's threaded case (scripts/glibc-e2e.sh). Two
 * threads made with pthread_create spin and sort while main waits for
 * them, so that the samples are the threads' and their chains end where a
 * thread's stack begins, in libc's thread start:
 *
 *   t_leaf <- t_mid <- worker <- start_thread <- __clone3
 *   cmp <- lfind (libc) <- worker <- start_thread <- __clone3
 *
 * Built against the SFrame C library (scripts/glibc.sh): start_thread and
 * __clone3 have SFrame, and __clone3 marks the outermost frame (its
 * return address is undefined after the clone). Functions are noinline
 * and noclone and use their callee's value (no tail jumps), as in
 * workloads/chain.c.
 *
 * Usage: threads [SECONDS]   each thread runs for SECONDS of its own CPU
 *                            time (default 1)
 */
#include <pthread.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline, noclone))
#define NTHREADS 2
#define NVALS 1024
#define SPIN 50000L

static double secs = 1.0;

NOINLINE long t_leaf(long n)
{
	volatile long acc = 1;
	long i;

	for (i = 0; i < n; i++)
		acc = acc * 6364136223846793005L + i;
	return acc;
}

NOINLINE long t_mid(long n)
{
	volatile long scratch[12];

	scratch[n % 12] = n;
	return t_leaf(n) + scratch[n % 12] + 1;
}

NOINLINE int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static double thread_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

NOINLINE void *worker(void *arg)
{
	unsigned int seed = (unsigned int)(long)arg;
	int vals[NVALS];
	long rounds = 0, i;
	size_t n = NVALS;
	int key;
	volatile long sink = 0;
	double t0 = thread_seconds();

	do {
		for (i = 0; i < NVALS; i++) {
			seed = seed * 1103515245u + 12345u;
			vals[i] = (int)(seed >> 8);
		}
		key = (int)seed;	/* not in vals: lfind looks at all of them */
		sink += lfind(&key, vals, &n, sizeof(vals[0]), cmp) != NULL;
		sink += t_mid(SPIN) + vals[seed % NVALS];
		rounds++;
	} while (thread_seconds() - t0 < secs);
	return (void *)(rounds + (sink == 42));
}

int main(int argc, char **argv)
{
	pthread_t t[NTHREADS];
	void *rounds;
	int i;

	if (argc > 1)
		secs = atof(argv[1]);
	for (i = 0; i < NTHREADS; i++) {
		if (pthread_create(&t[i], NULL, worker, (void *)(long)(i + 1))) {
			perror("pthread_create");
			return 1;
		}
	}
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(t[i], &rounds);
		printf("threads: thread %d: %ld rounds\n", i, (long)rounds);
	}
	return 0;
}
