/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hot-checks test's guest: entered by QEMU's multiboot loader in 32-bit
 * protected mode at a physical address, it maps the first 4 MiB twice (at
 * 0 and, like the kernel, at 0xffffffff80000000), enters long mode and
 * calls guest_main() in the upper half: the plugin counts the test's own
 * code as "kernel", apart from the firmware's. The value guest_main()
 * returns goes to the isa-debug-exit port: QEMU exits with it * 2 + 1.
 * The multiboot header's address fields make QEMU load the image flat
 * (guest.ld).
 */
#define MB_MAGIC 0x1badb002
#define MB_FLAGS 0x00010000 /* the address fields are valid */
#define EFER 0xc0000080

	.section .multiboot, "a"
	.balign 4
mb_header:
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)
	.long mb_header		/* header_addr */
	.long mb_header		/* load_addr: the image starts here */
	.long 0			/* load_end_addr: the whole file */
	.long image_end_phys	/* bss_end_addr */
	.long entry32		/* entry_addr */

	.section .boot, "ax"
	.code32
	.globl entry32
entry32:
	cli
	movl $boot_stack_top, %esp
	/* pml4[0] and pml4[511] -> pdpt, whose [0] and [510] -> pd: 2 MiB pages */
	movl $pdpt + 3, pml4
	movl $pdpt + 3, pml4 + 511 * 8
	movl $pd + 3, pdpt
	movl $pd + 3, pdpt + 510 * 8
	movl $0x83, pd
	movl $0x200083, pd + 8
	movl %cr4, %eax
	orl $0x20, %eax		/* PAE */
	movl %eax, %cr4
	movl $pml4, %eax
	movl %eax, %cr3
	movl $EFER, %ecx
	rdmsr
	orl $0x100, %eax	/* LME */
	wrmsr
	movl %cr0, %eax
	orl $0x80000001, %eax	/* PG, PE */
	movl %eax, %cr0
	lgdt gdt_desc
	ljmp $0x08, $entry64

	.code64
entry64:
	movl $0x10, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %ss
	movabsq $guest_main, %rax
	call *%rax
	movw $0xf4, %dx
	outb %al, %dx
1:	hlt
	jmp 1b

	.balign 8
gdt:
	.quad 0
	.quad 0x00209a0000000000	/* 0x08: 64-bit code */
	.quad 0x0000920000000000	/* 0x10: data */
gdt_desc:
	.word gdt_desc - gdt - 1
	.long gdt

	.section .boot.bss, "aw", @nobits
	.balign 4096
pml4:
	.skip 4096
pdpt:
	.skip 4096
pd:
	.skip 4096
	.skip 16384
boot_stack_top:
