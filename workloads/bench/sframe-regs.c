// SPDX-License-Identifier: GPL-2.0
/*
 * sframe-regs: what a registered SFrame section costs the kernel, for the
 * benchmark's registration figures (scripts/bench.sh).
 *
 *   sframe-regs N [ROUNDS]
 *
 * Makes N small, valid SFrame V3 sections (one function of one FRE each)
 * for N one-page text ranges, each followed by a one-page gap, as the text
 * of separate objects would be, then ROUNDS times (default 3): registers
 * all N with prctl(PR_ADD_SFRAME), removes them with PR_REMOVE_SFRAME,
 * and reads the kernel's slab counters before, in between and after. Per
 * round it prints
 *   sframe-regs: N sections, slab +A B/section (-R), memcg slab +M B/section,
 *   add X us, remove Y us per section
 * A and R from /proc/meminfo (Slab, whole pages: hence N in the thousands),
 * M from memory.stat of a cgroup of its own (the registry charges its
 * allocations to the memcg), or "-" where there is no cgroup2 with the
 * memory controller. A kernel without PR_ADD_SFRAME makes it fail.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sframe-format.h"
#include "sframe-gen.h"

#define PAGE		4096UL
#define SLOT		64	/* bytes of memory per section, 53 used */
#define CGROUP		"/sys/fs/cgroup"
#define MYCG		CGROUP "/sframe-regs"

/* The "Slab:" line of /proc/meminfo, in bytes. */
static long slab_bytes(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

/* "slab" of this task's own cgroup's memory.stat, in bytes; -1 without. */
static long memcg_slab_bytes(int have_cg)
{
	char line[256];
	long v = -1, x;
	FILE *f;

	if (!have_cg || !(f = fopen(MYCG "/memory.stat", "r")))
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "slab %ld", &x) == 1)
			v = x;
	fclose(f);
	return v;
}

static int write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fputs(s, f) < 0 ? -1 : 0;
	if (fclose(f))
		ret = -1;
	return ret;
}

/* Move into a cgroup of our own with the memory controller, if possible. */
static int join_cgroup(void)
{
	char pid[32];

	if (write_file(CGROUP "/cgroup.subtree_control", "+memory"))
		return 0;
	if (mkdir(MYCG, 0755) && errno != EEXIST)
		return 0;
	snprintf(pid, sizeof(pid), "%d\n", getpid());
	return write_file(MYCG "/cgroup.procs", pid) == 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0, rounds = argc > 2 ? atol(argv[2]) : 3;
	/* One function of a page, one FRE: CFA = SP + 8, RA at CFA - 8. */
	struct sframe_gen_funcs func = { .size = PAGE, .fres = 1, .count = 1 };
	struct sframe_gen g = { .n = 1, .funcs = &func };
	unsigned long text, secs, len;
	int have_cg, r;
	long i;

	sframe_gen_layout(&g);
	len = g.len;
	if (len > SLOT)
		return 1;
	if (argc < 2 || argc > 3 || n <= 0 || rounds <= 0) {
		fprintf(stderr, "usage: %s N [ROUNDS]\n", argv[0]);
		return 2;
	}
	/* Text ranges of one page with a page of gap after each; not touched. */
	text = (unsigned long)mmap(NULL, 2 * n * PAGE, PROT_READ | PROT_EXEC,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	secs = (unsigned long)mmap(NULL, n * SLOT, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if ((void *)text == MAP_FAILED || (void *)secs == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (i = 0; i < n; i++)
		sframe_gen_write(&g, (uint8_t *)(secs + i * SLOT), text + 2 * i * PAGE);
	have_cg = join_cgroup();

	for (r = 0; r < rounds; r++) {
		long s0, s1, s2, m0, m1;
		double t0, t1, t2;

		s0 = slab_bytes();
		m0 = memcg_slab_bytes(have_cg);
		t0 = now();
		for (i = 0; i < n; i++) {
			unsigned long t = text + 2 * i * PAGE, s = secs + i * SLOT;

			if (prctl(PR_ADD_SFRAME, s, s + len, t, t + PAGE)) {
				fprintf(stderr, "sframe-regs: PR_ADD_SFRAME of section %ld: %s\n",
					i, strerror(errno));
				return 1;
			}
		}
		t1 = now();
		s1 = slab_bytes();
		m1 = memcg_slab_bytes(have_cg);
		for (i = 0; i < n; i++) {
			if (prctl(PR_REMOVE_SFRAME, secs + i * SLOT, 0, 0, 0)) {
				fprintf(stderr, "sframe-regs: PR_REMOVE_SFRAME of section %ld: %s\n",
					i, strerror(errno));
				return 1;
			}
		}
		t2 = now();
		/* Removed sections are freed after an RCU grace period. */
		usleep(200000);
		s2 = slab_bytes();
		printf("sframe-regs: %ld sections, slab %+.1f B/section (%+.1f after removal), ",
		       n, (double)(s1 - s0) / n, (double)(s2 - s0) / n);
		if (m0 >= 0 && m1 >= 0)
			printf("memcg slab %+.1f B/section, ", (double)(m1 - m0) / n);
		else
			printf("memcg slab - B/section, ");
		printf("add %.3f us, remove %.3f us per section\n",
		       (t1 - t0) / n * 1e6, (t2 - t1) / n * 1e6);
	}
	return 0;
}
