// SPDX-License-Identifier: GPL-2.0
/*
 * Lookup scaling of the kernel's SFrame reader (issue 9, item 2): synthetic
 * SFrame V3 sections of FDES functions with FRES frame row entries each, and
 * the cost of sframe_lookup() at random IPs in them.
 *
 * kernel/unwind/sframe.c is compiled unchanged, as tools/testing/sframe's
 * harness compiles it (#included, against that directory's shims), but with
 * -O2 and without sanitizers or read counting: "user memory" is this
 * process's memory and copy_from_user() is a bounds check and a memcpy().
 * Only the reader's public API is called (sframe_decode_header(),
 * sframe_fde_table_build(), sframe_lookup(), sframe_validate_section()).
 * As in the kernel, whose section cache holds it, sframe_lookup() searches
 * the FDEs through the section's FDE table (sframe_cache_fdes() below
 * stands for the cache), made before the lookups as the first lookup in a
 * section makes it.
 *
 *   sframe_scale [-v] [-n LOOKUPS] [-t] FDES:FRES ...
 *
 * For each FDES:FRES: build the section (workloads/bench/sframe-gen.h, the
 * generator of the kernel's side too: every function contiguous, of a
 * pseudo-random size of 16 to 1023 bytes, at least 2 * FRES, FREs evenly
 * spaced in it), pick LOOKUPS random IPs in its text (default: about 10^6
 * FREs' worth, 200 to 20000), look every one up and check the answer
 * against what the generator wrote (the right function and FRE, or -E2BIG
 * where the walk's budget, SFRAME_MAX_WALK_FRES, cannot reach the FRE);
 * then run each measured loop once:
 *
 *   null     the loop with a call that does nothing (the baseline)
 *   frame    sframe_lookup(), a fresh walk budget per lookup, through
 *            the section's FDE table
 *   orc4096  PROTOTYPE, not the series: an ORC-style table (one u32 per
 *   orc256   4096- or 256-byte block of text: the first FDE that covers
 *            it) narrows the FDE index to the functions of the IP's block,
 *            then sframe_lookup() runs on that slice of the index
 *
 * Under callgrind (valgrind --tool=callgrind --instr-atstart=no), each loop
 * runs instrumented and is dumped as "FDES:FRES:MODE"; its instruction count
 * less null's, divided by LOOKUPS, is the cost of one lookup.  Outside
 * valgrind (-t), each loop is timed instead (best of 5, ns per lookup).
 *
 * Prints one line per section, "key=value" words:
 *   fdes fres lookups text (bytes) section (bytes) probes (FDE probes of
 *   the binary search per lookup) read (FREs read per lookup) e2big
 *   orc4096/orc256: entries (of the table), probes; fdetable (bytes of
 *   the reader's FDE table, 0 without one); ns_MODE with -t.
 * Exits 1 when an answer is wrong.
 */
#include "kernel/unwind/sframe.c"
#include "driver.h"
/* The sections' generator, shared with the kernel's side (workloads/bench/). */
#include "../../workloads/bench/sframe-gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TEXT_START	0x10000000UL

/* One synthetic section and what the generator put in it. */
struct synth {
	unsigned int	fdes, fres;
	struct sframe_gen g;		/* function i: g.funcs[i] */
	u8		*buf;
	size_t		len;
	unsigned long	text_len;
	unsigned long	*start;		/* function starts, TEXT_START-based */
	struct sframe_section sec;
};

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "out of memory (%zu bytes)\n", n);
		exit(2);
	}
	return p;
}

/*
 * FDES functions of FRES FREs each, 16 to 1023 bytes at random (at least
 * 2 * FRES), FREs evenly spaced, the frame pointer saved from FRE 1 on.
 */
static void synth_build(struct synth *s, unsigned int fdes, unsigned int fres)
{
	unsigned long text = 0, written;
	unsigned int i;

	s->fdes = fdes;
	s->fres = fres;
	if (sframe_gen_random(&s->g, fdes, fres, 1)) {
		fprintf(stderr, "out of memory (%u functions)\n", fdes);
		exit(2);
	}
	s->start = xmalloc(fdes * sizeof(*s->start));
	for (i = 0; i < fdes; i++) {
		s->start[i] = TEXT_START + text;
		text += s->g.funcs[i].size;
	}
	sframe_gen_layout(&s->g);
	s->text_len = text;
	s->len = s->g.len;
	s->buf = xmalloc(s->len);
	written = sframe_gen_write(&s->g, s->buf, TEXT_START);
	if (written != s->len) {
		fprintf(stderr, "generator: %lu bytes written, %zu planned\n",
			written, s->len);
		exit(2);
	}

	s->sec = (struct sframe_section){
		.sframe_start = (unsigned long)s->buf,
		.sframe_end = (unsigned long)s->buf + s->len,
		.text_start = TEXT_START,
		.text_end = TEXT_START + text,
	};
	mem_start = s->sec.sframe_start;
	mem_end = s->sec.sframe_end;
}

static void synth_free(struct synth *s)
{
	free(s->buf);
	free(s->start);
	free(s->g.funcs);
}

/* The reader's binary search, replayed on the generator's starts. */
static unsigned int search(const struct synth *s, unsigned int first,
			   unsigned int last, unsigned long ip,
			   unsigned int *probes)
{
	unsigned int found = first;

	while (first < last) {
		unsigned int mid = first + (last - first) / 2;

		(*probes)++;
		if (s->start[mid] <= ip) {
			found = mid;
			first = mid + 1;
		} else {
			last = mid;
		}
	}
	return found;
}

/*
 * PROTOTYPE, not in the series: an ORC-style lookup table.  tbl[b] is the
 * index of the function that covers the first byte of block b of the text
 * (ORC's orc_lookup[]); an IP in block b lies in one of the functions
 * tbl[b] .. tbl[b + 1], so the binary search runs on that slice of the
 * index.  A kernel would build the table once per section (one read of
 * the FDE index) and keep it in kernel memory.
 */
struct orc {
	const char	*name;
	unsigned int	shift;
	unsigned long	entries;
	u32		*tbl;
	const struct synth *s;
	struct sframe_section narrow;	/* the slice, for sframe_lookup() */
};

static void orc_build(struct orc *o, const struct synth *s)
{
	unsigned long nblocks = (s->text_len + (1UL << o->shift) - 1) >> o->shift;
	unsigned long b;
	unsigned int i = 0;

	o->s = s;
	o->entries = nblocks + 1;
	o->tbl = xmalloc(o->entries * sizeof(*o->tbl));
	for (b = 0; b < o->entries; b++) {
		unsigned long at = TEXT_START + (b << o->shift);

		while (i + 1 < s->fdes && s->start[i + 1] <= at)
			i++;
		o->tbl[b] = i;
	}
	o->narrow = s->sec;
}

static void orc_range(const struct orc *o, unsigned long ip,
		      unsigned int *first, unsigned int *last)
{
	unsigned long b = (ip - TEXT_START) >> o->shift;

	*first = o->tbl[b];
	*last = o->tbl[b + 1] + 1;
}

static struct orc orc4096 = { .name = "orc4096", .shift = 12 };
static struct orc orc256 = { .name = "orc256", .shift = 8 };

typedef int (*lookup_fn)(struct synth *s, unsigned long ip,
			 struct unwind_user_frame *frame);

static noinline int look_null(struct synth *s, unsigned long ip,
			      struct unwind_user_frame *frame)
{
	asm volatile("" : : "r" (s), "r" (ip), "r" (frame) : "memory");
	return 0;
}

static noinline int look_frame(struct synth *s, unsigned long ip,
			       struct unwind_user_frame *frame)
{
	unsigned int budget = SFRAME_MAX_WALK_FRES;

	return sframe_lookup(&s->sec, ip, frame, &budget);
}

static __always_inline int look_orc(struct orc *o, unsigned long ip,
				    struct unwind_user_frame *frame)
{
	unsigned int budget = SFRAME_MAX_WALK_FRES;
	const struct sframe_section *sec = &o->s->sec;
	unsigned long b;
	unsigned int first;

	if (ip < sec->text_start || ip >= sec->text_end)
		return -ENOENT;
	b = (ip - sec->text_start) >> o->shift;
	first = o->tbl[b];
	o->narrow.fdes_start = sec->fdes_start +
			       first * sizeof(struct sframe_fde);
	o->narrow.num_fdes = o->tbl[b + 1] + 1 - first;
	return sframe_lookup(&o->narrow, ip, frame, &budget);
}

static noinline int look_orc4096(struct synth *s, unsigned long ip,
				 struct unwind_user_frame *frame)
{
	return look_orc(&orc4096, ip, frame);
}

static noinline int look_orc256(struct synth *s, unsigned long ip,
				struct unwind_user_frame *frame)
{
	return look_orc(&orc256, ip, frame);
}

static const struct {
	const char	*name;
	lookup_fn	fn;
} modes[] = {
	{ "null", look_null },
	{ "frame", look_frame },
	{ "orc4096", look_orc4096 },
	{ "orc256", look_orc256 },
};

static int verbose;
static unsigned long wrong;

static void check(const struct synth *s, const char *mode, unsigned long ip,
		  int ret, const struct unwind_user_frame *f)
{
	unsigned int probes = 0;
	unsigned int i = search(s, 0, s->fdes, ip, &probes);
	u32 off = ip - s->start[i], step = s->g.funcs[i].size / s->fres;
	unsigned int j = off / step, reads;
	int want = 0;
	bool ok;

	if (j >= s->fres)
		j = s->fres - 1;
	reads = j + 1 < s->fres ? j + 2 : s->fres;
	if (reads > SFRAME_MAX_WALK_FRES)
		want = -E2BIG;
	ok = ret == want;
	if (ok && !ret)
		ok = !f->outermost && !f->signal &&
		     f->cfa.rule == UNWIND_USER_RULE_REG_OFFSET &&
		     f->cfa.regnum == UNWIND_USER_SP_REGNUM &&
		     f->cfa.offset == sframe_gen_cfa(s->g.fp, j) &&
		     f->ra.rule == UNWIND_USER_RULE_CFA_OFFSET_DEREF &&
		     f->ra.offset == -8 &&
		     (j ? f->fp.rule == UNWIND_USER_RULE_CFA_OFFSET_DEREF &&
			  f->fp.offset == -16 :
			  f->fp.rule == UNWIND_USER_RULE_RETAIN);
	if (ok)
		return;
	if (wrong++ < 10)
		fprintf(stderr, "WRONG %u:%u %s: ip %#lx (function %u at %#lx, FRE %u): %s (want %s), cfa %d\n",
			s->fdes, s->fres, mode, ip, i, s->start[i], j,
			ret == -E2BIG ? "E2BIG" : ret == -EINVAL ? "EINVAL" :
			ret == -ENOENT ? "ENOENT" : ret == -EFAULT ? "EFAULT" :
			ret ? "error" : "0", want ? "E2BIG" : "0",
			ret ? 0 : f->cfa.offset);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static noinline int run_loop(lookup_fn fn, struct synth *s,
			     const unsigned long *ips, unsigned int n)
{
	struct unwind_user_frame frame;
	unsigned int i;
	int acc = 0;

	for (i = 0; i < n; i++)
		acc |= fn(s, ips[i], &frame);
	return acc;
}

static void usage(void)
{
	fprintf(stderr, "usage: sframe_scale [-v] [-V] [-t] [-n LOOKUPS] FDES:FRES ...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned int lookups = 0, k;
	bool timing = false, validate = false;
	int opt, a;

	while ((opt = getopt(argc, argv, "vVtn:")) != -1) {
		switch (opt) {
		case 'v':
			verbose = harness_verbose = 1;
			break;
		case 'V':
			validate = true;
			break;
		case 't':
			timing = true;
			break;
		case 'n':
			lookups = strtoul(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (optind == argc)
		usage();

	for (a = optind; a < argc; a++) {
		unsigned long probes = 0, probes4096 = 0, probes256 = 0;
		unsigned long reads = 0, e2big = 0;
		unsigned int fdes, fres, n, i;
		size_t fdetable;
		struct synth s;
		unsigned long *ips;
		char label[64];
		int ret;

		if (sscanf(argv[a], "%u:%u", &fdes, &fres) != 2 || !fdes ||
		    !fres || fres > U16_MAX)
			usage();
		n = lookups;
		if (!n) {
			n = 1000000 / fres;
			n = n < 200 ? 200 : n > 20000 ? 20000 : n;
		}

		synth_build(&s, fdes, fres);
		ret = sframe_decode_header(&s.sec);
		if (!ret && validate)
			ret = sframe_validate_section(&s.sec);
		if (ret) {
			fprintf(stderr, "WRONG %u:%u: section rejected (%d)\n",
				fdes, fres, ret);
			return 1;
		}
		fdetable = fdes_build(&s.sec);
		orc_build(&orc4096, &s);
		orc_build(&orc256, &s);

		ips = xmalloc(n * sizeof(*ips));
		for (i = 0; i < n; i++)
			ips[i] = TEXT_START + sframe_gen_rng() % s.text_len;

		/* Every answer of every mode, and what a lookup reads. */
		for (i = 0; i < n; i++) {
			struct unwind_user_frame f;
			unsigned int budget = SFRAME_MAX_WALK_FRES, first, last;

			ret = sframe_lookup(&s.sec, ips[i], &f, &budget);
			check(&s, "frame", ips[i], ret, &f);
			reads += SFRAME_MAX_WALK_FRES - budget;
			e2big += ret == -E2BIG;
			k = 0;
			search(&s, 0, fdes, ips[i], &k);
			probes += k;
			for (k = 2; k < ARRAY_SIZE(modes); k++) {
				ret = modes[k].fn(&s, ips[i], &f);
				check(&s, modes[k].name, ips[i], ret, &f);
			}
			orc_range(&orc4096, ips[i], &first, &last);
			k = 0;
			search(&s, first, last, ips[i], &k);
			probes4096 += k;
			orc_range(&orc256, ips[i], &first, &last);
			k = 0;
			search(&s, first, last, ips[i], &k);
			probes256 += k;
		}

		printf("fdes=%u fres=%u lookups=%u text=%lu section=%zu probes=%.3f read=%.3f e2big=%lu orc4096_entries=%lu orc4096_probes=%.3f orc256_entries=%lu orc256_probes=%.3f fdetable=%zu",
		       fdes, fres, n, s.text_len, s.len, (double)probes / n,
		       (double)reads / n, e2big, orc4096.entries,
		       (double)probes4096 / n, orc256.entries,
		       (double)probes256 / n, fdetable);

		for (k = 0; k < ARRAY_SIZE(modes); k++) {
			if (timing) {
				double best = 0;
				int r;

				for (r = 0; r < 5; r++) {
					double t = now_ns();

					run_loop(modes[k].fn, &s, ips, n);
					t = now_ns() - t;
					if (!r || t < best)
						best = t;
				}
				printf(" ns_%s=%.1f", modes[k].name, best / n);
				continue;
			}
			if (!RUNNING_ON_VALGRIND)
				continue;
			snprintf(label, sizeof(label), "%u:%u:%s", fdes, fres,
				 modes[k].name);
			CALLGRIND_ZERO_STATS;
			CALLGRIND_START_INSTRUMENTATION;
			run_loop(modes[k].fn, &s, ips, n);
			CALLGRIND_STOP_INSTRUMENTATION;
			CALLGRIND_DUMP_STATS_AT(label);
		}
		printf("\n");
		fflush(stdout);

		free(ips);
		fdes_free();
		free(orc4096.tbl);
		free(orc256.tbl);
		synth_free(&s);
	}
	if (wrong)
		fprintf(stderr, "%lu wrong answers\n", wrong);
	return wrong ? 1 : 0;
}
