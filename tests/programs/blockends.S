/* Test program for the recorder's qemu source, AArch64 only (built as
 * blockends-a64 without libc): the instructions after which qemu 7.2 ends
 * a translation block although they do not branch, and some after which
 * it does not.  tests/unit/test_sources_a64 runs it and checks that the
 * walker's blocks end where qemu's do: no asynchronous transfer, and only
 * the two single-threaded-only ends (yield, wfe) found as early ends.
 * Instructions newer than ARMv8.0 are written as words, so that any
 * assembler takes them. */
	.text
	.global _start
	.type _start, %function
_start:
	mov	x19, #3			/* the loop runs three times */
1:
	mrs	x0, tpidr_el0
	msr	tpidr_el0, x0		/* ends the block */
	mrs	x1, fpcr
	msr	fpcr, x1		/* does not */
	mrs	x1, nzcv
	msr	nzcv, x1		/* does not */
	mrs	x1, fpsr
	msr	fpsr, x1		/* does not */
	isb				/* ends */
	dmb	ish
	dsb	sy
	clrex
	.inst	0xd50330ff		/* sb: ends */
	.inst	0xd500401f		/* cfinv: does not */
	yield				/* ends while single-threaded */
	nop
	wfe				/* ends while single-threaded */
	adr	x2, buf
	ldxr	x3, [x2]
	stxr	w4, x3, [x2]		/* exclusives: do not */
	ldaxp	x5, x6, [x2]
	stlxp	w4, x5, x6, [x2]
	.inst	0xd503413f		/* msr ssbs, #1: ends */
	.inst	0xd503415f		/* msr dit, #1: ends */
	.inst	0xd50b7422		/* dc zva, x2: does not */
	.inst	0xd503233f		/* paciasp: does not */
	.inst	0xd50323bf		/* autiasp: does not */
	.inst	0xd503245f		/* bti c: does not */
	mrs	x7, dczid_el0
	.inst	0x04a0e3e0		/* SVE cntw x0: does not */
	.inst	0xc8a07c41		/* LSE cas x0, x1, [x2]: does not */
	subs	x19, x19, #1
	b.ne	1b
	mov	x8, #93			/* exit(0) */
	mov	x0, #0
	svc	#0
	.size _start, . - _start

	.data
	.balign	16
buf:	.quad	0, 0
