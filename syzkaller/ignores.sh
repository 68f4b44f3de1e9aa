#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The "ignores" of a syz-manager config, generated from the kit's own list
# of explained sites, so that a report the kit has already explained does
# not make syzkaller save a crash and restart the VM.
#
# usage: ignores.sh SITES-TSV [TRIAGE-TSV...]
#   SITES-TSV   annotations/sites.tsv: every row but class "bug" (a real bug
#               must stay a crash)
#   TRIAGE-TSV  ubsan-triage --tsv output of earlier boots or fuzzing runs:
#               the sites it classed with an explanation (an idiom rule of
#               annotations/rules.tsv, say), that is every class but "new" and "finding",
#               "bug" and "known-bug"; absent files are skipped
#
# syz-manager matches an ignore against the report's first line, for the
# kit "UBSAN: KIND in FILE:LINE:COL", so every entry is a site: KIND and
# FILE:LINE, or KIND and FILE for a row without a line. Prints the JSON
# array, one entry a line, sorted.
set -eu

[ $# -ge 1 ] || {
	echo "usage: $0 SITES-TSV [TRIAGE-TSV...]" >&2
	exit 2
}
sites=$1
shift
tsvs=
for f in "$@"; do
	[ -f "$f" ] && tsvs="$tsvs $f"
done

# site<TAB>kind from both sources (the file names tell them apart).
# shellcheck disable=SC2086
awk -F'\t' -v sites="$sites" '
	FNR == 1 && ($1 == "site" || $1 == "class") { next }
	FILENAME == sites {
		if ($4 != "bug")
			print $1 "\t" $3
		next
	}
	$1 != "new" && $1 != "finding" && $1 !~ /bug$/ && $3 ~ /:[0-9]+(:[0-9]+)?$/ {
		sub(/:[0-9]+$/, "", $3)     # the column: reports name LINE:COL
		print $3 "\t" $2
	}' "$sites" $tsvs | sort -u | awk -F'\t' '
	# a regular expression that matches S literally, in a JSON string
	function esc(s,    out, c, i) {
		out = ""
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			out = out (index(".+?()|[]{}^$*", c) ? "\\\\" : "") c
		}
		return out
	}
	BEGIN { print "[" }
	{
		site = $1
		sub(/^\.\//, "", site)
		site = esc(site)
		kind = $2 == "*" ? "[a-z-]+" : $2
		# a row without a line stands for the whole file
		loc = site ~ /:[0-9]+$/ ? site ":" : site ":[0-9]+:"
		if (n++)
			printf ",\n"
		printf "\t\"UBSAN: %s in (\\\\./)?%s\"", kind, loc
	}
	END { print "\n]" }'
