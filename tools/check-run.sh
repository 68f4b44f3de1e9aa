#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make check's runner (mk/check.mk).
#
# usage: check-run.sh run DIR NAME CMD...   run CMD, its output to DIR/NAME.log,
#                                          its exit status and seconds beside
#        check-run.sh summary DIR NAME...  one KTAP line per test, the log of
#                                          each failed one, and the totals
# A test that prints "1..0 # SKIP reason" is reported as skipped. The last
# line is plain "N passed, N failed" (skipped tests count as passed).
# Exit status of summary: 1 when a test failed.
set -u
mode=$1
dir=$2
shift 2
case $mode in
run)
	name=$1
	shift
	mkdir -p "$dir"
	start=$(date +%s)
	"$@" >"$dir/$name.log" 2>&1
	echo $? >"$dir/$name.rc"
	echo $(($(date +%s) - start)) >"$dir/$name.time"
	exit 0
	;;
summary) ;;
*)
	echo "usage: $0 run DIR NAME CMD... | summary DIR NAME..." >&2
	exit 2
	;;
esac

echo "TAP version 13"
echo "1..$#"
n=0
pass=0
fail=0
for name in "$@"; do
	n=$((n + 1))
	rc=$(cat "$dir/$name.rc" 2>/dev/null || echo missing)
	secs=$(cat "$dir/$name.time" 2>/dev/null || echo '?')
	# the plain closing lines of its suites, added up; else its last "# " one
	last=$(awk '/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3; n++ }
		END { if (n) printf "%d passed, %d failed", p, f }' "$dir/$name.log" 2>/dev/null)
	[ -n "$last" ] || last=$(grep -E '^# [0-9]+ passed, [0-9]+ failed' \
		"$dir/$name.log" 2>/dev/null | tail -1)
	skip=$(sed -n 's/^1\.\.0 # SKIP \(.*\)/\1/p' "$dir/$name.log" 2>/dev/null | head -1)
	echo "# $name: $secs s${last:+, ${last#\# }}"
	if [ "$rc" = 0 ]; then
		pass=$((pass + 1))
		echo "ok $n - $name${skip:+ # SKIP $skip}"
	else
		fail=$((fail + 1))
		sed 's/^/    /' "$dir/$name.log" 2>/dev/null
		echo "not ok $n - $name (exit status $rc; log: $dir/$name.log)"
	fi
done
echo "# $pass passed, $fail failed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
