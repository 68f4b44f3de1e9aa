#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Bad kit data and bad inputs (make check-inputs): each case must stop with
# exit status 2 and one error line that names the file (and the line,
# where there is one), write nothing on stdout, and change nothing else (no
# build directory, no run directory, the results that were there still
# there). Then the same commands on good input must pass, so that a check
# that refuses everything fails here. KTAP, one line per case.
#
# usage: inputs-test.sh TOP TRIAGE SCRATCH
#   TOP the checkout, TRIAGE its ubsan-triage, SCRATCH a folder to use
set -u
top=${1:?usage: inputs-test.sh TOP TRIAGE SCRATCH}
triage=${2:?usage: inputs-test.sh TOP TRIAGE SCRATCH}
tmp=${3:?usage: inputs-test.sh TOP TRIAGE SCRATCH}
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
tmp=$(cd "$tmp" && pwd)
KTAP_BUF=$tmp/ktap
# shellcheck source=tools/tests/ktap.sh
. "$top/tools/tests/ktap.sh"

# A make of the checkout as a user starts it (not a make of make check).
kmake() {
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u KIT_LOCKED \
		make -C "$top" --no-print-directory BUILD="$tmp/b" "$@"
}

# expect NAME WANT CMD...: CMD exits 2, prints nothing on stdout and one
# line on stderr, which holds WANT; and no build directory appeared.
expect() {
	e_name=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	why=
	[ "$rc" -eq 2 ] || why="exit status $rc, not 2"
	[ ! -s "$tmp/out" ] || why="${why:+$why; }wrote on stdout"
	[ "$(grep -c . "$tmp/err")" -eq 1 ] || why="${why:+$why; }$(grep -c . "$tmp/err") error lines, not 1"
	grep -qF -- "$want" "$tmp/err" || why="${why:+$why; }the error does not name $want"
	[ ! -e "$tmp/b" ] || why="${why:+$why; }a build directory appeared"
	if [ -z "$why" ]; then
		ok "$e_name"
	else
		bad "$e_name" "$why
$(sed 's/^/stderr: /' "$tmp/err")"
	fi
	rm -rf "$tmp/b"
}

# passes NAME CMD...: good input, exit status 0 or 1 (a new site)
passes() {
	p_name=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -le 1 ]; then
		ok "$p_name"
	else
		bad "$p_name" "exit status $rc
$(sed 's/^/stderr: /' "$tmp/err")"
	fi
	rm -rf "$tmp/b"
}

# --- the kit's lists: a copy of them, one line appended per case ---------
kit=$tmp/kit
mkdir -p "$tmp/pristine/annotations" "$tmp/pristine/sanitizer-ignorelist"
cp "$top"/annotations/*.tsv "$tmp/pristine/annotations/" &&
	cp "$top"/sanitizer-ignorelist/*.scl "$tmp/pristine/sanitizer-ignorelist/" || exit 2
for f in "$top"/corpus/*/known-bugs.tsv; do
	d=$tmp/pristine/corpus/$(basename "$(dirname "$f")")
	mkdir -p "$d" && cp "$f" "$d/" || exit 2
done
log=$top/tools/testdata/kit-cve-2023-6931.log
# NAME | FILE of the kit | LINE appended to it (\t: a tab)
cases='sites.tsv: a reason with a tab in it (7 columns)|annotations/sites.tsv|kernel/a.c:1\tf\timplicit-conversion\tbenign\ta reason\twith a tab\thash
sites.tsv: blanks for tabs|annotations/sites.tsv|kernel/a.c:1 f implicit-conversion benign a reason
sites.tsv: a class that does not exist|annotations/sites.tsv|kernel/a.c:1\tf\t*\tbenigne\ta reason
rules.tsv: a class that does not exist|annotations/rules.tsv|r\tintentional\timplicit-conversion\t\t\t\t\t\t\twhy
rules.tsv: a rule without a reason|annotations/rules.tsv|r\tbenign\timplicit-conversion
ignorelist: a line that is no entry|sanitizer-ignorelist/integer.scl|fun_perf_ioctl
ignorelist: an unknown entry type|sanitizer-ignorelist/integer.scl|func:perf_ioctl
ignorelist: a section header without ]|sanitizer-ignorelist/integer.scl|[implicit-signed-integer-truncation
ignorelist: a brace that does not close|sanitizer-ignorelist/integer.scl|src:kernel/{a,b.c
known-bugs.tsv: 8 columns|corpus/cve-2023-6931/known-bugs.tsv|b\tkernel/a.c\tf\timplicit-conversion\t-\t-\t*\textra
known-bugs.tsv: a row without a kind|corpus/cve-2023-6931/known-bugs.tsv|b\tkernel/a.c\tf'
nkit=0
while IFS='|' read -r name file line; do
	rm -rf "$kit" && cp -r "$tmp/pristine" "$kit" || exit 2
	printf '%b\n' "$line" >>"$kit/$file"
	at="$kit/$file:$(wc -l <"$kit/$file"):"
	expect "$name: ubsan-triage --kit" "$at" "$triage" --kit "$kit" --tsv "$log"
	# what the kernel stage and the job runner ask before they start
	case $file in
	*.scl) expect "$name: ubsan-triage --check-lists (make kernel)" "$at" \
		"$triage" --check-lists --ignorelist "$kit/$file" ;;
	esac
	nkit=$((nkit + 1))
done <<EOF
$cases
EOF
rm -rf "$kit" && cp -r "$tmp/pristine" "$kit" || exit 2
passes "the kit's own lists read" "$triage" --kit "$kit" --check-lists
passes "the kit's own lists triage a log" "$triage" --kit "$kit" --tsv "$log"

# --- console logs -----------------------------------------------------------
: >"$tmp/empty.log"
expect "an empty console log" "$tmp/empty.log: empty" "$triage" --kit "$kit" "$tmp/empty.log"
head -c 65536 "$triage" >"$tmp/binary.log"
expect "a binary console log (an ELF file)" "$tmp/binary.log: binary" \
	"$triage" --kit "$kit" "$log" "$tmp/binary.log"
# shellcheck disable=SC2016 # the inner shell's arguments
expect "a binary console log on stdin" "<stdin>: binary" \
	sh -c '"$1" <"$2"' sh "$triage" "$tmp/binary.log"
# a real console can hold a program's bytes (a peer log has 1069 of 10405)
{ head -c 3000 "$log" && head -c 600 "$triage" && cat "$log"; } >"$tmp/mixed.log"
passes "a console log with 600 bytes of an ELF file in it reads" \
	"$triage" --kit "$kit" "$tmp/mixed.log"

# --- make's knobs: stopped before anything runs -----------------------------
# make checks them as it reads the Makefile, whatever the goal; the goal is
# help, so that a check that stops nothing starts no build here.
expect "make KERNEL=5.10 (no such kernel)" "KERNEL=5.10" kmake KERNEL=5.10 help
wl=$tmp/workloads
mkdir -p "$wl"
printf '#!/bin/sh\n' >"$wl/good" && chmod +x "$wl/good" && ln -s good "$wl/link"
passes "make WORKLOADS= with an executable and a link to it" kmake WORKLOADS="$wl" help
ln -s nowhere "$wl/dangling"
expect "make WORKLOADS= with a dangling link" "$wl/dangling: a dangling link" \
	kmake WORKLOADS="$wl" help
rm "$wl/dangling"
printf 'data\n' >"$wl/notes.txt"
expect "make WORKLOADS= with a file that is not executable" "$wl/notes.txt: not executable" \
	kmake WORKLOADS="$wl" help
rm "$wl/notes.txt"
hosts=$tmp/hosts
printf '# hosts\n1/:\nbuild host/2\n' >"$hosts"
expect "make HOSTS= with a line that is no login" "$hosts:3:" kmake HOSTS="$hosts" help

# --- the job runner: nothing written, the results there stay ----------------
# (the job's images do not exist: a check that stops nothing boots nothing)
res=$tmp/results/fixed
mkdir -p "$res" && echo pass >"$res/verdict"
printf 'fixed\t%s\t%s\t%s\t-\tkit\tfixed\tall\t-t 60\n' "$res" "$tmp/none" "$tmp/none" \
	>"$tmp/jobs"
runjobs() {
	sh "$top/jobs/run-jobs.sh" -n input-test -d "$tmp/run" -K "$1" -T "$triage" -H "$hosts" \
		"$tmp/jobs"
}
expect "run-jobs.sh -H with a line that is no login" "$hosts:3:" runjobs "$top"
rm -rf "$kit" && cp -r "$tmp/pristine" "$kit" && printf 'fun_x\n' >>"$kit/sanitizer-ignorelist/integer.scl"
printf '1/:\n' >"$hosts"
expect "run-jobs.sh with a bad line of the kit's lists" "integer.scl:" runjobs "$kit"
t="run-jobs.sh: nothing written, the results there kept"
[ ! -e "$tmp/run" ] && [ -s "$res/verdict" ] && ok "$t" || bad "$t"
passes "make HOSTS= with good lines" kmake HOSTS="$hosts" help

diag "bad inputs: $nkit lines of the kit's lists, 3 console logs, 4 make knobs, 2 runner inputs"
ktap_end
