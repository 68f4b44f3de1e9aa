#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The last step of `make detect`: for each bug of the detection corpus, did
# the sanitizers report the site that patches/regressions/known-bugs.tsv
# expects, in the boot of the kernel with that bug put back?
#
# usage: detect-table.sh KIT DETECT BUG...
#   KIT     the kit (patches/regressions/{corpus,known-bugs}.tsv)
#   DETECT  the detect build folder: boots/BUG/{triage.tsv,console.log,
#           verdict,boot.txt}, boots/control/triage.tsv, times.tsv
#
# A bug is caught when its boot's triage has a site of the expected kind in
# the expected file and function. The control boot (every reproducer, no
# bug put back) must not report that site: "control" says so.
# Prints the table and writes DETECT/table.tsv. Exit status 0.
set -u
kit=$1
detect=$2
shift 2
corpus=$kit/patches/regressions/corpus.tsv
known=$kit/patches/regressions/known-bugs.tsv
out=$detect/table.tsv
tab=$(printf '\t')

# expected rows of a bug: name, or name-suffix for its further sites
expected() {
	awk -F'\t' -v b="$1" 'NR > 1 && ($1 == b || index($1, b "-") == 1)' "$known"
}

# sites of TSV $1 matching file $2, function $3, kind $4: "site function"
matching() {
	[ -r "$1" ] || return 0
	awk -F'\t' -v f="$2" -v fn="$3" -v k="$4" \
		'$2 == k && index($3, f ":") == 1 && $4 == fn { print $3 " " $4 }' "$1"
}

printf 'bug\tfix\tcve\texpected\tresult\treported\tcontrol\treproducer\trunner\tbuild_s\tboot_s\n' >"$out"
caught=0
total=0
for bug in "$@"; do
	total=$((total + 1))
	dir=$detect/boots/$bug
	first=$(expected "$bug" | head -1)
	fix=$(echo "$first" | cut -f5)
	cve=$(echo "$first" | cut -f6)
	want=$(echo "$first" | awk -F'\t' '{ print $4 " " $2 " " $3 }')
	got=
	ctl=
	while IFS="$tab" read -r _ file fn kind _; do
		[ -n "$file" ] || continue
		got="$got$(matching "$dir/triage.tsv" "$file" "$fn" "$kind")
"
		ctl="$ctl$(matching "$detect/boots/control/triage.tsv" "$file" "$fn" "$kind")"
	done <<EOF
$(expected "$bug")
EOF
	got=$(echo "$got" | sed '/^$/d' | sort -u | paste -sd ';' -)
	if [ -n "$got" ]; then
		result=caught
		caught=$((caught + 1))
	else
		result=missed
		# what the boot did report from the expected file, if anything
		f=$(echo "$first" | cut -f2)
		got=$(awk -F'\t' -v f="$f" 'index($3, f ":") == 1 { print $2 " " $3 " " $4 }' \
			"$dir/triage.tsv" 2>/dev/null | sort -u | paste -sd ';' -)
		# else the crashes it caused (reports with no source site)
		[ -n "$got" ] || got=$(awk -F'\t' '$3 == "-" { print $6 }' \
			"$dir/triage.tsv" 2>/dev/null | sort -u | paste -sd ';' -)
		[ -n "$got" ] || got="-"
	fi
	[ -n "$ctl" ] && ctl="FIRED" || ctl=clean
	if grep -q '# vulnerable' "$dir/console.log" 2>/dev/null; then
		repro=vulnerable
	elif grep -q '# SKIP' "$dir/console.log" 2>/dev/null; then
		repro=skipped
	else
		repro=not-shown
	fi
	runner=$(cat "$dir/verdict" 2>/dev/null || echo missing)
	build=$(awk -F'\t' -v b="$bug" '$1 == b && $2 == "build" { print $3 }' \
		"$detect/times.tsv" 2>/dev/null)
	boot=$(sed -n 's/^wall_s=//p' "$dir/boot.txt" 2>/dev/null)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$bug" "${fix:--}" \
		"${cve:--}" "$want" "$result" "$got" "$ctl" "$repro" "$runner" \
		"${build:--}" "${boot:--}" >>"$out"
done

echo
echo "detection corpus ($out):"
awk -F'\t' '{ printf "  %-15s %-13s %-15s %-9s %-10s %-11s %s\n", $1, $2, $3, $5, $7, $8, $4;
	if (NR > 1) printf "  %15s reported: %s\n", "", $6 }' "$out"
echo
echo "caught $caught of $total ($(awk -v c=$caught -v t=$total 'BEGIN { printf "%.0f", t ? 100 * c / t : 0 }')%)"
awk -F'\t' 'NR > 1 && $5 == "missed" { print $1 }' "$out" | while read -r bug; do
	echo "  missed $bug: $(awk -F'\t' -v b="$bug" '$1 == b { print $3 }' "$corpus")"
done
awk -F'\t' 'NR > 1 && $7 == "FIRED" { print "  warning: " $1 "'"'"'s expected site also fired without the bug (control boot)" }' "$out"
exit 0
