/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a driver of kernel/unwind/sframe.c in user space (scale.c, miss.c)
 * needs besides the harness's shims: callgrind's client requests, or
 * stand-ins where valgrind's headers are missing, and the harness's
 * printk.  Included once, after sframe.c.
 */
#ifndef SFRAME_DRIVER_H
#define SFRAME_DRIVER_H

#include <stdarg.h>
#include <stdio.h>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
/* Without valgrind's headers: the checks and the timing only. */
#define RUNNING_ON_VALGRIND		0
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#define CALLGRIND_DUMP_STATS_AT(label)	((void)(label))
#endif

int harness_verbose;

void harness_printk(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

#endif
