#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Each corpus folder is complete (make check, no kernel needed): bug.tsv
# is its header and one row named after the folder, with a workload that
# exists (repro.c here, or boot-tests/workloads/WORKLOAD.c) and an expect
# of bug or clean; known-bugs.tsv has the header and only rows named after
# the folder (BUG or BUG-suffix), at least one for a bug; 6.1.patch and
# 6.12.patch are patches. One KTAP line per folder.
#
# usage: check-corpus.sh TOP
set -u
top=${1:?usage: check-corpus.sh TOP}
corpus=$top/corpus
hdr='name	workload	expect	note'
khdr='name	file	function	kind	fix	cve	detail'
set --
for d in "$corpus"/*/; do
	[ -f "$d/bug.tsv" ] || [ -f "$d/known-bugs.tsv" ] || [ -f "$d/6.1.patch" ] || continue
	set -- "$@" "$(basename "$d")"
done
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
KTAP_BUF=$tmp/ktap
# shellcheck source=tools/tests/ktap.sh
. "$top/tools/tests/ktap.sh"
for bug in "$@"; do
	d=$corpus/$bug
	why=
	[ "$(head -n 1 "$d/bug.tsv" 2>/dev/null)" = "$hdr" ] || why="$why; bug.tsv: no header"
	[ "$(wc -l <"$d/bug.tsv" 2>/dev/null)" = 2 ] || why="$why; bug.tsv: not one row"
	name=$(awk -F'\t' 'NR == 2 { print $1 }' "$d/bug.tsv" 2>/dev/null)
	workload=$(awk -F'\t' 'NR == 2 { print $2 }' "$d/bug.tsv" 2>/dev/null)
	expect=$(awk -F'\t' 'NR == 2 { print $3 }' "$d/bug.tsv" 2>/dev/null)
	[ "$name" = "$bug" ] || why="$why; bug.tsv names '$name'"
	case $expect in bug | clean) ;; *) why="$why; bug.tsv: expect '$expect'" ;; esac
	if [ -f "$d/repro.c" ]; then
		[ ! -f "$top/boot-tests/workloads/$workload.c" ] ||
			why="$why; workload $workload is both repro.c and boot-tests/workloads/"
	elif [ ! -f "$top/boot-tests/workloads/$workload.c" ]; then
		why="$why; no reproducer for workload '$workload'"
	fi
	[ "$(head -n 1 "$d/known-bugs.tsv" 2>/dev/null)" = "$khdr" ] ||
		why="$why; known-bugs.tsv: no header"
	others=$(awk -F'\t' -v b="$bug" 'NR > 1 && $1 != b && index($1, b "-") != 1 { print $1 }' \
		"$d/known-bugs.tsv" 2>/dev/null)
	[ -z "$others" ] || why="$why; known-bugs.tsv: rows of others: $others"
	rows=$(awk 'END { print NR - 1 }' "$d/known-bugs.tsv" 2>/dev/null)
	[ "$expect" != bug ] || [ "${rows:-0}" -gt 0 ] || why="$why; known-bugs.tsv: no row"
	for k in 6.1 6.12; do
		grep -q '^+++ b/' "$d/$k.patch" 2>/dev/null || why="$why; $k.patch: not a patch"
	done
	if [ -z "$why" ]; then ok "$bug"; else bad "$bug" "${why#; }"; fi
done
ktap_end
