/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SDT_MARKER(provider, name): a USDT marker as <sys/sdt.h>'s
 * STAP_PROBE(provider, name) writes it (sid's systemtap-sdt-dev is not in
 * the build root): a nop in the code, and a note of type 3 named "stapsdt"
 * in .note.stapsdt whose descriptor holds the nop's address, the address of
 * _.stapsdt.base (for prelinked files), no semaphore, the provider, the
 * name and no arguments. perf finds it after "perf buildid-cache --add"
 * as the event sdt_PROVIDER:NAME ("perf probe sdt_PROVIDER:NAME").
 */
#ifndef WORKLOADS_SDT_H
#define WORKLOADS_SDT_H

#define SDT_MARKER(provider, name)					\
	__asm__ __volatile__(						\
		"990:	nop\n"						\
		"	.pushsection .note.stapsdt, \"?\", \"note\"\n"	\
		"	.balign 4\n"					\
		"	.4byte 992f - 991f, 994f - 993f, 3\n"		\
		"991:	.asciz \"stapsdt\"\n"				\
		"992:	.balign 4\n"					\
		"993:	.8byte 990b\n"					\
		"	.8byte _.stapsdt.base\n"			\
		"	.8byte 0\n"					\
		"	.asciz \"" #provider "\"\n"			\
		"	.asciz \"" #name "\"\n"				\
		"	.asciz \"\"\n"					\
		"994:	.balign 4\n"					\
		"	.popsection\n"					\
		"	.ifndef _.stapsdt.base\n"			\
		"	.pushsection .stapsdt.base, \"aG\", \"progbits\", .stapsdt.base, comdat\n" \
		"	.weak _.stapsdt.base\n"				\
		"	.hidden _.stapsdt.base\n"			\
		"_.stapsdt.base:	.space 1\n"			\
		"	.size _.stapsdt.base, 1\n"			\
		"	.popsection\n"					\
		"	.endif\n")

#endif /* WORKLOADS_SDT_H */
