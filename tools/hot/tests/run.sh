#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Tests of make hot-checks' parts, in KTAP, without a kernel: a small
# guest (boot.S, guest.c, handlers.c) built with Clang 19 and the kernel's
# integer sanitizers, booted by qemu-system-x86_64 (multiboot, TCG,
# -icount) with the hot-checks.so plugin; its checks run a known number of
# times (guest.c), which the census's jumps, the plugin's counts and
# hot-checks report must give exactly. The same guest without the
# sanitizers measures what the checks really add, which the census's
# estimate must not exceed.
# Environment: CENSUS, HOT, PLUGIN (the binaries), CLANG (default clang-19),
# LLD (ld.lld-19), OBJCOPY (llvm-objcopy-19), SYMBOLIZER (llvm-symbolizer-19),
# QEMU (qemu-system-x86_64),
# TMPDIR_T (scratch directory).
set -u
: "${CENSUS:?}" "${HOT:?}" "${PLUGIN:?}" "${CLANG:=clang-19}" "${LLD:=ld.lld-19}"
: "${OBJCOPY:=llvm-objcopy-19}" "${SYMBOLIZER:=llvm-symbolizer-19}" "${QEMU:=qemu-system-x86_64}"
: "${TMPDIR_T:=/tmp/hot-checks-test.$$}"
here=$(cd "$(dirname "$0")" && pwd)
t=$TMPDIR_T
rm -rf "$t" && mkdir -p "$t" || exit 2
KTAP_BUF=$t/ktap
# shellcheck source=tools/tests/ktap.sh
. "$here/../../tests/ktap.sh"
check() { if [ "$1" -eq 0 ]; then ok "$2"; else bad "$2"; fi; }

TESTS=16

# the kernel's code generation and integer checks (scripts/Makefile.ubsan)
cflags="-O2 -g -ffreestanding -fno-builtin -fno-pic -fno-stack-protector
	-fno-strict-overflow -mno-red-zone -mno-sse -mno-mmx -mcmodel=kernel
	-fno-asynchronous-unwind-tables"
san="-fsanitize=signed-integer-overflow,implicit-signed-integer-truncation,implicit-unsigned-integer-truncation"

# build NAME SANFLAGS: $t/NAME.elf (for the census) and $t/NAME.bin (for
# QEMU's multiboot loader); the flag lists are words, unquoted on purpose
# shellcheck disable=SC2086
build() {
	(cd "$here" &&
		$CLANG $cflags -c boot.S -o "$t/boot.o" &&
		$CLANG $cflags -c handlers.c -o "$t/handlers.o" &&
		$CLANG $cflags $2 -c guest.c -o "$t/$1.o" &&
		$LLD -T guest.ld -o "$t/$1.elf" "$t/boot.o" "$t/$1.o" "$t/handlers.o" &&
		$OBJCOPY -O binary "$t/$1.elf" "$t/$1.bin")
}

# boot NAME: the guest under the plugin, counting $t/jumps.txt and every instruction
boot() {
	timeout 60 nice -n 19 "$QEMU" -M pc -m 32M -nodefaults -no-user-config \
		-display none -no-reboot -accel tcg -icount shift=0,sleep=off \
		-kernel "$t/$1.bin" -chardev "file,id=con,path=$t/$1.console" \
		-serial chardev:con -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-plugin "$PLUGIN,addrs=$t/jumps.txt,insns=$t/$1.insns,out=$t/$1.counts" \
		</dev/null >"$t/$1.qemu" 2>&1
}

# the executions of a function's checks, summed over its rows (a loop
# that Clang unrolls has a row per copy)
runs_of() {
	awk -F '\t' -v f="$1" 'NR > 1 && $8 == f { s += $5 } END { print s + 0 }' \
		"$t/hot.tsv"
}

# funcs NAME: the function of each instruction of a run (innermost inline frame)
funcs() {
	awk 'NR > 2 { print $1 }' "$t/$1.insns" |
		"$SYMBOLIZER" --obj="$t/$1.elf" --print-address |
		awk 'BEGIN { RS = ""; FS = "\n" } { print $1 "\t" $2 }' >"$t/$1.funcs"
}

# the kernel's (upper half's) instructions of a run
insns_of() {
	sed -n 's/^# hot-checks: insns_kernel=\([0-9]*\).*/\1/p' "$t/$1.counts"
}

if ! command -v "$CLANG" >/dev/null 2>&1 || ! command -v "$QEMU" >/dev/null 2>&1; then
	i=0
	while [ $i -lt $TESTS ]; do
		i=$((i + 1))
		skip "hot-checks test $i" "no $CLANG or no $QEMU"
	done
	ktap_end
	exit
fi

{ build san "$san" && build none ""; } >"$t/build.log" 2>&1
rc=$?
check $rc "build the test guest with and without the integer checks ($CLANG)"
[ $rc -eq 0 ] || diag <"$t/build.log"

# 2. every check has its own conditional jump, before its handler call
"$CENSUS" -q --branches -o "$t/census.tsv" "$t/san.elf" 2>"$t/census.err" &&
	"$HOT" addresses "$t/census.tsv" >"$t/jumps.txt" &&
	awk -F '\t' 'NR > 1 && ($12 == "" || ($12 "") == ($11 "") || $13 < 1) { bad = 1 }
		NR > 1 { rows++ } END { exit bad || rows < 5 }' "$t/census.tsv"
check $? "census --branches: a conditional jump for each of the guest's checks ($(($(wc -l <"$t/jumps.txt"))) jumps)"

# 3. QEMU 7.2 loads the plugin (API version 1) and the guest runs through
boot san
rc=$?
[ $rc -eq 65 ] && grep -q '^reports=6$' "$t/san.console" && [ -s "$t/san.counts" ]
check $? "the guest runs under the plugin: exit 65, 6 reports, counts written (QEMU exit $rc)"
[ $rc -eq 65 ] || diag <"$t/san.qemu"

# 4. the plugin's counts, per function, are the loops' trip counts
"$HOT" report -n 5 -o "$t/hot.tsv" "$t/census.tsv" "$t/san.counts" >"$t/report.txt" 2>&1
rc=$?
got="add_loop=$(runs_of add_loop) trunc_loop=$(runs_of trunc_loop) fire=$(runs_of fire) cold=$(runs_of cold)"
[ $rc -eq 0 ] && [ "$got" = "add_loop=1000 trunc_loop=300 fire=10 cold=0" ]
check $? "executions per function: $got (report exit $rc)"

# 5. the report ranks by cost: add_loop's check first (1000 runs, 1 added)
awk -F '\t' 'NR == 2 { exit !($8 == "add_loop" && $2 == 1000 && $6 == 1) }' "$t/hot.tsv" &&
	grep -q '^hot-checks: 5 checks at 5 jumps (5 counted); 4 checks ran' "$t/report.txt"
check $? "report: the checks by cost, add_loop's first; totals"
diag <"$t/report.txt"

# 6. the estimate of instructions added is a lower bound of the measured
# difference (the reference has no checks; the same jumps are counted)
boot none
rc=$?
model=$(awk -F '\t' 'NR > 1 { s += $2 } END { print s + 0 }' "$t/hot.tsv")
san_i=$(insns_of san)
none_i=$(insns_of none)
measured=$((${san_i:-0} - ${none_i:-0}))
[ $rc -eq 65 ] && [ "${none_i:-0}" -gt 0 ] && [ "$model" -gt 0 ] && [ "$model" -le "$measured" ]
check $? "instructions added: census estimate $model <= measured $measured (guest $san_i with checks, $none_i without)"

# 7. hot-checks report: no jump ran is an error
printf '# hot-checks: insns_kernel=1 insns_user=0 insns_boot=0\naddress\texecutions\n' \
	>"$t/empty.counts"
"$HOT" report "$t/census.tsv" "$t/empty.counts" >/dev/null 2>&1
[ $? -eq 1 ]
check $? "report: a run where none of the census's jumps ran exits 1"

# 8. a census without the jump columns is refused
"$CENSUS" -q -o "$t/plain.tsv" "$t/san.elf" 2>/dev/null
"$HOT" addresses "$t/plain.tsv" >/dev/null 2>"$t/plain.err"
[ $? -eq 2 ] && grep -q -- '--branches' "$t/plain.err"
check $? "addresses: a census without --branches is refused, exit 2"

# 9. the plugin refuses what it does not know, and QEMU stops
timeout 30 "$QEMU" -M pc -nodefaults -display none -accel tcg -kernel "$t/san.bin" \
	-plugin "$PLUGIN,addrs=$t/jumps.txt,bogus=1" </dev/null >"$t/bad.qemu" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q 'unknown argument bogus=1' "$t/bad.qemu"
check $? "the plugin rejects an unknown argument (QEMU exit $rc)"

# 10. hot-checks budget: measured +10 % against a 1 % budget takes 90 % of
# the checks' cost out, costliest first: add_loop, then trunc_loop; the
# rest stays, and each entry has its cost as its reason
"$HOT" budget -b 1 -f 0 -o "$t/budget.scl" "loops=$t/hot.tsv:10" >"$t/budget.out" 2>&1
rc=$?
grep -x -A2 '\[signed-integer-overflow\]' "$t/budget.scl" | grep -q '^fun:add_loop$' &&
	grep -B1 '^fun:add_loop$' "$t/budget.scl" | grep -q '^# budget: 1 checks; in loops, run 1000 times' &&
	grep -q '^fun:trunc_loop$' "$t/budget.scl" && ! grep -q '^fun:fire$' "$t/budget.scl"
check $? "budget: 1 % of a measured 10 % takes add_loop and trunc_loop, leaves fire (exit $rc)"
diag <"$t/budget.out"

# 11. a protected function is never taken, and the budget is then short
printf 'add_loop\tsigned-integer-overflow\n' >"$t/protect.tsv"
"$HOT" budget -b 1 -f 0 -k "$t/protect.tsv" -o "$t/protected.scl" "loops=$t/hot.tsv:10" \
	>"$t/protected.out" 2>&1
rc=$?
[ $rc -eq 1 ] && ! grep -q '^fun:add_loop$' "$t/protected.scl" &&
	grep -q 'kept, protected: add_loop' "$t/protected.out"
check $? "budget: a protected check stays, and the budget is short: exit $rc"

# 12. the list so far is kept with its reasons; a bad profile is an error
cp "$t/budget.scl" "$t/again.scl"
"$HOT" budget -b 1 -f 0 -l "$t/again.scl" -o "$t/again.scl" "loops=$t/hot.tsv:10" >/dev/null 2>&1 &&
	diff -u "$t/budget.scl" "$t/again.scl" >"$t/again.diff" &&
	{ "$HOT" budget -b 1 -o "$t/x.scl" "loops=$t/nothing.tsv:10" 2>/dev/null; [ $? -eq 2 ]; }
check $? "budget: a second run keeps the list as it was; a missing profile exits 2"
diag <"$t/again.diff"

# 13. the floor: with 95 % of the checks to keep, none of the guest's five
# (20 % each) can go, and the tool says why
"$HOT" budget -b 1 -o "$t/floor.scl" "loops=$t/hot.tsv:10" >"$t/floor.out" 2>&1
rc=$?
[ $rc -eq 1 ] && ! grep -q '^fun:' "$t/floor.scl" && grep -q '100.00 % kept (the floor stopped it)' "$t/floor.out"
check $? "budget: the default floor keeps 95 % of the checks: nothing taken, exit $rc"
diag <"$t/floor.out"

# 14. the floor of a reference kernel's checks (-r): with 4 checks as the
# reference, 90 % lets one of the five go (the costliest, add_loop); with
# 7, the list of test 10 (3 of 5 kept) is under 50 % of it and gives back
# the entry that costs least per check (trunc_loop), and only that one;
# a floor of 95 % of 100 no list can keep: exit 2, the list as it was
"$HOT" budget -b 1 -f 90 -r 4 -o "$t/ref.scl" "loops=$t/hot.tsv:10" >"$t/ref.out" 2>&1
rc=$?
cp "$t/budget.scl" "$t/back.scl"
"$HOT" budget -b 1 -f 50 -r 7 -l "$t/back.scl" -o "$t/back.scl" "loops=$t/hot.tsv:10" \
	>>"$t/ref.out" 2>&1
cp "$t/back.scl" "$t/kept.scl"
"$HOT" budget -b 1 -f 95 -r 100 -l "$t/back.scl" -o "$t/back.scl" "loops=$t/hot.tsv:10" \
	>>"$t/ref.out" 2>&1
rc2=$?
[ $rc -eq 1 ] && [ "$(grep -c '^fun:' "$t/ref.scl")" -eq 1 ] && grep -q '^fun:add_loop$' "$t/ref.scl" &&
	grep -q "of the reference's 4 checks: 100.00 % kept" "$t/ref.out" &&
	grep -q '^  given back, under the floor: trunc_loop ' "$t/ref.out" &&
	[ "$(grep -c '^fun:' "$t/back.scl")" -eq 1 ] && grep -q '^fun:add_loop$' "$t/back.scl" &&
	[ $rc2 -eq 2 ] && cmp -s "$t/kept.scl" "$t/back.scl" &&
	grep -q 'even with nothing left out' "$t/ref.out"
check $? "budget: -r counts the floor against a reference; under it, the cheapest entry goes back; a floor out of reach changes nothing (exit $rc, $rc2)"
diag <"$t/ref.out"

# 15. hot-checks diff: the instructions of the two runs, given to their functions,
# add up to each run's instructions exactly; the loops' functions are where
# the checked guest runs more, and a function never called differs by 0
funcs none && funcs san &&
	"$HOT" diff -n 5 -o "$t/diff.tsv" -c "$t/census.tsv" -p "$t/measured.tsv" \
		"$t/none.funcs" "$t/none.insns" "$t/san.funcs" "$t/san.insns" >"$t/diff.out" 2>&1
rc=$?
grep -q "^hot-checks diff: kernel instructions $none_i -> $san_i: +$measured " "$t/diff.out" &&
	awk -F '\t' 'NR > 1 { d[$7] = $2; c[$7] = $6 } END {
		exit !(d["add_loop"] > 0 && d["trunc_loop"] > 0 && c["add_loop"] == 1 && !d["cold"]) }' \
		"$t/diff.tsv" &&
	awk -F '\t' 'NR > 1 && $5 == "add_loop" { found = 1; ok = $2 > 0 && $3 == 0 } END { exit !(found && ok) }' \
		"$t/measured.tsv"
check $? "diff: per function, summing to the measured $measured; add_loop and trunc_loop gain, cold does not (exit $rc)"
diag <"$t/diff.out"

# 16. hot-checks budget on the measured profile: the reason says measured
"$HOT" budget -b 1 -f 0 -o "$t/measured.scl" "loops=$t/measured.tsv:10" >"$t/mbudget.out" 2>&1
rc=$?
grep -B1 '^fun:add_loop$' "$t/measured.scl" |
	grep -q '^# budget: 1 checks; in loops, [0-9]* instructions more than without the checks' &&
	{ "$HOT" diff -p "$t/x.tsv" "$t/none.funcs" "$t/none.insns" "$t/san.funcs" "$t/san.insns" \
		>/dev/null 2>&1; [ $? -eq 2 ]; }
check $? "budget: a measured profile takes add_loop, its reason the instructions measured; diff -p without -c is refused (exit $rc)"
diag <"$t/mbudget.out"

ktap_end
