/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SFrame V3, the on-disk format, as far as the benchmark's tools write it:
 * the kernel's names (struct sframe_header, sframe_fde, sframe_fda and the
 * SFRAME_* constants of the series' kernel/unwind/sframe_format.h), in user-space
 * types; and the series' prctl() numbers, for C libraries that do not
 * have them yet. Packed: fields are unaligned in a section.
 */
#ifndef SFRAME_FORMAT_H
#define SFRAME_FORMAT_H

#include <stdint.h>
#include <sys/prctl.h>

#ifndef PR_ADD_SFRAME
#define PR_ADD_SFRAME			82
#endif
#ifndef PR_REMOVE_SFRAME
#define PR_REMOVE_SFRAME		83
#endif

#define SFRAME_MAGIC			0xdee2
#define SFRAME_VERSION_3		3

#define SFRAME_F_FDE_SORTED		0x1
#define SFRAME_F_FDE_FUNC_START_PCREL	0x4
#define SFRAME_F_ALL			(SFRAME_F_FDE_SORTED | \
					 SFRAME_F_FDE_FUNC_START_PCREL)

#define SFRAME_ABI_AMD64_ENDIAN_LITTLE	3
#define SFRAME_AMD64_CFA_FIXED_RA_OFFSET	(-8)

struct sframe_header {
	uint16_t	magic;
	uint8_t		version;
	uint8_t		flags;
	uint8_t		abi_arch;
	int8_t		cfa_fixed_fp_offset;
	int8_t		cfa_fixed_ra_offset;
	uint8_t		auxhdr_len;
	uint32_t	num_fdes;
	uint32_t	num_fres;
	uint32_t	fre_len;	/* bytes of the FRE sub-section */
	uint32_t	fdes_off;	/* from the end of the header */
	uint32_t	fres_off;	/* from the end of the header */
} __attribute__((packed));

/* Function descriptor index entry, sorted by function start address. */
struct sframe_fde {
	int64_t		func_start_off;	/* PCREL: from the address of this field */
	uint32_t	func_size;
	uint32_t	fda_off;	/* attribute record, from the FRE sub-section */
} __attribute__((packed));

/* Function descriptor attribute record; the FREs follow it. */
struct sframe_fda {
	uint16_t	num_fres;
	uint8_t		info;		/* SFRAME_FRE_TYPE_* */
	uint8_t		info2;		/* SFRAME_FDE_TYPE_* */
	uint8_t		rep_size;
} __attribute__((packed));

_Static_assert(sizeof(struct sframe_header) == 28, "SFrame V3 header");
_Static_assert(sizeof(struct sframe_fde) == 16, "SFrame V3 FDE");
_Static_assert(sizeof(struct sframe_fda) == 5, "SFrame V3 FDA");

/* sframe_fda.info: the size of the FREs' start offsets (PC type INC). */
#define SFRAME_FRE_TYPE_ADDR1		0
#define SFRAME_FRE_TYPE_ADDR2		1
#define SFRAME_FRE_TYPE_ADDR4		2

/* sframe_fda.info2 */
#define SFRAME_FDE_TYPE_DEFAULT		0

/*
 * Frame row entry: [start offset: 1, 2 or 4 bytes][info: u8][N data words
 * of S bytes each]. The info byte: base register (bit 0), N (bits 1-4), S
 * (bits 5-6).
 */
#define SFRAME_FRE_CFA_BASE_SP		0x1
#define SFRAME_FRE_DATAWORD_1B		0

#endif /* SFRAME_FORMAT_H */
