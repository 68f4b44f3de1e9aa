#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# KTAP test of a real fuzzing run that saves no crash (make check-fuzz):
# the fuzzing kernel booted by syz-manager on a fresh workdir, with
# syscalls that reach no site the kit cannot explain. Such a run is a
# result, not an error: the make must end with exit status 0, print the
# run's figures and the consoles' triage, and leave no crash directory and
# no QEMU.
#
# usage: test-fuzz.sh DIR MAKE-COMMAND...
#   DIR           removed, then the test's: run/ is the fuzz run's directory
#                 (the command's FUZZ_DIR), make.log what the command printed
#   MAKE-COMMAND  the make fuzz-kernel to run (FUZZ_DIR=DIR/run, a few
#                 minutes, FUZZ_SYSCALLS)
set -u

[ $# -ge 2 ] || {
	echo "usage: $0 DIR MAKE-COMMAND..." >&2
	exit 2
}
dir=$1
shift
rm -rf "$dir"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
run=$dir/run
log=$dir/make.log
KTAP_BUF=$dir/ktap
# shellcheck source=tools/tests/ktap.sh
. "$(dirname "$0")/../tools/tests/ktap.sh"

# the run must start from nothing: no corpus, no crash carried over
[ ! -e "$run" ] && ok "fresh run directory ($run)" || bad "fresh run directory ($run)"

start=$(date +%s)
"$@" >"$log" 2>&1
st=$?
took=$(($(date +%s) - start))
diag "$* (exit $st, $took s)"

t="make fuzz-kernel exits 0 on a run that saved no crash"
[ $st -eq 0 ] && ok "$t" || bad "$t" "exit status $st; the end of $log:
$(tail -15 "$log")"

# The figures: fuzz.sh prints stats.tsv as "fuzz: NAME VALUE" lines.
figure() { sed -n "s/^fuzz: $1 *\([0-9][0-9]*\)\$/\1/p" "$log" | tail -1; }
execs=$(figure executions)
t="the figures are printed, programs were executed"
[ "${execs:-0}" -gt 0 ] && [ -n "$(figure seconds)" ] && [ -n "$(figure coverage)" ] &&
	ok "$t" || bad "$t" "executions '${execs:-}' in $log"
grep '^fuzz: [a-z_]* ' "$log" | diag

# The consoles' triage: the table's summary line over every VM's console
# that has something, and the --fp-rate figures.
consoles=0
for f in "$run"/consoles/*.log; do
	[ ! -s "$f" ] || consoles=$((consoles + 1))
done
summary=$(grep -E '^[0-9]+ reports, [0-9]+ distinct sites in [0-9]+ log\(s\)$' "$log" | tail -1)
logs=$(printf '%s\n' "$summary" | sed -n 's/.* in \([0-9]*\) log(s)$/\1/p')
t="the consoles' triage is printed (every console read)"
[ "$consoles" -gt 0 ] && [ "${logs:-0}" -eq "$consoles" ] &&
	grep -q '^COUNT  CLASS' "$log" && grep -q '^fp_rate ' "$log" && ok "$t" ||
	bad "$t" "$consoles console(s) with output, triage summary '${summary:-none}'"
[ -z "$summary" ] || diag "triage: $summary"
t="no site the kit cannot explain (new 0)"
grep -qE '^new +0$' "$log" && ok "$t" || bad "$t" "$(grep -E '^new ' "$log")"

# No crash: syz-manager saved none, and its workdir is one (corpus.db).
crashes=$(find "$run/workdir/crashes" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l)
t="no crash directory"
[ "$crashes" -eq 0 ] && [ "$(figure crash_dirs)" = 0 ] && ok "$t" ||
	bad "$t" "$crashes in $run/workdir/crashes: $(find "$run/workdir/crashes" -mindepth 1 -maxdepth 1 -printf '%f ' 2>/dev/null)"
t="the workdir is syz-manager's (corpus.db), read as no crash"
[ -f "$run/workdir/corpus.db" ] && ok "$t" || bad "$t" "no $run/workdir/corpus.db"

left=$(pgrep -f "qemu-system.*$run/vm/initramfs.cpio" | tr '\n' ' ')
t="no QEMU of the run left"
[ -z "$left" ] && ok "$t" || bad "$t" "still running: $left"

ktap_end
