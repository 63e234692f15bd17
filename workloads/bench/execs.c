// SPDX-License-Identifier: GPL-2.0
/*
 * execs: the cost of exec, for the benchmark's registration figures
 * (scripts/bench.sh): at exec binfmt_elf registers the PT_GNU_SFRAME of
 * the executable, and the mm frees it at exit.
 *
 *   execs N PROGRAM [ARG]...
 *
 * Runs PROGRAM N times, one after the other (fork, execv, wait; its output
 * goes to /dev/null), without address space randomization (so that every
 * exec lays out its memory the same way: one source of noise less), and
 * prints
 *   execs: N of PROGRAM, W us wall, C us CPU (U user, S sys) per exec
 * where CPU is the children's: the fork's child from fork to exit, which
 * is the exec, the dynamic loader and PROGRAM itself. Fails if one run
 * fails.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/personality.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double tv(struct timeval t)
{
	return t.tv_sec + t.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct rusage r0, r1;
	struct timespec t0, t1;
	double wall, user, sys;
	long i, n;
	int status, null;

	if (argc < 3 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: %s N PROGRAM [ARG]...\n", argv[0]);
		return 2;
	}
	null = open("/dev/null", O_RDWR);
	if (null < 0) {
		perror("/dev/null");
		return 1;
	}
	getrusage(RUSAGE_CHILDREN, &r0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
			personality(ADDR_NO_RANDOMIZE);
			execv(argv[2], argv + 2);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0) {
			fprintf(stderr, "execs: run %ld of %s failed (status %#x)\n",
				i + 1, argv[2], status);
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_CHILDREN, &r1);
	wall = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	user = tv(r1.ru_utime) - tv(r0.ru_utime);
	sys = tv(r1.ru_stime) - tv(r0.ru_stime);
	printf("execs: %ld of %s, %.3f us wall, %.3f us CPU (%.3f user, %.3f sys) per exec\n",
	       n, argv[2], wall / n * 1e6, (user + sys) / n * 1e6,
	       user / n * 1e6, sys / n * 1e6);
	return 0;
}
