#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Test driver for ubsan-triage; prints a last line "N passed, M failed".
# Environment: TRIAGE, UNIT (binaries), TESTDATA (corpus dir), PEER_LOGS
# (shared/peer-logs), TMPDIR_T (scratch dir), CC.
set -u
: "${TRIAGE:?}" "${UNIT:?}" "${TESTDATA:=testdata}" "${PEER_LOGS:=}"
: "${TMPDIR_T:=/tmp/ubsan-triage-test.$$}" "${CC:=cc}"
mkdir -p "$TMPDIR_T"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# 1. unit tests (C)
out=$("$UNIT")
st=$?
echo "$out" | grep -v '^unit:'
u=$(echo "$out" | sed -n 's/^unit: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
if [ -z "$u" ]; then
	bad "unit tests did not finish (status $st)"
else
	pass=$((pass + ${u% *}))
	fail=$((fail + ${u#* }))
fi

# 2. corpus: every testdata/*.log with a sibling .expected (the --tsv
# output; if its first line is "# subset", each other line must occur).
# An optional .args file adds options; "@KIT@" in it is the kit root.
kit=$(cd "$(dirname "$0")/../.." && pwd)
for log in "$TESTDATA"/*.log; do
	[ -e "$log" ] || continue
	base=${log%.log}
	[ -f "$base.expected" ] || continue
	args=
	[ -f "$base.args" ] && args=$(sed "s|@KIT@|$kit|g" "$base.args")
	# shellcheck disable=SC2086
	"$TRIAGE" --tsv $args "$log" >"$TMPDIR_T/out.tsv" 2>"$TMPDIR_T/err"
	st=$?
	if [ "$st" -ge 2 ]; then
		bad "$log: exit status $st: $(cat "$TMPDIR_T/err")"
		continue
	fi
	if [ "$(head -n 1 "$base.expected")" = "# subset" ]; then
		missing=$(sed 1d "$base.expected" | while IFS= read -r l; do
			grep -qxF -- "$l" "$TMPDIR_T/out.tsv" || echo "$l"
		done)
		if [ -z "$missing" ]; then ok; else
			bad "$log: lines not in output:"
			echo "$missing"
		fi
	elif diff -u "$base.expected" "$TMPDIR_T/out.tsv" >"$TMPDIR_T/diff"
	then
		ok
	else
		bad "$log: output differs from $base.expected"
		cat "$TMPDIR_T/diff"
	fi
done

# 3. syzkaller's peer logs: our syz_title against TITLE/ALT, our own title,
# corrupted and truncated flags against the explained differences in the
# expect file.
expect=$TESTDATA/peer-syzkaller.expect
exp() { # file field -> value from the expect file
	awk -F'\t' -v f="$1" -v k="$2" '$1 == f && $2 == k { print $3 }' \
		"$expect"
}
jfield() { # field from the first site of a JSON document
	sed -n -e "s/^      \"$1\": \"\(.*\)\",\{0,1\}\$/\1/p" \
		-e "s/^      \"$1\": \([a-z0-9.]*\),\{0,1\}\$/\1/p" "$2" |
		head -n 1
}
if [ -d "$PEER_LOGS/syzkaller" ]; then
	for f in "$PEER_LOGS"/syzkaller/*; do
		name=$(basename "$f")
		[ "$name" = README.md ] && continue
		title=$(sed -n 's/^TITLE: //p;/^$/q' "$f")
		alt=$(sed -n 's/^ALT: //p;/^$/q' "$f")
		corr=$(sed -n 's/^CORRUPTED: //p;/^$/q' "$f")
		[ "$corr" = Y ] && corr=true || corr=false
		sed '1,/^$/d' "$f" >"$TMPDIR_T/peer.log"
		"$TRIAGE" --json "$TMPDIR_T/peer.log" >"$TMPDIR_T/peer.json"
		syz=$(jfield syz_title "$TMPDIR_T/peer.json")
		own=$(jfield title "$TMPDIR_T/peer.json")
		gotc=$(jfield corrupted "$TMPDIR_T/peer.json")
		if [ "$syz" = "$title" ] || { [ -n "$alt" ] && [ "$syz" = "$alt" ]; }
		then ok; else
			bad "peer $name: syz_title '$syz', syzkaller '$title'"
		fi
		want=$(exp "$name" title)
		[ -n "$want" ] || want=$title
		if [ "$own" = "$want" ]; then ok; else
			bad "peer $name: title '$own', expected '$want'"
		fi
		want=$(exp "$name" corrupted)
		[ -n "$want" ] || want=$corr
		if [ "$gotc" = "$want" ]; then ok; else
			bad "peer $name: corrupted $gotc, expected $want"
		fi
		gott=$(jfield truncated "$TMPDIR_T/peer.json")
		want=$(exp "$name" truncated)
		[ -n "$want" ] || want=false
		if [ "$gott" = "$want" ]; then ok; else
			bad "peer $name: truncated $gott, expected $want"
		fi
	done
else
	echo "note: no peer logs at '$PEER_LOGS', skipped"
fi

# 3b. syzkaller's whole report-parser corpus, with the known differences
# of testdata/syzkaller-corpus.expect (tests/corpus-test.sh)
if [ -d "$PEER_LOGS/syzkaller-corpus" ]; then
	sh "$(dirname "$0")/corpus-test.sh" "$TRIAGE" \
		"$PEER_LOGS/syzkaller-corpus" "$TESTDATA/syzkaller-corpus.expect" \
		"$TMPDIR_T/corpus" >"$TMPDIR_T/corpus.out"
	grep -v '^corpus: [0-9]* passed' "$TMPDIR_T/corpus.out"
	c=$(sed -n 's/^corpus: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' \
		"$TMPDIR_T/corpus.out")
	if [ -z "$c" ]; then
		bad "corpus test did not finish"
	else
		pass=$((pass + ${c% *}))
		fail=$((fail + ${c#* }))
	fi
else
	echo "note: no corpus at '$PEER_LOGS/syzkaller-corpus', skipped"
fi

# 4. exit codes
printf 'UBSAN: shift-out-of-bounds in lib/a.c:1:2\n' >"$TMPDIR_T/one.log"
"$TRIAGE" "$TMPDIR_T/one.log" >/dev/null
[ $? -eq 1 ] && ok || bad "exit status for a new report is not 1"
"$TRIAGE" --filter-kind none "$TMPDIR_T/one.log" >/dev/null
[ $? -eq 0 ] && ok || bad "exit status without reports is not 0"
"$TRIAGE" "$TMPDIR_T/does-not-exist" >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "exit status for a missing log is not 2"
"$TRIAGE" --no-such-option >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "exit status for a bad option is not 2"
"$TRIAGE" - <"$TMPDIR_T/one.log" | grep -q 'shift-out-of-bounds' &&
	ok || bad "stdin input"

# 4b. --fp-rate gives no rate over sites nobody has explained: on the fixed
# kernel's log, without lists every site is unexplained (no rate); with one
# annotation (romchecksum's, from annotations/sites.tsv), the rate is over
# that one explained site.
fx=$TESTDATA/kit-fixed-test-ubsan.log
"$TRIAGE" --fp-rate "$fx" >"$TMPDIR_T/fp0.out"
grep -q '^unexplained  27$' "$TMPDIR_T/fp0.out" &&
	grep -q '^fp_rate      0/0 = -$' "$TMPDIR_T/fp0.out" && ok ||
	bad "--fp-rate without lists: $(cat "$TMPDIR_T/fp0.out")"
{ head -n 1 "$kit/annotations/sites.tsv"
	grep -m 1 '	romchecksum	' "$kit/annotations/sites.tsv"
} >"$TMPDIR_T/one.tsv"
"$TRIAGE" --fp-rate --annotations "$TMPDIR_T/one.tsv" "$fx" \
	>"$TMPDIR_T/fp1.out"
grep -q '^unexplained  26$' "$TMPDIR_T/fp1.out" &&
	grep -q '^fp_rate      1/1 = 1.000$' "$TMPDIR_T/fp1.out" && ok ||
	bad "--fp-rate with one annotation: $(cat "$TMPDIR_T/fp1.out")"
"$TRIAGE" --json "$fx" | grep -q '"fp_rate": null' && ok ||
	bad "JSON fp_rate over no explained site is not null"

# 5. symbolization against a small debug binary standing in for vmlinux
sym=/usr/lib/llvm-19/bin/llvm-symbolizer
[ -x "$sym" ] || sym=$(command -v llvm-symbolizer)
if [ -n "$sym" ]; then
	cat >"$TMPDIR_T/symtest.c" <<'EOF'
static volatile int sink;
__attribute__((noinline)) void sym_inner(int x)
{
	sink = x * 3;
}
__attribute__((noinline)) void sym_outer(int x)
{
	sym_inner(x + 1);
	sink++;
}
int main(void)
{
	sym_outer(1);
	return 0;
}
EOF
	if "$CC" -g -O1 -o "$TMPDIR_T/symtest" "$TMPDIR_T/symtest.c"; then
		printf '%s\n' 'UBSAN: negation-overflow in lib/a.c:1:2' \
			'negation of -2147483648 cannot be represented' \
			'Call Trace:' ' sym_inner+0x1/0x10' ' sym_outer+0x9/0x20' \
			' not_there+0x1/0x2' ' modfunc+0x1/0x2 [mod]' \
			'========================================================================' \
			>"$TMPDIR_T/sym.log"
		"$TRIAGE" --json --vmlinux "$TMPDIR_T/symtest" "$TMPDIR_T/sym.log" \
			>"$TMPDIR_T/sym.json" 2>"$TMPDIR_T/sym.err"
		if grep -q '"src": \["sym_outer symtest.c:[89]' \
			"$TMPDIR_T/sym.json" ||
			grep -q '"src": \["sym_outer .*symtest.c:[89]' \
				"$TMPDIR_T/sym.json"; then ok; else
			bad "symbolization: no sym_outer source line"
			cat "$TMPDIR_T/sym.json" "$TMPDIR_T/sym.err"
		fi
		# a trap (patch 0020's line) gets its site from the RIP
		printf '%s\n' 'UBSAN: shift-out-of-bounds in sym_inner+0x3/0x10' \
			'invalid opcode: 0000 [#1] PREEMPT SMP NOPTI' \
			'RIP: 0010:sym_inner+0x3/0x10' 'Call Trace:' ' <TASK>' \
			' sym_outer+0x9/0x20' ' </TASK>' \
			'---[ end trace 0000000000000000 ]---' >"$TMPDIR_T/trap.log"
		"$TRIAGE" --tsv --vmlinux "$TMPDIR_T/symtest" "$TMPDIR_T/trap.log" \
			>"$TMPDIR_T/trap.tsv" 2>"$TMPDIR_T/sym.err"
		if grep -q "	shift-out-of-bounds	.*symtest\.c:4:[0-9]*	sym_inner	1	" \
			"$TMPDIR_T/trap.tsv"; then ok; else
			bad "trap symbolization: no symtest.c:4 site"
			cat "$TMPDIR_T/trap.tsv" "$TMPDIR_T/sym.err"
		fi
		# with no reliable frame (early boot), the guilty one is the
		# frame whose source passes through the report's file:line
		at=$(sed -n 's/.*"src": \["sym_outer \([^"]*symtest\.c:[0-9]*\):[0-9]*".*/\1/p' \
			"$TMPDIR_T/sym.json" | head -n 1)
		printf '%s\n' "UBSAN: negation-overflow in $at:2" \
			'negation of -2147483648 cannot be represented' \
			'Call Trace:' ' ? main+0x1/0x10' ' ? sym_outer+0x9/0x20' \
			'========================================================================' \
			>"$TMPDIR_T/early.log"
		"$TRIAGE" --tsv --vmlinux "$TMPDIR_T/symtest" "$TMPDIR_T/early.log" \
			>"$TMPDIR_T/early.tsv" 2>"$TMPDIR_T/sym.err"
		if [ -n "$at" ] && grep -q "	sym_outer	1	UBSAN: negation-overflow in sym_outer	" \
			"$TMPDIR_T/early.tsv"; then ok; else
			bad "unreliable stack: guilty frame not taken from the site ($at)"
			cat "$TMPDIR_T/early.tsv" "$TMPDIR_T/sym.err"
		fi
		"$TRIAGE" --json --vmlinux "$TMPDIR_T/nope" "$TMPDIR_T/sym.log" \
			>/dev/null 2>"$TMPDIR_T/sym.err"
		[ $? -eq 1 ] && grep -q warning "$TMPDIR_T/sym.err" && ok ||
			bad "missing vmlinux must warn and continue"
	fi
else
	echo "note: llvm-symbolizer not found, symbolization test skipped"
fi

# 6. classification through --kit on the peer logs (example lists in
# tests/kit-example, not the kit's real ones)
if [ -d "$PEER_LOGS/syzkaller" ]; then
	ex=$(dirname "$0")/kit-example
	set --
	for f in "$PEER_LOGS"/syzkaller/*; do
		[ "$(basename "$f")" = README.md ] && continue
		sed '1,/^$/d' "$f" >"$TMPDIR_T/kit-$(basename "$f").log"
		set -- "$@" "$TMPDIR_T/kit-$(basename "$f").log"
	done
	"$TRIAGE" --tsv --kit "$ex" "$@" | cut -f1,4 | sort >"$TMPDIR_T/kit.out"
	printf '%s\t%s\n' annotated arch_uprobe_analyze_insn \
		benign precalculate_color ignorelisted xprt_calc_majortimeo \
		known-bug lkdtm_ARRAY_BOUNDS known-bug proc_do_submiturb |
		sort >"$TMPDIR_T/kit.want"
	if diff -u "$TMPDIR_T/kit.want" "$TMPDIR_T/kit.out"; then ok; else
		bad "--kit classification"
	fi
	"$TRIAGE" --kit "$ex" "$@" >/dev/null
	[ $? -eq 0 ] && ok || bad "exit status with every site classified"
	"$TRIAGE" --fp-rate --ignorelist "$ex/sanitizer-ignorelist" \
		--annotations "$ex/annotations/sites.tsv" \
		--known-bugs "$ex/patches/regressions/known-bugs.tsv" "$@" \
		>"$TMPDIR_T/fp.out"
	grep -q '^ignorelisted 1$' "$TMPDIR_T/fp.out" &&
		grep -q '^fp_rate      0/0 = -$' "$TMPDIR_T/fp.out" && ok ||
		bad "--fp-rate: $(cat "$TMPDIR_T/fp.out")"
	"$TRIAGE" --annotations "$ex/none.tsv" "$1" >/dev/null 2>&1
	[ $? -eq 2 ] && ok || bad "missing --annotations file is not exit 2"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
