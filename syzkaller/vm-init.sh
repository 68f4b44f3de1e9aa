#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of a syzkaller VM's initramfs (syzkaller/fuzz.sh packs it with
# busybox, the host's sshd and sftp-server and their libraries, the
# run's keys and the accounts). The address comes from the kernel (ip= on
# the command line); syz-manager logs in as root with the run's key,
# copies syz-executor to /tmp and runs it, its RPC forwarded over ssh.
#
# Everything here lives in the guest's memory; nothing reaches the host.
set -eu

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
mkdir -p /dev/pts /dev/shm /run/sshd /var/run /var/empty
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
ip link set lo up

# Every report from here on belongs to the fuzzing (ubsan-triage reads the
# marker from the console log that fuzz.sh keeps of each VM).
echo "kit: workload begin fuzzing" >/dev/kmsg

# cpio gives every file 644; sshd wants its keys private.
chmod 0600 /etc/ssh/host_key /etc/shadow
chmod 0700 /root /root/.ssh /run/sshd
echo "vm-init: sshd starting"
/usr/sbin/sshd -e -D -f /etc/ssh/sshd_config || true
echo "vm-init: sshd exited" >&2
poweroff -f
