// SPDX-License-Identifier: GPL-2.0
/*
 * runtime: run a command and print the CPU and wall time it took, for the
 * benchmark's whole-program figures (scripts/bench.sh).
 *
 *   runtime COMMAND [ARG]...
 *
 * Prints, on stderr, after COMMAND ended:
 *   runtime: U s user, S s sys, W s wall, status N
 * U and S are COMMAND's own resource usage and that of the children it
 * waited for (wait4()): the deferred unwinder runs in the task's own
 * context on its way back to user space, so its work is in S. Their sum is
 * the task's exact run time; the split between them is sampled at the tick.
 * Exits with COMMAND's status.
 */
#include <stdio.h>
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
	struct timespec t0, t1;
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: %s COMMAND [ARG]...\n", argv[0]);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("wait4");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "runtime: %.6f s user, %.6f s sys, %.6f s wall, status %d\n",
		tv(ru.ru_utime), tv(ru.ru_stime),
		(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
		WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
