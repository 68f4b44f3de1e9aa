#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Throughput of ubsan-triage against grep -c 'UBSAN:' on the same large log
# (best of 3 runs each, file in the page cache). The log is kept for reuse.
set -u
: "${TRIAGE:?}" "${GENLOG:?}" "${LOG:?}" "${MIB:=1024}"
want=$((MIB * 1048576))
have=$(stat -c %s "$LOG" 2>/dev/null || echo 0)
if [ "$have" -lt "$want" ]; then
	echo "bench: writing $MIB MiB to $LOG"
	"$GENLOG" "$MIB" "$LOG" || exit 1
fi
size=$(stat -c %s "$LOG")
cat "$LOG" >/dev/null
now() { date +%s%N; }
best() { # command... -> best wall time in ns
	b=
	# shellcheck disable=SC2034 # i counts the rounds only
	for i in 1 2 3; do
		s=$(now)
		"$@" >"$LOG.out"
		e=$(now)
		d=$((e - s))
		if [ -z "$b" ] || [ "$d" -lt "$b" ]; then b=$d; fi
	done
	echo "$b"
}
tg=$(best grep -c 'UBSAN:' "$LOG")
tt=$(best "$TRIAGE" --tsv "$LOG")
rm -f "$LOG.out"
"$TRIAGE" --tsv "$LOG" | awk -F'\t' '{ n += $5 } END {
	print "bench: ubsan-triage found " n " reports at " NR " sites" }'
echo "bench: grep -c 'UBSAN:' found $(grep -c 'UBSAN:' "$LOG") lines"
awk -v s="$size" -v g="$tg" -v t="$tt" 'BEGIN {
	printf "bench: %.0f MiB log\n", s / 1048576
	printf "bench: grep         %.3f s  %.0f MiB/s\n", g / 1e9, s / 1048576 / (g / 1e9)
	printf "bench: ubsan-triage %.3f s  %.0f MiB/s\n", t / 1e9, s / 1048576 / (t / 1e9)
	printf "bench: ratio ubsan-triage/grep = %.2f (target <= 1.5)\n", t / g
	exit (t / g > 1.5) }'
