#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Tests of the triage's judgement (annotations/rules.tsv, class finding),
# of --follow, --coverage and --redundant-rows (sites.tsv keeps only what no
# rule covers), on real console logs of the kit's kernels. KTAP on stdout;
# the last line is "N passed, N failed".
# Environment: TRIAGE (binary), TESTDATA, KIT (the checkout), PEER_LOGS,
# TMPDIR_T (scratch dir), SRC_TREE (6.1.192's unpacked tree, optional).
set -u
: "${TRIAGE:?}" "${TESTDATA:=testdata}" "${KIT:?}" "${PEER_LOGS:=}"
: "${TMPDIR_T:=/tmp/judge-test.$$}"
T=$TMPDIR_T/judge
rm -rf "$T" && mkdir -p "$T"
KTAP_BUF=$T/ktap
# shellcheck source=tools/tests/ktap.sh
. "$(dirname "$0")/ktap.sh"
result() { # status name [diagnostic file]
	if [ "$1" -eq 0 ]; then
		ok "$2"
	else
		bad "$2" "$([ -n "${3-}" ] && head -n 40 "$3")"
	fi
}

# A kit whose lists know none of the bugs: the rows of class bug and the
# known bugs taken out, as if nobody had ever seen them.
nobugs=$T/kit-nobugs
sh "$(dirname "$0")/../kit-without-bugs.sh" "$KIT" "$nobugs"

# The source lines the rules read, at their lines in 6.1.192's unpatched
# tree (testdata/judge-src.lines: file, line, text), in a tree of their own.
src=$T/src
sh "$(dirname "$0")/src-tree.sh" build "$TESTDATA/judge-src.lines" "$src"

# 1. The raw tiny kernel's bugs (the PELT clamp, util_est's wrapped
# difference), in a log of the kit's kernel before the triage patches,
# come out as findings by rule when no row knows them.
log=$TESTDATA/kit-cve-2023-6931.log
"$TRIAGE" --kit "$nobugs" --src "$src" --tsv "$log" >"$T/1.tsv"
awk -F'\t' '$1 == "finding" { print $3, $8 }' "$T/1.tsv" | sort >"$T/1.got"
cat >"$T/1.want" <<'EOF'
kernel/events/core.c:1851:21 user-input
kernel/sched/fair.c:3296:25 minmax-narrow
kernel/sched/fair.c:4376:20 wrapped-difference
kernel/sched/fair.c:4408:11 wrapped-difference
EOF
diff -u "$T/1.want" "$T/1.got" >"$T/1.diff"
result $? "the raw kernel's bugs are findings by rule" "$T/1.diff"

# 2. With the kit's own lists, the same log has no finding: every bug is a
# known bug or a row (rows and known bugs come before the rules).
"$TRIAGE" --kit "$KIT" --src "$src" --tsv "$log" >"$T/2.tsv"
awk -F'\t' '$1 == "finding" || $1 == "new"' "$T/2.tsv" >"$T/2.bad"
[ ! -s "$T/2.bad" ]
result $? "rows and known bugs take precedence over the rules" "$T/2.bad"

# 3. No finding is ever answered with an ignorelist line, in any log we
# have (the kit's, syzkaller's corpus, the peers'), with either kit: one
# run over all of them for each kit.
: >"$T/3.bad"
for k in "$KIT" "$nobugs"; do
	# shellcheck disable=SC2046 # file names without blanks
	"$TRIAGE" --kit "$k" --src "$src" --json "$TESTDATA"/*.log \
		$(find "$PEER_LOGS" -type f 2>/dev/null) 2>/dev/null |
		awk '
			/"class": "finding"/ { fnd = 1; n++; next }
			fnd && /"suggestion":/ {
				if ($0 ~ /(^|\\n)(fun|src|type):/ ||
				    $0 ~ /\\n\[/ || $0 !~ /fix: /)
					print
				fnd = 0
			}
			END { if (!n) print "no finding at all: the test sees nothing" }' >>"$T/3.bad"
done
[ ! -s "$T/3.bad" ]
result $? "no finding is suggested an ignorelist line" "$T/3.bad"

# 4. A finding's suggestion carries its evidence: entry, value, the
# statement, a fix direction.
"$TRIAGE" --kit "$nobugs" --src "$src" "$log" >"$T/4.txt"
for want in 'entry: sys_perf_event_open' \
	'value: signed truncation of value 65544' \
	'line: kernel/sched/fair.c:3296: cfs_rq->avg.load_sum = max_t(u32,' \
	'next use: kernel/sched/fair.c:4409:' 'fix: check the range'; do
	grep -qF "$want" "$T/4.txt" || echo "missing: $want"
done >"$T/4.bad"
[ ! -s "$T/4.bad" ]
result $? "a finding gives entry, value, line, next use and fix" "$T/4.bad"

# 4b. --findings: a row that records a rejected finding (idiom
# rejected-finding, or rejected-finding:IDIOM) is reported rejected; a site
# only the rules judged is open.
rej=$T/kit-rejected
mkdir -p "$rej/annotations"
cp "$KIT/annotations/rules.tsv" "$rej/annotations/"
{ head -n 1 "$KIT/annotations/sites.tsv"
	printf 'fs/namespace.c:3669\t__x64_sys_mount\timplicit-conversion\tannotated\tnot user input\trejected-finding:ptr-err\n'
} >"$rej/annotations/sites.tsv"
"$TRIAGE" --kit "$rej" --findings json "$TESTDATA/kit-fixed-test-ubsan.log" >"$T/4b.json"
awk '/"site":/ { site = $2 } /"verdict":/ { print site, $2 }' "$T/4b.json" |
	tr -d '",' >"$T/4b.got"
grep -qx 'fs/namespace.c:3669 rejected' "$T/4b.got" &&
	grep -qx 'kernel/events/core.c:5734 open' "$T/4b.got"
result $? "--findings: rejected and open verdicts" "$T/4b.got"

# 5. --follow on a log that grows (a writer appends the real log in 40
# pieces) prints the same sites as the batch triage of the finished log,
# and announces each site once as it is first seen.
big=$TESTDATA/kit-fixed-test-ubsan.log
"$TRIAGE" --kit "$KIT" --tsv "$big" >"$T/5.batch"
: >"$T/5.log"
lines=$(wc -l <"$big")
step=$((lines / 40 + 1))
(
	i=1
	while [ "$i" -le "$lines" ]; do
		sed -n "${i},$((i + step - 1))p" "$big" >>"$T/5.log"
		i=$((i + step))
		sleep 0.05
	done
) &
writer=$!
"$TRIAGE" --kit "$KIT" --tsv --follow --pid "$writer" "$T/5.log" \
	>"$T/5.follow" 2>"$T/5.live"
wait "$writer"
cmp "$T/5.batch" "$T/5.follow" >"$T/5.diff" 2>&1 &&
	[ "$(grep -c '^follow: ' "$T/5.live")" -eq "$(wc -l <"$T/5.batch")" ]
result $? "--follow of a growing log equals the batch triage" "$T/5.diff"

# 6. --follow through a pipe (the serial console as a FIFO).
mkfifo "$T/6.fifo"
cat "$big" >"$T/6.fifo" &
"$TRIAGE" --kit "$KIT" --tsv --follow "$T/6.fifo" >"$T/6.follow" 2>/dev/null
wait
cmp "$T/5.batch" "$T/6.follow" >"$T/6.diff" 2>&1
result $? "--follow of a FIFO equals the batch triage" "$T/6.diff"

# 7. --stop-at-finding ends the run at the first finding: exit 3, the
# writer is sent SIGTERM, the log is kept.
: >"$T/7.log"
(
	trap 'exit 0' TERM
	while :; do
		cat "$log" >>"$T/7.log"
		sleep 1
	done
) &
writer=$!
"$TRIAGE" --kit "$nobugs" --src "$src" --follow --stop-at-finding \
	--pid "$writer" "$T/7.log" >"$T/7.out" 2>"$T/7.live"
st=$?
i=0
while kill -0 "$writer" 2>/dev/null && [ "$i" -lt 30 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -0 "$writer" 2>/dev/null && { kill -9 "$writer"; st=99; }
echo "exit status $st" >>"$T/7.live"
[ "$st" -eq 3 ] && grep -q '^follow: stopping at the first finding' "$T/7.live" &&
	[ -s "$T/7.log" ]
result $? "--stop-at-finding exits 3 and stops the writer" "$T/7.live"

# 8. --coverage: the rules over real census rows (testdata/census-sample.tsv,
# rows of the tiny kernel's census): every row is counted once.
"$TRIAGE" --kit "$KIT" --src "$src" --coverage "$TESTDATA/census-sample.tsv" \
	>"$T/8.out" 2>&1
rows=$(($(wc -l <"$TESTDATA/census-sample.tsv") - 1))
counted=$(awk '$1 == "checks" { s = 0; for (i = 2; i <= NF; i++) s += $i; print s }' "$T/8.out")
[ "$counted" = "$rows" ] && grep -q '^minmax-narrow ' "$T/8.out" &&
	grep -q '^checksum ' "$T/8.out"
result $? "--coverage counts every census row once" "$T/8.out"

# 9. The source lines of the tests are the tree's: every line of
# testdata/judge-src.lines as 6.1.192 has it (SRC_TREE: its unpacked tree,
# build/src/linux-source-6.1; skipped without one).
if [ -n "${SRC_TREE:-}" ] && [ -d "$SRC_TREE" ]; then
	sh "$(dirname "$0")/src-tree.sh" verify "$TESTDATA/judge-src.lines" \
		"$SRC_TREE" >"$T/9.bad"
	[ ! -s "$T/9.bad" ]
	result $? "judge-src.lines are the lines of the 6.1.192 tree" "$T/9.bad"
else
	skip "judge-src.lines are the lines of the 6.1.192 tree" "no SRC_TREE (build/src/linux-source-6.1)"
fi

# 10. sites.tsv keeps only what no rule covers (issue 27): over every log
# we have (the kit's and the peers'), with the source lines, no row says
# what the rules already say of all its sites (--redundant-rows; a bug row
# and a confirmed or rejected finding are kept whatever the rules say).
# shellcheck disable=SC2046 # file names without blanks
"$TRIAGE" --kit "$KIT" --src "$src" --redundant-rows "$TESTDATA"/*.log \
	$(find "$PEER_LOGS" -type f ! -name README.md 2>/dev/null) >"$T/10.out" 2>&1
st=$?
{ grep '^redundant' "$T/10.out"
	[ "$st" -eq 0 ] || echo "exit status $st"
	grep -q '^# [0-9]* rows: 0 redundant, [0-9]* differs,' "$T/10.out" ||
		echo "no count of the rows"
} >"$T/10.bad"
[ ! -s "$T/10.bad" ]
result $? "no annotations/sites.tsv row is redundant with a rule" "$T/10.bad"
sed -n 's/^# //p' "$T/10.out" | diag

# 11. No intentional rule covers a bug: the sites of the bug rows and
# confirmed findings (with the row set aside) are findings or new, never
# annotated, benign, ignorelisted or deliberate by a rule.
awk -F'\t' '($1 == "bug" || $1 == "finding") && $9 ~ /=(annotated|benign|ignorelisted|deliberate)\//' \
	"$T/10.out" >"$T/11.bad"
[ ! -s "$T/11.bad" ] && grep -q '^bug' "$T/10.out"
result $? "no intentional rule covers a bug row's site" "$T/11.bad"

# 12. The check of 10 can fail: a kit with one more row, for a site a rule
# already judges the same way (probe_8259A's PIC mask, the mask-constant
# rule), has that row redundant and exits 1; the same row with another
# class differs.
red=$T/kit-redundant
mkdir -p "$red/annotations"
cp "$KIT/annotations/rules.tsv" "$red/annotations/"
row() { # class
	cat "$KIT/annotations/sites.tsv"
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' arch/x86/kernel/i8259.c:305 probe_8259A \
		implicit-conversion "$1" 'the PIC mask built in int' mask-constant
}
row annotated >"$red/annotations/sites.tsv"
"$TRIAGE" --kit "$red" --src "$src" --redundant-rows \
	"$TESTDATA/kit-fixed-test-ubsan.log" >"$T/12.out" 2>&1
st=$?
row bug >"$red/annotations/sites.tsv"
"$TRIAGE" --kit "$red" --src "$src" --redundant-rows \
	"$TESTDATA/kit-fixed-test-ubsan.log" >"$T/12b.out" 2>&1
st2=$?
echo "exit status $st, then $st2" >>"$T/12.out"
[ "$st" -eq 1 ] && [ "$st2" -eq 0 ] &&
	[ "$(grep -c '^redundant' "$T/12.out")" -eq 1 ] &&
	grep -q '^redundant	[^	]*	arch/x86/kernel/i8259.c:305	probe_8259A	.*	mask-constant	' "$T/12.out" &&
	grep -q '^bug	[^	]*	arch/x86/kernel/i8259.c:305	' "$T/12b.out"
result $? "--redundant-rows finds a row a rule already makes" "$T/12.out"


# 13. The upper half of a 64-bit value stored into an s32 (BPF's ld_imm64,
# reached from bpf(2) in the 6.12 fuzzing run) is benign by the rule
# upper-half; the same report without that rule is a finding by its
# origin, so the rule is what judges it. The statement at its 6.12.118
# line, in a tree of its own.
printf 'kernel/bpf/verifier.c\t19749\t\t\tinsn[1].imm = addr >> 32;\n' >"$T/13.lines"
sh "$(dirname "$0")/src-tree.sh" build "$T/13.lines" "$T/13.src"
log=$TESTDATA/syz612-bpf-ldimm64.log
"$TRIAGE" --kit "$nobugs" --src "$T/13.src" --tsv "$log" >"$T/13.tsv"
norule=$T/kit-no-upper-half
mkdir -p "$norule/annotations"
cp "$nobugs/annotations/sites.tsv" "$norule/annotations/"
grep -v '^upper-half	' "$nobugs/annotations/rules.tsv" >"$norule/annotations/rules.tsv"
"$TRIAGE" --kit "$norule" --src "$T/13.src" --tsv "$log" >"$T/13b.tsv"
{
	echo "with the rule:" && cat "$T/13.tsv"
	echo "without it:" && cat "$T/13b.tsv"
} >"$T/13.out"
[ "$(awk -F'\t' '$3 ~ /verifier.c:19749:/ { print $1, $8 }' "$T/13.tsv")" = "benign upper-half" ] &&
	[ "$(awk -F'\t' '$3 ~ /verifier.c:19749:/ { print $1 }' "$T/13b.tsv")" = finding ]
result $? "a 64-bit value's upper half into an s32 is the rule's, not a finding" "$T/13.out"


# 14. Debian's cloud config brought idioms that defconfig had not built:
# each is judged by a rule (no row), and without those rules (the CRC's is
# a widened old one, kept) the same reports are new. The SHA-3 statement at
# its 6.12.118 line, in a tree of its own.
printf 'crypto/sha3_generic.c\t233\t\tput_unaligned_le32(sctx->st[i], (__le32 *)digest);\n' >"$T/14.lines"
sh "$(dirname "$0")/src-tree.sh" build "$T/14.lines" "$T/14.src"
log=$TESTDATA/kit-cloud612-idioms.log
"$TRIAGE" --kit "$nobugs" --src "$T/14.src" --tsv "$log" |
	awk -F'\t' '{ print $3, $1, $8 }' | sort >"$T/14.got"
cat >"$T/14.want" <<'EOF2'
arch/x86/net/bpf_jit_comp.c:2438:5 benign jit-encoding
arch/x86/net/bpf_jit_comp.c:2440:5 benign jit-encoding
arch/x86/net/bpf_jit_comp.c:29:17 benign jit-encoding
arch/x86/net/bpf_jit_comp.c:553:2 benign jit-encoding
crypto/crct10dif_common.c:75:9 benign checksum
crypto/ecc.c:380:18 benign wide-product
crypto/sha3_generic.c:233:22 benign cipher
lib/lzo/lzo1x_compress.c:286:12 benign codec
EOF2
old=$T/kit-old-rules
mkdir -p "$old/annotations"
cp "$nobugs/annotations/sites.tsv" "$old/annotations/"
awk -F'\t' '!($1 ~ /^(jit-encoding|wide-product|codec)$/ ||
	($1 == "cipher" && $8 != ""))' "$nobugs/annotations/rules.tsv" \
	>"$old/annotations/rules.tsv"
"$TRIAGE" --kit "$old" --src "$T/14.src" --tsv "$log" |
	awk -F'\t' '$1 == "new"' >"$T/14.new"
diff -u "$T/14.want" "$T/14.got" >"$T/14.diff"
st=$?
echo "new without the rules: $(wc -l <"$T/14.new") of 7" >>"$T/14.diff"
[ "$st" -eq 0 ] && [ "$(wc -l <"$T/14.new")" -eq 7 ]
result $? "Debian's cloud config's idioms are the rules', not rows" "$T/14.diff"

ktap_end
