#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Fuzz the kit's kernel with syzkaller for a while, stop, and triage every
# crash that syz-manager saved.
#
# usage: fuzz.sh KIT SYZ TREE OUT MINUTES VMS TRIAGE [EXPLAINED-TSV...]
#   KIT      the kit's checkout (annotations/, syzkaller/vm-init.sh)
#   SYZ      syzkaller's tree, built (syzkaller/build.sh)
#   TREE     the kernel tree: arch/x86/boot/bzImage and vmlinux
#   OUT      this run's directory: manager.cfg, manager.log, ignores.json,
#            vm/ (initramfs, keys), consoles/vmN.log (each VM's whole
#            console), triage.{txt,tsv,json}, fp-rate.txt, stats.tsv,
#            curve.tsv (the discovery curve), and
#            workdir/ (syzkaller's:
#            corpus.db and crashes/ stay from one run to the next, so a
#            second run goes on from the first one's corpus)
#   MINUTES  how long syz-manager runs
#   VMS      how many QEMU VMs (TCG, 1 CPU and 2 GiB each)
#   TRIAGE   ubsan-triage
#   EXPLAINED-TSV  ubsan-triage --tsv of other boots of the same base: the
#            sites they explained join the ignores (syzkaller/ignores.sh)
# Environment: FUZZ_PROCS (executor processes per VM, 2), FUZZ_HTTP
# (syz-manager's web UI, for example 127.0.0.1:56741; none by default),
# QEMU_EXTRA (more QEMU arguments), FUZZ_SYSCALLS (syzkaller's
# enable_syscalls: the only calls it may generate, names or patterns such
# as "getpid uname ioctl$TIOCGWINSZ", separated by spaces or commas; all
# the kernel has by default).
#
# The VMs boot an initramfs made for the run (OUT/vm/): busybox, the
# host's sshd and sftp-server with their libraries, syzkaller/vm-init.sh as
# /init, and ssh keys made for the run. syz-manager reaches them over ssh
# through QEMU's user-mode network with restrict=on (set by syzkaller):
# nothing the guest sends leaves QEMU. (syzkaller's "9p" image, the
# host's root over virtio-9p, is refused by this commit's config check.)
#
# Stopping: at the end of MINUTES, or on SIGINT/SIGTERM (Ctrl-C), the
# manager gets SIGINT and 60 s to stop its VMs; then its whole process
# group gets SIGKILL. A crash directory is complete once syz-manager has
# written it, so stopping loses none. The run fails if a QEMU of this run
# is left.
#
# Exit status: 0 when the run executed programs and raised no site that
# the kit cannot explain; 1 otherwise; 2 on a bad FUZZ_SYSCALLS.
set -eu

[ $# -ge 7 ] || {
	echo "usage: $0 KIT SYZ TREE OUT MINUTES VMS TRIAGE [EXPLAINED-TSV...]" >&2
	exit 2
}
kit=$1 syz=$2 tree=$3 out=$4 minutes=$5 vms=$6 triage=$7
shift 7
procs=${FUZZ_PROCS:-2}
# syzkaller's enable_syscalls, as JSON: a name is letters, digits, _ and $,
# with * as a wildcard (not expanded here: set -f)
syscalls=
set -f
for c in $(printf '%s' "${FUZZ_SYSCALLS:-}" | tr ',\t\n' '   '); do
	case $c in
	*[!A-Za-z0-9_\$*]*)
		echo "fuzz: FUZZ_SYSCALLS: '$c' is no syscall name (letters, digits, _, \$, *)" >&2
		exit 2
		;;
	esac
	syscalls="${syscalls:+$syscalls, }\"$c\""
done
set +f
for f in "$syz/bin/syz-manager" "$syz/bin/linux_amd64/syz-executor" \
	"$tree/arch/x86/boot/bzImage" "$tree/vmlinux"; do
	[ -e "$f" ] || {
		echo "fuzz: $f is missing (make syzkaller, make fuzz-kernel build it)" >&2
		exit 1
	}
done
# a kernel without KCOV gives syzkaller no coverage: not a fuzzing kernel
grep -qx CONFIG_KCOV=y "$tree/.config" 2>/dev/null || {
	echo "fuzz: $tree/.config has no CONFIG_KCOV=y: not a fuzzing kernel (kconfig/syzkaller.config)" >&2
	exit 1
}
mkdir -p "$out/workdir"
out=$(cd "$out" && pwd)
workdir=$out/workdir
vm=$out/vm

# Our QEMUs: their command line names this run's initramfs.
left() { pgrep -f "qemu-system.*$vm/initramfs.cpio" || true; }
[ -z "$(left)" ] || {
	echo "fuzz: QEMU of $vm already running: $(left | tr '\n' ' ')" >&2
	exit 1
}

# The ignores: the kit's explained sites, and what the last run's triage
# and the other boots explained.
sh "$kit/syzkaller/ignores.sh" "$kit/annotations/sites.tsv" "$out/triage.tsv" "$@" \
	>"$out/ignores.json"

# The VM: its initramfs, and the blank disk that syzkaller's qemu type
# wants as "image" (attached with -snapshot, never written).
rm -rf "$vm"
mkdir -p "$vm/etc/ssh"
ssh-keygen -q -t ed25519 -N '' -C kit-fuzz -f "$vm/key"
ssh-keygen -q -t ed25519 -N '' -C kit-fuzz-vm -f "$vm/host_key"
printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' 'sshd:x:74:74:sshd:/run/sshd:/bin/false' \
	>"$vm/etc/passwd"
printf '%s\n' 'root:x:0:' 'sshd:x:74:' >"$vm/etc/group"
printf '%s\n' 'root:*:20000:0:99999:7:::' 'sshd:*:20000:0:99999:7:::' >"$vm/etc/shadow"
cat >"$vm/etc/ssh/sshd_config" <<EOF
Port 22
HostKey /etc/ssh/host_key
PidFile /run/sshd.pid
PermitRootLogin prohibit-password
PubkeyAuthentication yes
AuthorizedKeysFile /root/.ssh/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
UseDNS no
AllowTcpForwarding yes
Subsystem sftp /usr/lib/openssh/sftp-server
EOF
truncate -s 1M "$vm/disk.img"
sh "$kit/boot-tests/guest/mkinitramfs.sh" -o "$vm/initramfs.cpio" -s "$vm/stage" \
	-i "$kit/syzkaller/vm-init.sh" -B /bin/busybox \
	-d /usr/sbin/sshd:/usr/sbin/sshd \
	-d /usr/lib/openssh/sftp-server:/usr/lib/openssh/sftp-server \
	-f "$vm/host_key:/etc/ssh/host_key" -f "$vm/key.pub:/root/.ssh/authorized_keys" \
	-f "$vm/etc/ssh/sshd_config:/etc/ssh/sshd_config" \
	-f "$vm/etc/passwd:/etc/passwd" -f "$vm/etc/group:/etc/group" \
	-f "$vm/etc/shadow:/etc/shadow" >"$vm/mkinitramfs.log"
# syz-manager reads ttyS0 and keeps the console only of a VM that crashed.
# A second console, hvc0 (virtio-console: the 8250 driver has one console
# for all its ports), logged to OUT/consoles/vmN.log and appended across
# the VM's restarts, keeps the rest: every report from its registration
# (some 13 s into the boot) on, the ones the ignores hid included, so the
# triage and the noise figures count them.
rm -rf "$out/consoles"
mkdir -p "$out/consoles"
cmdline="no_timer_check net.ifnames=0 ip=10.0.2.15::10.0.2.2:255.255.255.0::eth0:off"
cmdline="$cmdline console=hvc0"
side="-chardev null,id=kitcon,logfile=$out/consoles/vm{{INDEX}}.log,logappend=on"
side="$side -device virtio-serial-pci -device virtconsole,chardev=kitcon"
cat >"$out/manager.cfg" <<EOF
{
	"name": "kit-$(basename "$(dirname "$out")")",
	"target": "linux/amd64",
	"http": "${FUZZ_HTTP:-}",
	"rpc": "127.0.0.1:0",
	"workdir": "$workdir",
	"kernel_obj": "$tree",
	"image": "$vm/disk.img",
	"sshkey": "$vm/key",
	"ssh_user": "root",
	"syzkaller": "$syz",
	"procs": $procs,
	"sandbox": "none",
	"reproduce": false,
$([ -z "$syscalls" ] || printf '\t"enable_syscalls": [%s],' "$syscalls")
	"type": "qemu",
	"ignores": $(cat "$out/ignores.json"),
	"vm": {
		"count": $vms,
		"cpu": 1,
		"mem": 2048,
		"kernel": "$tree/arch/x86/boot/bzImage",
		"initrd": "$vm/initramfs.cpio",
		"cmdline": "$cmdline",
		"qemu_args": "-accel tcg $side ${QEMU_EXTRA:-}"
	}
}
EOF

echo "fuzz: syz-manager, $vms VMs x $procs procs, $minutes min (log: $out/manager.log)"
rm -f "$out/bench.json" # syz-manager creates it, and refuses an old one
start=$(date +%s)
setsid "$syz/bin/syz-manager" -config "$out/manager.cfg" -bench "$out/bench.json" \
	>"$out/manager.log" 2>&1 &
mgr=$!

# The discovery curve: every FUZZ_CURVE_STEP seconds (60), the distinct
# sites the consoles hold so far, and how many of them are new or
# findings (OUT/curve.tsv: seconds sites new findings). The consoles keep
# every report, the ones the ignores hide included.
sample() {
	# a VM that has printed nothing yet: the triage refuses an empty log
	set --
	for f in "$out"/consoles/*.log; do
		[ ! -s "$f" ] || set -- "$@" "$f"
	done
	[ $# -gt 0 ] || return 0
	"$triage" --kit "$kit" --src "$tree" --tsv "$@" 2>/dev/null |
		awk -F'\t' -v t=$(($(date +%s) - start)) '
			{ n++; nw += $1 == "new"; f += $1 == "finding" }
			END { printf "%d\t%d\t%d\t%d\n", t, n, nw, f }' >>"$out/curve.tsv"
}
printf 'seconds\tsites\tnew\tfindings\n' >"$out/curve.tsv"
(
	trap - INT TERM
	while sleep "${FUZZ_CURVE_STEP:-60}"; do sample; done
) &
sampler=$!

stopped=0
stop() {
	[ $stopped = 0 ] || return 0
	stopped=1
	kill "$sampler" 2>/dev/null || true
	echo "fuzz: stopping syz-manager ($1)"
	kill -INT "$mgr" 2>/dev/null || true
	i=0
	while kill -0 "$mgr" 2>/dev/null && [ $i -lt 60 ]; do
		sleep 1
		i=$((i + 1))
	done
	kill -KILL -- "-$mgr" 2>/dev/null || true
	wait "$mgr" 2>/dev/null || true
	i=0
	while [ -n "$(left)" ] && [ $i -lt 10 ]; do
		sleep 1
		i=$((i + 1))
	done
}
trap 'stop signal; trap - INT TERM' INT TERM

end=$((start + minutes * 60))
while [ "$(date +%s)" -lt $end ] && kill -0 "$mgr" 2>/dev/null && [ $stopped = 0 ]; do
	sleep 5
done
if [ $stopped = 0 ]; then
	kill -0 "$mgr" 2>/dev/null && stop timeout ||
		echo "fuzz: syz-manager exited by itself (see $out/manager.log)" >&2
fi
ran=$(($(date +%s) - start))
rc=0
if [ -n "$(left)" ]; then
	echo "fuzz: QEMU left behind: $(left | tr '\n' ' ')" >&2
	rc=1
fi

# syz-manager's last heartbeat: "name=value " pairs every 10 s.
heartbeat() {
	grep -o "$1=[0-9]*" "$out/manager.log" | tail -1 | cut -d= -f2
}
execs=$(heartbeat 'exec total')
{
	printf 'seconds\t%s\n' "$ran"
	printf 'vms\t%s\n' "$vms"
	printf 'executions\t%s\n' "${execs:-0}"
	printf 'coverage\t%s\n' "$(heartbeat coverage)"
	printf 'corpus\t%s\n' "$(heartbeat corpus)"
	printf 'crashes\t%s\n' "$(grep -c 'VM [0-9]*: crash: ' "$out/manager.log")"
	printf 'crash_dirs\t%s\n' "$(find "$workdir/crashes" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l)"
} >"$out/stats.tsv"
awk -F'\t' '{ printf "fuzz: %-11s %s\n", $1, $2 }' "$out/stats.tsv"
sample
# One line per 10 minutes: the sites at the end of it, and how many came in it.
awk -F'\t' 'NR > 1 {
		m = int(($1 + 599) / 600) * 10
		s[m] = $2; nw[m] = $3; f[m] = $4
		if (m > max) max = m
	}
	END {
		for (m = 10; m <= max; m += 10)
			if (m in s) {
				printf "fuzz: discovery %4d min: %d sites (+%d), %d new, %d findings\n", m, s[m], s[m] - prev, nw[m], f[m]
				prev = s[m]
			}
	}' "$out/curve.tsv"
if [ "${execs:-0}" -eq 0 ]; then
	echo "fuzz: no program was executed; the last lines of $out/manager.log:" >&2
	tail -20 "$out/manager.log" >&2
	rc=1
fi

# The crash directories and the VMs' whole consoles, as every other
# workload: sites per class, new sites and findings with their suggestion.
# A workdir whose run saved no crash (no crashes/ yet) is read as no crash;
# a VM's empty console (the triage refuses an empty log) has nothing.
args="--kit $kit --vmlinux $tree/vmlinux --syz $workdir $(for f in "$out"/consoles/*.log; do
	[ ! -s "$f" ] || echo "$f"; done)"
# shellcheck disable=SC2086
"$triage" $args --tsv >"$out/triage.tsv" || true
# shellcheck disable=SC2086
"$triage" $args --json >"$out/triage.json" || true
# shellcheck disable=SC2086
"$triage" $args --fp-rate >"$out/fp-rate.txt" || true
t=0
# shellcheck disable=SC2086
"$triage" $args >"$out/triage.txt" || t=$?
cat "$out/triage.txt" "$out/fp-rate.txt"
if [ $t != 0 ]; then
	[ $t = 1 ] && echo "fuzz: new sites or open findings: explain each (annotations/sites.tsv, a rule, the ignorelist) or confirm it (patches/findings/, make findings)" >&2
	rc=1
fi
exit $rc
