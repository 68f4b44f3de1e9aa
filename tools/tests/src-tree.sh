#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel source lines the tests' triage reads (the rules' `line`
# column, a finding's statement and next use), kept in
# testdata/judge-src.lines (file, line, text; tab-separated; '#' lines are
# comments) at their lines in 6.1.192's unpatched tree, so that the tests
# need no kernel tree.
#
#   src-tree.sh build LINES DEST
#       lay LINES out in DEST as a tree of their own (the other lines
#       empty): the --src of the tests
#   src-tree.sh lines TRIAGE KIT TREE LINES LOG...
#       print LINES again, with the statement (three lines either side) at
#       every site of the LOGs that a row of KIT's annotations/sites.tsv
#       explains, read from TREE (build/src/linux-source-6.1): run it when
#       a log or a row is added, then review the diff. test_ubsan's files
#       are left out: the kit's series rewrites them, so the unpatched
#       tree's lines are not the logs'.
#   src-tree.sh verify LINES TREE
#       the lines of LINES that differ from TREE's, one a line; none: exit 0
set -u
mode=${1:-}
case $mode in
build)
	lines=$2 dest=$3
	rm -rf "$dest"
	mkdir -p "$dest"
	while IFS='	' read -r file line text; do
		case $file in '#'* | '') continue ;; esac
		mkdir -p "$dest/$(dirname "$file")"
		f=$dest/$file
		[ -f "$f" ] || : >"$f"
		have=$(wc -l <"$f")
		while [ "$have" -lt $((line - 1)) ]; do
			echo >>"$f"
			have=$((have + 1))
		done
		printf '%s\n' "$text" >>"$f"
	done <"$lines"
	;;
lines)
	triage=$2 kit=$3 tree=$4 lines=$5
	shift 5
	grep '^#' "$lines"
	{
		grep -v '^#' "$lines" | cut -f1,2
		"$triage" --kit "$kit" --redundant-rows "$@" |
			awk -F'\t' '!/^#/ && $1 != "unseen" {
				n = split($9, s, " ")
				for (i = 1; i <= n; i++) {
					sub(/=.*/, "", s[i])
					split(s[i], p, ":")
					if (p[1] !~ /^lib\/test_ubsan/)
						for (l = p[2] - 3; l <= p[2] + 3; l++)
							if (l > 0)
								print p[1] "\t" l
				}
			}'
	} | sort -t '	' -k1,1 -k2,2n -u | while IFS='	' read -r file line; do
		[ -f "$tree/$file" ] || continue
		printf '%s\t%s\t%s\n' "$file" "$line" "$(sed -n "${line}p" "$tree/$file")"
	done
	;;
verify)
	lines=$2 tree=$3
	grep -v '^#' "$lines" | while IFS='	' read -r file line text; do
		want=$(sed -n "${line}p" "$tree/$file" 2>/dev/null |
			sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
		got=$(printf '%s' "$text" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
		[ "$got" = "$want" ] || echo "$file:$line: '$got', the tree has '$want'"
	done
	;;
*)
	echo "usage: $0 build LINES DEST | lines TRIAGE KIT TREE LINES LOG... | verify LINES TREE" >&2
	exit 2
	;;
esac
