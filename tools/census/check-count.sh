#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Compare a census TSV with the integer handler calls that check-vmlinux
# counts (the same llvm-objdump pattern, the census's handlers only): the
# count of vmlinux's rows (the modules' rows aside: their address column
# names the module) must be within 2% of it.
# usage: check-count.sh VMLINUX CENSUS.TSV
# Environment: OBJDUMP (default llvm-objdump, LLVM 19's first), TOLERANCE
# (per cent, default 2).
set -u
vmlinux=${1:?usage: check-count.sh VMLINUX CENSUS.TSV}
tsv=${2:?usage: check-count.sh VMLINUX CENSUS.TSV}
tol=${TOLERANCE:-2}
if [ -z "${OBJDUMP:-}" ]; then
	OBJDUMP=llvm-objdump
	[ -x /usr/lib/llvm-19/bin/llvm-objdump ] &&
		OBJDUMP=/usr/lib/llvm-19/bin/llvm-objdump
fi
handlers='(add|sub|mul|negate)_overflow|implicit_conversion'
calls=$("$OBJDUMP" -d --no-show-raw-insn "$vmlinux" |
	grep -cE "(call|jmp)q?[[:space:]]+(0x)?[0-9a-f]+ <__ubsan_handle_($handlers)(_abort)?>")
rows=$(awk -F '\t' 'NR > 1 && $NF ~ /^0x/' "$tsv" | wc -l)
diff=$((rows > calls ? rows - calls : calls - rows))
pct=$(awk -v d="$diff" -v c="$calls" 'BEGIN { printf "%.2f", c ? 100 * d / c : 0 }')
echo "census: $rows rows; check-vmlinux's integer handler calls: $calls; difference $diff ($pct%)"
# within tol per cent: 100 * diff <= tol * calls
if [ $((100 * diff)) -gt $((tol * calls)) ]; then
	echo "census: the rows differ from the handler calls by more than $tol%"
	exit 1
fi
