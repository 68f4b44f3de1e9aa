#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-ignorelist.sh against the real patched tree: the kit's own lists
# pass, and each kind of bad entry fails. KTAP on stdout.
#
# usage: test-check-ignorelist.sh TREE
set -u
tree=$1
here=$(cd "$(dirname "$0")" && pwd)
check=$here/check-ignorelist.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

# expect NAME pass|fail LIST-TEXT
expect() {
	n=$((n + 1))
	printf '%s' "$3" >"$tmp/t.scl"
	if sh "$check" "$tree" "$tmp/t.scl" >"$tmp/out" 2>&1; then got=pass; else got=fail; fi
	if [ "$got" = "$2" ]; then
		echo "ok $n $1"
	else
		echo "not ok $n $1 # expected $2, got $got"
		sed 's/^/# /' "$tmp/out"
		failed=$((failed + 1))
	fi
}

echo "KTAP version 1"
echo "1..9"
n=1
if sh "$check" "$tree" "$here"/*.scl >"$tmp/out" 2>&1; then
	echo "ok 1 the kit's lists are clean"
else
	echo "not ok 1 the kit's lists are clean"
	sed 's/^/# /' "$tmp/out"
	failed=1
fi
S='[implicit-signed-integer-truncation]
'
expect "stale fun: fails" fail "$S# gone
fun:kit_no_such_function_anywhere
"
expect "stale src: fails" fail "$S# gone
src:kernel/events/no_such_file.c
"
expect "entry without a reason fails" fail "${S}fun:_perf_ioctl
"
expect "entry outside a section fails" fail "# no section
fun:_perf_ioctl
"
expect "glob over several files without why broad: fails" fail "$S# every perf file
src:kernel/events/*.c
"
expect "glob over several files with why broad: passes" pass "$S# why broad: the whole perf core, for this test
src:kernel/events/*.c
"
expect "type: naming a wrapping type passes" pass "$S# wrap_u8 wraps by design
type:wrap_u8
"
expect "type: naming no wrapping type fails" fail "$S# not a wrapping type
type:wrap_kit_nothing
"
[ "$failed" -eq 0 ] && echo "# test-check-ignorelist: all passed" ||
	echo "# test-check-ignorelist: $failed failed"
exit $((failed != 0))
