// SPDX-License-Identifier: GPL-2.0
/*
 * arm64-chains: the arm64 guest's end-to-end sampler (perf does not run in
 * that guest).  Run by scripts/arm64-init.c as
 *
 *   arm64-chains PROGRAM [ARG]...
 *
 * it forks, opens a perf event on the child with the attributes of the
 * series' kselftests (sframe_perf.h's perf_attr_init(): user mode only,
 * PERF_SAMPLE_IP | TID | CALLCHAIN, defer_callchain and defer_output: every
 * sample names a PERF_RECORD_CALLCHAIN_DEFERRED record by its cookie),
 * task-clock every SAMPLE_PERIOD_NS of the child's CPU time, enabled on
 * exec, and lets the child exec PROGRAM.  It reads the ring while PROGRAM
 * runs, stitches each sample to its deferred user callchain and prints, on
 * stdout (the console), what scripts/arm64-chains.py checks on the host:
 *
 *   pauth yes|no                 pointer authentication (AT_HWCAP PACA)
 *   map LINE                     PROGRAM's /proc/PID/maps, read while it runs
 *   mmap ADDR LEN PGOFF FILE     an executable mapping of PROGRAM's, from the
 *                                event's PERF_RECORD_MMAP2 records (hex):
 *                                every one from the exec on (the event is
 *                                enabled before the program and its
 *                                interpreter are mapped), also the shared
 *                                libraries that it maps after the maps were
 *                                read
 *   chain COUNT IP IP...         one line per distinct stitched chain, hex,
 *                                innermost first (the sampled IP, then
 *                                return addresses as the kernel gave them),
 *                                COUNT samples had it
 *   nochain COUNT IP             samples whose deferred chain never came
 *   stats samples N deferred N lost N mismatched N exit N
 *
 * mismatched: deferred chains whose first IP is not the sample's IP.  The
 * chains are printed aggregated, so that the console carries little; the
 * host symbolizes each address through the mapping it is in (a dynamic
 * program's).  Exits non-zero when the event cannot be opened or PROGRAM
 * fails.
 *
 *   arm64-chains --bench PROGRAM [ARG]...
 *
 * is make bench's (scripts/arm64-init.c's sframe.bench=1): every
 * BENCH_PERIOD_NS of task clock (999 Hz, as x86's perf record -F 999), no
 * mappings, no chains, only the counts, with the frames of all deferred
 * callchains (their nr added up: what x86's bench counts in perf.data):
 *
 *   stats samples N deferred N lost N mismatched N frames N exit N
 */
/* As the kselftests are built (lib.mk); sframe_perf.h needs dladdr1(). */
#define _GNU_SOURCE
/* sframe_perf.h brings kselftest_harness.h along: its runner is not used. */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-variable"
#include "sframe_perf.h"

#include <poll.h>
#include <signal.h>
#include <sys/auxv.h>
#include <sys/wait.h>

#ifndef HWCAP_PACA
#define HWCAP_PACA	(1UL << 30)
#endif

#define BENCH_PERIOD_NS	1001001	/* 999 Hz */
#define CHAIN_FRAMES	64	/* deeper chains are cut (and then incomplete) */
#define MAX_CHAINS	4096	/* distinct chains */
#define MAX_PENDING	4096	/* samples waiting for their deferred chain */

struct chain {
	unsigned long	count;
	unsigned int	nr;
	__u64		ips[CHAIN_FRAMES];
};

static struct chain chains[MAX_CHAINS];
static unsigned int nr_chains, dropped_chains;
static struct sample pending[MAX_PENDING];
static unsigned int nr_pending;
static unsigned long nr_samples, nr_deferred, nr_lost, nr_mismatched, nr_mmaps;
static unsigned long nr_frames;
static int bench;

static void add_chain(const __u64 *ips, unsigned int nr)
{
	unsigned int i;

	if (nr > CHAIN_FRAMES)
		nr = CHAIN_FRAMES;
	for (i = 0; i < nr_chains; i++)
		if (chains[i].nr == nr &&
		    !memcmp(chains[i].ips, ips, nr * sizeof(*ips))) {
			chains[i].count++;
			return;
		}
	if (nr_chains == MAX_CHAINS) {
		dropped_chains++;
		return;
	}
	chains[nr_chains].count = 1;
	chains[nr_chains].nr = nr;
	memcpy(chains[nr_chains].ips, ips, nr * sizeof(*ips));
	nr_chains++;
}

/* Read what the ring holds; returns -1 on a record it cannot take. */
static int drain(struct ring *r, pid_t child)
{
	union {
		struct perf_event_header hdr;
		__u64 u[8192];
	} rec;
	__u64 head, tail, *u = rec.u + 1;
	unsigned int i, j;

	head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	tail = r->meta->data_tail;
	while (tail < head) {
		ring_read(r, tail, &rec.hdr, sizeof(rec.hdr));
		if (rec.hdr.size < sizeof(rec.hdr) || rec.hdr.size > sizeof(rec)) {
			printf("error a record of size %u\n", rec.hdr.size);
			return -1;
		}
		ring_read(r, tail, &rec, rec.hdr.size);
		tail += rec.hdr.size;

		switch (rec.hdr.type) {
		case PERF_RECORD_SAMPLE:
			/* ip, pid/tid, nr, ips[nr]: nr 2, the marker and the cookie */
			if (rec.hdr.size != sizeof(rec.hdr) + 5 * 8 || u[2] != 2 ||
			    u[3] != PERF_CONTEXT_USER_DEFERRED) {
				printf("error a sample without a deferred callchain (size %u)\n",
				       rec.hdr.size);
				return -1;
			}
			nr_samples++;
			if (nr_pending == MAX_PENDING) {
				printf("error more than %d samples wait for their chains\n",
				       MAX_PENDING);
				return -1;
			}
			pending[nr_pending].ip = u[0];
			pending[nr_pending].cookie = u[4];
			nr_pending++;
			break;
		case PERF_RECORD_CALLCHAIN_DEFERRED:
			/* cookie, nr, ips[nr], sample_id (pid/tid) */
			if (rec.hdr.size < sizeof(rec.hdr) + 3 * 8 ||
			    rec.hdr.size != sizeof(rec.hdr) + (3 + u[1]) * 8) {
				printf("error a deferred callchain's size does not match its nr\n");
				return -1;
			}
			if ((pid_t)(u[2 + u[1]] >> 32) != child)
				break;
			nr_deferred++;
			nr_frames += u[1];
			for (i = j = 0; i < nr_pending; i++) {
				if (pending[i].cookie != u[0]) {
					pending[j++] = pending[i];
					continue;
				}
				if (!u[1] || u[2] != pending[i].ip)
					nr_mismatched++;
				if (!bench)
					add_chain(u + 2, u[1]);
			}
			nr_pending = j;
			break;
		case PERF_RECORD_MMAP2: {
			/*
			 * pid, tid; addr, len, pgoff; maj, min; ino;
			 * ino_generation; prot, flags; filename: attr.mmap
			 * gives executable mappings only.
			 */
			const __u32 *w = (const __u32 *)u;
			const char *file = (const char *)(u + 8);
			size_t max = rec.hdr.size - sizeof(rec.hdr) - 8 * 8;

			if (rec.hdr.size < sizeof(rec.hdr) + 9 * 8 ||
			    (pid_t)w[0] != child)
				break;
			printf("mmap %llx %llx %llx %.*s\n",
			       (unsigned long long)u[1], (unsigned long long)u[2],
			       (unsigned long long)u[3], (int)strnlen(file, max), file);
			nr_mmaps++;
			break;
		}
		case PERF_RECORD_LOST:
			nr_lost += u[1];
			break;
		}
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
	return 0;
}

static int print_maps(pid_t pid)
{
	char path[64], line[512];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		printf("map %s", line);
		n++;
	}
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	unsigned long pg = sysconf(_SC_PAGESIZE);
	struct ring r = { .fd = -1 };
	int go[2], status = 0, maps = 0, rc = 0;
	unsigned int i, k;
	pid_t child;
	void *map;

	if (argc > 1 && !strcmp(argv[1], "--bench")) {
		bench = 1;
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: %s [--bench] PROGRAM [ARG]...\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	printf("pauth %s\n", getauxval(AT_HWCAP) & HWCAP_PACA ? "yes" : "no");

	if (pipe(go))
		return 1;
	child = fork();
	if (child < 0)
		return 1;
	if (!child) {
		char c;

		close(go[1]);
		/* Wait until the event is open, then exec: it starts there. */
		if (read(go[0], &c, 1) != 1)
			_exit(125);
		execv(argv[1], argv + 1);
		fprintf(stderr, "execv %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	close(go[0]);

	perf_attr_init(&attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.sample_period = bench ? BENCH_PERIOD_NS : SAMPLE_PERIOD_NS;
	attr.enable_on_exec = 1;
	/* The executable mappings: what a dynamic program maps where. */
	attr.mmap = !bench;
	attr.mmap2 = !bench;
	r.fd = syscall(__NR_perf_event_open, &attr, child, -1, -1,
		       PERF_FLAG_FD_CLOEXEC);
	if (r.fd < 0) {
		printf("error perf_event_open: %s\n", strerror(errno));
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		fflush(stdout);
		return 1;
	}
	r.size = RING_PAGES * pg;
	map = mmap(NULL, r.size + pg, PROT_READ | PROT_WRITE, MAP_SHARED, r.fd, 0);
	if (map == MAP_FAILED) {
		printf("error mmap of the ring: %s\n", strerror(errno));
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		fflush(stdout);
		return 1;
	}
	r.meta = map;
	r.data = (char *)map + pg;
	if (write(go[1], "x", 1) != 1)
		return 1;
	close(go[1]);

	for (;;) {
		pid_t w = waitpid(child, &status, WNOHANG);

		if (w == child || w < 0)
			break;
		/* PROGRAM's maps, once it runs (it took a sample). */
		if (!maps && nr_samples && !bench)
			maps = print_maps(child);
		if (drain(&r, child)) {
			kill(child, SIGKILL);
			waitpid(child, &status, 0);
			rc = 1;
			break;
		}
		usleep(20000);
	}
	if (!rc && drain(&r, child))
		rc = 1;
	if (bench) {
		printf("stats samples %lu deferred %lu lost %lu mismatched %lu frames %lu exit %d\n",
		       nr_samples, nr_deferred, nr_lost, nr_mismatched, nr_frames,
		       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		fflush(stdout);
		return rc || !WIFEXITED(status) || WEXITSTATUS(status);
	}
	if (!maps)
		printf("error no maps of PROGRAM were read while it ran\n");

	for (i = 0; i < nr_chains; i++) {
		printf("chain %lu", chains[i].count);
		for (k = 0; k < chains[i].nr; k++)
			printf(" %llx", (unsigned long long)chains[i].ips[k]);
		printf("\n");
	}
	for (i = 0; i < nr_pending; i++)
		printf("nochain 1 %llx\n", (unsigned long long)pending[i].ip);
	if (dropped_chains)
		printf("error %u chains beyond the first %d distinct ones were not kept\n",
		       dropped_chains, MAX_CHAINS);
	printf("stats samples %lu deferred %lu lost %lu mismatched %lu mmaps %lu exit %d\n",
	       nr_samples, nr_deferred, nr_lost, nr_mismatched, nr_mmaps,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	fflush(stdout);
	if (rc || !maps || dropped_chains || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	return 0;
}
