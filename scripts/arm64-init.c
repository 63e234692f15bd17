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
 */
#include <errno.h>
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
		pid_t pid, w;

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
		pid = fork();
		if (!pid) {
			if (chdir("/chains"))
				_exit(126);
			execve(argv[0], argv, envp);
			printf("error execve %s: %s\n", argv[0], strerror(errno));
			_exit(127);
		}
		for (;;) {
			w = waitpid(pid, &status, WNOHANG);
			if (w == pid || w < 0)
				break;
			if (time(NULL) - start > limit) {
				kill(pid, SIGKILL);
				waitpid(pid, &status, 0);
				timed_out = 1;
				break;
			}
			usleep(50000);
		}
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

int main(void)
{
	char cmdline[1024] = "", names[MAX_TESTS][64], stress_env[64];
	char chains_sec[32];
	const char *stress, *limit;
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
	limit = cmdline_value(cmdline, "sframe.timeout=", "300");

	printf("#== guest: pointer authentication: %s\n",
	       getauxval(AT_HWCAP) & (1UL << 30) ? "yes" : "no");

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
		time_t start = time(NULL);
		int status = 0, timed_out = 0;
		pid_t pid, w;

		snprintf(path, sizeof(path), "/sframe/%.63s", names[i]);
		printf("#== begin %s\n", names[i]);
		pid = fork();
		if (!pid) {
			char *argv[] = { path, NULL };
			char *envp[] = { stress_env, "PATH=/sframe", NULL };

			if (chdir("/sframe"))
				_exit(126);
			execve(path, argv, envp);
			printf("execve %s: %s\n", path, strerror(errno));
			_exit(127);
		}
		for (;;) {
			w = waitpid(pid, &status, WNOHANG);
			if (w == pid || w < 0)
				break;
			if (time(NULL) - start > atoi(limit)) {
				kill(pid, SIGKILL);
				waitpid(pid, &status, 0);
				timed_out = 1;
				break;
			}
			usleep(100000);
		}
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
