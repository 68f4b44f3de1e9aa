#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# KTAP tests of syzkaller/ignores.sh against real console logs: every
# report's first line, as syz-manager sees it, must match an ignore when
# ubsan-triage explains its site, and none when the site is new, a finding or a bug.
#
# usage: test-ignores.sh KIT TRIAGE LOG...
set -eu

[ $# -ge 3 ] || {
	echo "usage: $0 KIT TRIAGE LOG..." >&2
	exit 2
}
kit=$1 triage=$2
shift 2
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

# The kernel source lines the rules read (tools/testdata/judge-src.lines, at
# the lines of the test logs' sites), so that a site is classed here as the
# triage of a run classes it, with its kernel's tree (--vmlinux).
sh "$kit/tools/tests/src-tree.sh" build "$kit/tools/testdata/judge-src.lines" \
	"$tmp/src"

# Every log's sites, classed by the kit, and the first lines of its reports.
n=0
for log in "$@"; do
	n=$((n + 1))
	"$triage" --kit "$kit" --src "$tmp/src" --tsv "$log" >"$tmp/$n.tsv" || true
	grep -ao 'UBSAN: [a-z-]* in [^ ]*' "$log" | tr -d '\r' >>"$tmp/lines" || true
done
sort -u "$tmp/lines" -o "$tmp/lines"
sh "$kit/syzkaller/ignores.sh" "$kit/annotations/sites.tsv" "$tmp"/*.tsv >"$tmp/ignores.json"
# The JSON strings back to regular expressions (grep -E reads them as RE2).
sed -n 's/^[[:space:]]*"\(.*\)",*$/\1/p' "$tmp/ignores.json" | sed 's/\\\\/\\/g' >"$tmp/res"
# site -> class, from the TSVs ("./" dropped, as in the reports' lines).
cat "$tmp"/*.tsv | awk -F'\t' '{ s = $3; sub(/^\.\//, "", s); print s "\t" $1 }' |
	sort -u >"$tmp/classes"

echo "TAP version 13"
echo "1..4"
fail=0
npass=0
nfail=0
ok() { # n description status
	if [ "$3" = 0 ]; then
		echo "ok $1 $2"
		npass=$((npass + 1))
	else
		echo "not ok $1 $2"
		fail=1
		nfail=$((nfail + 1))
	fi
}

# 1: the document is a JSON array of strings, one ignore a line.
s=0
head -1 "$tmp/ignores.json" | grep -qx '\[' || s=1
tail -1 "$tmp/ignores.json" | grep -qx '\]' || s=1
[ "$(wc -l <"$tmp/res")" -gt 0 ] || s=1
ok 1 "ignores.sh prints a JSON array ($(wc -l <"$tmp/res") entries)" $s

# 2, 3: explained lines match, new and bug lines do not.
miss=0 wrong=0 seen=0
while IFS= read -r line; do
	site=${line#UBSAN: * in }
	site=${site#./}
	class=$(awk -F'\t' -v s="$site" '$1 == s { print $2; exit }' "$tmp/classes")
	[ -n "$class" ] || continue
	seen=$((seen + 1))
	if printf '%s\n' "[    1.000000][    T1] $line" | grep -Eqf "$tmp/res"; then
		case $class in
		new | finding | bug | known-bug)
			echo "# ignored, but $class: $line"
			wrong=$((wrong + 1))
			;;
		esac
	else
		case $class in
		new | finding | bug | known-bug) ;;
		*)
			echo "# not ignored, but $class: $line"
			miss=$((miss + 1))
			;;
		esac
	fi
done <"$tmp/lines"
ok 2 "every explained report of $seen is ignored" $miss
ok 3 "no new, finding or bug report is ignored" $wrong

# 4: a line of another kind at an explained site is not ignored.
s=0
line=$(awk -F'\t' '$4 == "annotated" && $3 == "implicit-conversion" { print $1; exit }' \
	"$kit/annotations/sites.tsv")
printf '%s\n' "UBSAN: signed-integer-overflow in $line:1" | grep -Eqf "$tmp/res" && s=1
ok 4 "the kind is part of the match ($line)" $s
echo "# $n logs, $(wc -l <"$tmp/lines") distinct first lines"
echo "# $npass passed, $nfail failed"
exit $fail
