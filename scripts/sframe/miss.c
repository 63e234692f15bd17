// SPDX-License-Identifier: GPL-2.0
/*
 * The cost of a rule-cache miss on real files: sframe_lookup_range() of
 * kernel/unwind/sframe.c (compiled unchanged against the harness's shims,
 * as scale.c compiles it) at IPS random IPs of an ELF file's text, through
 * the FDE table its section's first lookup builds.  Under callgrind
 * (--instr-atstart=no) the loop of lookups is the only code instrumented;
 * the copies from "user memory" are counted here: their number and bytes
 * (under QEMU -icount, a kernel copy costs about its bytes in instructions:
 * rep movsb counts once a byte).
 *
 *   sframe_miss [-n IPS] FILE...
 *
 * Prints per file: fdes fres lookups copies/lookup bytes/lookup, and
 * exits 1 when a lookup fails.
 */
#include "kernel/unwind/sframe.c"
#include "driver.h"

#include "../../workloads/bench/sframe-gen.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static noinline int run_loop(struct sframe_section *sec,
			     const unsigned long *ips, unsigned int n)
{
	struct unwind_user_frame frame;
	unsigned long start;
	unsigned int i;
	int acc = 0;
	u32 len;

	for (i = 0; i < n; i++) {
		unsigned int budget = SFRAME_MAX_WALK_FRES;

		acc |= sframe_lookup_range(sec, ips[i], &frame, &budget,
					   &start, &len);
	}
	return acc;
}

static int one(const char *path, unsigned int n)
{
	unsigned long text_lo = ~0UL, text_hi = 0, sf_addr = 0, sf_size = 0;
	struct sframe_section sec = { };
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	const Elf64_Phdr *ph;
	unsigned long *ips, nips = 0;
	const char *names;
	struct stat st;
	u8 *map, *buf;
	unsigned int i;
	int fd, ret;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror(path);
		return 1;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return 1;
	eh = (const void *)map;
	ph = (const void *)(map + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_X))
			continue;
		if (ph[i].p_vaddr < text_lo)
			text_lo = ph[i].p_vaddr;
		if (ph[i].p_vaddr + ph[i].p_memsz > text_hi)
			text_hi = ph[i].p_vaddr + ph[i].p_memsz;
	}
	sh = (const void *)(map + eh->e_shoff);
	names = (const char *)map + sh[eh->e_shstrndx].sh_offset;
	for (i = 0; i < eh->e_shnum; i++) {
		if (strcmp(names + sh[i].sh_name, ".sframe"))
			continue;
		sf_addr = sh[i].sh_addr;
		sf_size = sh[i].sh_size;
		/* At an address whose distance to the text is the file's. */
		buf = aligned_alloc(4096, (sf_size + 4095) & ~4095UL);
		memcpy(buf, map + sh[i].sh_offset, sf_size);
		sec.sframe_start = (unsigned long)buf;
		sec.sframe_end = sec.sframe_start + sf_size;
		sec.text_start = sec.sframe_start - (sf_addr - text_lo);
		sec.text_end = sec.sframe_start + (text_hi - sf_addr);
	}
	if (!sf_size || text_lo >= text_hi) {
		fprintf(stderr, "%s: no .sframe or no text\n", path);
		return 1;
	}
	mem_start = sec.sframe_start;
	mem_end = sec.sframe_end;
	ret = sframe_decode_header(&sec);
	if (ret) {
		fprintf(stderr, "%s: header rejected (%d)\n", path, ret);
		return 1;
	}
	fdes_build(&sec);

	/* Random IPs that the section covers. */
	ips = malloc(n * sizeof(*ips));
	for (i = 0; nips < n && i < 100 * n; i++) {
		unsigned long ip = sec.text_start + sframe_gen_rng() %
				   (text_hi - text_lo);
		struct unwind_user_frame f;
		unsigned int budget = SFRAME_MAX_WALK_FRES;
		unsigned long s;
		u32 l;

		if (!sframe_lookup_range(&sec, ip, &f, &budget, &s, &l))
			ips[nips++] = ip;
	}
	driver_copies = driver_copied = 0;
	CALLGRIND_ZERO_STATS;
	CALLGRIND_START_INSTRUMENTATION;
	ret = run_loop(&sec, ips, nips);
	CALLGRIND_STOP_INSTRUMENTATION;
	CALLGRIND_DUMP_STATS_AT(path);
	printf("%s fdes=%u fres=%u lookups=%lu copies=%.2f bytes=%.1f\n",
	       path, sec.num_fdes, sec.num_fres, nips,
	       (double)driver_copies / nips, (double)driver_copied / nips);
	fdes_free();
	free(ips);
	return ret != 0;
}

int main(int argc, char **argv)
{
	unsigned int n = 20000;
	int opt, a, ret = 0;

	/* The same IPs in every run. */
	sframe_gen_rng_state = 88172645463325252ULL;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt == 'n')
			n = strtoul(optarg, NULL, 0);
	}
	for (a = optind; a < argc; a++)
		ret |= one(argv[a], n);
	return ret;
}
