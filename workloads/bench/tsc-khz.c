// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-khz: the frequency of this machine's time stamp counter, in kHz, for
 * the benchmark (scripts/bench.sh). QEMU's TCG gives its guest the host's
 * TSC; a guest that calibrates it against its emulated timers while the
 * host is busy can fail (then its clock falls back to jiffies, 1 ms steps)
 * or be off. bench.sh passes this value as tsc_early_khz= instead.
 *
 *   tsc-khz      prints the kHz, measured against CLOCK_MONOTONIC_RAW over
 *                200 ms (the median of 5 measurements of 40 ms)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	double khz[5], t0, t1;
	unsigned long long c0, c1;
	int i;

	for (i = 0; i < 5; i++) {
		t0 = now();
		c0 = __rdtsc();
		do
			t1 = now();
		while (t1 - t0 < 0.04);
		c1 = __rdtsc();
		khz[i] = (c1 - c0) / (t1 - t0) / 1e3;
	}
	qsort(khz, 5, sizeof(khz[0]), cmp);
	printf("%.0f\n", khz[2]);
	return 0;
}
