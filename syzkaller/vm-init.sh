#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of a syzkaller VM booted with "image": "9p": the host's root file
# system, read-only over virtio-9p. syz-manager puts its own init= (its
# per-VM init.sh, next to the ssh key it made for the VM) on the command
# line; the manager config (syzkaller/fuzz.sh) appends init= of this file,
# and the kernel takes the last one. This init differs from syzkaller's in
# that it needs nothing of the host but sh, mount and sshd: the address
# comes from the kernel (ip= on the command line, CONFIG_IP_PNP), and the
# accounts are written, not made with groupadd/useradd.
#
# Everything it writes goes to tmpfs in the guest; nothing reaches the host.
set -eu

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug
for d in /tmp /var /run /etc /root; do
	mount -t tmpfs tmpfs $d
done
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts || true
mount -t tmpfs tmpfs /dev/shm || true

# The key syz-manager made for this VM: beside the init= it gave first.
key=
for arg in $(cat /proc/cmdline); do
	case $arg in
	init=*)
		key=$(dirname "${arg#init=}")/key
		break
		;;
	esac
done
[ -n "$key" ] && [ -r "$key" ] && [ -r "$key.pub" ] || {
	echo "vm-init: no ssh key beside the first init= on the command line" >&2
	exit 1
}

echo 'root:x:0:0:root:/root:/bin/sh' >/etc/passwd
echo 'sshd:x:33:33:sshd:/run/sshd:/usr/sbin/nologin' >>/etc/passwd
echo 'root:x:0:' >/etc/group
echo 'sshd:x:33:' >>/etc/group
echo 'root::0:0:99999:7:::' >/etc/shadow
chmod 0600 /etc/shadow
mkdir -p /etc/ssh /run/sshd /var/run/sshd
chmod 0700 /root /run/sshd
cp "$key.pub" /root/key.pub
chmod 0600 /root/key.pub
cat >/etc/ssh/sshd_config <<EOF
Port 22
HostKey $key
PermitRootLogin yes
AuthenticationMethods publickey
PubkeyAuthentication yes
AuthorizedKeysFile /root/key.pub
KbdInteractiveAuthentication no
AllowUsers root
LogLevel INFO
TCPKeepAlive yes
EOF
echo "vm-init: sshd on $(cat /proc/sys/kernel/hostname) with $key"
/usr/sbin/sshd -e -D || true
echo "vm-init: sshd exited" >&2
exit 1
