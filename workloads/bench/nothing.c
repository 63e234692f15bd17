// SPDX-License-Identifier: GPL-2.0
/*
 * nothing: a program that exits at once, linked statically, for the
 * benchmark's exec figures (scripts/bench.sh): its exec costs the kernel's
 * part (binfmt_elf, which registers its PT_GNU_SFRAME, and the exit, which
 * frees it) and libc's start-up, and no dynamic loading, so that the cost
 * of the registration stands out as much as it can.
 */
int main(void)
{
	return 0;
}
