#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# report/verdict.sh on a trap kernel's real boot (tools/testdata/
# kit-trap612-test-ubsan.log, the test-ubsan workload of `make KERNEL=6.12
# TRAP=1 boot`): the boot passes, and each way it could go wrong fails it:
# an oops that is no test_ubsan trap, a case that did not trap, a case
# that trapped as another kind, a workload that failed, a guest that did
# not power off, a kernel without patch 0046 (one trap, then the
# module's loader dies). Then 6.1's trap boot (kit-trap61-test-ubsan.log),
# which passes as it is, and fails without one of its traps.
#
# usage: verdict-test.sh TOP TRIAGE WORKDIR
# KTAP on stdout; exit status 1 if a case went the wrong way.
# shellcheck disable=SC2016 # the $ in the sed scripts are sed's
set -u
[ $# -eq 3 ] || {
	echo "usage: verdict-test.sh TOP TRIAGE WORKDIR" >&2
	exit 2
}
top=$1
triage=$2
work=$3
log=$top/tools/testdata/kit-trap612-test-ubsan.log
KTAP_BUF=$work/ktap
mkdir -p "$work" || exit 2
# shellcheck source=tools/tests/ktap.sh
. "$top/tools/tests/ktap.sh"

# boot NAME SED [STATUS]: a boot folder whose console is the log edited by
# SED, with the runner's verdict, QEMU's exit status (65: init powered off
# with every workload passed) and the triage the pipeline would give it
boot() {
	b=$work/$1
	rm -rf "$b" && mkdir -p "$b"
	sed "$2" "${boot_log:-$log}" >"$b/console.log"
	echo oops >"$b/verdict"
	printf 'verdict=oops\nexit_code=%s\n' "${3:-65}" >"$b/boot.txt"
	"$triage" --kit "$top" --tsv -o "$b/triage.tsv" "$b/console.log"
}

# case NAME WANT SED [PHRASE [STATUS]]: verdict.sh on that boot exits WANT
# (0 PASS, 1 FAIL), and a FAIL names PHRASE
case_() {
	boot "$1" "$3" "${5:-}"
	out=$(sh "$top/report/verdict.sh" "$work/$1" fixed 2>&1)
	rc=$?
	if [ "$rc" -eq "$2" ] && { [ -z "${4:-}" ] || echo "$out" | grep -q "FAIL .*$4"; }; then
		ok "$1: $(echo "$out" | tail -n 1)"
	else
		bad "$1: exit status $rc, expected $2${4:+ with a FAIL naming '$4'}" "$out"
	fi
}

[ -r "$log" ] || {
	echo "verdict-test: $log is missing" >&2
	exit 2
}
case_ "trap-boot" 0 ''
case_ "foreign-oops" 1 '$a\
[   40.000000][   T40] Oops: general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#17] SMP' \
	'17 oopses, 16 of them'
case_ "case-not-trapped" 1 '/UBSAN: integer subtraction overflow at test_ubsan_sub_overflow/,/Oops: /d' \
	'test_ubsan_sub_overflow trapped 0 times'
case_ "case-other-kind" 1 's/UBSAN: integer subtraction overflow at test_ubsan_sub/UBSAN: integer addition overflow at test_ubsan_sub/' \
	'test_ubsan_sub_overflow trapped 0 times as sub-overflow, and as add-overflow'
case_ "workload-failed" 1 's/kit: end pass=15 fail=0/kit: end pass=14 fail=1/' \
	'runner: oops'
case_ "case-not-trapped-unsigned" 1 '/UBSAN: implicit integer conversion at test_ubsan_truncate_unsigned/,/Oops: /d' \
	'test_ubsan_truncate_unsigned trapped 0 times'
case_ "guest-did-not-power-off" 1 '' 'exit status 1' 1
# without patch 0046: no "checks trap" line, the first trap kills the module load in the guest
# (the guest goes on to its end)
case_ "no-thread-per-case" 1 '/test_ubsan_init: the checks trap/d; /traps: UBSAN: .* at test_ubsan_ptr_err/,/kit: workload end test-ubsan/d' \
	'runner: oops$'
# 6.1's trap kernel (patch 0020 names the trap), whose log shaped none of
# the above: 15 cases (its unsigned add is the second check of the add case)
boot_log=$top/tools/testdata/kit-trap61-test-ubsan.log
case_ "6.1-trap-boot" 0 ''
case_ "6.1-case-not-trapped" 1 '/UBSAN: mul-overflow in test_ubsan_mul_overflow/,/invalid opcode: /d' \
	'test_ubsan_mul_overflow trapped 0 times'
ktap_end
