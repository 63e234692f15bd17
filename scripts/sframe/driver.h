/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a driver of kernel/unwind/sframe.c in user space (scale.c, miss.c)
 * needs besides the harness's shims: callgrind's client requests, or
 * stand-ins where valgrind's headers are missing, the harness's printk,
 * the one section's "user memory" and its FDE table.  Included once, after
 * sframe.c.
 */
#ifndef SFRAME_DRIVER_H
#define SFRAME_DRIVER_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
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

/*
 * The "user memory": the one section being measured, at its address in
 * this process; copy_from_user() counts the copies and their bytes.
 */
static unsigned long mem_start, mem_end, driver_copies, driver_copied;

unsigned long copy_from_user(void *to, const void __user *from,
			     unsigned long n)
{
	unsigned long addr = (unsigned long)from;

	driver_copies++;
	driver_copied += n;
	/* access_ok(), as it were: nothing else is mapped. */
	if (addr < mem_start || addr > mem_end || n > mem_end - addr) {
		memset(to, 0, n);
		return n;
	}
	memcpy(to, from, n);
	return 0;
}

/*
 * The FDE table of the section being measured: the kernel's cache's.  A
 * reader without FDE tables (before the series' "Search the FDE index
 * through a table of text blocks") searches the whole index.
 */
#ifdef SFRAME_FDE_TABLE_MAX
static const struct sframe_section *fdes_sec;
static struct sframe_fde_table *fdes_tbl;

const struct sframe_fde_table *sframe_cache_fdes(struct sframe_section *sec)
{
	return sec == fdes_sec ? fdes_tbl : NULL;
}

/* Make the table of @sec; its bytes, 0 if it has none. */
static size_t fdes_build(struct sframe_section *sec)
{
	fdes_sec = sec;
	fdes_tbl = sframe_fde_table_build(sec);
	return fdes_tbl ? sizeof(*fdes_tbl) +
			  (fdes_tbl->blocks + 1) * sizeof(fdes_tbl->first[0]) : 0;
}

static void fdes_free(void)
{
	kvfree(fdes_tbl);
	fdes_tbl = NULL;
}
#else
static size_t fdes_build(struct sframe_section *sec)
{
	return 0;
}

static void fdes_free(void)
{
}
#endif

void harness_printk(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

#endif
