#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Triage one boot's console again, here, with its vmlinux and, beside it,
# the tree: the names of inlined code and the rules that read the statement
# (a host has neither), and the expectation checked on that triage.
# run-jobs.sh does it for every job it collects; corpus/detect.sh for a boot
# it keeps, so that a kept boot is judged by today's rules.
#
# usage: retriage.sh KIT TRIAGE BOOT VMLINUX NAME
#   KIT      the kit's checkout; TRIAGE its ubsan-triage binary
#   BOOT     a boot's result folder: console.log, verdict, boot.txt,
#            job.txt, checksums (jobs/boot-job.sh)
#   NAME     the job's name, as verdict.sh prints it
#
# The new files are written in BOOT/.retriage/NAME (verdict.sh names a
# boot by its folder), checked whole and hashed under their final names,
# and only then moved over the boot's: until then its own files and
# checksums stand, valid for the next run.
#
# Exit status 0 when the boot's triage, expectation and checksums are new;
# 2 when they could not be made (the boot's own files stand): the one line
# of tools/space.sh when the disk is full, else what failed.
set -u
[ $# -eq 5 ] || {
	sed -n '10p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}
kit=$1 triage=$2 boot=$3 vmlinux=$4 name=$5
v=$boot/.retriage/$name

# a write failed: the line if the disk is full, else MESSAGE; the scratch
# folder goes after the disk is judged
fail() { # MESSAGE
	sh "$kit/tools/space.sh" full "$boot" 16 ||
		echo "retriage: $name: $1; its results stay in $boot" >&2
	rm -rf "$boot/.retriage"
	exit 2
}

rm -rf "$boot/.retriage" && mkdir -p "$v" &&
	ln -s ../../console.log ../../verdict ../../boot.txt "$v/" ||
	fail "cannot triage its console again"
# an empty console (boot-job.sh) is read as /dev/null
log=$boot/console.log
[ -s "$log" ] || log=/dev/null
for form in tsv json; do
	"$triage" --kit "$kit" --vmlinux "$vmlinux" --$form -o "$v/triage.$form" "$log"
	[ $? -le 1 ] || fail "cannot triage its console again ($form)"
done
new="triage.tsv triage.json"
expect=$(sed -n 's/^expect=//p' "$boot/job.txt")
if [ -n "$expect" ] && [ "$expect" != - ]; then
	sh "$kit/report/verdict.sh" "$v" "$expect" >"$v/expect.txt"
	tail -n 1 "$v/expect.txt" | grep -q "^verdict $name: " ||
		fail "cannot check its expectation again"
	new="$new expect.txt"
fi
(cd "$boot" && awk '{ print $2 }' checksums | while read -r f; do
	if [ -f ".retriage/$name/$f" ]; then
		printf '%s  %s\n' "$(sha256sum <".retriage/$name/$f" | cut -c1-64)" "$f"
	else
		sha256sum "$f"
	fi || exit 1
done >".retriage/$name/checksums") 2>/dev/null ||
	fail "cannot write its checksums"
for f in $new checksums; do
	mv -f "$v/$f" "$boot/$f" || fail "cannot move its new $f"
done
rm -rf "$boot/.retriage"
