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
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
listed=$tmp/listed
KTAP_BUF=$tmp/ktap
# shellcheck source=tools/tests/ktap.sh
. "$top/tools/tests/ktap.sh"
for s in "$@"; do
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
	if [ -z "$why" ]; then ok "$name"; else bad "$name" "${why#; }"; fi
done
# every patch file of a series folder is listed by some series
unlisted=$(for p in "$top"/patches/*/[0-9]*.patch; do
	grep -qx "$(realpath "$p")" "$listed" || echo "${p#"$top"/}"
done)
if [ -z "$unlisted" ]; then
	ok "every patch is in a series"
else
	bad "every patch is in a series" "$(echo "$unlisted" | sed 's/^/not in a series: /')"
fi
ktap_end
