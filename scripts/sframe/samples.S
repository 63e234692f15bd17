/* SPDX-License-Identifier: GPL-2.0 */
/*
 * See samples.c: an outermost function, a signal trampoline, and the FLEX
 * rules that gas emits for hand-written CFI and gcc does not need: the CFA
 * from another register (r12), the RA in a register (r11) or saved away
 * from CFA - 8 with the FP saved too (N = 6), the FP in a register (r13).
 */
	.text
	.globl	sample_outermost
	.type	sample_outermost, @function
sample_outermost:
	.cfi_startproc
	.cfi_undefined rip
	xorl	%ebp, %ebp
	call	main
	hlt
	.cfi_endproc
	.size	sample_outermost, .-sample_outermost

	.globl	sample_sigreturn
	.type	sample_sigreturn, @function
	nop
sample_sigreturn:
	.cfi_startproc
	.cfi_signal_frame
	movq	$15, %rax
	syscall
	.cfi_endproc
	.size	sample_sigreturn, .-sample_sigreturn

	.globl	sample_cfa_r12
	.type	sample_cfa_r12, @function
sample_cfa_r12:
	.cfi_startproc
	mov	%rsp, %r12
	.cfi_def_cfa r12, 8
	sub	$64, %rsp
	nop
	.cfi_def_cfa rsp, 72
	add	$64, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	sample_cfa_r12, .-sample_cfa_r12

	.globl	sample_ra_moved
	.type	sample_ra_moved, @function
sample_ra_moved:
	.cfi_startproc
	push	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset rbp, -16
	mov	8(%rsp), %r11
	.cfi_register rip, r11
	nop
	push	%r11
	.cfi_def_cfa_offset 24
	.cfi_offset rip, -24
	nop
	pop	%r11
	.cfi_def_cfa_offset 16
	.cfi_offset rip, -8
	pop	%rbp
	.cfi_def_cfa_offset 8
	.cfi_restore rbp
	ret
	.cfi_endproc
	.size	sample_ra_moved, .-sample_ra_moved

	.globl	sample_fp_in_r13
	.type	sample_fp_in_r13, @function
sample_fp_in_r13:
	.cfi_startproc
	mov	%rbp, %r13
	.cfi_register rbp, r13
	nop
	mov	%r13, %rbp
	.cfi_restore rbp
	ret
	.cfi_endproc
	.size	sample_fp_in_r13, .-sample_fp_in_r13

	.section .note.GNU-stack,"",@progbits
