#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The last step of `make detect-modes`: the detection corpus's results in
# each unsigned-wrap mode, side by side, and the catch rate of each mode.
#
# usage: detect-modes.sh TOP OUT MODE=DETECT...
#   TOP     the checkout (corpus/BUG/{bug,known-bugs}.tsv)
#   OUT     the TSV to write: bug, expected site, then one result per mode
#   MODE    off (the kit's default), all, size_t, or directories separated
#           by commas; DETECT is that mode's detect folder (table.tsv,
#           written by detect-table.sh)
#
# A bug missed in a directories mode whose expected unsigned wrap lies
# outside those directories reads "not-opted-in". Exit status 1 when a
# mode has no table; 2 when OUT cannot be written (a full disk: the one
# line of tools/space.sh), which is then written whole or not at all.
set -u
top=$1
out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
corpus=$out.corpus.tsv
known=$out.known-bugs.tsv
tmp=$out.tmp
# a write failed: no table, and why
nowrite() {
	sh "$top/tools/space.sh" nowrite detect-modes "$out" "$1" "$tmp"
	exit 2
}
sh "$here/tsv.sh" "$top/corpus" bug 2>/dev/null >"$corpus" || nowrite "$corpus"
sh "$here/tsv.sh" "$top/corpus" known-bugs 2>/dev/null >"$known" || nowrite "$known"

rc=0

# the result of $1 in table $2, "-" when the mode has no row for it
result() {
	[ -r "$2" ] || { echo -; return; }
	awk -F'\t' -v b="$1" 'NR > 1 && $1 == b { r = $5 } END { print r ? r : "-" }' "$2"
}

# 0 when file $1 lies in one of the comma-separated directories $2
in_dirs() {
	for d in $(echo "$2" | tr ',' ' '); do
		case $1 in "$d"/*) return 0 ;; esac
	done
	return 1
}

header="bug	expected"
for arg in "$@"; do
	mode=${arg%%=*}
	if [ ! -r "${arg#*=}/table.tsv" ]; then
		echo "detect-modes: no table for mode $mode (${arg#*=}/table.tsv)" >&2
		rc=1
	fi
	header="$header	$mode"
done
echo "$header" 2>/dev/null >"$tmp" || nowrite "$out"

awk -F'\t' 'NR > 1 && $1 !~ /^#/ { print $1 "\t" $3 }' "$corpus" |
while IFS="$(printf '\t')" read -r bug expect; do
	site=$(awk -F'\t' -v b="$bug" 'NR > 1 && $1 == b { print $4 " " $2 " " $3 }' "$known")
	file=$(echo "$site" | cut -d' ' -f2)
	kind=$(echo "$site" | cut -d' ' -f1)
	[ "$expect" = clean ] && site="clean: nothing reported"
	row="$bug	$site"
	for arg in "$@"; do
		mode=${arg%%=*}
		r=$(result "$bug" "${arg#*=}/table.tsv" 2>/dev/null)
		case $mode in off | all | size_t) ;; *)
			if [ "$r" = missed ] && [ "$kind" = unsigned-integer-overflow ] &&
				! in_dirs "$file" "$mode"; then
				r=not-opted-in
			fi ;;
		esac
		row="$row	$r"
	done
	echo "$row"
done 2>/dev/null >>"$tmp" || nowrite "$out"
mv "$tmp" "$out" || nowrite "$out"

echo
echo "detection corpus per unsigned-wrap mode ($out):"
awk -F'\t' '
NR == 1 {
	n = NF
	line = sprintf("  %-20s", "bug")
	for (i = 3; i <= NF; i++) {
		name[i] = $i
		line = line sprintf(" %-14s", substr($i, 1, 14))
	}
	print line "  expected"
	next
}
{
	line = sprintf("  %-20s", $1)
	for (i = 3; i <= n; i++) {
		line = line sprintf(" %-14s", $i)
		if ($2 ~ /^clean/)
			continue
		total[i]++
		if ($i == "caught")
			caught[i]++
		if ($i != "-")
			ran[i]++
	}
	print line "  " $2
}
END {
	for (i = 3; i <= n; i++)
		if (!ran[i])
			printf "UNSIGNED_WRAP=%s: not run\n", name[i]
		else
			printf "caught %d of %d (%.0f%%) with UNSIGNED_WRAP=%s\n",
				caught[i], total[i], 100 * caught[i] / total[i],
				name[i]
}' "$out"
exit $rc
