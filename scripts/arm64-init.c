// SPDX-License-Identifier: GPL-2.0
/*
 * PID 1 of the arm64 guest (scripts/arm64-guest.sh): no shell, no udev, no
 * shared file system, only the console.  It mounts what the kselftests
 * need, runs each program of /kselftest-list.txt from /sframe, one after the
 * other, each with its own time limit, and prints on the console what the
 * host splits into the files of the x86 guest stage:
 *
 *   "#== begin NAME" ... "#== end NAME"   NAME's own TAP (kselftest/NAME)
 *   "#== tap" ... "#== tap end"           one result a program, as
 *                                         run_kselftest.sh prints them
 *                                         (kselftest.tap)
 *
 * Then the end-to-end check of the chains: for each line "NAME" of
 * /chains/list, /chains/arm64-chains (scripts/arm64-chains.c) samples
 * /chains/NAME run for sframe.chains=SECONDS of CPU time (default 2); for
 * a line "NAME PROGRAM ARG..." (words split at spaces: the real program,
 * whose workload is fixed), PROGRAM run with those ARGs, in /chains.  It
 * prints
 *
 *   "#== chains begin NAME" ... "#== chains end NAME"
 *
 * (chains/NAME, read by scripts/arm64-chains.py), with "sampler exit N
 * seconds S" last.  Everything before "#== guest" is the kernel's log
 * (KUnit's KTAP).  Then it powers the machine off.  The kernel command
 * line may set sframe.stress=SECONDS (SFRAME_STRESS_SEC),
 * sframe.timeout=SECONDS and sframe.chains=SECONDS.
 *
 * With sframe.bench=1 (make bench's arm64 part, scripts/bench-arm64.sh) it
 * runs no test and samples no chains: it sets up the function_graph tracer
 * as x86's bench does (scripts/e2e-guest.sh --walks: unwind_user() alone,
 * depth 1, without the time the task is scheduled out) and, for each line
 * "LABEL PROGRAM ARG..." of /bench/list, in that order, runs
 * "/bench/arm64-chains --bench PROGRAM ARG..." in /bench with the tracer on,
 * then adds up the durations of the traced walks.  It prints
 *
 *   "#== bench begin LABEL" ... "#== bench end LABEL"
 *
 * with the sampler's "stats ..." line, then "walks N walk_us US unparsed N
 * overrun N" (the trace's unwind_user() calls, their durations added up;
 * lines it could not read; events the trace buffer lost) and "sampler exit
 * N seconds S guest_ms MS"; "#== bench done N" after the last.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TESTS	32

static const char *cmdline_value(const char *cmdline, const char *key,
				 const char *def)
{
	static char buf[32];
	const char *p = strstr(cmdline, key);
	size_t n;

	if (!p)
		return def;
	p += strlen(key);
	n = strcspn(p, " \n");
	if (!n || n >= sizeof(buf))
		return def;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

static void mount_fs(const char *src, const char *dst, const char *type)
{
	mkdir(dst, 0755);
	if (mount(src, dst, type, 0, NULL) && errno != EBUSY)
		printf("#== guest: mount %s on %s: %s\n", type, dst,
		       strerror(errno));
}

/*
 * Run @argv[0] in @dir with @envp, polling every @poll_us for its end; kill
 * it once it has run for more than @limit seconds from @start.  Returns 1
 * if it was killed so, with its wait status in @status.
 */
static int run_timed(char *const argv[], char *const envp[], const char *dir,
		     time_t start, int limit, useconds_t poll_us, int *status)
{
	pid_t pid = fork(), w;

	if (!pid) {
		if (chdir(dir))
			_exit(126);
		execve(argv[0], argv, envp);
		printf("error execve %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	for (;;) {
		w = waitpid(pid, status, WNOHANG);
		if (w == pid || w < 0)
			return 0;
		if (time(NULL) - start > limit) {
			kill(pid, SIGKILL);
			waitpid(pid, status, 0);
			return 1;
		}
		usleep(poll_us);
	}
}

static char results[MAX_TESTS][160];

#define CHAIN_ARGS	16

/* The chains of each workload of /chains/list, sampled by /chains/arm64-chains. */
static void run_chains(int limit, const char *seconds)
{
	char line[512];
	FILE *f = fopen("/chains/list", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char path[160], *argv[CHAIN_ARGS + 2] = { "/chains/arm64-chains" };
		char *envp[] = { "PATH=/chains", NULL };
		time_t start = time(NULL);
		int status = 0, timed_out = 0, n = 1;
		char *name, *word, *save;

		line[strcspn(line, "\n")] = '\0';
		name = strtok_r(line, " ", &save);
		if (!name)
			continue;
		while (n <= CHAIN_ARGS && (word = strtok_r(NULL, " ", &save)))
			argv[n++] = word;
		if (n == 1) {
			snprintf(path, sizeof(path), "/chains/%.100s", name);
			argv[n++] = path;
			argv[n++] = (char *)seconds;
		}
		argv[n] = NULL;
		printf("#== chains begin %s\n", name);
		timed_out = run_timed(argv, envp, "/chains", start, limit, 50000,
				      &status);
		if (timed_out)
			printf("error the sampler timed out after %d s\n", limit);
		printf("sampler exit %d seconds %ld\n",
		       WIFEXITED(status) ? WEXITSTATUS(status) :
					   128 + WTERMSIG(status),
		       (long)(time(NULL) - start));
		printf("#== chains end %s\n", name);
	}
	fclose(f);
}

#define TRACING	"/sys/kernel/tracing/"

/* Write S into the tracefs file NAME (truncated); 0 or -1, said on the console. */
static int trace_write(const char *name, const char *s)
{
	char path[128];
	ssize_t n = strlen(s);
	int fd, ok;

	snprintf(path, sizeof(path), TRACING "%s", name);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0) {
		printf("#== guest: bench: open %s: %s\n", path, strerror(errno));
		return -1;
	}
	ok = write(fd, s, n) == n;
	if (!ok)
		printf("#== guest: bench: write '%s' to %s: %s\n", s, path,
		       strerror(errno));
	close(fd);
	return ok ? 0 : -1;
}

/* The duration of a function_graph line "... 12.345 us    |  unwind_user();". */
static int walk_us(const char *line, double *us)
{
	const char *bar = strchr(line, '|'), *p = line;
	double prev = -1, v;
	char word[32];
	int n;

	if (!bar || !strstr(bar, "unwind_user();"))
		return 0;
	while (p < bar && sscanf(p, "%31s%n", word, &n) == 1 && p + n <= bar) {
		if (!strcmp(word, "us") && prev >= 0) {
			*us = prev;
			return 1;
		}
		prev = sscanf(word, "%lf", &v) == 1 ? v : -1;
		p += n;
	}
	return -1;
}

/* The trace buffer's lost events, all CPUs. */
static unsigned long trace_overrun(void)
{
	unsigned long total = 0, n;
	char path[96], line[128];
	int cpu;
	FILE *f;

	for (cpu = 0; cpu < 64; cpu++) {
		snprintf(path, sizeof(path), TRACING "per_cpu/cpu%d/stats", cpu);
		f = fopen(path, "r");
		if (!f)
			break;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "overrun: %lu", &n) == 1)
				total += n;
		fclose(f);
	}
	return total;
}

#define BENCH_ARGS	16

/* make bench: each run of /bench/list sampled with its walks timed. */
static void run_bench(int limit)
{
	char line[512];
	FILE *f = fopen("/bench/list", "r");
	unsigned int runs = 0;

	if (!f) {
		printf("#== guest: bench: no /bench/list\n");
		return;
	}
	if (trace_write("tracing_on", "0") ||
	    trace_write("current_tracer", "function_graph") ||
	    trace_write("options/sleep-time", "0") ||
	    trace_write("options/funcgraph-abstime", "0") ||
	    trace_write("buffer_size_kb", "16384") ||
	    trace_write("set_ftrace_filter", "unwind_user") ||
	    trace_write("set_graph_function", "unwind_user") ||
	    trace_write("max_graph_depth", "1")) {
		printf("#== guest: bench: cannot set up the function_graph tracer\n");
		fclose(f);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *argv[BENCH_ARGS + 3] = { "/bench/arm64-chains", "--bench" };
		char *envp[] = { "PATH=/bench", NULL };
		unsigned long walks = 0, unparsed = 0, overrun;
		struct timespec t0, t1;
		time_t start = time(NULL);
		int status = 0, timed_out = 0, n = 2, r;
		char *label, *word, *save, tl[512];
		double us, total = 0;
		FILE *t;

		line[strcspn(line, "\n")] = '\0';
		label = strtok_r(line, " ", &save);
		if (!label)
			continue;
		while (n < BENCH_ARGS + 2 && (word = strtok_r(NULL, " ", &save)))
			argv[n++] = word;
		argv[n] = NULL;
		printf("#== bench begin %s\n", label);
		/* Opened for writing and truncated: the buffer is emptied. */
		if (trace_write("trace", "") || trace_write("tracing_on", "1"))
			printf("error the tracer could not be started\n");
		clock_gettime(CLOCK_MONOTONIC, &t0);
		timed_out = run_timed(argv, envp, "/bench", start, limit, 20000,
				      &status);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		trace_write("tracing_on", "0");
		t = fopen(TRACING "trace", "r");
		while (t && fgets(tl, sizeof(tl), t)) {
			if (tl[0] == '#')
				continue;
			r = walk_us(tl, &us);
			if (r > 0) {
				walks++;
				total += us;
			} else if (r < 0) {
				unparsed++;
			}
		}
		if (t)
			fclose(t);
		else
			printf("error no trace: %s\n", strerror(errno));
		overrun = trace_overrun();
		if (timed_out)
			printf("error the sampler timed out after %d s\n", limit);
		printf("walks %lu walk_us %.3f unparsed %lu overrun %lu\n", walks,
		       total, unparsed, overrun);
		printf("sampler exit %d seconds %ld guest_ms %ld\n",
		       WIFEXITED(status) ? WEXITSTATUS(status) :
					   128 + WTERMSIG(status),
		       (long)(time(NULL) - start),
		       (long)((t1.tv_sec - t0.tv_sec) * 1000 +
			      (t1.tv_nsec - t0.tv_nsec) / 1000000));
		printf("#== bench end %s\n", label);
		runs++;
	}
	fclose(f);
	printf("#== bench done %u\n", runs);
}

int main(void)
{
	char cmdline[1024] = "", names[MAX_TESTS][64], stress_env[64];
	char chains_sec[32];
	const char *stress, *limit;
	int bench;
	unsigned int i, nr = 0;
	FILE *f;

	mount_fs("proc", "/proc", "proc");
	mount_fs("sysfs", "/sys", "sysfs");
	mount_fs("devtmpfs", "/dev", "devtmpfs");
	mount_fs("tmpfs", "/tmp", "tmpfs");
	mount_fs("debugfs", "/sys/kernel/debug", "debugfs");
	mount_fs("tracefs", "/sys/kernel/tracing", "tracefs");
	mount_fs("cgroup2", "/sys/fs/cgroup", "cgroup2");
	setvbuf(stdout, NULL, _IOLBF, 0);

	f = fopen("/proc/cmdline", "r");
	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = '\0';
		fclose(f);
	}
	/* Each value copied at once: cmdline_value() returns a static buffer. */
	stress = cmdline_value(cmdline, "sframe.stress=", "10");
	snprintf(stress_env, sizeof(stress_env), "SFRAME_STRESS_SEC=%s",
		 stress);
	snprintf(chains_sec, sizeof(chains_sec), "%s",
		 cmdline_value(cmdline, "sframe.chains=", "2"));
	bench = atoi(cmdline_value(cmdline, "sframe.bench=", "0"));
	limit = cmdline_value(cmdline, "sframe.timeout=", "300");

	printf("#== guest: pointer authentication: %s\n",
	       getauxval(AT_HWCAP) & (1UL << 30) ? "yes" : "no");

	if (bench) {
		run_bench(atoi(limit));
		sync();
		reboot(RB_POWER_OFF);
		return 0;
	}

	/*
	 * scripts/arm64-guest.sh's 9p share (cache=none: write() leaves the
	 * page cache empty, as on the x86 guest's build/ share).
	 */
	mkdir("/sframe-9p", 0755);
	if (mount("sframe9p", "/sframe-9p", "9p", 0,
		  "trans=virtio,version=9p2000.L,access=any,msize=512000"))
		printf("#== guest: mount 9p on /sframe-9p: %s\n", strerror(errno));

	f = fopen("/kselftest-list.txt", "r");
	if (f) {
		char line[128];

		while (nr < MAX_TESTS && fgets(line, sizeof(line), f)) {
			char *name = strchr(line, ':');

			if (!name)
				continue;
			name[strcspn(name, "\n")] = '\0';
			snprintf(names[nr++], sizeof(names[0]), "%s", name + 1);
		}
		fclose(f);
	}

	for (i = 0; i < nr; i++) {
		char path[128];
		char *argv[] = { path, NULL };
		char *envp[] = { stress_env, "PATH=/sframe", NULL };
		time_t start = time(NULL);
		int status = 0, timed_out;

		const char *dir = "/sframe-9p";

		snprintf(path, sizeof(path), "%s/%.63s", dir, names[i]);
		if (access(path, X_OK)) {
			dir = "/sframe";
			snprintf(path, sizeof(path), "%s/%.63s", dir, names[i]);
		}
		printf("#== begin %s\n", names[i]);
		timed_out = run_timed(argv, envp, dir, start, atoi(limit),
				      100000, &status);
		printf("#== end %s\n", names[i]);
		if (timed_out)
			snprintf(results[i], sizeof(results[i]),
				 "not ok %u selftests: sframe: %.63s # TIMEOUT %s seconds",
				 i + 1, names[i], limit);
		else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			snprintf(results[i], sizeof(results[i]),
				 "ok %u selftests: sframe: %.63s", i + 1, names[i]);
		else if (WIFEXITED(status) && WEXITSTATUS(status) == 4)
			snprintf(results[i], sizeof(results[i]),
				 "ok %u selftests: sframe: %.63s # SKIP", i + 1,
				 names[i]);
		else
			snprintf(results[i], sizeof(results[i]),
				 "not ok %u selftests: sframe: %.63s # exit=%d",
				 i + 1, names[i],
				 WIFEXITED(status) ? WEXITSTATUS(status) :
						     128 + WTERMSIG(status));
	}

	run_chains(atoi(limit), chains_sec);

	printf("#== tap\nTAP version 13\n1..%u\n", nr);
	for (i = 0; i < nr; i++)
		printf("# selftests: sframe: %.63s\n%s\n", names[i], results[i]);
	printf("#== tap end\n");
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
