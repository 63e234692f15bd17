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

#ifndef PR_ADD_SFRAME
#define PR_ADD_SFRAME		82
#define PR_REMOVE_SFRAME	83
#endif

#define PAGE		4096UL
#define SLOT		64	/* bytes of memory per section, 52 used */
#define CGROUP		"/sys/fs/cgroup"
#define MYCG		CGROUP "/sframe-regs"

/* One section: header, one FDE index entry, its attribute record, one FRE. */
struct section {
	/* header (28 bytes) */
	uint16_t	magic;
	uint8_t		version;
	uint8_t		flags;
	uint8_t		abi_arch;
	int8_t		cfa_fixed_fp_offset;
	int8_t		cfa_fixed_ra_offset;
	uint8_t		auxhdr_len;
	uint32_t	num_fdes;
	uint32_t	num_fres;
	uint32_t	fre_len;
	uint32_t	fdeoff;
	uint32_t	freoff;
	/* FDE index entry (16 bytes) */
	int64_t		func_start_offset;	/* PCREL: from this field */
	uint32_t	func_size;
	uint32_t	func_start_fre_off;
	/* attribute record (5 bytes) */
	uint16_t	fda_num_fres;
	uint8_t		fda_info;	/* 1-byte FRE start offsets, PC type INC */
	uint8_t		fda_info2;	/* DEFAULT FDE */
	uint8_t		fda_rep_size;
	/* FRE (3 bytes): from offset 0, CFA = SP + 8, RA at CFA - 8 */
	uint8_t		fre_start;
	uint8_t		fre_info;
	int8_t		fre_cfa;
} __attribute__((packed));

_Static_assert(sizeof(struct section) == 52, "SFrame V3 layout");
_Static_assert(sizeof(struct section) <= SLOT, "slot size");

static void make_section(struct section *s, unsigned long text)
{
	memset(s, 0, sizeof(*s));
	s->magic = 0xdee2;
	s->version = 3;
	s->flags = 0x1 | 0x4;		/* FDE_SORTED, FDE_FUNC_START_PCREL */
	s->abi_arch = 3;		/* AMD64 LE */
	s->cfa_fixed_ra_offset = -8;
	s->num_fdes = 1;
	s->num_fres = 1;
	s->fre_len = 5 + 3;
	s->fdeoff = 0;
	s->freoff = 16;
	s->func_start_offset = (int64_t)(text - (unsigned long)&s->func_start_offset);
	s->func_size = PAGE;
	s->fda_num_fres = 1;
	s->fre_info = 0x1 | (1 << 1);	/* base SP, N = 1, 1-byte data */
	s->fre_cfa = 8;
}

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
	unsigned long text, secs;
	int have_cg, r;
	long i;

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
		make_section((struct section *)(secs + i * SLOT), text + 2 * i * PAGE);
	have_cg = join_cgroup();

	for (r = 0; r < rounds; r++) {
		long s0, s1, s2, m0, m1;
		double t0, t1, t2;

		s0 = slab_bytes();
		m0 = memcg_slab_bytes(have_cg);
		t0 = now();
		for (i = 0; i < n; i++) {
			unsigned long t = text + 2 * i * PAGE, s = secs + i * SLOT;

			if (prctl(PR_ADD_SFRAME, s, s + sizeof(struct section), t, t + PAGE)) {
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
