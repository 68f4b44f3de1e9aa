// SPDX-License-Identifier: GPL-2.0
/*
 * The 2018 queue map size overflow, fixed by 813961de3ee6 ("bpf: fix integer
 * overflow in queue_stack_map"). No CVE.
 *
 * A queue map of 4294967295 four-byte values.  The map keeps one slot
 * more than max_entries; a fixed kernel counts the slots in 64 bits,
 * asks for 16 GiB and fails with ENOMEM.  A vulnerable one adds the one
 * slot in 32 bits, which wraps to 0, and creates a map with no room for
 * any value (the wrap is unsigned: only the unsigned wrap check sees it).
 * 6.12 also refuses max_entries >= U32_MAX / value_size with E2BIG before
 * the addition, so the bug cannot be reached there.
 */
#include "workload.h"

#include <errno.h>
#include <linux/bpf.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	union bpf_attr attr;
	int fd;

	kit_plan(1);
	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_QUEUE;
	attr.value_size = 4;
	attr.max_entries = 0xffffffff;
	fd = syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof(attr));
	if (fd < 0 && errno == ENOMEM) {
		kit_result(KIT_PASS, "queue_map_max_entries", NULL);
	} else if (fd < 0 && errno == E2BIG) {
		kit_diag("refused by the size bound of later kernels");
		kit_result(KIT_PASS, "queue_map_max_entries", NULL);
	} else if (fd >= 0) {
		kit_diag("vulnerable: a map of 2^32 - 1 entries was created");
		close(fd);
		kit_result(KIT_FAIL, "queue_map_max_entries", "vulnerable");
	} else {
		kit_result(KIT_FAIL, "queue_map_max_entries", "%s",
			   strerror(errno));
	}
	return kit_exit_status();
}
