/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of QEMU's TCG plugin interface that hot-checks.so uses, declared
 * here because Debian's QEMU 7.2 ships no header for it. Written from what
 * the binary exports (nm -D /usr/bin/qemu-system-x86_64: qemu_plugin_*)
 * and from its loader's checks:
 *
 *  - the plugin exports "int qemu_plugin_version" and
 *    "int qemu_plugin_install(id, info, argc, argv)"; QEMU 7.2 loads API
 *    versions 0 to 1 ("plugin requires API version 99, but this QEMU
 *    supports only up to version 1"), so the plugin declares 1;
 *  - the inline operations take (handle, op, pointer, immediate), the
 *    operation 0 adding the immediate to the 64-bit counter pointed to,
 *    with no atomicity: one counter per guest CPU, or one guest CPU (the
 *    kit's -icount boots have one).
 *
 * Only what hot-checks.so calls is here; the names are QEMU's symbols.
 */
#ifndef HOT_QEMU_API_H
#define HOT_QEMU_API_H

#include <stddef.h>
#include <stdint.h>

#define HOT_QEMU_API_VERSION 1

typedef uint64_t qemu_plugin_id_t;

/* what QEMU tells the plugin at install time */
struct hot_qemu_info {
	const char *target_name; /* "x86_64" */
	struct {
		int min, cur; /* the API versions QEMU loads */
	} version;
	_Bool system_emulation;
	union {
		struct {
			int smp_vcpus, max_vcpus;
		} system;
	};
};

/* a translation block and one of its guest instructions, opaque */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum hot_qemu_inline_op {
	HOT_QEMU_INLINE_ADD_U64 = 0, /* *ptr += imm */
};

typedef void (*hot_qemu_tb_trans_cb)(qemu_plugin_id_t id,
				     struct qemu_plugin_tb *tb);
typedef void (*hot_qemu_udata_cb)(qemu_plugin_id_t id, void *udata);

/* each block QEMU translates, before it runs */
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   hot_qemu_tb_trans_cb cb);
/* when QEMU exits (the guest powers off, or QEMU is told to quit) */
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, hot_qemu_udata_cb cb,
				    void *udata);

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *
qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);

/* code that the translated block runs each time it runs: *ptr += imm */
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum hot_qemu_inline_op op,
					      void *ptr, uint64_t imm);
/* the same, each time the instruction runs (before it) */
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum hot_qemu_inline_op op,
						void *ptr, uint64_t imm);

#endif
