#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Tests of ubsan-census, in KTAP: a small program built with Clang 19 and
# the kit's sanitizers, three ways (at a user address, position independent,
# and with the kernel's code model at the kernel's address), whose census
# must be tests/expected.tsv; and, when VMLINUX names one, a real kernel's
# census against check-vmlinux's count of handler calls.
# Environment: CENSUS (the binary), CLANG (default clang-19), LLD (default
# ld.lld-19), TMPDIR_T (scratch directory), VMLINUX (optional).
set -u
: "${CENSUS:?}" "${CLANG:=clang-19}" "${TMPDIR_T:=/tmp/ubsan-census-test.$$}"
: "${VMLINUX:=}" "${LLD:=ld.lld-19}"
here=$(cd "$(dirname "$0")/.." && pwd)
t=$TMPDIR_T
mkdir -p "$t"
KTAP_BUF=$t/ktap
# shellcheck source=tools/tests/ktap.sh
. "$here/../tests/ktap.sh"
check() { if [ "$1" -eq 0 ]; then ok "$2"; else bad "$2"; fi; }

# build NAME CFLAGS LDFLAGS: the test program, compiled from the census
# folder so that its sites read tests/sample.c, tests/include/sample.h
# (CFLAGS and LDFLAGS are lists of words: unquoted on purpose)
# shellcheck disable=SC2086
build() {
	(cd "$here" &&
		$CLANG -O2 -g -fsanitize-recover=all $2 \
			-fsanitize=implicit-integer-truncation,signed-integer-overflow \
			-c tests/sample.c -o "$t/$1-sample.o" &&
		$CLANG -O2 -g -fsanitize-recover=all $2 \
			-fsanitize=implicit-conversion \
			-c tests/sign.c -o "$t/$1-sign.o" &&
		$CLANG -O2 $2 -c tests/stubs.c -o "$t/$1-stubs.o" &&
		$CLANG -static -nostdlib -fuse-ld=lld $3 -o "$t/$1.elf" \
			"$t/$1-sample.o" "$t/$1-sign.o" "$t/$1-stubs.o" &&
		$CLANG -static -nostdlib -fuse-ld=lld $3 -o "$t/$1-none.elf" \
			"$t/$1-stubs.o")
}

# expect NAME: its census, the address column aside, is expected.tsv
expect() {
	"$CENSUS" -o "$t/$1.tsv" "$t/$1.elf" 2>"$t/$1.sum" &&
		cut -f1-10 "$t/$1.tsv" >"$t/$1.rows" &&
		diff -u "$here/tests/expected.tsv" "$t/$1.rows"
}

if ! command -v "$CLANG" >/dev/null 2>&1; then
	for i in 1 2 3 4 5 6 7 8; do skip "test program $i" "no $CLANG"; done
else
	build low "-fno-pic" "" >"$t/build.log" 2>&1 &&
		build pie "-fpie" "-no-pie" >>"$t/build.log" 2>&1 &&
		build high "-fno-pic -mcmodel=kernel -mno-red-zone" \
			"-Wl,--image-base=0xffffffff81000000" >>"$t/build.log" 2>&1
	check $? "build the test program with $CLANG"
	expect low
	check $? "rows of a program at a user address (mov \$imm, %edi)"
	expect pie
	check $? "rows of position-independent code (lea disp(%rip), %rdi)"
	expect high
	check $? "rows of a program at a kernel address (mov \$imm, %rdi)"
	grep -q "^census: 12 rows (checks) at 12 handler calls" "$t/high.sum" &&
		grep -q '^census: 12 resolved, 0 unresolved' "$t/high.sum" &&
		grep -qE '^implicit-conversion:unsigned truncation +3 +2$' "$t/high.sum" &&
		grep -qE '^tests/include +2 +1$' "$t/high.sum"
	check $? "summary per kind and per subsystem"
	sh "$here/check-count.sh" "$t/high.elf" "$t/high.tsv" >"$t/count" 2>&1
	check $? "rows equal the handler calls llvm-objdump shows: $(cat "$t/count")"
	$LLD -r -o "$t/sample.ko" "$t/high-sample.o" "$t/high-sign.o" &&
		"$CENSUS" -o "$t/ko.tsv" "$t/high.elf" "$t/sample.ko" 2>/dev/null &&
		grep -F "	sample.ko:.text+0x" "$t/ko.tsv" | cut -f1-10 >"$t/ko.rows" &&
		sed 1d "$here/tests/expected.tsv" | diff -u - "$t/ko.rows" &&
		sh "$here/check-count.sh" "$t/high.elf" "$t/ko.tsv" >/dev/null
	check $? "a module (relocatable) after the executable: the same rows"
	"$CENSUS" -o "$t/none.tsv" "$t/high-none.elf" 2>"$t/none.err"
	[ $? -eq 1 ] && grep -q 'CONFIG_UBSAN_TRAP' "$t/none.err"
	check $? "no handler call: exit 1, trap mode named"
fi
"$CENSUS" "$here/tests/expected.tsv" >/dev/null 2>&1
[ $? -eq 2 ]
check $? "not an ELF file: exit 2"

if [ -n "$VMLINUX" ] && [ -f "$VMLINUX" ]; then
	start=$(date +%s)
	"$CENSUS" -o "$t/vmlinux.tsv" "$VMLINUX" 2>"$t/vmlinux.sum"
	st=$?
	if [ $st -eq 1 ] && grep -q 'CONFIG_UBSAN_TRAP' "$t/vmlinux.sum"; then
		# the build tree holds a trap kernel (make TRAP=1): nothing to count
		skip "$VMLINUX" "a trap kernel (TRAP=1): no handler calls to count"
	else
		[ $st -eq 0 ] && sh "$here/check-count.sh" "$VMLINUX" "$t/vmlinux.tsv" >"$t/count"
		check $? "$VMLINUX: $(cat "$t/count" 2>/dev/null) ($(($(date +%s) - start)) s)"
	fi
else
	skip "a real vmlinux" "no VMLINUX"
fi

ktap_end
