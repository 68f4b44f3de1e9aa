// SPDX-License-Identifier: GPL-2.0
/*
 * A finding of the kit's triage, confirmed (patches/findings/msgctl-qbytes/, ipc/msg:
 * "Keep the queue size limit of msgctl(IPC_SET) in unsigned long").
 *
 * msgctl(IPC_SET) takes the queue's byte limit from the unsigned long
 * msg_qbytes and passes it to msgctl_down() as an int. As root (the
 * capability lets a limit above msgmnb through), set the limit to 2^31 and
 * to 2^32 + 4096 and read it back with IPC_STAT: a fixed kernel keeps what
 * was set; an unfixed one stores 0xffffffff80000000 (2^31 turned INT_MIN,
 * sign-extended) and 4096 (cut to 32 bits), and returns 0 both times.
 */
#include "workload.h"

#include <errno.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>

static void set_and_read(int id, unsigned long want, const char *name)
{
	struct msqid_ds ds;

	if (msgctl(id, IPC_STAT, &ds) < 0) {
		kit_result(KIT_FAIL, name, "IPC_STAT: %s", strerror(errno));
		return;
	}
	ds.msg_qbytes = want;
	if (msgctl(id, IPC_SET, &ds) < 0) {
		/* refusing the value is right too: it is not stored cut */
		kit_diag("%s: IPC_SET of %lu refused: %s", name, want,
			 strerror(errno));
		kit_result(KIT_PASS, name, NULL);
		return;
	}
	if (msgctl(id, IPC_STAT, &ds) < 0) {
		kit_result(KIT_FAIL, name, "IPC_STAT: %s", strerror(errno));
		return;
	}
	if ((unsigned long)ds.msg_qbytes == want) {
		kit_result(KIT_PASS, name, NULL);
		return;
	}
	kit_diag("wrong: msg_qbytes set to %lu, stored as %lu", want,
		 (unsigned long)ds.msg_qbytes);
	kit_result(KIT_FAIL, name, "stored %lu", (unsigned long)ds.msg_qbytes);
}

int main(void)
{
	int id;

	kit_plan(2);
	id = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	if (id < 0) {
		kit_result(KIT_SKIP, "msgctl_qbytes_2g", "msgget: %s",
			   strerror(errno));
		kit_result(KIT_SKIP, "msgctl_qbytes_4g", "msgget: %s",
			   strerror(errno));
		return kit_exit_status();
	}
	set_and_read(id, 1UL << 31, "msgctl_qbytes_2g");
	set_and_read(id, (1UL << 32) + 4096, "msgctl_qbytes_4g");
	msgctl(id, IPC_RMID, NULL);
	return kit_exit_status();
}
