#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A copy of the kit's lists that knows none of the bugs: the ignorelist and
# the rules as they are, annotations/sites.tsv without its rows of class
# bug, and no corpus (so no known-bugs.tsv). ubsan-triage --kit OUT then
# judges every bug site as if nobody had ever seen it: by rule alone. Used
# by the judgement tests and by make noise's last table.
#
# usage: kit-without-bugs.sh KIT OUT      (OUT is made anew)
set -eu

[ $# -eq 2 ] || {
	echo "usage: $0 KIT OUT" >&2
	exit 2
}
kit=$1 out=$2
for f in "$kit/sanitizer-ignorelist" "$kit/annotations/rules.tsv" \
	"$kit/annotations/sites.tsv"; do
	[ -e "$f" ] || {
		echo "kit-without-bugs: $f: no such file" >&2
		exit 2
	}
done
rm -rf "$out"
mkdir -p "$out/annotations"
cp -r "$kit/sanitizer-ignorelist" "$out/"
cp "$kit/annotations/rules.tsv" "$out/annotations/"
awk -F'\t' '$4 != "bug"' "$kit/annotations/sites.tsv" \
	>"$out/annotations/sites.tsv"
