#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The last step of `make detect`: for each bug of the detection corpus, did
# the sanitizers report the site that corpus/BUG/known-bugs.tsv expects, in
# the boot of the kernel with that bug put back?
#
# usage: detect-table.sh TOP KERNEL DETECT BUG...
#   TOP     the checkout (corpus/BUG/{bug,known-bugs}.tsv, for every kernel)
#   KERNEL  6.1 or 6.12: corpus/BUG/KERNEL.patch is the bug's revert
#   DETECT  the detect build folder: boots/BUG/{triage.tsv,console.log,
#           verdict,boot.txt}, boots/control/triage.tsv, times.tsv
#
# bug.tsv's expect column says what each row is:
#   bug    caught when its boot's triage has a site of the expected kind in
#          the expected file and function that the triage classed known-bug
#          (so a row's detail glob, if it has one, matched the report);
#          and if a perf group passed the u16 boundary of read_size in that
#          boot, only when the sanitizer reported the very value that the
#          group reached (u16-boundary.sh).
#          The control boot (every reproducer, no bug put back) must not
#          report that site: "control" says so.
#   clean  a change that must stay silent: "clean" when the boot passed, no
#          perf group passed the u16 boundary, and the sanitizers reported
#          nothing from the files its patch touches; else REPORTED or
#          FAILED. Not counted in the catch rate.
# Prints the table and writes DETECT/table.tsv, whole or not at all
# (detect-modes.sh reads it): on a full disk, the one line of
# tools/space.sh and exit status 2. Else exit status 0.
set -u
top=$1
kernel=$2
detect=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$detect"
corpus=$detect/corpus.tsv
known=$detect/known-bugs.tsv
out=$detect/table.tsv
tmp=$out.tmp
# a write failed: no table, and why
nowrite() {
	sh "$top/tools/space.sh" nowrite detect-table "$out" "$1" "$tmp"
	exit 2
}
sh "$here/tsv.sh" "$top/corpus" bug 2>/dev/null >"$corpus" || nowrite "$corpus"
sh "$here/tsv.sh" "$top/corpus" known-bugs 2>/dev/null >"$known" || nowrite "$known"
werr=0
tab=$(printf '\t')

# expected rows of a bug: name, or name-suffix for its further sites
expected() {
	awk -F'\t' -v b="$1" 'NR > 1 && ($1 == b || index($1, b "-") == 1)' "$known"
}

# A triage.tsv row as "site function (values)": "V to R" for a conversion,
# the operation for an arithmetic overflow.
# shellcheck disable=SC2016 # an awk program, expanded by awk
SITE_AWK='
function site(   d) {
	d = ""
	if (match($7, /of value -?[0-9]+ /)) {
		d = substr($7, RSTART + 9, RLENGTH - 10)
		if (match($7, /: result -?[0-9]+$/))
			d = d " to " substr($7, RSTART + 9)
	} else if (match($7, /^-?[0-9]+ [-+*] -?[0-9]+/)) {
		d = substr($7, RSTART, RLENGTH)
	}
	return $3 " " $4 (d == "" ? "" : " (" d ")")
}'

# known-bug sites of TSV $1 matching file $2, function $3, kind $4. The
# function is the one the check is written in (column 4) or the one the
# kernel's report named (the title's, "UBSAN: KIND in FUNC"): a check
# inlined into its caller is reported under the caller's name, and the
# triage matches a corpus row by either.
matching() {
	[ -r "$1" ] || return 0
	awk -F'\t' -v f="$2" -v fn="$3" -v k="$4" "$SITE_AWK"'
		$1 == "known-bug" && $2 == k && index($3, f ":") == 1 &&
		($4 == fn || $6 == "UBSAN: " k " in " fn) { print site() }' "$1"
}

# sites of TSV $1 in the files that patch $2 touches
in_patched_files() {
	[ -r "$1" ] || return 0
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$2" |
		awk -F'\t' "$SITE_AWK"'
		NR == FNR { f[$1 ":"] = 1; next }
		{ for (p in f) if (index($3, p) == 1) print site() }' - "$1"
}

printf 'bug\tfix\tcve\texpected\tresult\treported\tcontrol\treproducer\trunner\tbuild_s\tboot_s\n' \
	2>/dev/null >"$tmp" || werr=1
caught=0
total=0
clean=0
nclean=0
for bug in "$@"; do
	dir=$detect/boots/$bug
	runner=$(cat "$dir/verdict" 2>/dev/null || echo missing)
	expect=$(awk -F'\t' -v b="$bug" 'NR > 1 && $1 == b { print $3 }' "$corpus")
	u16=$(sh "$top/report/u16-boundary.sh" "$dir/console.log" "$dir/triage.tsv")
	u16_rc=$?
	reached=$(echo "$u16" | sed -n '1s/^u16 boundary passed: //p')
	if [ "$expect" = clean ]; then
		nclean=$((nclean + 1))
		fix=
		cve=
		want="clean: the reproducer passes, no report"
		ctl=-
		got=$(in_patched_files "$dir/triage.tsv" \
			"$top/corpus/$bug/$kernel.patch" | sort -u | paste -sd ';' -)
		if [ -n "$got" ]; then
			result=REPORTED
		elif [ "$u16_rc" -ne 2 ]; then
			result=FAILED
			got="u16 boundary passed: $reached"
		elif [ "$runner" != pass ]; then
			result=FAILED
			got="runner: $runner"
		else
			result=clean
			clean=$((clean + 1))
			got=-
		fi
	else
		total=$((total + 1))
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
		[ -n "$ctl" ] && ctl=FIRED || ctl=clean
		if [ "$u16_rc" -eq 1 ]; then
			# a group passed the u16 boundary: only its value counts
			result=missed
			got="${got:+$got; }no report of the read_size reached: $reached"
		elif [ -n "$got" ]; then
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
	fi
	if grep -q '# vulnerable' "$dir/console.log" 2>/dev/null; then
		repro=vulnerable
	elif grep -q '# SKIP' "$dir/console.log" 2>/dev/null; then
		repro=skipped
	else
		repro=not-shown
	fi
	build=$(awk -F'\t' -v b="$bug" '$1 == b && $2 == "build" { print $3 }' \
		"$detect/times.tsv" 2>/dev/null)
	boot=$(sed -n 's/^wall_s=//p' "$dir/boot.txt" 2>/dev/null)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$bug" "${fix:--}" \
		"${cve:--}" "$want" "$result" "$got" "$ctl" "$repro" "$runner" \
		"${build:--}" "${boot:--}" 2>/dev/null >>"$tmp" || werr=1
done
[ $werr = 0 ] && mv "$tmp" "$out" || nowrite "$out"

echo
echo "detection corpus ($out):"
awk -F'\t' '{ printf "  %-18s %-13s %-15s %-9s %-10s %-11s %s\n", $1, $2, $3, $5, $7, $8, $4;
	if (NR > 1) printf "  %18s reported: %s\n", "", $6 }' "$out"
echo
echo "caught $caught of $total ($(awk -v c=$caught -v t=$total 'BEGIN { printf "%.0f", t ? 100 * c / t : 0 }')%)"
[ "$nclean" -eq 0 ] || echo "expected clean: $clean of $nclean clean"
awk -F'\t' 'NR > 1 && $5 == "missed" { print $1 }' "$out" | while read -r bug; do
	echo "  missed $bug: $(awk -F'\t' -v b="$bug" 'NR > 1 && $1 == b { print $4 }' "$corpus")"
done
awk -F'\t' 'NR > 1 && ($5 == "REPORTED" || $5 == "FAILED") { print "  not clean " $1 ": " $6 }' "$out"
awk -F'\t' 'NR > 1 && $7 == "FIRED" { print "  warning: " $1 "'"'"'s expected site also fired without the bug (control boot)" }' "$out"
exit 0
