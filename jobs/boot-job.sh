#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One boot job, the unit of distributed work: boot a kernel with a boot-test
# initramfs through run-qemu.sh, triage the console log, check the boot's
# expectation, and leave every result in one directory.
#
# usage: boot-job.sh -o OUTDIR -k BZIMAGE -i INITRAMFS [-n NAME] [-w WORKLOADS]
#                    [-e EXPECT] [-b BUILD] [-r RUNKEY] [-- RUN-QEMU-OPTION...]
#        boot-job.sh -f SPEC      (SPEC holds those arguments, shell-quoted)
#
# EXPECT is verdict.sh's (fixed, caught) or - for none; BUILD names the
# kernel's build (for KCIDB), RUNKEY the runner's run (job.txt keeps both);
# the options after -- go to run-qemu.sh as they
# are (-t, -x, -s, -a, -m, ...). The kit's files are found next to this
# script: ../boot-tests/host/run-qemu.sh, ../report/verdict.sh,
# ../sanitizer-ignorelist/, ../annotations/sites.tsv, ../corpus/*/known-bugs.tsv and
# ../bin/ubsan-triage (or $TRIAGE). The host needs sh, coreutils, awk and
# QEMU, nothing else.
#
# Results, written to a scratch directory and renamed to OUTDIR only when
# complete: console.log, qemu.stderr, boot.txt and verdict (run-qemu.sh),
# triage.tsv and triage.json (ubsan-triage, not symbolized), live.txt (the
# sites as --follow judged them while the guest ran), expect.txt
# (verdict.sh, unless EXPECT is -), job.txt (host, times, inputs' sha256),
# and checksums (sha256sum of all of them, for the collector to check).
#
# Exit status 0: the guest gave a verdict (pass, fail, oops, panic or
# timeout: each a result). 75: a host fault, OUTDIR absent: QEMU killed by a
# signal or unable to start, an input missing, the job itself interrupted,
# a full disk (less than 16 MiB free before the boot, or full at any step
# after it: a file may be cut short; the one line of tools/space.sh,
# "boot-job NAME: host fault on HOST: no space: DIR needs N MiB, has M MiB
# free"). 64: bad usage.
set -u

usage() {
	sed -n '8,10p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 64
}

host_fault() {
	echo "boot-job $name: host fault on $(uname -n): $*" >&2
	exit 75
}

if [ "${1:-}" = -f ]; then
	[ -r "${2:-}" ] || usage
	eval "set -- $(cat "$2")"
fi
out='' kernel='' initrd='' name='' workloads=all expect=- build=- runkey=-
while getopts o:k:i:n:w:e:b:r: opt; do
	case $opt in
	o) out=$OPTARG ;;
	k) kernel=$OPTARG ;;
	i) initrd=$OPTARG ;;
	n) name=$OPTARG ;;
	w) workloads=$OPTARG ;;
	e) expect=$OPTARG ;;
	b) build=$OPTARG ;;
	r) runkey=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$out" ] && [ -n "$kernel" ] && [ -n "$initrd" ] || usage
[ -n "$name" ] || name=$(basename "$out")

kit=$(cd "$(dirname "$0")/.." && pwd)
triage=${TRIAGE:-$kit/bin/ubsan-triage}
space=$kit/tools/space.sh
for f in "$kernel" "$initrd" "$kit/boot-tests/host/run-qemu.sh" "$kit/report/verdict.sh" \
	"$space"; do
	[ -r "$f" ] || host_fault "cannot read $f"
done
[ -x "$triage" ] || host_fault "no ubsan-triage at $triage"
command -v qemu-system-x86_64 >/dev/null || host_fault "no qemu-system-x86_64"

# The scratch directory has the same base name (verdict.sh prints it).
parent=$(dirname "$out")
base=$(basename "$out")
tmp=$parent/.partial/$base
trap 'exit 75' HUP INT TERM

# Under run-jobs.sh on this machine (KIT_JOBS_RUNNER: its pid), the job
# ends when the runner does. GNU parallel starts each job in a process
# group of its own, which a SIGKILL of make's group (a CI timeout, a
# killed session) does not reach: the job lived on, QEMU with it, and
# kept the build directory's lock (an inherited descriptor) until its
# boot ended, so that the next make was refused (make chaos found it). A
# watcher that holds none of the job's files ends the job's group
# (boot-job.sh, run-qemu.sh, QEMU, the triage) once the runner is gone;
# the next run of the same jobs resumes them.
if [ -n "${KIT_JOBS_RUNNER:-}" ] &&
	[ "$(ps -o pgid= -p $$)" != "$(ps -o pgid= -p "$KIT_JOBS_RUNNER")" ]; then
	job=$$
	(
		exec </dev/null >/dev/null 2>&1 9>&-
		while kill -0 "$job" 2>/dev/null; do
			kill -0 "$KIT_JOBS_RUNNER" 2>/dev/null || { kill -TERM 0; exit 0; }
			sleep 1
		done
	) &
fi
# A full disk is a host fault, in one line (run-qemu.sh's too), and the
# scratch directory goes: nothing of this attempt is left to count.
need=16
KIT_SPACE_WHO="boot-job $name: host fault on $(uname -n)"
export KIT_SPACE_WHO
no_room() {
	sh "$space" full "$out" $need || return 0
	rm -rf "$tmp"
	exit 75
}
# no result from an earlier attempt may outlive this one
rm -rf "$out" "$tmp"
sh "$space" need "$out" $need || exit 75
mkdir -p "$tmp" 2>/dev/null || { no_room; host_fault "cannot write $tmp"; }
start=$(date -u +%Y-%m-%dT%H:%M:%S+00:00)

# The console is judged while the guest runs: ubsan-triage --follow reads
# it as QEMU writes it (live.txt: each site as it is first seen, judged),
# waiting for the file to appear, and finishes once the runner is done and
# has told it so. Its table must be the batch triage's of the finished log
# (follow= in job.txt).
"$triage" --kit "$kit" --tsv --follow -o "$tmp/follow.tsv" "$tmp/console.log" \
	2>"$tmp/live.txt" &
fpid=$!
trap 'kill "$fpid" 2>/dev/null; exit 75' HUP INT TERM

# The KVM probe's answer is the host's; the job's options come after, so
# that they win.
# (its summary line is printed at the end, for a guest verdict only)
summary=$(sh "$kit/boot-tests/host/run-qemu.sh" -c "$parent/.partial/kvm-probe" "$@" \
	-k "$kernel" -i "$initrd" -o "$tmp" -n "$name" -w "$workloads")
rc=$?
kill "$fpid" 2>/dev/null
wait "$fpid"
trap 'exit 75' HUP INT TERM
case $rc in
0 | 1 | 2 | 3 | 4) ;;
10) host_fault "run-qemu.sh: bad usage or unreadable input" ;;
11)
	# its line said so
	rm -rf "$tmp"
	exit 75
	;;
*) host_fault "run-qemu.sh interrupted (exit $rc)" ;;
esac
[ -s "$tmp/boot.txt" ] && [ -s "$tmp/verdict" ] || host_fault "run-qemu.sh wrote no verdict"

# QEMU's exit status tells a guest's end from the host's: 65 and 67 are
# init's isa-debug-exit, 0 a reboot or a panic under -no-reboot, "timeout"
# the runner's deadline. A signal (128+N: OOM killer, a kill -9) or QEMU's
# own failure (1: no memory, a missing file, ...) is the host's, and so is
# a clean exit after a SIGTERM or SIGINT that did not come from the runner.
qrc=$(sed -n 's/^exit_code=//p' "$tmp/boot.txt")
case $qrc in
timeout | 0 | 65 | 67) ;;
1) host_fault "QEMU failed: $(head -c 300 "$tmp/qemu.stderr" | tr '\n' ' ' | sed 's/ *$//')" ;;
*)
	[ "$qrc" -lt 128 ] 2>/dev/null || host_fault "QEMU killed by signal $((qrc - 128))"
	;;
esac
if grep -q 'terminating on signal' "$tmp/qemu.stderr" 2>/dev/null && [ "$qrc" != timeout ]; then
	host_fault "QEMU $(grep -m1 -o 'terminating on signal.*' "$tmp/qemu.stderr")"
fi

# Triage (exit 1 only means a "new" site), then the expectation. A guest
# that printed nothing (it hung before its console) raised no report: the
# triage refuses an empty file as a log, so it reads /dev/null then.
log=$tmp/console.log
[ -s "$log" ] || log=/dev/null
"$triage" --kit "$kit" --tsv -o "$tmp/triage.tsv" "$log"
[ $? -le 1 ] || { no_room; host_fault "ubsan-triage --tsv failed"; }
"$triage" --kit "$kit" --json -o "$tmp/triage.json" "$log"
[ $? -le 1 ] || { no_room; host_fault "ubsan-triage --json failed"; }
if cmp -s "$tmp/follow.tsv" "$tmp/triage.tsv"; then
	follow=same
else
	follow=differs
	echo "boot-job $name: ubsan-triage --follow and the batch triage differ" >&2
fi
rm -f "$tmp/follow.tsv"
files="console.log qemu.stderr boot.txt verdict triage.tsv triage.json live.txt job.txt"
if [ "$expect" != - ]; then
	sh "$kit/report/verdict.sh" "$tmp" "$expect" >"$tmp/expect.txt"
	files="$files expect.txt"
fi

{
	echo "name=$name"
	echo "host=$(uname -n)"
	echo "start_time=$start"
	echo "end_time=$(date -u +%Y-%m-%dT%H:%M:%S+00:00)"
	echo "build=$build"
	echo "run_key=$runkey"
	echo "expect=$expect"
	echo "workloads=$workloads"
	echo "follow=$follow"
	echo "kernel_sha256=$(sha256sum <"$kernel" | cut -c1-64)"
	echo "initramfs_sha256=$(sha256sum <"$initrd" | cut -c1-64)"
	echo "options=$*"
} >"$tmp/job.txt" 2>/dev/null || { no_room; host_fault "cannot write $tmp/job.txt"; }
# A disk that filled on the way may have cut a file short (expect.txt,
# live.txt): no checksums over it.
no_room
# shellcheck disable=SC2086 # word splitting of the file list is intended
(cd "$tmp" && sha256sum $files >checksums) 2>/dev/null ||
	{ no_room; host_fault "cannot write $tmp/checksums"; }

rm -rf "$out" && mv "$tmp" "$out" || host_fault "cannot move $tmp to $out"
echo "$summary on $(uname -n)"
grep -v "^  ok " "$out/expect.txt" 2>/dev/null
exit 0
