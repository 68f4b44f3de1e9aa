#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make detect's recipe (mk/corpus.mk): build a kernel per corpus bug in one
# detect tree, boot each with its reproducer, and print the table of
# catches (detect-table.sh).
#
# First every kernel is built and kept: for each bug apply-series.sh brings
# the tree to "series + that bug's revert" (corpus/BUG/KERNEL.patch; undoing
# whatever an interrupted run left applied), Kbuild rebuilds the touched
# files and relinks, and bzImage and vmlinux go to DETECT/images/BUG/; an
# image whose series, patch and configuration did not change is kept as it
# is. Reverts that touch a header are built last, so that the wide rebuild
# each needs is not followed by a second one to undo it. The builds take the
# Kbuild lock once, together (fd 9). The tree goes back to the series alone
# at the start and at the end. Then every boot is a job (jobs/run-jobs.sh;
# HOSTS: fanned out over ssh): each bug's kernel with that bug's reproducer
# only, and the "control" kernel, without any revert, with every reproducer;
# ubsan-triage reads each log. A boot whose last complete run (its job.txt)
# had the same kernel, initramfs and workloads is kept, not run again
# (remove DETECT/boots/BUG to boot it again), and its log is triaged again
# (jobs/retriage.sh), so that today's rules judge it. The table has this
# run's bugs and every earlier bug whose boot is current in that sense, so
# that runs of a few bugs (DETECT_BUGS=...) add up to the whole corpus.
#
# usage: detect.sh, with the environment make gives it:
#   TOP KERNEL PRISTINE DETECT SERIES SERIES_PATCHES FRAGMENTS BASE_ARG
#   BASE_FILE BUGS CORPUS_BUGS WORKLOADS QEMU_OPTS KBUILD_LOCK JOBS
#   TRIAGE JOBS_DIR HOSTS HOSTS_SSH HOSTS_WD BOOT_JOBS BOOT_TRIES
# Optional: KBUILD_MIB (the room a Kbuild run into a tree without a
# vmlinux needs, default 512), CORPUS (the folder of bug folders, default
# corpus/), RUN (the name of the job run and of the jobs, default detect)
# and TABLE (the table script, default corpus/detect-table.sh): make
# findings runs the same pipeline over patches/findings/, whose "bug" is a
# fix.
# Exit status 1 when a boot job failed.
#
# A full disk: each Kbuild run checks its room first (KBUILD_MIB, default
# 512, or a relink's: tools/space.sh kbuild), an image's key is written
# after its files, and the job list and times.tsv are renamed into place
# whole; a failure on a full disk ends with the one line of tools/space.sh.
set -u
: "${TOP:?}" "${KERNEL:?}" "${PRISTINE:?}" "${DETECT:?}" "${SERIES:?}" "${TRIAGE:?}"
: "${JOBS_DIR:?}" "${KBUILD_LOCK:?}" "${JOBS:=2}" "${MAKE:=make}"
: "${CORPUS:=$TOP/corpus}" "${RUN:=detect}" "${TABLE:=$TOP/corpus/detect-table.sh}"
tree=$DETECT/linux
images=$DETECT/images
space=$TOP/tools/space.sh
# a failure: the line if the disk is full, else MESSAGE
fail() { # DIR MESSAGE
	sh "$space" full "$1" 16 || echo "$RUN: $2" >&2
	exit 1
}

start=$(date +%s)
mkdir -p "$DETECT/boots" "$images"
"$TOP/patches/apply-series.sh" "$PRISTINE" "$tree" "$SERIES" \
	>"$DETECT/series.log" || { cat "$DETECT/series.log"; exit 1; }
# shellcheck disable=SC2086 # FRAGMENTS: a list of file names
"$TOP/kconfig/configure.sh" "$tree" "$BASE_ARG" $FRAGMENTS || exit 1
# shellcheck disable=SC2086 # lists of file names
base=$( (echo "$BASE_ARG"; cat $SERIES $SERIES_PATCHES $FRAGMENTS $BASE_FILE) |
	sha256sum | cut -c1-16)
patch_of() { [ "$1" = control ] || echo "$CORPUS/$1/$KERNEL.patch"; }
# shellcheck disable=SC2046 # no patch for control
key_of() { echo "$base-$(cat /dev/null $(patch_of "$1") | sha256sum | cut -c1-16)"; }

# build BUG KEY: the tree (already at series + BUG's revert) into images/BUG
build() {
	s=$(date +%s)
	sh "$space" need "$tree" "$(sh "$space" kbuild "$tree" "${KBUILD_MIB:-512}")" || exit 1
	if ! "$MAKE" -C "$tree" ARCH=x86_64 LLVM=1 -j"$JOBS" bzImage \
		>"$DETECT/kbuild-$1.log" 2>&1; then
		sh "$space" full "$tree" 16 || tail -40 "$DETECT/kbuild-$1.log"
		exit 1
	fi
	# the key last: an image cut short by a full disk has none
	rm -f "$images/$1/key"
	sh "$space" need "$images/$1" "$(sh "$space" size "$tree/arch/x86/boot/bzImage" \
		"$tree/vmlinux")" || exit 1
	mkdir -p "$images/$1" &&
		cp "$tree/arch/x86/boot/bzImage" "$tree/vmlinux" "$images/$1/" 2>/dev/null &&
		echo $(($(date +%s) - s)) 2>/dev/null >"$images/$1/build_s" &&
		echo "$2" 2>/dev/null >"$images/$1/key" ||
		{ rm -f "$images/$1/key"; fail "$images/$1" "cannot copy the $1 kernel to $images/$1"; }
	echo "  BUILT   $1 in $(($(date +%s) - s)) s"
}

# 0 when BUG's revert touches a header: Kbuild then rebuilds much of the
# tree for it, and again for the next bug, which no longer has it
wide() { grep -q '^+++ .*\.h' "$(patch_of "$1")" 2>/dev/null; }
todo=
last=
for bug in control $BUGS; do
	if [ "$(cat "$images/$bug/key" 2>/dev/null)" = "$(key_of "$bug")" ] &&
		[ -s "$images/$bug/vmlinux" ]; then
		echo "  KEPT    $bug"
	elif wide "$bug"; then
		last="$last $bug"
	else
		todo="$todo $bug"
	fi
done
# the wide reverts last: one wide rebuild each, not two
todo="$todo$last"
if [ -n "$todo" ]; then
	exec 9>"$KBUILD_LOCK"
	echo "  LOCK    $KBUILD_LOCK"
	flock 9
	echo "  LOCKED  after $(($(date +%s) - start)) s"
	for bug in $todo; do
		# shellcheck disable=SC2046 # no patch for control
		"$TOP/patches/apply-series.sh" "$PRISTINE" "$tree" "$SERIES" \
			$(patch_of "$bug") >"$DETECT/series.log" ||
			{ cat "$DETECT/series.log"; exit 1; }
		build "$bug" "$(key_of "$bug")"
	done
	flock -u 9
	exec 9>&-
	"$TOP/patches/apply-series.sh" "$PRISTINE" "$tree" "$SERIES" \
		>"$DETECT/series.log" || { cat "$DETECT/series.log"; exit 1; }
fi
built=$(date +%s)
for bug in control $CORPUS_BUGS; do
	[ -r "$images/$bug/build_s" ] || continue
	printf '%s\tbuild\t%s\n' "$bug" "$(cat "$images/$bug/build_s")"
done 2>/dev/null >"$DETECT/times.tsv.tmp" && mv "$DETECT/times.tsv.tmp" "$DETECT/times.tsv" ||
	fail "$DETECT" "cannot write $DETECT/times.tsv"

"$MAKE" -s -C "$TOP/boot-tests" O="$DETECT/boot-tests" KMODS= \
	KIT_WORKLOADS="$WORKLOADS" || exit 1
srcdir=$(cd "$tree" && pwd) || exit 1
initrd=$DETECT/boot-tests/initramfs.cpio
isha=$(sha256sum <"$initrd" | cut -c1-64)
# a job line (jobs/README.md): name, result directory, bzImage, initramfs,
# vmlinux, build, expectation, workloads, run-qemu.sh options
job() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$RUN-$1" "$DETECT/boots/$1" \
		"$images/$1/bzImage" "$initrd" "$images/$1/vmlinux" "$RUN-$1" - "$2" \
		"$QEMU_OPTS"
}
# 0 when BUG's last boot already ran this kernel and initramfs with
# WORKLOADS: its job.txt, which jobs/boot-job.sh writes before it renames
# a complete boot into place, says so
booted() { # BUG WORKLOADS
	[ "$(grep -c -x -F -e "workloads=$2" -e "initramfs_sha256=$isha" \
		-e "kernel_sha256=$(sha256sum <"$images/$1/bzImage" | cut -c1-64)" \
		"$DETECT/boots/$1/job.txt" 2>/dev/null)" = 3 ]
}
# the workloads BUG's boot runs: its reproducer; control runs them all
workloads_of() { # BUG
	if [ "$1" = control ]; then
		echo "$WORKLOADS" | tr ' ' ,
	else
		awk -F'\t' 'NR == 2 { print $2 }' "$CORPUS/$1/bug.tsv"
	fi
}
# BUG's job line, unless its boot is current: then it is triaged again
# and named on fd 3. The image's "source" link names the tree, so that the
# triage reads the statement at a site (the rules' line column): the
# tree at the series alone, which differs from a bug's only in its revert.
boot() { # BUG
	ln -sfn "$srcdir" "$images/$1/source" || return 1
	w=$(workloads_of "$1")
	if ! booted "$1" "$w"; then
		job "$1" "$w"
	elif sh "$TOP/jobs/retriage.sh" "$TOP" "$TRIAGE" "$DETECT/boots/$1" \
		"$images/$1/vmlinux" "$RUN-$1" >&3 2>&4; then
		echo "  KEPT    boot of $1, triaged again" >&3
	else
		return 1
	fi
}
{
	for bug in control $BUGS; do
		boot "$bug" || exit 1
	done
} 3>&1 4>&2 2>/dev/null >"$DETECT/$RUN.jobs.tmp" && mv "$DETECT/$RUN.jobs.tmp" "$DETECT/$RUN.jobs" ||
	fail "$DETECT" "cannot write $DETECT/$RUN.jobs"
mkdir -p "$JOBS_DIR"
rc=0
set -- -n "$RUN" -d "$JOBS_DIR" -K "$TOP" -T "$TRIAGE" -W "$HOSTS_WD" \
	-j "$BOOT_JOBS" -R "$BOOT_TRIES"
[ -z "$HOSTS" ] || set -- "$@" -H "$HOSTS" -S "$HOSTS_SSH"
if [ -s "$DETECT/$RUN.jobs" ]; then
	sh "$TOP/jobs/run-jobs.sh" "$@" "$DETECT/$RUN.jobs" || rc=1
else
	echo "  KEPT    every boot: the same kernels, initramfs and workloads"
fi

# this run's bugs, and an earlier run's whose boot is still current
table=
for bug in $CORPUS_BUGS; do
	case " $BUGS " in
	*" $bug "*) table="$table $bug" ;;
	*) ! booted "$bug" "$(workloads_of "$bug")" || table="$table $bug" ;;
	esac
done
# shellcheck disable=SC2086 # a list of bugs
sh "$TABLE" "$TOP" "$KERNEL" "$DETECT" $table
echo "$RUN: $(($(date +%s) - start)) s in all: builds $((built - start)) s, boots $(($(date +%s) - built)) s"
exit $rc
