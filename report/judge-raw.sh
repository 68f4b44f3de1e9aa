#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Judgement on sites nobody has seen: the integer sites of a raw boot (a
# kernel without the kit's ignorelist and triage patches) that the kit's
# lists call bugs, judged again by the rules alone, every bug row and
# known bug set aside (tools/kit-without-bugs.sh). Each should come out a
# finding; a bug the rules miss is printed with what they call it instead.
# make raw-boot prints it, and noise.sh as its table (vii).
#
# usage: judge-raw.sh TRIAGE KIT RAW-BOOT RAW-VMLINUX
#   TRIAGE       ubsan-triage
#   KIT          the checkout (annotations/, corpus/)
#   RAW-BOOT     the raw boot's folder: console.log, and triage.tsv (its
#                triage with the kit's full lists, which names the bugs)
#   RAW-VMLINUX  the raw kernel; its tree gives the source lines the rules
#                read
# Prints one line per bug site, then "N of M bug sites are findings by
# rule". Exit status 0, or 2 when the triage could not run.
set -u

[ $# -eq 4 ] || {
	echo "usage: $0 TRIAGE KIT RAW-BOOT RAW-VMLINUX" >&2
	exit 2
}
triage=$1 kit=$2 raw=$3 vmlinux=$4
ints='implicit-conversion|signed-integer-overflow|unsigned-integer-overflow|negation-overflow'

nb=$(mktemp -d) || exit 2
trap 'rm -rf "$nb"' EXIT
sh "$(dirname "$0")/../tools/kit-without-bugs.sh" "$kit" "$nb/kit" || exit 2
st=0
"$triage" --kit "$nb/kit" --vmlinux "$vmlinux" --tsv -o "$nb/triage.tsv" \
	"$raw/console.log" || st=$?
[ "$st" -le 1 ] || {
	echo "judge-raw: no triage of $raw/console.log" >&2
	exit 2
}
# ubsan-triage --tsv: class, kind, site, function, ..., idiom or rule ($8)
awk -F'\t' -v ints="^($ints)\$" '
	FNR == NR { c[$3 FS $4] = $1 ($8 == "" ? "" : " (" $8 ")"); next }
	$1 == "known-bug" && $2 ~ ints && !seen[$3 FS $4]++ {
		m++
		j = ($3 FS $4) in c ? c[$3 FS $4] : "not raised"
		if (j ~ /^finding/)
			f++
		printf "      %-36s %-28s %s\n", $3, $4 "()", j
	}
	END { printf "      %d of %d bug sites are findings by rule\n", f, m }' \
	"$nb/triage.tsv" "$raw/triage.tsv"
