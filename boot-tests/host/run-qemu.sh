#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel with the boot-test initramfs in QEMU and give a verdict.
#
# usage: run-qemu.sh -k BZIMAGE -i INITRAMFS -o OUTDIR [-t TIMEOUT_S]
#                    [-a tcg|kvm|auto] [-w WORKLOADS] [-x EXTRA_APPEND] [-I]
#                    [-n NAME] [-c KVM_CACHE] [-s CPUS] [-m MEM_MIB]
#                    [-D none|pc] [-P PLUGIN]
#
# Writes OUTDIR/console.log, OUTDIR/verdict (pass|fail|panic|oops|timeout)
# and OUTDIR/boot.txt; prints "boot NAME: VERDICT in S s (ACCEL)".
# -s CPUS gives the guest more than one CPU (-I keeps one).
# One socket per CPU: a guest without ACPI finds CPUs through the BIOS MP
# table, which lists one CPU per package.
# -m MEM_MIB: guest memory (default 512).
# -D none (default): only the serial port and isa-debug-exit (-nodefaults).
# -D pc: QEMU's default PC devices (VGA, IDE with a CD-ROM drive, floppy
# controller, PS/2, parallel port) and its default NIC, an e1000, with no
# network backend: drivers probe and run, and nothing leaves the guest.
# -P PLUGIN: a TCG plugin, -plugin's value (FILE,NAME=VALUE...); forces
# TCG (make hot-checks: tools/hot/).
# Exit status: 0 pass, 1 fail, 2 oops, 3 panic, 4 timeout, 10 bad usage,
# 11 no room for the results: OUTDIR's filesystem had less than 16 MiB
# free before the boot, or was full after it (the log may be cut short);
# one line names OUTDIR (tools/space.sh), and no verdict is written.
set -u
space=$(cd "$(dirname "$0")/../.." && pwd)/tools/space.sh
# the room a boot's results may take: the kit's console logs are under
# 1 MiB (tiny with every workload: 120 KB)
need=16

usage() {
	sed -n '6,9p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 10
}

kernel='' initrd='' outdir='' timeout='' accel=tcg workloads=all extra='' icount=0 cpus=1
name='' cache='' mem=512 devices=none plugin=''
while getopts k:i:o:t:a:w:x:In:c:s:m:D:P: opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	i) initrd=$OPTARG ;;
	o) outdir=$OPTARG ;;
	t) timeout=$OPTARG ;;
	a) accel=$OPTARG ;;
	w) workloads=$OPTARG ;;
	x) extra=$OPTARG ;;
	I) icount=1 ;;
	n) name=$OPTARG ;;
	c) cache=$OPTARG ;;
	s) cpus=$OPTARG ;;
	m) mem=$OPTARG ;;
	D) devices=$OPTARG ;;
	P) plugin=$OPTARG ;;
	*) usage ;;
	esac
done
if [ -z "$kernel" ] || [ -z "$initrd" ] || [ -z "$outdir" ]; then
	usage
fi
case $accel in tcg | kvm | auto) ;; *) usage ;; esac
case ${timeout:-0} in *[!0-9]*) usage ;; esac
case $cpus$mem in '' | *[!0-9]*) usage ;; esac
case $devices in none | pc) ;; *) usage ;; esac
for f in "$kernel" "$initrd"; do
	[ -r "$f" ] || { echo "run-qemu.sh: cannot read $f" >&2; exit 10; }
done
if ! mkdir -p "$outdir" 2>/dev/null; then
	sh "$space" full "$outdir" $need && exit 11
	echo "run-qemu.sh: cannot create $outdir" >&2
	exit 10
fi
outdir=$(cd "$outdir" && pwd)
[ -n "$name" ] || name=$(basename "$outdir")
[ -n "$cache" ] || cache=$(dirname "$outdir")/.kvm-probe
log=$outdir/console.log
pidfile=$outdir/qemu.pid
rm -f "$log" "$pidfile" "$outdir/verdict" "$outdir/boot.txt"
sh "$space" need "$outdir" $need || exit 11

# -I: deterministic virtual time, which only TCG on one CPU can give
if [ "$icount" = 1 ]; then
	accel=tcg
	cpus=1
fi
# plugins instrument TCG's translations
[ -z "$plugin" ] || accel=tcg

# auto: use KVM only if a bare boot under KVM reaches init's KTAP end
if [ "$accel" = auto ]; then
	if [ -s "$cache" ]; then
		accel=$(cat "$cache")
	elif [ -w /dev/kvm ]; then
		"$0" -k "$kernel" -i "$initrd" -o "$outdir/kvm-probe" -t 20 \
			-a kvm -w none -n kvm-probe >/dev/null 2>&1
		if [ "$(cat "$outdir/kvm-probe/verdict" 2>/dev/null)" = pass ]
		then
			accel=kvm
		else
			accel=tcg
		fi
	else
		accel=tcg
	fi
	echo "$accel" >"$cache"
fi
[ -n "$timeout" ] || timeout=300

# Under TCG on a busy host the IO-APIC timer check at boot can miss its
# window and panic ("IO-APIC + timer doesn't work"): a host fault, not the
# guest's. no_timer_check skips it; KVM keeps it.
cmdline="console=ttyS0 printk.devkmsg=on panic=-1 loglevel=7"
[ "$accel" = kvm ] || cmdline="$cmdline no_timer_check"

if [ "$devices" = pc ]; then
	set -- -nic none -device e1000
else
	set -- -nodefaults
fi
set -- "$@" -M pc -m "${mem}M" -smp "$cpus,sockets=$cpus" -no-user-config -display none \
	-no-reboot -kernel "$kernel" -initrd "$initrd" \
	-append "$cmdline kit.workloads=$workloads${extra:+ $extra}" \
	-chardev "file,id=con,path=$log" -serial chardev:con \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 -pidfile "$pidfile"
if [ "$accel" = kvm ]; then
	set -- "$@" -accel kvm -cpu host
else
	# One host thread runs every vCPU in turn (thread=single): with a
	# thread per vCPU, QEMU 7.2 let a 6.12 defconfig guest with 2 CPUs
	# hit the int3 of a jump label being patched without
	# poke_int3_handler() taking it ("Oops: int3" in __schedule(), the
	# kit's and the raw kernel alike: 3 of 6 boots); 4 of 4 passed so.
	# -icount needs one thread anyway. docs/guest.md.
	set -- "$@" -accel tcg,thread=single
fi
if [ "$icount" = 1 ]; then
	set -- "$@" -icount shift=0,sleep=off
fi
[ -z "$plugin" ] || set -- "$@" -plugin "$plugin"

qpid=
kill_qemu() {
	[ -n "$qpid" ] || return 0
	if kill -0 "$qpid" 2>/dev/null; then
		kill -TERM "$qpid" 2>/dev/null
		i=0
		while kill -0 "$qpid" 2>/dev/null && [ $i -lt 25 ]; do
			sleep 0.2
			i=$((i + 1))
		done
		kill -KILL "$qpid" 2>/dev/null
	fi
	wait "$qpid" 2>/dev/null
	qpid=
	rm -f "$pidfile"
}
trap kill_qemu EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

now_ms() {
	date +%s%3N
}

start=$(now_ms)
deadline=$((start + timeout * 1000))
qemu-system-x86_64 "$@" </dev/null >"$outdir/qemu.stderr" 2>&1 &
qpid=$!
timed_out=0
while kill -0 "$qpid" 2>/dev/null; do
	if [ "$(now_ms)" -ge "$deadline" ]; then
		timed_out=1
		break
	fi
	sleep 0.1
done
if [ $timed_out = 1 ]; then
	kill_qemu
	rc=timeout
else
	wait "$qpid"
	rc=$?
	qpid=
	rm -f "$pidfile"
fi
end=$(now_ms)
wall=$(awk -v ms=$((end - start)) 'BEGIN { printf "%.1f", ms / 1000 }')

# The results could not be written: why, in one line, and no verdict.
no_room() {
	rm -f "$outdir/verdict" "$outdir/boot.txt"
	sh "$space" full "$outdir" $need ||
		echo "run-qemu.sh: cannot write the results in $outdir" >&2
	exit 11
}
# A disk that filled during the boot may have cut the log short: no
# verdict on it.
sh "$space" full "$outdir" $need >/dev/null 2>&1 && no_room

# 65: init powered off with everything ok, 67: something not ok,
# 0: init's reboot(2) fallback under -no-reboot; anything else is QEMU's.
touch "$log"
if [ $timed_out = 1 ]; then
	verdict=timeout
elif grep -q 'Kernel panic - not syncing' "$log"; then
	verdict=panic
elif grep -Eq 'Oops|BUG:|general protection fault|invalid opcode|kernel BUG at' "$log"; then
	verdict=oops
# Only init's own (unindented) results count: an item's subtests and an
# expected failure's diagnostics ("    # not ok 1 ...") are indented.
elif ! grep -q 'kit: end ' "$log" || grep -Eq '(^|\] )not ok [0-9]' "$log"; then
	verdict=fail
elif [ "$rc" != 65 ] && [ "$rc" != 0 ]; then
	verdict=fail
else
	verdict=pass
fi

# verdict last: a boot.txt without a verdict is no result
cat >"$outdir/boot.txt" 2>/dev/null <<EOT || no_room
name=$name
verdict=$verdict
wall_s=$wall
exit_code=$rc
accel=$accel
icount=$icount
cpus=$cpus
mem_mib=$mem
devices=$devices
workloads=$workloads
plugin=$plugin
timeout_s=$timeout
kernel=$kernel
initramfs=$initrd
EOT
echo "$verdict" >"$outdir/verdict" 2>/dev/null || no_room
echo "boot $name: $verdict in $wall s ($accel)"
case $verdict in
pass) exit 0 ;;
fail) exit 1 ;;
oops) exit 2 ;;
panic) exit 3 ;;
*) exit 4 ;;
esac
