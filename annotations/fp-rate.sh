#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The noise the kit removes, and what it keeps: reads two boots of the same
# workloads, the two vmlinux files, and the perf-bug variants' triage.
#
# usage: fp-rate.sh TRIAGE KIT BASE-BOOT KIT-BOOT BASE-VMLINUX KIT-VMLINUX \
#                   VARIANT-BOOT...
#   BASE-BOOT   boot of the kernel without the ignorelist and without the
#               triage patches (console.log)
#   KIT-BOOT    boot of the kit's kernel (console.log)
#   VARIANT-BOOT  boots of the perf-bug variants (triage.tsv)
#
# Prints:
#   (i)   distinct integer-check sites on the baseline, and its FP rate;
#   (ii)  the same with the kit;
#   (iii) the integer-check handler calls in each vmlinux, and the
#         fraction kept (the kit must keep at least 95%);
#   (iv)  whether each re-introduced perf bug is still caught.
# The false-positive rate is ubsan-triage's: sites classified annotated,
# benign or ignorelisted (intentional) over the integer-check sites that are
# explained; sites nobody has classified (new) are counted apart, as
# unexplained, and no rate is given over them ("-" if none is explained);
# the deliberate reports of test_ubsan count in neither.
# Exit status 1 if fewer than 95% of the checks are kept or a bug is missed.
set -eu

[ $# -ge 6 ] || { echo "usage: $0 TRIAGE KIT BASE-BOOT KIT-BOOT BASE-VMLINUX KIT-VMLINUX VARIANT-BOOT..." >&2; exit 2; }
triage=$1 kit=$2 base=$3 mine=$4 base_vmlinux=$5 kit_vmlinux=$6
shift 6
fail=0

# "intentional explained unexplained" of one boot, from ubsan-triage
# --fp-rate's "fp_rate N/M = R" (M: the explained sites) and
# "unexplained U" lines.
fp_of() {
	"$triage" --kit "$kit" --fp-rate "$1/console.log" |
		awk '$1 == "fp_rate" { split($2, a, "/"); fp = a[1]; ex = a[2] }
		     $1 == "unexplained" { un = $2 }
		     END { print fp, ex, un }'
}

# Calls to the integer-check handlers in a vmlinux.
checks_in() {
	llvm-objdump -d --no-show-raw-insn "$1" |
		grep -cE '(call|jmp)q?[[:space:]]+(0x)?[0-9a-f]+ <__ubsan_handle_(add|sub|mul|negate)_overflow|(call|jmp)q?[[:space:]]+(0x)?[0-9a-f]+ <__ubsan_handle_implicit_conversion>' ||
		true
}

rate() {
	[ "$2" -gt 0 ] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }' ||
		echo "-"
}

read -r bfp bex bun <<EOF
$(fp_of "$base")
EOF
read -r kfp kex kun <<EOF
$(fp_of "$mine")
EOF
bchk=$(checks_in "$base_vmlinux")
kchk=$(checks_in "$kit_vmlinux")
kept=$(awk -v a="$kchk" -v b="$bchk" 'BEGIN { printf "%.4f", b ? a / b : 0 }')

echo "fp-rate: the same workloads, without and with the kit"
echo "(fp rate: intentional over explained sites; unexplained: class new)"
printf '%-44s %6s %8s %8s %8s\n' "" sites unexpl. "intent." "fp rate"
printf '%-44s %6s %8s %8s %8s\n' "(i)  no ignorelist, no triage patches" \
	"$((bex + bun))" "$bun" "$bfp" "$(rate "$bfp" "$bex")"
printf '%-44s %6s %8s %8s %8s\n' "(ii) with the kit" "$((kex + kun))" \
	"$kun" "$kfp" "$(rate "$kfp" "$kex")"
echo
echo "(iii) integer-check handler calls in vmlinux:"
echo "      without the kit's ignorelist and triage patches: $bchk"
echo "      with them: $kchk, kept $kept"
if awk -v k="$kept" 'BEGIN { exit !(k >= 0.95) }'; then
	echo "      ok: at least 95% of the checks are kept"
else
	echo "      FAIL: fewer than 95% of the checks are kept"
	fail=1
fi
echo
echo "(iv) re-introduced perf bugs:"
for v in "$@"; do
	hit=$(awk -F'\t' '$2 == "implicit-conversion" && index($3, "kernel/events/core.c") == 1 { print $3 " in " $4 "() [" $1 "]"; exit }' \
		"$v/triage.tsv" 2>/dev/null || true)
	if [ -n "$hit" ]; then
		echo "      $(basename "$v"): caught at $hit"
	else
		echo "      $(basename "$v"): MISSED"
		fail=1
	fi
done
exit $fail
