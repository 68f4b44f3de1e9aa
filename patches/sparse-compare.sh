#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run sparse (C=2) over every kernel C file that the patch series touches,
# in the patched tree and in an unpatched tree of the same configuration,
# and fail if the patches add a sparse warning.
#
# usage: sparse-compare.sh PRISTINE TREE BASE SERIES
#   PRISTINE  the unpacked tarball (never written)
#   TREE      the kit's patched, configured and built tree
#   BASE      a scratch copy of PRISTINE, configured like TREE (made here)
#   SERIES    patches/6.1/series
#
# Warnings are compared per file by their text without line numbers, since
# the patches move lines; a warning that appears more often after the
# patches than before counts as new. The caller holds the Kbuild lock.
set -eu

[ $# -eq 4 ] || { echo "usage: $0 PRISTINE TREE BASE SERIES" >&2; exit 2; }
pristine=$1 tree=$2 base=$3 series=$4
pdir=$(dirname "$series")
kmake() {
	make -s -C "$1" ARCH=x86_64 LLVM=1 C=2 CHECK=sparse -j1 "$2" 2>&1
}

if [ ! -f "$base/Makefile" ]; then
	echo "  COPY    $base"
	rm -rf "$base.tmp" && cp -a "$pristine" "$base.tmp" && mv "$base.tmp" "$base"
fi
# The kit's options do not exist there: olddefconfig drops them.
if ! cmp -s "$tree/.config" "$base/.kit-config.src" 2>/dev/null; then
	cp "$tree/.config" "$base/.config"
	cp "$tree/.config" "$base/.kit-config.src"
	make -s -C "$base" ARCH=x86_64 LLVM=1 olddefconfig
fi

# Kernel C files the series touches and this configuration builds.
files=$(sed -e 's/#.*//' "$series" | awk 'NF { print $1 }' |
	while read -r p; do
		sed -n 's|^+++ b/\([^[:space:]]*\.c\).*|\1|p' "$pdir/$p"
	done | sort -u | grep -v '^tools/' || true)

new=0 checked=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in $files; do
	o=${f%.c}.o
	if [ ! -f "$tree/$o" ]; then
		echo "  skip  $f (not built in this configuration)"
		continue
	fi
	checked=$((checked + 1))
	for side in tree base; do
		eval dir=\$$side
		# shellcheck disable=SC2154 # dir is set by the eval above
		[ -f "$dir/$f" ] || { : >"$tmp/$side"; continue; }
		kmake "$dir" "$o" | grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' |
			sed -E 's/:[0-9]+:[0-9]+:/:/' | sort >"$tmp/$side" || true
	done
	# Lines that occur more often in the patched tree than in the base.
	added=$(sort "$tmp/tree" | uniq -c | while read -r n line; do
		m=$(grep -cxF -- "$line" "$tmp/base" || true)
		[ "$n" -gt "$m" ] && echo "$line"
	done || true)
	before=$(wc -l <"$tmp/base")
	after=$(wc -l <"$tmp/tree")
	if [ -n "$added" ]; then
		echo "  NEW   $f: $before -> $after warnings"
		echo "$added" | sed 's/^/          /'
		new=$((new + 1))
	else
		echo "  ok    $f: $before -> $after warnings"
	fi
done
echo "sparse: $checked files checked, $new with new warnings"
[ "$new" -eq 0 ]
