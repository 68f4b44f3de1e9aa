#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The soak's figures: many boots of one kernel through the job runner, read
# back from their result directories.
#
# usage: soak.sh JOBLIST JOBLOG QEMU-PATTERN
#   JOBLIST       the soak's job list (jobs/README.md): name and result
#                 directory of every boot
#   JOBLOG        GNU parallel's joblog of the run (attempts, exit values)
#   QEMU-PATTERN  a pattern of the soak's QEMU command lines (its initramfs):
#                 any such process still running is "left"
#
# A boot's log is lost when its result directory has no console.log, no
# runner verdict or no expectation line (expect.txt's "verdict ...: PASS" or
# "FAIL"). The verdict is the expectation's: the kernel is the same in every
# boot, so a boot whose verdict differs from the most common one is flaky,
# and is named with the runner's verdict and the first failed check.
# Prints one KTAP line per property and the boot-time distribution (the
# runner's wall_s: median, p95, max), then the plain summary line.
# The boots are of the kit's fixed kernel: a common verdict other than PASS
# fails too (a kernel that fails every time is not flaky, but broken).
# Exit status 0 when no log was lost, no QEMU was left, nothing flipped
# and the verdict is PASS.
set -u
[ $# -eq 3 ] || {
	echo "usage: $0 JOBLIST JOBLOG QEMU-PATTERN" >&2
	exit 2
}
list=$1 joblog=$2 pattern=$3
[ -r "$list" ] || {
	echo "soak: cannot read $list" >&2
	exit 2
}
tab=$(printf '\t')
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# One line per boot: name, state (ok or lost), verdict, wall_s, first FAIL.
while IFS=$tab read -r name res _; do
	v=$(grep -h '^verdict ' "$res/expect.txt" 2>/dev/null | sed 's/.*: \([A-Z]*\).*/\1/')
	if [ -s "$res/console.log" ] && [ -s "$res/verdict" ] && [ -n "$v" ]; then
		state=ok
	else
		state=lost
	fi
	wall=$(sed -n 's/^wall_s=//p' "$res/boot.txt" 2>/dev/null)
	why="runner $(cat "$res/verdict" 2>/dev/null || echo missing)"
	fail=$(grep -m1 '^  FAIL' "$res/expect.txt" 2>/dev/null | sed 's/^  FAIL  //')
	printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$state" "${v:--}" "${wall:--}" "$why${fail:+; $fail}"
done <"$list" >"$tmp/boots"

boots=$(wc -l <"$tmp/boots")
lost=$(awk -F'\t' '$2 == "lost"' "$tmp/boots" | wc -l)
common=$(awk -F'\t' '$2 == "ok" { print $3 }' "$tmp/boots" | sort | uniq -c |
	sort -rn | awk 'NR == 1 { print $2 }')
awk -F'\t' -v c="$common" '$2 == "ok" && $3 != c' "$tmp/boots" >"$tmp/flaky"
flaky=$(wc -l <"$tmp/flaky")
left=$(pgrep -fc -- "qemu-system.*$pattern" || true)
# Attempts beyond the first: host faults the runner retried.
retried=$(awk -F'\t' 'NR > 1 { n[$9]++ } END { r = 0; for (c in n) r += n[c] - 1; print r }' \
	"$joblog" 2>/dev/null)

KTAP_BUF=$tmp/ktap
# shellcheck source=tools/tests/ktap.sh
. "$(dirname "$0")/../tools/tests/ktap.sh"
check() { if [ "$1" = 0 ]; then ok "$2"; else bad "$2"; fi; }
check "$lost" "$boots boots, $lost lost logs"
awk -F"$tab" '$2 == "lost" { print "lost: " $1 " (" $5 ")" }' "$tmp/boots" | diag
check "$left" "$left QEMU left"
check "$flaky" "verdict the same every time (${common:-none}): $flaky flipped"
awk -F"$tab" '{ print "flaky: " $1 " " $3 " (" $5 ")" }' "$tmp/flaky" | diag
check "$([ "$common" = PASS ]; echo $?)" "the common verdict is PASS (${common:-none})"
awk -F'\t' '$4 != "-" { print $4 }' "$tmp/boots" | sort -n | awk '
	{ t[NR] = $1 }
	END {
		if (!NR) exit
		p95 = int((NR * 95 + 99) / 100)
		printf "boot time: median %.1f s, p95 %.1f s, max %.1f s (%d boots)\n",
			(NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2), t[p95], t[NR], NR
	}' | diag
diag "host faults retried by the runner: ${retried:-0}"
ktap_end
