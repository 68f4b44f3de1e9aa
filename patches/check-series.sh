#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Each kernel's series names patches that exist, once each, and every
# patch of patches/KERNEL/ is in a series (make check, no kernel needed;
# test-apply-series.sh applies them to the unpacked tree). One KTAP line
# per series.
#
# usage: check-series.sh TOP
set -u
top=${1:?usage: check-series.sh TOP}
set --
for s in "$top"/patches/*/series; do
	set -- "$@" "$s"
done
echo "TAP version 13"
echo "1..$(($# + 1))"
n=0
pass=0
fail=0
listed=$(mktemp)
trap 'rm -f "$listed"' EXIT
for s in "$@"; do
	n=$((n + 1))
	d=$(dirname "$s")
	name=${s#"$top"/}
	why=
	entries=$(sed -e 's/#.*//' "$s" | awk 'NF { print $1 }')
	for p in $entries; do
		[ -f "$d/$p" ] || why="$why; $p: no such file"
		(cd "$d" && realpath "$p") >>"$listed" 2>/dev/null
	done
	dups=$(echo "$entries" | sort | uniq -d)
	[ -z "$dups" ] || why="$why; listed twice: $dups"
	if [ -z "$why" ]; then
		pass=$((pass + 1))
		echo "ok $n - $name"
	else
		fail=$((fail + 1))
		echo "# ${why#; }"
		echo "not ok $n - $name"
	fi
done
# every patch file of a series folder is listed by some series
n=$((n + 1))
unlisted=$(for p in "$top"/patches/*/[0-9]*.patch; do
	grep -qx "$(realpath "$p")" "$listed" || echo "${p#"$top"/}"
done)
if [ -z "$unlisted" ]; then
	pass=$((pass + 1))
	echo "ok $n - every patch is in a series"
else
	fail=$((fail + 1))
	echo "$unlisted" | sed 's/^/# not in a series: /'
	echo "not ok $n - every patch is in a series"
fi
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
