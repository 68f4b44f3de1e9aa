#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The noise the kit removes, and what it keeps, on one base: reads a boot of
# the raw kernel and one of the kit's, with the same workloads, their two
# vmlinux files, and the perf-bug variants' triage.
#
# usage: noise.sh BASE RAW-BOOT KIT-BOOT RAW-VMLINUX KIT-VMLINUX VARIANT-BOOT...
#   RAW-BOOT      boot of the kernel without the ignorelist and without the
#                 triage patches (triage.tsv)
#   KIT-BOOT      boot of the kit's kernel (triage.tsv)
#   VARIANT-BOOT  boots of the perf-bug variants (triage.tsv)
#
# Prints, for the integer-check sites (implicit-conversion, signed- and
# unsigned-integer-overflow, negation-overflow; test_ubsan's deliberate
# reports are left out):
#   (i)   the raw kernel's distinct sites by class, and its false-positive
#         rate over the explained sites (intentional / (intentional + bugs));
#         sites nobody has explained ("new") are counted apart, never in a
#         rate;
#   (ii)  the same for the kit's kernel;
#   (iii) both per workload group (boot, user, kit, kselftests, stress-ng,
#         fuzzing: ubsan-triage --syz),
#         a site counting for the group whose workload raised it first
#         (the kernel reports a site once per boot);
#   (iv)  the raw sites per idiom (annotations/sites.tsv's idiom column);
#   (v)   the integer checks in each vmlinux (ubsan-census: a check per
#         handler call, a call shared by tail-merged checks counting each),
#         and the share kept (the kit must keep at least 95%);
#   (vi)  whether each re-introduced perf bug is still caught.
# NOISE_CENSUS: ubsan-census (default: beside NOISE_TRIAGE).
# NOISE_FUZZ_TSV=FILE: ubsan-triage --tsv of a fuzzing run (make fuzz-kernel)
# of the same base; its sites count for the kit, in group fuzzing.
# Exit status 1 if a boot did not run to its end ("kit: end"), the kit's
# boot has a new site, fewer than 95% of the checks are kept, or a bug is
# missed.
set -eu

[ $# -ge 5 ] || {
	echo "usage: $0 BASE RAW-BOOT KIT-BOOT RAW-VMLINUX KIT-VMLINUX VARIANT-BOOT..." >&2
	exit 2
}
base=$1 raw=$2 mine=$3 raw_vmlinux=$4 kit_vmlinux=$5
shift 5
variants=$*
fail=0
ints='implicit-conversion|signed-integer-overflow|unsigned-integer-overflow|negation-overflow'

# The integer sites of a boot, "class<TAB>site<TAB>function<TAB>group<TAB>
# idiom", from ubsan-triage's TSV: its idiom column (the annotation row or
# idiom rule that explained the site) and its workload column (the kit's
# workload running when the site was first reported), mapped to a group.
# A second TSV adds the sites the first has not seen: the fuzzing run's
# triage (NOISE_FUZZ_TSV), whose kernel is the kit's plus KCOV and
# kconfig/syzkaller.config.
sites_of() {
	awk -F'\t' -v ints="^($ints)\$" '
		$2 ~ ints && $1 != "deliberate" && !seen[$2 FS $3]++ {
			w = $9
			g = w == "-" || w == "" ? "boot" : w ~ /^user-/ ? "user" : \
			    w ~ /^kselftest-perf_events/ ? "kit" : \
			    w ~ /^kselftest-/ ? "kselftests" : \
			    w == "stress-ng" ? "stress-ng" : \
			    w == "fuzzing" ? "fuzzing" : "kit"
			print $1 "\t" $3 "\t" $4 "\t" g "\t" ($8 == "" ? "-" : $8)
		}' "$1/triage.tsv" ${2:+"$2"}
}

# "intentional bugs new" counts of a sites_of listing on stdin
counts() {
	awk -F'\t' '
		$1 == "annotated" || $1 == "benign" || $1 == "ignorelisted" { i++ }
		$1 == "known-bug" { b++ }
		$1 == "new" || $1 == "finding" { n++ }
		END { print i + 0, b + 0, n + 0 }'
}

row() { # label intentional bugs new
	all=$(($2 + $3 + $4))
	if [ $(($2 + $3)) -gt 0 ]; then
		r=$(awk -v i="$2" -v b="$3" 'BEGIN { printf "%.3f", i / (i + b) }')
	else
		r="-"
	fi
	printf '%-40s %6s %12s %6s %6s %9s\n' "$1" "$all" "$2" "$3" "$4" "$r"
}

# The integer checks of a vmlinux ($1), as make census and make budget
# count them: the rows of ubsan-census's TSV, kept in $2.
checks_in() {
	"${NOISE_CENSUS:-$(dirname "$NOISE_TRIAGE")/ubsan-census}" -q -o "$2" "$1" ||
		{ echo "noise: ubsan-census $1 failed" >&2; exit 2; }
	echo $(($(wc -l <"$2") - 1))
}

for b in "$raw" "$mine"; do
	[ -s "$b/triage.tsv" ] ||
		{ echo "noise: no triage.tsv in $b" >&2; exit 2; }
done

echo "noise on $base: the same workloads, without and with the kit"
# Both boots must have run every workload to the guest's end ("kit: end"):
# a boot cut short (a panic, a timeout) raised the sites of only part of
# the workloads, and its column would not compare with the other.
ran_to_end() { # label, boot directory
	e=$(sed -n 's/.*\] kit: end \(pass=[0-9]* fail=[0-9]* skip=[0-9]*\).*/\1/p' \
		"$2/console.log" 2>/dev/null | tail -n 1)
	if [ -n "$e" ]; then
		echo "$1 boot: ran to its end, workloads $e"
	else
		echo "$1 boot: FAIL: did not run to its end (no \"kit: end\" in $2/console.log): its sites cover part of the workloads"
		fail=1
	fi
}
ran_to_end raw "$raw"
ran_to_end kit "$mine"
sites_of "$raw" >"$raw/sites.tsv"
# shellcheck disable=SC2086 # NOISE_FUZZ_TSV: zero or more file names
sites_of "$mine" ${NOISE_FUZZ_TSV:-} >"$mine/sites.tsv"

echo "(sites: distinct integer-check sites; fp rate: intentional / (intentional + bugs),"
echo " over the explained sites only; new: unexplained or an open finding, in no rate)"
printf '%-40s %6s %12s %6s %6s %9s\n' "" sites intentional bugs new "fp rate"
# shellcheck disable=SC2046
row "(i)  raw: no ignorelist, no triage patches" $(counts <"$raw/sites.tsv")
# shellcheck disable=SC2046
row "(ii) the kit" $(counts <"$mine/sites.tsv")
knew=$(awk -F'\t' '$1 == "new" || $1 == "finding"' "$mine/sites.tsv" | wc -l)
if [ "$knew" -gt 0 ]; then
	echo "      FAIL: $knew site(s) of the kit's boot are unexplained (new) or open findings:"
	awk -F'\t' '$1 == "new" || $1 == "finding" { print "        " $1 " " $2 " " $3 " [" $4 "]" }' "$mine/sites.tsv"
	fail=1
fi
echo
echo "(iii) per workload group (a site counts for the group that raised it first):"
printf '      %-12s %6s %6s %6s %6s %6s %6s\n' group raw int. bugs new kit new
for g in boot user kit kselftests stress-ng fuzzing; do
	# shellcheck disable=SC2046
	set -- $(awk -F'\t' -v g="$g" '$4 == g' "$raw/sites.tsv" | counts) \
		$(awk -F'\t' -v g="$g" '$4 == g' "$mine/sites.tsv" | counts)
	printf '      %-12s %6s %6s %6s %6s %6s %6s\n' "$g" $(($1 + $2 + $3)) "$1" "$2" "$3" \
		$(($4 + $5 + $6)) "$6"
done
echo
echo "(iv) raw sites per idiom (annotations/sites.tsv, annotations/rules.tsv):"
awk -F'\t' '{
		i = $5
		if (i == "-")
			i = $1 == "new" ? "(unexplained)" : $1 == "finding" ? "(finding)" : "(" $1 ")"
		n[i]++
	}
	END { for (i in n) printf "      %-28s %4d\n", i, n[i] }' "$raw/sites.tsv" |
	sort -k2,2nr -k1,1
echo
# (a failed census ends the script: set -e and an assignment's status)
rchk=$(checks_in "$raw_vmlinux" "$raw/census.tsv")
kchk=$(checks_in "$kit_vmlinux" "$mine/census.tsv")
kept=$(awk -v a="$kchk" -v b="$rchk" 'BEGIN { printf "%.4f", b ? a / b : 0 }')
echo "(v) integer checks in vmlinux (ubsan-census):"
echo "      raw: $rchk; the kit: $kchk, kept $kept"
if awk -v k="$kept" 'BEGIN { exit !(k >= 0.95) }'; then
	echo "      ok: at least 95% of the checks are kept"
else
	echo "      FAIL: fewer than 95% of the checks are kept"
	fail=1
fi
echo
echo "(vi) re-introduced perf bugs:"
for v in $variants; do
	hit=$(awk -F'\t' '$2 == "implicit-conversion" && index($3, "kernel/events/core.c") == 1 { print $3 " in " $4 "() [" $1 "]"; exit }' \
		"$v/triage.tsv" 2>/dev/null || true)
	if [ -n "$hit" ]; then
		echo "      $(basename "$v"): caught at $hit"
	else
		echo "      $(basename "$v"): MISSED"
		fail=1
	fi
done

# (vii) Judgement on sites nobody has seen: the raw bug sites judged by
# the rules alone (judge-raw.sh). Needs NOISE_TRIAGE (ubsan-triage) and
# NOISE_KIT (the checkout).
if [ -n "${NOISE_TRIAGE:-}" ] && [ -n "${NOISE_KIT:-}" ]; then
	echo
	echo "(vii) the raw kernel's bug sites, judged by the rules alone (bug rows set aside):"
	sh "$(dirname "$0")/judge-raw.sh" "$NOISE_TRIAGE" "$NOISE_KIT" "$raw" "$raw_vmlinux" ||
		exit 2
fi
exit $fail
