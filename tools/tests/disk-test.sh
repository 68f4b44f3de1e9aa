#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A full disk (make check-disk): the build directory on a tmpfs of 64 MiB
# that the test mounts under WORK and always unmounts (never the host's own
# filesystems), filled up; each stage that runs without a kernel is pointed
# at it and must fail with one line naming the path it writes and the room
# it needed ("no space: DIR needs N MiB, has M MiB free", tools/space.sh),
# a non-zero exit status, and no output that a later stage would take for
# complete. Most stages twice: stopped by the check before writing, and
# with KIT_SPACE_PRECHECK=0 meeting the full disk in the write itself.
#
#   space.sh   need, run, run -q, full
#   unpack     make's rule: Debian's tarball, and a small one with the
#              check off (tar's own errors held back)
#   tree copy  make's rule, from a stand-in tarball tree
#   series     patches/apply-series.sh (a tree file replaced whole)
#   configure  kconfig/configure.sh on a stand-in tree
#   Kbuild     make's KMAKE on a stand-in tree that writes 8 MiB
#   initramfs  boot-tests/guest/mkinitramfs.sh
#   boot       boot-tests/host/run-qemu.sh, jobs/boot-job.sh and
#              jobs/run-jobs.sh with boot-tests/tests/fake-kernel.c
#   triage     ubsan-triage --output and stdout, and make verdict
#   tables     report/findings-table.sh, corpus/detect-table.sh,
#              corpus/detect-modes.sh
#
# usage: disk-test.sh TOP WORK TRIAGE     (root, for mount; else one SKIP)
# Prints KTAP; the last line is "N passed, N failed".
set -u
top=${1:?usage: disk-test.sh TOP WORK TRIAGE}
work=${2:?usage: disk-test.sh TOP WORK TRIAGE}
triage=${3:?usage: disk-test.sh TOP WORK TRIAGE}
space=$top/tools/space.sh
tarball=/usr/src/linux-source-6.1.tar.xz

if [ "$(id -u)" != 0 ]; then
	echo "TAP version 13"
	echo "1..0 # SKIP not root: the test mounts a tmpfs"
	exit 0
fi
mnt=$work/mnt
if mountpoint -q "$mnt" 2>/dev/null; then
	umount "$mnt" || umount -l "$mnt"
fi
rm -rf "$work" && mkdir -p "$mnt" "$work/tmp" || exit 2
work=$(cd "$work" && pwd)
mnt=$work/mnt
if ! mount -t tmpfs -o size=64m,mode=755 kit-disk-test "$mnt" 2>"$work/mount.err"; then
	echo "TAP version 13"
	echo "1..0 # SKIP cannot mount a tmpfs here: $(head -n 1 "$work/mount.err")"
	exit 0
fi
cleanup() {
	# the test's own boots end before it does; wait for any straggler
	for _ in 1 2 3 4 5; do
		umount "$mnt" 2>/dev/null && break
		sleep 1
	done
	mountpoint -q "$mnt" 2>/dev/null && umount -l "$mnt"
	rmdir "$mnt" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
# scratch files of the tools (mktemp) go to the build directory
TMPDIR=$work/tmp
export TMPDIR
KTAP_BUF=$work/ktap
# shellcheck source=tools/tests/ktap.sh
. "$(dirname "$0")/ktap.sh"

# fill [KIB]: the tmpfs full, or with KIB KiB free
fill() {
	rm -f "$mnt/.fill"
	cat /dev/zero >"$mnt/.fill" 2>/dev/null
	[ "${1:-0}" -eq 0 ] || truncate -s "-${1}K" "$mnt/.fill"
}
unfill() {
	rm -f "$mnt/.fill"
}

# try NAME CMD...: run CMD, its output (both streams) in $work/NAME.out,
# its status in $st
try() {
	name=$1
	shift
	"$@" >"$work/$name.out" 2>&1
	st=$?
}

# nospace NAME DIR [STATUS]: the case failed (with STATUS), and said so in
# exactly one line that names DIR and the room it needed
nospace() {
	out=$work/$1.out
	if [ "$st" -eq 0 ] || { [ -n "${3:-}" ] && [ "$st" -ne "$3" ]; }; then
		bad "$1: exit status" "got $st, want ${3:-non-zero}
$(tail -n 5 "$out")"
	else
		ok "$1: exit status $st"
	fi
	n=$(grep -c 'no space: ' "$out")
	m=$(grep -cF "no space: $2 needs " "$out")
	if [ "$n" -eq 1 ] && [ "$m" -eq 1 ] &&
		grep -qE 'no space: [^ ]+ needs [0-9]+ [KM]iB, has [0-9]+ [KM]iB free' "$out"; then
		ok "$1: one line names $2"
	else
		bad "$1: one line names $2" "$n 'no space' lines, $m naming it
$(tail -n 8 "$out")"
	fi
}

# absent NAME PATH...: nothing left that a later stage would read
absent() {
	name=$1
	shift
	left=
	for p; do
		[ -e "$p" ] && left="$left ${p#"$mnt"/}"
	done
	if [ -z "$left" ]; then
		ok "$name: nothing left behind"
	else
		bad "$name: nothing left behind" "left:$left"
	fi
}

# want NAME COND-STATUS [DIAGNOSTIC]
want() {
	if [ "$2" -eq 0 ]; then
		ok "$1"
	else
		bad "$1" "${3:-}"
	fi
}

kit_make() {
	make -s -C "$top" BUILD="$mnt/build" "$@"
}

# -- space.sh itself -------------------------------------------------------
fill
try space-need sh "$space" need "$mnt/a/b" 5
nospace space-need "$mnt/a/b" 1
unfill
sh "$space" need "$mnt/a/b" 5 >"$work/space-room.out" 2>&1
want "space-need: 5 MiB on an empty 64 MiB: no line" $? "$(cat "$work/space-room.out")"
try space-run sh "$space" run "$mnt/x" 1 sh -c "echo out; echo err >&2; cat /dev/zero >'$mnt/x'"
nospace space-run "$mnt/x"
want "space-run: the command's stderr shown as it came" \
	"$(grep -c '^err$' "$work/space-run.out" | grep -qx 1; echo $?)"
rm -f "$mnt/x"
try space-run-q sh "$space" run -q "$mnt/x" 1 sh -c "echo err >&2; cat /dev/zero >'$mnt/x'"
nospace space-run-q "$mnt/x"
want "space-run -q: the command's stderr held back" \
	"$(grep -qE '^err$|^cat:' "$work/space-run-q.out"; [ $? -eq 1 ]; echo $?)" \
	"$(cat "$work/space-run-q.out")"
rm -f "$mnt/x"
try space-other sh "$space" run -q "$mnt/x" 1 sh -c 'echo other failure >&2; exit 3'
want "space-run -q: another failure keeps its status and stderr, no line" \
	"$([ $st -eq 3 ] && grep -q '^other failure$' "$work/space-other.out" &&
		! grep -q 'no space' "$work/space-other.out"; echo $?)" "$(cat "$work/space-other.out")"

# -- unpack: make's rule for the tarball -------------------------------------
b=$mnt/build
mkdir -p "$b" && touch "$b/.deps-stamp"
pristine=$b/src/linux-source-6.1
if [ -r "$tarball" ]; then
	try unpack kit_make "$pristine/Makefile"
	nospace unpack "$pristine"
	absent unpack "$pristine" "$pristine.tmp"
else
	skip "unpack: Debian's tarball" "no $tarball"
fi
# a small tarball (12 MiB unpacked), the room checked and not
mkdir -p "$work/small/linux-small"
printf 'kernelversion:\n\t@echo 0\n' >"$work/small/linux-small/Makefile"
for i in 1 2 3 4 5 6; do
	head -c 2097152 /dev/zero >"$work/small/linux-small/file$i"
done
tar -C "$work/small" -cf - linux-small | xz -0 -T1 >"$work/small.tar.xz"
fill 4096
try unpack-small kit_make "$pristine/Makefile" TARBALL="$work/small.tar.xz"
nospace unpack-small "$pristine"
absent unpack-small "$pristine" "$pristine.tmp"
try unpack-write env KIT_SPACE_PRECHECK=0 make -s -C "$top" BUILD="$b" \
	"$pristine/Makefile" TARBALL="$work/small.tar.xz"
nospace unpack-write "$pristine"
want "unpack-write: tar's errors held back" \
	"$(grep -q '^tar:' "$work/unpack-write.out"; [ $? -eq 1 ]; echo $?)" \
	"$(grep '^tar:' "$work/unpack-write.out" | head -n 3)"
absent unpack-write "$pristine" "$pristine.tmp"
unfill
try unpack-room kit_make "$pristine/Makefile" TARBALL="$work/small.tar.xz"
want "unpack with room: the tree" "$([ $st -eq 0 ] && [ -f "$pristine/file6" ]; echo $?)" \
	"$(tail -n 3 "$work/unpack-room.out")"

# -- tree copy: the main tree from the unpacked tarball (12 MiB) -------------
tree=$b/tiny/linux
fill 4096
try copy kit_make "$tree/Makefile"
nospace copy "$tree"
absent copy "$tree" "$tree.tmp"
try copy-write env KIT_SPACE_PRECHECK=0 make -s -C "$top" BUILD="$b" "$tree/Makefile"
nospace copy-write "$tree"
absent copy-write "$tree" "$tree.tmp"
unfill
rm -rf "$pristine"

# -- series: apply-series.sh brings a tree file to 2 MiB ---------------------
s=$work/series
mkdir -p "$s/pristine" "$s/patches" "$mnt/stree"
printf 'small\n' >"$s/pristine/a.txt"
echo all: >"$s/pristine/Makefile"
cp "$s/pristine/a.txt" "$s/pristine/Makefile" "$mnt/stree/"
{
	printf -- '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1,131072 @@\n-small\n'
	yes +0123456789abcde | head -n 131072
} >"$s/patches/0001-grow.patch"
echo 0001-grow.patch >"$s/patches/series"
fill
try series sh "$top/patches/apply-series.sh" "$s/pristine" "$mnt/stree" "$s/patches/series"
nospace series "$mnt/stree"
want "series: a.txt as it was" "$(grep -qx small "$mnt/stree/a.txt"; echo $?)"
absent series "$mnt/stree/.kit-patches/manifest" "$mnt/stree/a.txt.kit-new"
fill 1024
try series-write env KIT_SPACE_PRECHECK=0 \
	sh "$top/patches/apply-series.sh" "$s/pristine" "$mnt/stree" "$s/patches/series"
nospace series-write "$mnt/stree"
want "series-write: a.txt as it was, not cut short" "$(grep -qx small "$mnt/stree/a.txt"; echo $?)" \
	"$(wc -c <"$mnt/stree/a.txt") bytes"
absent series-write "$mnt/stree/.kit-patches/manifest" "$mnt/stree/a.txt.kit-new"
unfill

# -- configure: configure.sh on a stand-in tree -------------------------------
c=$mnt/ctree
mkdir -p "$c"
# allnoconfig writes 4 MiB, as if Kbuild's conf did
# shellcheck disable=SC2016 # make's $(KCONFIG_CONFIG)
printf 'allnoconfig:\n\thead -c 4194304 /dev/zero >$(KCONFIG_CONFIG)\n' >"$c/Makefile"
fill
try configure sh "$top/kconfig/configure.sh" "$c" tiny "$top/kconfig/guest.config"
nospace configure "$c"
absent configure "$c/.config" "$c/.kit-config.new"
fill 1024
try configure-write env KIT_SPACE_PRECHECK=0 \
	sh "$top/kconfig/configure.sh" "$c" tiny "$top/kconfig/guest.config"
nospace configure-write "$c"
absent configure-write "$c/.config" "$c/.kit-config.new"
unfill

# -- Kbuild: make's KMAKE on a stand-in tree that writes 8 MiB ---------------
k=$mnt/ktree
mkdir -p "$k"
printf 'all:\n\thead -c 8388608 /dev/zero >big\n' >"$k/Makefile"
# shellcheck disable=SC2016 # make's $(call ...)
printf 'kbuild-test:\n\t@$(call KMAKE,%s) all\n' "$k" >"$work/kbuild.mk"
# The build directory's lock re-runs the goals in a make that reads the
# top Makefile only: this goal of an extra makefile runs as if under it.
fill 1024
try kbuild env KIT_LOCKED="$b" make -s -C "$top" -f Makefile -f "$work/kbuild.mk" BUILD="$b" kbuild-test
nospace kbuild "$k"
absent kbuild "$k/big"
try kbuild-write env KIT_SPACE_PRECHECK=0 KIT_LOCKED="$b" \
	make -s -C "$top" -f Makefile -f "$work/kbuild.mk" BUILD="$b" kbuild-test
nospace kbuild-write "$k"
unfill
rm -rf "$k"

# -- initramfs: mkinitramfs.sh with 2 MiB of inputs ---------------------------
head -c 1048576 /dev/zero >"$work/init"
head -c 1048576 /dev/zero >"$work/prog"
chmod +x "$work/init" "$work/prog"
ird=$mnt/bt
mkdir -p "$ird"
fill
try initramfs sh "$top/boot-tests/guest/mkinitramfs.sh" -o "$ird/initramfs.cpio" \
	-s "$ird/root" -i "$work/init" "$work/prog"
nospace initramfs "$ird/initramfs.cpio"
absent initramfs "$ird/initramfs.cpio" "$ird/initramfs.cpio.tmp" "$ird/root"
fill 1024
try initramfs-write env KIT_SPACE_PRECHECK=0 sh "$top/boot-tests/guest/mkinitramfs.sh" \
	-o "$ird/initramfs.cpio" -s "$ird/root" -i "$work/init" "$work/prog"
nospace initramfs-write "$ird/initramfs.cpio"
absent initramfs-write "$ird/initramfs.cpio" "$ird/initramfs.cpio.tmp" "$ird/root"
unfill
try initramfs-room sh "$top/boot-tests/guest/mkinitramfs.sh" -o "$ird/initramfs.cpio" \
	-s "$ird/root" -i "$work/init" "$work/prog"
want "initramfs with room: the archive" "$([ $st -eq 0 ] &&
	cpio -t --quiet <"$ird/initramfs.cpio" | grep -qx bin/prog; echo $?)" \
	"$(tail -n 3 "$work/initramfs-room.out")"
rm -rf "$ird"

# -- boot: the runner, a boot job and the job runner, with the fake kernel ----
make -s -C "$top/boot-tests" O="$work/bt" fake-kernel >"$work/fake.out" 2>&1
fake=$work/bt/fake-kernel.elf
printf 'not an initramfs\n' >"$work/initrd"
if [ ! -s "$fake" ]; then
	bad "boot: the fake kernel builds" "$(tail -n 5 "$work/fake.out")"
else
	run_qemu() { # OUTDIR
		sh "$top/boot-tests/host/run-qemu.sh" -k "$fake" -i "$work/initrd" \
			-o "$1" -a tcg -t 30
	}
	boot_job() { # OUTDIR
		TRIAGE=$triage sh "$top/jobs/boot-job.sh" -o "$1" -k "$fake" -i "$work/initrd" \
			-n fake -w none -e - -- -a tcg -t 30
	}
	fill
	try run-qemu run_qemu "$mnt/boots/q"
	nospace run-qemu "$mnt/boots/q" 11
	absent run-qemu "$mnt/boots/q/verdict" "$mnt/boots/q/boot.txt"
	try run-qemu-write env KIT_SPACE_PRECHECK=0 sh -c \
		"$(command -v sh) '$top/boot-tests/host/run-qemu.sh' -k '$fake' -i '$work/initrd' \
			-o '$mnt/boots/q' -a tcg -t 30"
	nospace run-qemu-write "$mnt/boots/q" 11
	absent run-qemu-write "$mnt/boots/q/verdict" "$mnt/boots/q/boot.txt"
	try boot-job boot_job "$mnt/boots/fake"
	nospace boot-job "$mnt/boots/fake" 75
	want "boot-job: a host fault, in its own words" \
		"$(grep -q '^boot-job fake: host fault on .*: no space: ' "$work/boot-job.out"; echo $?)"
	absent boot-job "$mnt/boots/fake" "$mnt/boots/.partial/fake"
	try boot-job-write env KIT_SPACE_PRECHECK=0 TRIAGE="$triage" sh "$top/jobs/boot-job.sh" \
		-o "$mnt/boots/fake" -k "$fake" -i "$work/initrd" -n fake -w none -e - -- -a tcg -t 30
	nospace boot-job-write "$mnt/boots/.partial/fake" 75
	absent boot-job-write "$mnt/boots/fake" "$mnt/boots/.partial/fake"
	printf 'fake\t%s\t%s\t%s\t-\tfake\t-\tnone\t-a tcg -t 30\n' "$mnt/boots/fake" \
		"$fake" "$work/initrd" >"$work/fake.jobs"
	try run-jobs sh "$top/jobs/run-jobs.sh" -n disk -d "$mnt/fanout" -K "$top" -T "$triage" \
		"$work/fake.jobs"
	nospace run-jobs "$mnt/fanout" 2
	absent run-jobs "$mnt/boots/fake"
	try run-jobs-write env KIT_SPACE_PRECHECK=0 sh "$top/jobs/run-jobs.sh" -n disk \
		-d "$mnt/fanout" -K "$top" -T "$triage" "$work/fake.jobs"
	want "run-jobs-write: exit status" "$([ $st -ne 0 ]; echo $?)" "got $st"
	want "run-jobs-write: the line" "$(grep -q 'no space: ' "$work/run-jobs-write.out"; echo $?)" \
		"$(tail -n 5 "$work/run-jobs-write.out")"
	absent run-jobs-write "$mnt/boots/fake"
	unfill
	try boot-job-room boot_job "$mnt/boots/fake"
	want "boot-job with room: a verdict" \
		"$([ $st -eq 0 ] && grep -qx pass "$mnt/boots/fake/verdict"; echo $?)" \
		"$(tail -n 5 "$work/boot-job-room.out")"
	rm -rf "$mnt/boots" "$mnt/fanout"
fi

# -- triage: --output, stdout, and make verdict --------------------------------
log=$top/tools/testdata/kit-fixed-test-ubsan.log
fill
try triage-o "$triage" --kit "$top" --tsv -o "$mnt/triage.tsv" "$log"
nospace triage-o "$mnt/triage.tsv" 2
absent triage-o "$mnt/triage.tsv"
try triage-o-write env KIT_SPACE_PRECHECK=0 "$triage" --kit "$top" --json \
	-o "$mnt/triage.json" "$log"
nospace triage-o-write "$mnt/triage.json" 2
absent triage-o-write "$mnt/triage.json"
left=
for f in "$mnt"/*.tmp.*; do
	[ -e "$f" ] && left="$left $f"
done
want "triage-o-write: no scratch file left" "$([ -z "$left" ]; echo $?)" "$left"
"$triage" --kit "$top" --tsv "$log" >"$mnt/stdout.tsv" 2>"$work/triage-stdout.out"
st=$?
want "triage to stdout: exit status 2, naming the file" \
	"$([ $st -eq 2 ] && grep -q "^ubsan-triage: $mnt/stdout.tsv: No space left on device" \
		"$work/triage-stdout.out"; echo $?)" "got $st: $(cat "$work/triage-stdout.out")"
rm -f "$mnt/stdout.tsv"
unfill
# make verdict: the triage of a boot that finished, on a full disk
mkdir -p "$b/tiny/boots/fixed" "$b/tools"
cp "$log" "$b/tiny/boots/fixed/console.log"
echo pass >"$b/tiny/boots/fixed/verdict"
t=$(dirname "$triage")
# every file the tools target makes, so that it is up to date there
cp -a "$t/obj" "$t/libtriage.a" "$triage" "$t/ubsan-census" "$t/hot-checks" \
	"$t/hot-checks.so" "$b/tools/"
fill
try verdict kit_make verdict
want "verdict: exit status" "$([ $st -ne 0 ]; echo $?)" "got $st"
want "verdict: the line names boots/fixed/triage.tsv" \
	"$(grep -q "no space: $b/tiny/boots/fixed/triage.tsv needs" "$work/verdict.out"; echo $?)" \
	"$(tail -n 8 "$work/verdict.out")"
want "verdict: fixed fails for want of its triage, not judged" \
	"$(grep -q "^verdict fixed: FAIL (no triage" "$work/verdict.out" &&
		! grep -q "^  ok    runner" "$work/verdict.out"; echo $?)" "$(tail -n 8 "$work/verdict.out")"
absent verdict "$b/tiny/boots/fixed/triage.tsv" "$b/tiny/boots/fixed/triage.json"
unfill
sh "$top/report/verdict.sh" "$b/tiny/boots/fixed" fixed >"$work/verdict-sh.out" 2>&1
want "verdict.sh: a boot without triage.tsv fails" \
	"$([ $? -eq 1 ] && grep -q 'FAIL  no triage' "$work/verdict-sh.out"; echo $?)" \
	"$(head -n 5 "$work/verdict-sh.out")"
rm -rf "$b/tiny" "$b/tools"

# -- report tables --------------------------------------------------------------
mkdir -p "$mnt/findings" "$mnt/detect" "$mnt/modes"
fill
try findings-table sh "$top/report/findings-table.sh" "$top" 6.1 "$mnt/findings" aio-timeout
nospace findings-table "$mnt/findings/table.tsv" 2
absent findings-table "$mnt/findings/table.tsv" "$mnt/findings/table.tsv.tmp"
try detect-table sh "$top/corpus/detect-table.sh" "$top" 6.1 "$mnt/detect" perf-read-size-64k
nospace detect-table "$mnt/detect/table.tsv" 2
absent detect-table "$mnt/detect/table.tsv" "$mnt/detect/table.tsv.tmp"
try detect-modes sh "$top/corpus/detect-modes.sh" "$top" "$mnt/modes/modes.tsv" \
	off="$mnt/detect"
nospace detect-modes "$mnt/modes/modes.tsv" 2
absent detect-modes "$mnt/modes/modes.tsv" "$mnt/modes/modes.tsv.tmp"
unfill
try findings-room sh "$top/report/findings-table.sh" "$top" 6.1 "$mnt/findings" aio-timeout
want "findings-table with room: the table" \
	"$([ $st -le 1 ] && grep -q '^aio-timeout	6.1	' "$mnt/findings/table.tsv"; echo $?)" \
	"$(tail -n 3 "$work/findings-room.out")"

ktap_end
