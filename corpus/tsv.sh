#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One table of the detection corpus from its folders: the header, then the
# rows of every CORPUS/BUG/TABLE.tsv, folders in name order.
# make writes the aggregates into the build directory (corpus.tsv from
# bug.tsv, known-bugs.tsv); detect-table.sh and detect-modes.sh read them
# through this script.
#
# usage: tsv.sh CORPUS TABLE      TABLE = bug or known-bugs
set -eu
[ $# -eq 2 ] || { echo "usage: $0 CORPUS bug|known-bugs" >&2; exit 2; }
corpus=$1
table=$2
first=1
for f in "$corpus"/*/"$table.tsv"; do
	if [ $first = 1 ]; then
		cat "$f"
		first=0
	else
		tail -n +2 "$f"
	fi
done
