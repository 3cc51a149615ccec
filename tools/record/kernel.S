/* The emulated recorder's kernel (ptdecode-record --kernel VMLINUX): a
 * few functions at the addresses of an x86-64 kernel's text, linked into
 * an ELF "vmlinux" with symbols and a build id (Makefile.am builds
 * tools/record/vmlinux from this file).  Each system call of the traced
 * program enters at entry_SYSCALL_64 and walks down to its sysretq
 * (tools/record/kwalk.c decides the conditional branches); the code is
 * never run, only its branches are traced: direct calls three deep, a
 * tail jump, loops, forward branches and returns. */
	.text
	.globl _text, _stext, _etext
	.globl entry_SYSCALL_64, do_syscall_64, x64_sys_call, __x64_sys_generic
	.globl do_generic, syscall_exit_to_user_mode, schedule
_text:
_stext:
	.type entry_SYSCALL_64, @function
entry_SYSCALL_64:
	swapgs
	movq %rsp, %gs:0x6014
	pushq %rcx
	pushq %r11
	movq %rsp, %rdi
	call do_syscall_64
	popq %r11
	popq %rcx
	swapgs
	sysretq
	.size entry_SYSCALL_64, . - entry_SYSCALL_64

	.type do_syscall_64, @function
do_syscall_64:
	pushq %rbp
	movq %rsp, %rbp
	cmpq $450, %rax
	jae 1f
	call x64_sys_call
1:	call syscall_exit_to_user_mode
	popq %rbp
	ret
	.size do_syscall_64, . - do_syscall_64

	.type x64_sys_call, @function
x64_sys_call:
	xorl %ecx, %ecx
2:	incl %ecx
	testl $3, %ecx
	jnz 2b
	cmpl $1, %eax
	je 3f
	call __x64_sys_generic
3:	ret
	.size x64_sys_call, . - x64_sys_call

	.type __x64_sys_generic, @function
__x64_sys_generic:
	jmp do_generic
	.size __x64_sys_generic, . - __x64_sys_generic

	.type do_generic, @function
do_generic:
	testq %rdi, %rdi
	jz 4f
	nop
4:	ret
	.size do_generic, . - do_generic

	.type syscall_exit_to_user_mode, @function
syscall_exit_to_user_mode:
	movl %gs:0x20, %eax
5:	testl %eax, %eax
	jnz 6f
	ret
6:	call schedule
	jmp 5b
	.size syscall_exit_to_user_mode, . - syscall_exit_to_user_mode

	.type schedule, @function
schedule:
	nop
	ret
	.size schedule, . - schedule
_etext:
