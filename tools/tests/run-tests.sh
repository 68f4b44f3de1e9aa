#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Test driver for ubsan-triage. Prints KTAP (the unit tests' and the
# corpus test's results folded in, renumbered), then a last plain line
# "N passed, M failed".
# Environment: TRIAGE, UNIT (binaries), TESTDATA (corpus dir), PEER_LOGS
# (shared/peer-logs), TMPDIR_T (scratch dir), CC; UPDATE=1 rewrites each
# testdata/NAME.expected (not the "# subset" ones) from the current output
# instead of comparing (make -C tools update), then review the diff.
# ok never fails, so "CHECK && ok NAME || bad NAME" is if-then-else here:
# shellcheck disable=SC2015
set -u
: "${TRIAGE:?}" "${UNIT:?}" "${TESTDATA:=testdata}" "${PEER_LOGS:=}"
: "${TMPDIR_T:=/tmp/ubsan-triage-test.$$}" "${CC:=cc}" "${UPDATE:=}"
mkdir -p "$TMPDIR_T"
KTAP_BUF=$TMPDIR_T/ktap
# shellcheck source=tools/tests/ktap.sh
. "$(dirname "$0")/ktap.sh"

# 1. unit tests (C)
"$UNIT" >"$TMPDIR_T/unit.out"
st=$?
fold unit "$TMPDIR_T/unit.out"
tail -n 1 "$TMPDIR_T/unit.out" | grep -q '^[0-9]* passed, [0-9]* failed$' ||
	bad "unit tests finished" "status $st"

# 2. corpus: every testdata/*.log with a sibling .expected (the --tsv
# output; if its first line is "# subset", each other line must occur).
# An optional .args file adds options; "@KIT@" in it is the kit root,
# "@SRC@" the tree of the source lines the rules read (testdata/judge-src.lines,
# laid out by tests/src-tree.sh), as the kit's triage reads its kernel's tree.
# A directory testdata/NAME/ with NAME.expected is read the same way with
# --syz (a syz-manager workdir or crash directory).
kit=$(cd "$(dirname "$0")/../.." && pwd)
src=$TMPDIR_T/src
sh "$(dirname "$0")/src-tree.sh" build "$TESTDATA/judge-src.lines" "$src"
check_expected() { # input base [--syz]
	args=
	[ -f "$2.args" ] && args=$(sed "s|@KIT@|$kit|g; s|@SRC@|$src|g" "$2.args")
	# shellcheck disable=SC2086
	"$TRIAGE" --tsv $args ${3-} "$1" >"$TMPDIR_T/out.tsv" 2>"$TMPDIR_T/err"
	st=$?
	t="expected ${2##*/}"
	if [ "$st" -ge 2 ]; then
		bad "$t" "exit status $st: $(cat "$TMPDIR_T/err")"
		return
	fi
	if [ "$(head -n 1 "$2.expected")" = "# subset" ]; then
		missing=$(sed 1d "$2.expected" | while IFS= read -r l; do
			grep -qxF -- "$l" "$TMPDIR_T/out.tsv" || echo "$l"
		done)
		if [ -z "$missing" ]; then ok "$t (subset)"; else
			bad "$t (subset)" "lines not in output:
$missing"
		fi
	elif diff -u "$2.expected" "$TMPDIR_T/out.tsv" >"$TMPDIR_T/diff"
	then
		ok "$t"
	elif [ -n "$UPDATE" ]; then
		cp "$TMPDIR_T/out.tsv" "$2.expected"
		ok "$t"
		diag "updated $2.expected"
	else
		bad "$t" "output differs from $2.expected:
$(cat "$TMPDIR_T/diff")"
	fi
}
for log in "$TESTDATA"/*.log; do
	[ -e "$log" ] || continue
	[ -f "${log%.log}.expected" ] || continue
	check_expected "$log" "${log%.log}"
done

# A syz-manager workdir laid out from testdata/NAME.layout (the format is
# in testdata/syz-workdir.layout) in the scratch directory DEST: the peer
# logs are read in place, never copied into testdata. Without the peer
# logs, a crash directory that needs them is left out; DEST.skipped lists
# those left out.
syz_layout() { # layout dest
	rm -rf "$2" "$2.skipped"
	mkdir -p "$2/crashes"
	: >"$TMPDIR_T/syz-skip"
	while read -r sdir sfile show sarg; do
		case $sdir in '' | '#'*) continue ;; esac
		sd=$2/crashes/$sdir
		mkdir -p "$sd"
		case $show in
		text)
			if [ "$sfile" = description ]; then
				printf '%s\n' "$sarg" >"$sd/$sfile"
			else
				printf '%s' "$sarg" >"$sd/$sfile"
			fi
			# syz-manager names a crash directory by its title's sha1
			if [ "$sfile" = description ] &&
				command -v sha1sum >/dev/null &&
				[ "$(printf '%s' "$sarg" | sha1sum | cut -c1-40)" != "$sdir" ]
			then
				bad "layout ${1##*/}" "$sdir is not the sha1 of '$sarg'"
			fi
			;;
		testdata)
			cp "$TESTDATA/$sarg" "$sd/$sfile" ||
				bad "layout ${1##*/}" "$sdir/$sfile: cannot copy $TESTDATA/$sarg"
			;;
		peer-log | peer-report)
			if [ ! -d "$PEER_LOGS/${sarg%%/*}" ]; then
				echo "$sdir" >>"$TMPDIR_T/syz-skip"
				continue
			fi
			# as tests/corpus-test.sh reads a file: the header up to
			# the first empty line, the log up to an empty line
			# before "REPORT:" (trailing empty lines left out), the
			# report after that line
			if [ ! -f "$PEER_LOGS/$sarg" ]; then
				bad "layout ${1##*/}" "$sdir/$sfile: no file $PEER_LOGS/$sarg"
			elif ! awk -v part="${show#peer-}" '
				{ gsub(/\r/, "") }
				!body { if ($0 == "") body = 1; next }
				rep { if (part == "report") print; next }
				$0 == "REPORT:" && empty { rep = 1; next }
				part != "log" { empty = $0 == "" ? empty + 1 : 0; next }
				$0 == "" { empty++; next }
				{ while (empty) { print ""; empty-- } print }
			' "$PEER_LOGS/$sarg" >"$sd/$sfile" || [ ! -s "$sd/$sfile" ]
			then
				bad "layout ${1##*/}" "$sdir/$sfile: no $show in $PEER_LOGS/$sarg"
			fi
			;;
		*)
			bad "layout ${1##*/}" "$sdir/$sfile: unknown source '$show'"
			;;
		esac
	done <"$1"
	sort -u "$TMPDIR_T/syz-skip" >"$2.skipped"
	while read -r sdir; do
		rm -rf "$2/crashes/$sdir"
	done <"$2.skipped"
}
# every layout (section 4c uses syz-workdir's), checked if it has NAME.expected
rm -f "$TMPDIR_T"/*.skipped
for layout in "$TESTDATA"/*.layout; do
	[ -e "$layout" ] || continue
	name=$(basename "${layout%.layout}")
	syz_layout "$layout" "$TMPDIR_T/$name"
	[ -f "${layout%.layout}.expected" ] || continue
	if [ ! -s "$TMPDIR_T/$name.skipped" ]; then
		check_expected "$TMPDIR_T/$name" "${layout%.layout}" --syz
	else
		skip "expected $name" "no peer logs at '$PEER_LOGS'"
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
		then ok "peer $name: syz_title"; else
			bad "peer $name: syz_title" "'$syz', syzkaller '$title'"
		fi
		want=$(exp "$name" title)
		[ -n "$want" ] || want=$title
		if [ "$own" = "$want" ]; then ok "peer $name: title"; else
			bad "peer $name: title" "'$own', expected '$want'"
		fi
		want=$(exp "$name" corrupted)
		[ -n "$want" ] || want=$corr
		if [ "$gotc" = "$want" ]; then ok "peer $name: corrupted"; else
			bad "peer $name: corrupted" "$gotc, expected $want"
		fi
		gott=$(jfield truncated "$TMPDIR_T/peer.json")
		want=$(exp "$name" truncated)
		[ -n "$want" ] || want=false
		if [ "$gott" = "$want" ]; then ok "peer $name: truncated"; else
			bad "peer $name: truncated" "$gott, expected $want"
		fi
	done
else
	skip "peer logs" "no peer logs at '$PEER_LOGS'"
fi

# 3b. syzkaller's whole report-parser corpus, with the known differences
# of testdata/syzkaller-corpus.expect (tests/corpus-test.sh)
if [ -d "$PEER_LOGS/syzkaller-corpus" ]; then
	sh "$(dirname "$0")/corpus-test.sh" "$TRIAGE" \
		"$PEER_LOGS/syzkaller-corpus" "$TESTDATA/syzkaller-corpus.expect" \
		"$TMPDIR_T/corpus" >"$TMPDIR_T/corpus.out"
	fold corpus "$TMPDIR_T/corpus.out"
	tail -n 1 "$TMPDIR_T/corpus.out" |
		grep -q '^[0-9]* passed, [0-9]* failed$' ||
		bad "corpus test finished"
else
	skip "syzkaller corpus" "no corpus at '$PEER_LOGS/syzkaller-corpus'"
fi

# 4. exit codes
printf 'UBSAN: shift-out-of-bounds in lib/a.c:1:2\n' >"$TMPDIR_T/one.log"
"$TRIAGE" "$TMPDIR_T/one.log" >/dev/null
st=$? t="exit status 1 for a new report"
[ $st -eq 1 ] && ok "$t" || bad "$t"
"$TRIAGE" --filter-kind none "$TMPDIR_T/one.log" >/dev/null
st=$? t="exit status 0 without reports"
[ $st -eq 0 ] && ok "$t" || bad "$t"
"$TRIAGE" "$TMPDIR_T/does-not-exist" >/dev/null 2>&1
st=$? t="exit status 2 for a missing log"
[ $st -eq 2 ] && ok "$t" || bad "$t"
"$TRIAGE" --no-such-option >/dev/null 2>&1
st=$? t="exit status 2 for a bad option"
[ $st -eq 2 ] && ok "$t" || bad "$t"
"$TRIAGE" - <"$TMPDIR_T/one.log" | grep -q 'shift-out-of-bounds' &&
	ok "stdin input" || bad "stdin input"

# 4b. --fp-rate gives no rate over sites nobody has explained: on the fixed
# kernel's log, without lists every site is unexplained (no rate) but the 4
# reached from a system call (mount, readlink, the perf ioctl), which are
# findings, in no rate either; with one annotation (romchecksum's, the row
# annotations/sites.tsv had until the checksum rule made it redundant), the
# rate is over that one explained site.
fx=$TESTDATA/kit-fixed-test-ubsan.log
"$TRIAGE" --fp-rate "$fx" >"$TMPDIR_T/fp0.out"
grep -q '^unexplained  23$' "$TMPDIR_T/fp0.out" &&
	grep -q '^findings     4$' "$TMPDIR_T/fp0.out" &&
	grep -q '^fp_rate      0/0 = -$' "$TMPDIR_T/fp0.out" &&
	ok "--fp-rate without lists" ||
	bad "--fp-rate without lists" "$(cat "$TMPDIR_T/fp0.out")"
{ head -n 1 "$kit/annotations/sites.tsv"
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' arch/x86/kernel/probe_roms.c:195 \
		romchecksum implicit-conversion annotated \
		'An 8-bit checksum: wrapping_add() in patch 0011.' checksum
} >"$TMPDIR_T/one.tsv"
"$TRIAGE" --fp-rate --annotations "$TMPDIR_T/one.tsv" "$fx" \
	>"$TMPDIR_T/fp1.out"
grep -q '^unexplained  22$' "$TMPDIR_T/fp1.out" &&
	grep -q '^findings     4$' "$TMPDIR_T/fp1.out" &&
	grep -q '^fp_rate      1/1 = 1.000$' "$TMPDIR_T/fp1.out" &&
	ok "--fp-rate with one annotation" ||
	bad "--fp-rate with one annotation" "$(cat "$TMPDIR_T/fp1.out")"
t="JSON fp_rate null over no explained site"
"$TRIAGE" --json "$fx" | grep -q '"fp_rate": null' && ok "$t" || bad "$t"

# 4c. --syz: syz-manager's crash directories, laid out from
# testdata/syz-workdir.layout (see testdata/README.md; its whole TSV is
# testdata/syz-workdir.expected). A crash directory is named by the sha1
# of its title, as syz-manager names it. The checks on syzkaller's crashes
# need the peer logs; those on the kit's own logs and on bad directories
# do not. The workdir was laid out in section 2.
wd=$TMPDIR_T/syz-workdir
[ -f "$wd.skipped" ] || bad "--syz workdir layout" "no $TESTDATA/syz-workdir.layout"
kasan=$wd/crashes/3ea704d1bcfd49f36299dd5923d683d0ff2e0dd7
xfrm=$wd/crashes/1f2e006e51c567080c3f8e23cf3bc2076f36da8e
kmsan=$wd/crashes/8349eecbcdab8348c30b208425da0ccb555b5e59
pci=$wd/crashes/382500c899df11dd05885f1d3b57da62e0d3d2ed
rom=$wd/crashes/c6f6d3ce4b2e73c1ddad485a7f089ff28bef654f
syzrows() { # ubsan-triage arguments -> "kind function count workload" rows
	"$TRIAGE" --tsv "$@" 2>&1 | cut -f2,4,5,9
}
syzcheck() { # label want got
	if [ "$2" = "$3" ]; then ok "--syz $1"; else
		bad "--syz $1" "got '$3', want '$2'"
	fi
}
tab=$(printf '\t')
if [ -f "$wd.skipped" ] && [ ! -s "$wd.skipped" ]; then
	# one crash with log0 and report0 (the report cut out of that log):
	# once
	syzcheck "log0 and report0 of one crash" \
		"kasan${tab}do_one_initcall${tab}1${tab}fuzzing" \
		"$(syzrows --syz "$kasan")"
	# two crashes, each with its log and its report: twice
	syzcheck "two crashes with logN and reportN" \
		"warning${tab}xfrm_state_fini${tab}2${tab}fuzzing" \
		"$(syzrows --syz "$xfrm")"
	# a crash directory with report0 only
	syzcheck "report0 only" \
		"kmsan${tab}prepare_task_switch${tab}1${tab}fuzzing" \
		"$(syzrows --syz "$kmsan")"
	# crash 1 without its log1 (syz-manager writes no empty file): report1
	rm -rf "$TMPDIR_T/syz-nolog"
	mkdir -p "$TMPDIR_T/syz-nolog/crashes/x"
	for f in description log0 report0 report1; do
		cp "$xfrm/$f" "$TMPDIR_T/syz-nolog/crashes/x/$f"
	done
	syzcheck "log0, report0, report1" \
		"warning${tab}xfrm_state_fini${tab}2${tab}fuzzing" \
		"$(syzrows --syz "$TMPDIR_T/syz-nolog")"
	syzcheck "logs read for log0, report0, report1" "log0 report1" \
		"$("$TRIAGE" --json --syz "$TMPDIR_T/syz-nolog" |
			sed -n 's|^    {"path": ".*/crashes/x/\([a-z0-9]*\)".*|\1|p' |
			tr '\n' ' ' | sed 's/ $//')"
	# JSON: every site is the fuzzer's and names its crash directories; a
	# report found in two of them (ipcomp_init_state's, under another
	# title in the second) lists both
	"$TRIAGE" --json --syz "$wd" >"$TMPDIR_T/syz.json"
	syzcheck "sites of workload fuzzing" \
		"$(grep -c '^      "workload": ' "$TMPDIR_T/syz.json")" \
		"$(grep -c '^      "workload": "fuzzing",$' "$TMPDIR_T/syz.json")"
	awk '/^      "title": /{ t = $0 }
		/^        {"name": /{ if (t ~ /ipcomp_init_state/) print }' \
		"$TMPDIR_T/syz.json" | sed 's/, "path": .*//' >"$TMPDIR_T/syz.got"
	{
		echo '        {"name": "af59656b2b15a9fcd6f5805398c56f4b3c44336b", "description": "general protection fault in corrupted"'
		echo '        {"name": "e0033969c9c799c8fdaa54f2f46bc82b9f1c7103", "description": "BUG: using __this_cpu_read() in preemptible code in ipcomp_init_state"'
	} >"$TMPDIR_T/syz.want"
	t="--syz --json: the crash directories of ipcomp_init_state's site"
	if diff -u "$TMPDIR_T/syz.want" "$TMPDIR_T/syz.got" >"$TMPDIR_T/diff"
	then ok "$t"; else
		bad "$t" "differs:
$(cat "$TMPDIR_T/diff")"
	fi
	"$TRIAGE" --json --syz "$kmsan/" |
		grep -q '^        {"name": "8349eecbcdab8348c30b208425da0ccb555b5e59", "description": "KMSAN: uninit-value in prepare_task_switch", "path": ' &&
		ok "--syz --json: a crash directory named with a trailing /" ||
		bad "--syz --json: a crash directory named with a trailing /"
	# classes, --fp-rate and exit status through --syz (with the source
	# lines, as the kit's triage reads them)
	"$TRIAGE" --fp-rate --kit "$kit" --src "$src" --syz "$wd" >"$TMPDIR_T/syz.fp"
	st=$?
	[ $st -eq 1 ] && grep -q '^unexplained  0$' "$TMPDIR_T/syz.fp" &&
		grep -q '^fp_rate      13/17 = 0.765$' "$TMPDIR_T/syz.fp" &&
		ok "--syz --fp-rate --kit" ||
		bad "--syz --fp-rate --kit" "status $st: $(cat "$TMPDIR_T/syz.fp")"
	"$TRIAGE" --kit "$kit" --src "$src" --filter-kind implicit-conversion \
		--syz "$wd" >/dev/null
	st=$? t="--syz: status 0 with every site classified"
	[ $st -eq 0 ] && ok "$t" || bad "$t"
	"$TRIAGE" --syz "$wd" >/dev/null
	st=$? t="--syz: status 1 with new sites"
	[ $st -eq 1 ] && ok "$t" || bad "$t"
else
	skip "--syz on syzkaller's crashes" "no peer logs at '$PEER_LOGS'"
fi
if "$TRIAGE" --json "$TESTDATA/kit-defconfig-all-ones.log" |
	grep -q '"crashes"'; then
	bad "--json without --syz lists no crash directories"
else
	ok "--json without --syz lists no crash directories"
fi
# a missing directory, an empty one, a file: exit 2, naming it
rm -rf "$TMPDIR_T/syz-empty" "$TMPDIR_T/syz-none"
mkdir -p "$TMPDIR_T/syz-empty" "$TMPDIR_T/syz-none/crashes"
for d in "$TMPDIR_T/syz-missing" "$TMPDIR_T/syz-empty" "$fx"; do
	"$TRIAGE" --syz "$d" >/dev/null 2>"$TMPDIR_T/err"
	st=$?
	t="--syz ${d##*/}: exit 2 naming it"
	[ $st -eq 2 ] && grep -qF "$d: " "$TMPDIR_T/err" && ok "$t" ||
		bad "$t" "status $st, $(cat "$TMPDIR_T/err")"
done
# a workdir without a crash: nothing to report
"$TRIAGE" --syz "$TMPDIR_T/syz-none" >"$TMPDIR_T/syz.out"
st=$?
[ $st -eq 0 ] && grep -q '^0 reports, 0 distinct sites in 0 log(s)$' \
	"$TMPDIR_T/syz.out" && ok "--syz: a workdir without crashes" ||
	bad "--syz: a workdir without crashes" "status $st"
"$TRIAGE" --kcidb "$TMPDIR_T/none" --syz "$wd" >/dev/null 2>&1
st=$? t="--syz with --kcidb: exit 2"
[ $st -eq 2 ] && ok "$t" || bad "$t"
# logs named too: a site's workload is its first occurrence's, also when
# a later complete report replaces that one (truncated, corrupted) as the
# site's representative (crash directories of the kit's own logs)
syzcheck "a log named, then a crash" \
	"implicit-conversion${tab}pci_assign_irq${tab}2${tab}-" \
	"$(syzrows "$TESTDATA/kit-defconfig-all-ones.log" --syz "$pci")"
syzcheck "a truncated report's workload" \
	"implicit-conversion${tab}__perf_event_read_size${tab}2${tab}perf-cve-2023-6931" \
	"$(syzrows "$TESTDATA/kit-truncated-cve.log" --syz "$rom" |
		grep -F __perf_event_read_size)"

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
static inline __attribute__((always_inline)) void sym_mid(int x)
{
	sym_inner(x * 2);
	sink--;
}
__attribute__((noinline)) void sym_caller(int x)
{
	sym_mid(x + 1);
	sink++;
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
				"$TMPDIR_T/sym.json"; then
			ok "symbolization: sym_outer's source line"
		else
			bad "symbolization: sym_outer's source line" "none:
$(cat "$TMPDIR_T/sym.json" "$TMPDIR_T/sym.err")"
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
			"$TMPDIR_T/trap.tsv"; then
			ok "trap symbolization: the symtest.c:4 site"
		else
			bad "trap symbolization: the symtest.c:4 site" "none:
$(cat "$TMPDIR_T/trap.tsv" "$TMPDIR_T/sym.err")"
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
			"$TMPDIR_T/early.tsv"; then
			ok "unreliable stack: guilty frame from the site"
		else
			bad "unreliable stack: guilty frame from the site" "$at:
$(cat "$TMPDIR_T/early.tsv" "$TMPDIR_T/sym.err")"
		fi
		# a check inlined into its caller: the report names the caller,
		# the lists name the function the check is written in (the
		# entry of the frame's inline chain at the report's file:line)
		ret=$("${sym%/*}/llvm-objdump" -d --no-show-raw-insn \
			"$TMPDIR_T/symtest" 2>/dev/null | awk '
			/<sym_caller>:/ { start = $1; on = 1; next }
			on && /call.*<sym_inner>/ { call = 1; next }
			call { sub(":", "", $1); print start, $1; exit }')
		case $ret in
		*" "*) inl=$(printf '%x' $((0x${ret#* } - 0x${ret%% *}))) ;;
		*) inl= ;;
		esac
		printf 'name\tfile\tfunction\tkind\tfix\tcve\tdetail\n%s\n' \
			"sym-bug	${at%:*}	sym_mid	signed-integer-overflow	-	-	" \
			>"$TMPDIR_T/inline-bugs.tsv"
		for line in 18:12 24:6; do
			printf '%s\n' \
				"UBSAN: signed-integer-overflow in ${at%:*}:$line" \
				"2147483647 * 2 cannot be represented in type 'int'" \
				'Call Trace:' " sym_caller+0x$inl/0x20" \
				'========================================================================' \
				>"$TMPDIR_T/inline-$line.log"
		done
		inline_case() { # title, vmlinux, log, expected class, function
			"$TRIAGE" --tsv --known-bugs "$TMPDIR_T/inline-bugs.tsv" \
				${2:+--vmlinux "$2"} "$TMPDIR_T/inline-$3.log" \
				>"$TMPDIR_T/inline.tsv" 2>"$TMPDIR_T/sym.err"
			if [ -n "$inl" ] && grep -q "^$4	.*symtest\.c:$3	$5	1	" \
				"$TMPDIR_T/inline.tsv"; then
				ok "$1"
			else
				bad "$1" "sym_caller+0x$inl:
$(cat "$TMPDIR_T/inline.tsv" "$TMPDIR_T/sym.err")"
			fi
		}
		inline_case "inlined check: named where it is written, a known bug" \
			"$TMPDIR_T/symtest" 18:12 known-bug sym_mid
		inline_case "inlined check, no vmlinux: the caller's name, new" \
			"" 18:12 new sym_caller
		inline_case "the caller's own line: the caller's name" \
			"$TMPDIR_T/symtest" 24:6 new sym_caller
		# a check that jumped to its handler (a sibling call): the stack
		# has its caller's frame, whose chain never reaches the site; the
		# tree's source names the function whose body holds the line
		sibling_case() { # title, log, expected site and function, triage options
			t=$1 log=$2 want=$3
			shift 3
			"$TRIAGE" --tsv --vmlinux "$TMPDIR_T/symtest" "$@" "$log" \
				>"$TMPDIR_T/sibling.tsv" 2>"$TMPDIR_T/sym.err"
			if grep -q "	$want	1	UBSAN: signed-integer-overflow in sym_outer	" \
				"$TMPDIR_T/sibling.tsv"; then
				ok "$t"
			else
				bad "$t" "$(cat "$TMPDIR_T/sibling.tsv" "$TMPDIR_T/sym.err")"
			fi
		}
		mkdir -p "$TMPDIR_T/tree/lib" && cp "$TMPDIR_T/symtest.c" "$TMPDIR_T/tree/lib/sym.c"
		printf '%s\n' "UBSAN: signed-integer-overflow in lib/sym.c:4:13" \
			"2147483647 * 3 cannot be represented in type 'int'" \
			'Call Trace:' ' sym_outer+0x9/0x20' \
			'========================================================================' \
			>"$TMPDIR_T/sibling.log"
		sibling_case "sibling call: the function the source holds the line in" \
			"$TMPDIR_T/sibling.log" 'lib/sym\.c:4:13	sym_inner' --src "$TMPDIR_T/tree"
		sibling_case "sibling call, no tree: the frame's name" \
			"$TMPDIR_T/sibling.log" 'lib/sym\.c:4:13	sym_outer'
		# a copied vmlinux (make detect's images): the tree is its
		# "source" link, when that holds a Makefile
		mkdir -p "$TMPDIR_T/image" && cp "$TMPDIR_T/symtest" "$TMPDIR_T/image/vmlinux" &&
			ln -sfn "$TMPDIR_T/tree" "$TMPDIR_T/image/source"
		for mk in no yes; do
			[ $mk = no ] || : >"$TMPDIR_T/tree/Makefile"
			"$TRIAGE" --tsv --vmlinux "$TMPDIR_T/image/vmlinux" "$TMPDIR_T/sibling.log" \
				>"$TMPDIR_T/sibling.tsv" 2>"$TMPDIR_T/sym.err"
			want=sym_outer t="a copied vmlinux whose source link has no Makefile: no tree"
			[ $mk = no ] || want=sym_inner t="a copied vmlinux: the tree by its source link"
			grep -q "	lib/sym\.c:4:13	$want	" "$TMPDIR_T/sibling.tsv" && ok "$t" ||
				bad "$t" "$(cat "$TMPDIR_T/sibling.tsv" "$TMPDIR_T/sym.err")"
		done
		rm -f "$TMPDIR_T/tree/Makefile"
		# sparse's lock annotations after the name, and on lines of
		# their own, are not the function's name
		printf '%s\n' 'static int lock_a(struct s *p) __acquires(p)' '{' \
			'	return p->n++;' '}' '' 'static void lock_b(struct s *p)' \
			'__releases(&p->lock)' '__acquires(&p->lock)' '{' '	p->n++;' '}' \
			>"$TMPDIR_T/tree/lib/lock.c"
		for case in 3:lock_a 10:lock_b; do
			sed "s|lib/sym\\.c:4:13|lib/lock.c:${case%:*}:9|" "$TMPDIR_T/sibling.log" \
				>"$TMPDIR_T/lock.log"
			sibling_case "sibling call, annotated: ${case#*:}, not __acquires" \
				"$TMPDIR_T/lock.log" "lib/lock\\.c:${case%:*}:9	${case#*:}" --src "$TMPDIR_T/tree"
		done
		"$TRIAGE" --json --vmlinux "$TMPDIR_T/nope" "$TMPDIR_T/sym.log" \
			>/dev/null 2>"$TMPDIR_T/sym.err"
		st=$? t="a missing vmlinux: a warning, and on"
		[ $st -eq 1 ] && grep -q warning "$TMPDIR_T/sym.err" && ok "$t" ||
			bad "$t"
	fi
else
	skip "symbolization" "llvm-symbolizer not found"
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
	if diff -u "$TMPDIR_T/kit.want" "$TMPDIR_T/kit.out" >"$TMPDIR_T/diff"
	then ok "--kit classification"; else
		bad "--kit classification" "differs:
$(cat "$TMPDIR_T/diff")"
	fi
	"$TRIAGE" --kit "$ex" "$@" >/dev/null
	st=$? t="exit status 0 with every site classified"
	[ $st -eq 0 ] && ok "$t" || bad "$t"
	"$TRIAGE" --fp-rate --ignorelist "$ex/sanitizer-ignorelist" \
		--annotations "$ex/annotations/sites.tsv" \
		--known-bugs "$ex/corpus/example-devio/known-bugs.tsv" \
		--known-bugs "$ex/corpus/example-lkdtm/known-bugs.tsv" "$@" \
		>"$TMPDIR_T/fp.out"
	grep -q '^ignorelisted 1$' "$TMPDIR_T/fp.out" &&
		grep -q '^fp_rate      0/0 = -$' "$TMPDIR_T/fp.out" &&
		ok "--fp-rate with the example lists" ||
		bad "--fp-rate with the example lists" "$(cat "$TMPDIR_T/fp.out")"
	"$TRIAGE" --annotations "$ex/none.tsv" "$1" >/dev/null 2>&1
	st=$? t="a missing --annotations file: exit 2"
	[ $st -eq 2 ] && ok "$t" || bad "$t"
else
	skip "--kit on the peer logs" "no peer logs at '$PEER_LOGS'"
fi

# 6b. --kit reads every corpus/<bug>/known-bugs.tsv, in the order of the
# folders' names (the first matching row names the bug), and a bad file is
# exit 2 naming file:line
kb=$TMPDIR_T/kit-corpus
rm -rf "$kb"
mkdir -p "$kb/corpus/b-second" "$kb/corpus/a-first" "$kb/corpus/c-none"
kbrow() { # name
	printf 'name\tfile\tfunction\tkind\tfix\tcve\tdetail\n'
	printf '%s\tlib/a.c\t*\tshift-out-of-bounds\t-\t-\n' "$1"
}
kbrow b-second >"$kb/corpus/b-second/known-bugs.tsv"
kbrow a-first >"$kb/corpus/a-first/known-bugs.tsv"
"$TRIAGE" --json --kit "$kb" "$TMPDIR_T/one.log" >"$TMPDIR_T/kb.json"
st=$?
[ $st -eq 0 ] && grep -q '"reason": "a-first fix' \
	"$TMPDIR_T/kb.json" && ok "--kit: corpus/*/known-bugs.tsv in folder order" ||
	bad "--kit: corpus/*/known-bugs.tsv in folder order" \
		"status $st: $(grep reason "$TMPDIR_T/kb.json")"
kbbad() { # line name: --kit stops, exit 2, naming c-none's known-bugs.tsv:LINE
	"$TRIAGE" --kit "$kb" "$TMPDIR_T/one.log" >/dev/null 2>"$TMPDIR_T/err"
	st=$?
	[ $st -eq 2 ] && grep -qF "$kb/corpus/c-none/known-bugs.tsv:$1: " "$TMPDIR_T/err" &&
		ok "$2" || bad "$2" "status $st: $(cat "$TMPDIR_T/err")"
}
printf 'name\tfile\tfunction\n' >"$kb/corpus/c-none/known-bugs.tsv"
kbbad 1 "a known-bugs.tsv with a bad header: exit 2, file:line"
{ kbrow c-none; printf '# a comment\nc-none-2\tlib/b.c\tf\n'; } \
	>"$kb/corpus/c-none/known-bugs.tsv"
kbbad 4 "a known-bugs.tsv row without a kind: exit 2, file:line"

# A syz-manager run that saved no crash: its workdir has corpus.db and no
# crashes/. That is a result (no crash), not an error; a folder with
# neither is still exit 2.
nc=$TMPDIR_T/syz-nocrash
rm -rf "$nc" && mkdir -p "$nc/empty" && : >"$nc/corpus.db"
"$TRIAGE" --tsv --syz "$nc" >"$TMPDIR_T/nc.tsv" 2>"$TMPDIR_T/err"
st=$? t="--syz: a workdir that saved no crash is exit 0, no site"
[ $st -eq 0 ] && [ ! -s "$TMPDIR_T/nc.tsv" ] && ok "$t" || bad "$t" "status $st: $(cat "$TMPDIR_T/err")"
"$TRIAGE" --tsv --syz "$nc/empty" >/dev/null 2>"$TMPDIR_T/err"
st=$? t="--syz: a folder that is no workdir is exit 2"
[ $st -eq 2 ] && grep -q 'neither a syz-manager workdir' "$TMPDIR_T/err" && ok "$t" ||
	bad "$t" "status $st: $(cat "$TMPDIR_T/err")"

ktap_end
