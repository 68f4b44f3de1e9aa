#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# syzkaller's report-parser corpus as a test: every file's first report
# against the file's header (TITLE/ALT, FRAME, CORRUPTED; no TITLE: no
# report), with the known differences of the expectations file.
#
# usage: corpus-test.sh TRIAGE CORPUS-DIR EXPECT-FILE TMPDIR
# Prints KTAP: one test per file ("not ok" with each difference not in
# EXPECT-FILE, and each entry of EXPECT-FILE that no longer differs), the
# measures as "#" lines, and a last plain line "N passed, M failed".
# Exit status 1 on a failure.
#
# How a file reads (the corpus's README): "KEY: value" header lines up to
# the first empty line (none if the file starts with one), then the console
# log, every \r removed, up to an empty line followed by "REPORT:".
#
# EXPECT-FILE: tab-separated FILE FIELD VALUE REASON; FIELD is title,
# function, corrupted, report (VALUE: the kit's, "-" for none) or scope
# (VALUE "out": not a kernel report family, left out of the measures).
set -u
triage=$1 dir=$2 expect=$3 tmp=$4
export LC_ALL=C
mkdir -p "$tmp"
KTAP_BUF=$tmp/ktap
# shellcheck source=tools/tests/ktap.sh
. "$(dirname "$0")/ktap.sh"

# The expected values of one file: kit's override, else syzkaller's.
overrides() { # file -> "field<TAB>value" lines
	awk -F'\t' -v f="$1" '$1 == f { print $2 "\t" $3 }' "$expect"
}

# The kit's value for a field, from $ov ("" if none).
kit_value() {
	printf '%s\n' "$ov" | while IFS= read -r line; do
		case $line in "$1	"*) printf '%s\n' "${line#*	}"; break ;; esac
	done
}

# Known differences must still be differences (else the list is stale).
scope_in=0 det=0 tok=0 fnamed=0 fok=0 cok=0 nocrash=0 noreport=0
ubsan=0 ubsan_ok=0 out=0
for f in "$dir"/*; do
	name=${f##*/}
	[ "$name" = README.md ] && continue
	# header lines to $tmp/hdr, TITLE FRAME CORRUPTED to $tmp/vars
	if ! awk -v hf="$tmp/hdr" -v lf="$tmp/log" -v vf="$tmp/vars" '
		BEGIN { inhdr = 1; printf "" > hf; printf "" > lf; c = "false" }
		{ gsub(/\r/, "") }
		NR == 1 && $0 == "" { inhdr = 0; next }
		inhdr && $0 == "" { inhdr = 0; next }
		inhdr { print > hf
			if (!t && sub(/^TITLE: /, "")) { t = 1; ti = $0 }
			else if (!fr && sub(/^FRAME: /, "")) { fr = 1; fa = $0 }
			else if ($0 == "CORRUPTED: Y") c = "true"
			next }
		$0 == "REPORT:" && empty { exit }
		$0 == "" { empty++; next }
		{ while (empty) { print "" > lf; empty-- } print > lf }
		END { printf "%s\037%s\037%s\n", ti, fa, c > vf }
	' "$f"; then
		bad "file $name" "cannot read it"
		continue
	fi
	IFS=$(printf '\037') read -r title frame corr <"$tmp/vars"
	"$triage" --json "$tmp/log" >"$tmp/out.json" 2>"$tmp/err"
	# the first site: syz_title, function, corrupted
	got=$(awk '
		/^      "syz_title": / && !t { t = 1; s = $0
			sub(/^      "syz_title": "/, "", s); sub(/",$/, "", s)
			gsub(/\\"/, "\"", s); gsub(/\\\\/, "\\", s); ti = s }
		/^      "function": / && !fn { fn = 1; s = $0
			sub(/^      "function": "/, "", s); sub(/",$/, "", s)
			fu = s }
		/^      "corrupted": / && !c { c = 1; s = $0
			sub(/^      "corrupted": /, "", s); sub(/,$/, "", s)
			co = s }
		END { if (t) print ti "\t" fu "\t" co; else print "-\t-\t-" }
	' "$tmp/out.json")
	gtitle=${got%%	*}
	rest=${got#*	}
	gfunc=${rest%%	*}
	[ -n "$gfunc" ] || gfunc=-
	gcorr=${rest#*	}
	ov=$(overrides "$name")
	scope=in
	case "$ov" in *"scope	out"*) scope=out ;; esac
	# syzkaller's values
	wreport=-
	[ -n "$title" ] && wreport=yes
	greport=-
	[ "$gtitle" != - ] && greport=yes
	# the title may be TITLE or any ALT: the frame is the matched one's
	wtitle=$title
	if [ -n "$title" ] && [ "$gtitle" != "$title" ] &&
		grep -qxF -- "ALT: $gtitle" "$tmp/hdr"; then
		wtitle=$gtitle
	fi
	[ -n "$wtitle" ] || wtitle=-
	wfunc=$frame
	if [ -z "$wfunc" ] || [ "$wtitle" != "$title" ]; then
		wfunc=$(printf '%s\n' "$wtitle" |
			sed -n 's/.* in \([a-zA-Z0-9_][a-zA-Z0-9_]*\).*/\1/p')
	fi
	[ "$wfunc" = corrupted ] && wfunc=
	diffs=
	for field in report title function corrupted; do
		case $field in
		report) want=$wreport g=$greport ;;
		title) want=$wtitle g=$gtitle ;;
		function) want=$wfunc g=$gfunc ;;
		corrupted) want=$corr g=$gcorr ;;
		esac
		# without a report on both sides, only "report" compares
		[ "$field" != report ] &&
			{ [ "$greport" = - ] || [ "$wreport" = - ]; } && continue
		[ "$field" = function ] && [ -z "$want" ] && continue
		kit=$(kit_value "$field")
		if [ -n "$kit" ]; then
			if [ "$kit" = "$want" ]; then
				diffs="$diffs
$field: the expectation equals syzkaller's '$want'"
			elif [ "$g" != "$kit" ]; then
				diffs="$diffs
$field '$g', expected (known difference) '$kit'"
			fi
		elif [ "$g" != "$want" ]; then
			diffs="$diffs
$field '$g', syzkaller '$want'"
		fi
	done
	if [ -z "$diffs" ]; then
		ok "file $name"
	else
		bad "file $name" "$(printf '%s\n' "$diffs" | sed 1d)"
	fi
	# the measures (against syzkaller, known differences or not)
	if [ "$scope" = out ]; then
		out=$((out + 1))
	elif [ -z "$title" ]; then
		nocrash=$((nocrash + 1))
		[ "$greport" = yes ] && noreport=$((noreport + 1))
	else
		scope_in=$((scope_in + 1))
		[ "$greport" = yes ] && det=$((det + 1))
		[ "$gtitle" = "$wtitle" ] && tok=$((tok + 1))
		if [ -n "$wfunc" ]; then
			fnamed=$((fnamed + 1))
			[ "$gfunc" = "$wfunc" ] && fok=$((fok + 1))
		fi
		[ "$gcorr" = "$corr" ] && cok=$((cok + 1))
		case $title in UBSAN:*)
			ubsan=$((ubsan + 1))
			[ "$gtitle" = "$wtitle" ] && ubsan_ok=$((ubsan_ok + 1))
			;;
		esac
	fi
done
# entries for files that are not in the corpus
awk -F'\t' '!/^#/ && NF { print $1 }' "$expect" | sort -u |
	while read -r name; do
		[ -f "$dir/$name" ] || echo "$expect names $name, not in $dir"
	done >"$tmp/stale"
if [ -s "$tmp/stale" ]; then
	bad "expectations name corpus files" "$(cat "$tmp/stale")"
else
	ok "expectations name corpus files"
fi
# a reading that finds no crash at all is a broken test, not a pass
if [ "$scope_in" -eq 0 ] || [ "$det" -eq 0 ]; then
	bad "crashes found" "no crash found in $dir"
else
	ok "crashes found"
fi
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", b ? 100 * a / b : 0 }'; }
diag "corpus: $scope_in crash files in scope: reported $det, title $tok ($(pct "$tok" "$scope_in")), function $fok of $fnamed ($(pct "$fok" "$fnamed")), corrupted flag $cok ($(pct "$cok" "$scope_in")), UBSAN $ubsan_ok of $ubsan"
diag "corpus: $nocrash files without a crash: $noreport with a report; $out out of scope"
ktap_end
