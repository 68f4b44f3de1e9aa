#!/bin/sh
# Tests of apply-series.sh on a scratch tree that holds only what the series
# touches (apply-series.sh copies the rest from the pristine tree).
#
# usage: test-apply-series.sh PRISTINE SERIES
set -u
pristine=$1
series=$2
here=$(cd "$(dirname "$0")" && pwd)
apply=$here/apply-series.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0

ok() {
	pass=$((pass + 1))
	echo "ok $((pass + fail)) $1"
}

not_ok() {
	fail=$((fail + 1))
	echo "not ok $((pass + fail)) $1"
	sed 's/^/# /' "$tmp/out"
}

check() {
	name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

echo "KTAP version 1"
echo "1..7"
mkdir "$tmp/tree"
cp "$pristine/Makefile" "$tmp/tree/"

"$apply" "$pristine" "$tmp/tree" "$series" >"$tmp/out" 2>&1
check "series applies to pristine 6.1.192" [ $? -eq 0 ]
check "handlers are in lib/ubsan.c" \
	grep -q '__ubsan_handle_implicit_conversion' "$tmp/tree/lib/ubsan.c"
check "both perf fixes are detected as already present" \
	[ "$(grep -c 'SKIP    000[67]-perf' "$tmp/out")" -eq 2 ]

"$apply" "$pristine" "$tmp/tree" "$series" >"$tmp/out" 2>&1
check "a second run changes nothing" \
	sh -c "[ \$? -eq 0 ] && ! grep -q UPDATE '$tmp/out'"

echo "/* by hand */" >>"$tmp/tree/lib/ubsan.c"
if "$apply" "$pristine" "$tmp/tree" "$series" >"$tmp/out" 2>&1; then
	not_ok "a hand-edited file stops the run"
else
	check "a hand-edited file stops the run and is named" \
		grep -q 'lib/ubsan.c: FAILED' "$tmp/out"
fi

# A patch that does not apply either way is named, with its hunk.
mkdir "$tmp/bad"
sed "s/^ \tcheck_panic_on_warn(\"UBSAN\");/ \tcheck_panic_on_warn(\"UBSAN!\");/" \
	"$(dirname "$series")/0001-"*.patch >"$tmp/bad/0001-broken.patch"
echo "0001-broken.patch" >"$tmp/bad/series"
mkdir "$tmp/tree2"
cp "$pristine/Makefile" "$tmp/tree2/"
if "$apply" "$pristine" "$tmp/tree2" "$tmp/bad/series" >"$tmp/out" 2>&1; then
	not_ok "a patch that does not apply stops the run"
else
	check "a patch that does not apply is named with its file and hunk" \
		sh -c "grep -q '0001-broken.patch does not apply' '$tmp/out' &&
			grep -q 'Hunk #1 FAILED at' '$tmp/out' && grep -q 'lib/ubsan.c' '$tmp/out'"
fi

# Dropping a patch from the series restores the pristine file.
# (maple_tree's patch: no later patch builds on it.)
sed '/0016-maple_tree/d' "$series" >"$tmp/series.short"
for p in "$(dirname "$series")"/*.patch; do cp "$p" "$tmp/"; done
git_free_tree=$tmp/tree
sed -i '$d' "$git_free_tree/lib/ubsan.c" # undo the hand edit
"$apply" "$pristine" "$git_free_tree" "$tmp/series.short" >"$tmp/out" 2>&1
check "a dropped patch's files are restored" \
	cmp -s "$pristine/lib/maple_tree.c" "$git_free_tree/lib/maple_tree.c"

echo "# $pass passed, $fail failed"
echo "apply-series: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
