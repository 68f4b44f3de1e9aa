#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the libFuzzer target for SECONDS_T seconds, seeded with the test
# corpus, the peer logs and syzkaller's report-parser corpus; fail on any
# crash or sanitizer report.
set -u
: "${FUZZER:?}" "${CORPUS:?}" "${SECONDS_T:=60}" "${PEER_LOGS:=}"
: "${TESTDATA:=testdata}"
mkdir -p "$CORPUS"
for f in "$TESTDATA"/*.log "$PEER_LOGS"/syzkaller/*; do
	[ -f "$f" ] && cp "$f" "$CORPUS/seed-$(basename "$f")"
done
for f in "$PEER_LOGS"/syzkaller-corpus/*; do
	[ -f "$f" ] && cp "$f" "$CORPUS/seed-corpus-$(basename "$f")"
done
log=$CORPUS/../fuzz.log
"$FUZZER" -max_total_time="$SECONDS_T" -timeout=10 -rss_limit_mb=2048 \
	-max_len=65536 -print_final_stats=1 -artifact_prefix="$CORPUS/../" \
	"$CORPUS" >"$log" 2>&1
st=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
[ -n "$runs" ] ||
	runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
if [ "$st" -ne 0 ]; then
	tail -n 40 "$log"
	echo "fuzz: FAILED (status $st) after ${runs:-?} executions; see $log"
	exit 1
fi
echo "fuzz: ${runs:-?} executions in ${SECONDS_T} s, no crash"
