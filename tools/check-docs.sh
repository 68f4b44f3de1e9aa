#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The docs name what exists (make check): in README.md and docs/*.md (or
# the documents named),
#  - every `make TARGET` (in backquotes or a code block) is a target of the
#    Makefile or mk/*.mk;
#  - every repo path in backquotes (its first part a top-level file or
#    folder of the checkout) exists, or starts with build/ (the build
#    layout). Placeholders are not checked: a part in capitals (BUG, NAME)
#    or with <, {, *, $; a :LINE suffix is dropped; a span after a
#    possessive ("syzkaller's `docs/hub.md`") is another project's path,
#    as is the directory of make -C (it may be the kernel tree's).
# One KTAP line per document.
#
# usage: check-docs.sh TOP [DOC...]      (default: README.md docs/*.md)
set -u
top=${1:?usage: check-docs.sh TOP [DOC...]}
shift
cd "$top" || exit 2
if [ $# -eq 0 ]; then
	set -- README.md
	for f in docs/*.md; do
		[ -f "$f" ] && set -- "$@" "$f"
	done
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# every target make knows, from its database (no recipe runs)
make -C "$top" -pRrq : 2>/dev/null |
	awk -F: '/^[A-Za-z0-9][^$#=\t ]*:([^=]|$)/ { print $1 }' | sort -u >"$tmp/targets"
# top-level names of the checkout
ls -A "$top" >"$tmp/top"

# `...` spans and fenced code lines of a document, one per line; a span
# after a possessive ("syzkaller's `docs/hub.md`", "the tree's
# `tools/testing/`", "its `tools/perf`") names another project's file:
# marked "ext ".
code_of() {
	awk '
	function spans(text,   pre) {
		while (match(text, /`[^`]+`/)) {
			pre = substr(text, 1, RSTART - 1)
			printf "%s%s\n", (pre ~ /([A-Za-z]\x27s|(^|[^A-Za-z])its) +$/ ? "ext " : ""), \
				substr(text, RSTART + 1, RLENGTH - 2)
			text = substr(text, RSTART + RLENGTH)
		}
	}
	/^```/ { spans(para); para = ""; fence = !fence; next }
	fence { print; next }
	/^[[:space:]]*$/ { spans(para); para = ""; next }
	{ para = para " " $0 }
	END { spans(para) }' "$1"
}

# the targets of each "make ..." in code: words after make that are not
# options or VAR=value, up to the first word that is neither
targets_of() {
	sed -n 's/.*\(^\|[^A-Za-z0-9_-]\)make \(.*\)/\2/p' |
		awk 'BEGIN {
			# targets of the kernel tree itself, which the docs quote
			split("defconfig tinyconfig olddefconfig emit_tests kernelversion", k)
			for (i in k) kernel[k[i]] = 1
		}
		{
		for (i = 1; i <= NF; i++) {
			w = $i
			if (w ~ /^-/) { if (w ~ /^-[CfIo]$/) i++; continue }
			if (w ~ /^[A-Za-z_][A-Za-z0-9_]*=/) continue
			if (w ~ /^[a-z][a-z0-9._-]*$/) { if (!(w in kernel)) print w; continue }
			break
		}}'
}

# repo paths in backquoted spans
paths_of() {
	grep -v '^ext ' | sed 's/-C [^ ]*//g' | tr ' ' '\n' | sed 's/[,;.)]*$//; s/:[0-9][0-9:-]*$//' |
		grep -e / | grep -v -e '^[/~.-]' | grep -v '[<{*$|>]' |
		grep -vE '(^|/)[A-Z][A-Z0-9_]*(/|\.|$)' | grep -v '^build/' | sort -u
}

KTAP_BUF=$tmp/ktap
# shellcheck source=tools/tests/ktap.sh
. "$(dirname "$0")/tests/ktap.sh"
for doc in "$@"; do
	code_of "$doc" >"$tmp/code"
	bad=
	for t in $(targets_of <"$tmp/code" | sort -u); do
		grep -qx "$t" "$tmp/targets" || bad="$bad
$doc: make $t: no such target"
	done
	for p in $(paths_of <"$tmp/code"); do
		grep -qx "${p%%/*}" "$tmp/top" || continue
		[ -e "$p" ] || bad="$bad
$doc: $p: no such path"
	done
	if [ -z "$bad" ]; then
		ok "$doc"
	else
		bad "$doc" "$(echo "$bad" | sed '/^$/d')"
	fi
done
ktap_end
