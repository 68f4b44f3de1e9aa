#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Did a perf group pass the u16 boundary of read_size in this boot, and if
# so, did the sanitizer report it?
#
# usage: u16-boundary.sh CONSOLE_LOG TRIAGE_TSV
#
# The guest's perf workloads (kit_boundary_passed() in kit.c) print
#   u16 boundary passed: <leader|sibling> read_size R at N siblings
# when the kernel let a group grow until a member's read_size R no longer
# fits perf_event::read_size, a u16, without E2BIG. The sanitizer must then
# have reported, from kernel/events/, the implicit conversion of one of
# those values R to R mod 65536 (for example 65536 to 0). Only the first
# conversion of each site is reported, so one match is enough.
#
# Prints the values the guest reached, then one line per matching report
# (site, function, detail). Exit status:
#   0  a group passed the boundary and the sanitizer reported its value
#   1  a group passed the boundary and no report has its value
#   2  no group passed the boundary
set -u
log=$1
tsv=$2

values=$(sed -n 's/.*u16 boundary passed: [a-z]* read_size \([0-9][0-9]*\) .*/\1/p' \
	"$log" 2>/dev/null | sort -un | paste -sd ' ' -)
[ -n "$values" ] || exit 2
echo "u16 boundary passed: read_size $values"
# triage.tsv columns: class kind site function count title detail
hits=$(awk -F'\t' -v vals="$values" '
	BEGIN { n = split(vals, v, " "); for (i = 1; i <= n; i++) want[v[i]] = 1 }
	$2 == "implicit-conversion" && index($3, "kernel/events/") == 1 &&
	match($7, /of value [0-9]+ /) {
		val = substr($7, RSTART + 9, RLENGTH - 10)
		if (!(val in want) || !match($7, /: result -?[0-9]+$/))
			next
		res = substr($7, RSTART + 9)
		if (res + 0 == val % 65536)
			print $3 " " $4 "(): " $7
	}' "$tsv" 2>/dev/null)
[ -n "$hits" ] || exit 1
echo "$hits"
exit 0
