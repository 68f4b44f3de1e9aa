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
check "series applies to the pristine tree ($(make -s -C "$pristine" kernelversion))" [ $? -eq 0 ]
check "handlers are in lib/ubsan.c" \
	grep -q '__ubsan_handle_implicit_conversion' "$tmp/tree/lib/ubsan.c"
# 6.1's series lists the two perf fixes that 6.1.192 already has; a
# series that lists none (6.12's) has nothing to skip.
upstream=$(grep -c '^[^#]*000[67]-perf' "$series")
check "the perf fixes the series lists ($upstream) are detected as already present" \
	[ "$(grep -c 'SKIP    000[67]-perf' "$tmp/out")" -eq "$upstream" ]

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

# A patch that does not apply either way is named, with its hunk: the
# series' first patch with the first context line of its first hunk changed.
mkdir "$tmp/bad"
first=$(dirname "$series")/$(sed -e 's/#.*//' "$series" | awk 'NF { print $1; exit }')
first_file=$(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$first" | head -n 1)
awk '/^@@/ && !h { h = 1 } h == 1 && /^ / { $0 = " broken " substr($0, 2); h = 2 } { print }' \
	"$first" >"$tmp/bad/0001-broken.patch"
echo "0001-broken.patch" >"$tmp/bad/series"
mkdir "$tmp/tree2"
cp "$pristine/Makefile" "$tmp/tree2/"
if "$apply" "$pristine" "$tmp/tree2" "$tmp/bad/series" >"$tmp/out" 2>&1; then
	not_ok "a patch that does not apply stops the run"
else
	check "a patch that does not apply is named with its file and hunk" \
		sh -c "grep -q '0001-broken.patch does not apply' '$tmp/out' &&
			grep -q 'Hunk #1 FAILED at' '$tmp/out' && grep -qF '$first_file' '$tmp/out'"
fi

# Dropping a patch from the series restores the pristine file.
# (maple_tree's patches, 0016 and 0044: no other patch touches the file.)
# A series names its patches relative to its folder (6.12's shares 6.1's
# as ../6.1/NNNN): the copy keeps the folders side by side.
mkdir -p "$tmp/p/series.d"
sed '/-maple_tree-/d' "$series" >"$tmp/p/series.d/series.short"
cp "$(dirname "$series")"/*.patch "$tmp/p/series.d/"
for d in "$(dirname "$series")"/../*/; do
	mkdir -p "$tmp/p/$(basename "$d")"
	cp "$d"*.patch "$tmp/p/$(basename "$d")/" 2>/dev/null
done
git_free_tree=$tmp/tree
sed -i '$d' "$git_free_tree/lib/ubsan.c" # undo the hand edit
"$apply" "$pristine" "$git_free_tree" "$tmp/p/series.d/series.short" >"$tmp/out" 2>&1
check "a dropped patch's files are restored" \
	cmp -s "$pristine/lib/maple_tree.c" "$git_free_tree/lib/maple_tree.c"

echo "# $pass passed, $fail failed"
echo "apply-series: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
