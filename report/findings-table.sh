#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The table of make findings (corpus/detect.sh's last step, over
# patches/findings/): for each confirmed finding NAME, its reproducer
# (workload finding-NAME) must show the wrong behaviour on the kernel
# without the fix (the "control" boot: KTAP "not ok", and the sanitizer
# reports the site whose sites.tsv row has idiom finding:NAME), and the
# right one on the kernel with patches/findings/NAME/KERNEL.patch (its
# boot: "ok", and that site silent). Both: "confirmed"; else what failed.
#
# usage: findings-table.sh TOP KERNEL DIR NAME...
#   DIR  the findings build folder: boots/{control,NAME}/{console.log,triage.tsv}
# Prints the table and writes DIR/table.tsv, whole or not at all (a full
# disk: the one line of tools/space.sh, exit status 2). Exit status 1 if a
# finding is not confirmed.
set -u
top=$1
kernel=$2
dir=$3
shift 3
out=$dir/table.tsv
tmp=$out.tmp
werr=0

# KTAP result of a workload in a console log: ok, not-ok, or none
result() { # log workload
	sed 's/^\[[^]]*\]\(\[[^]]*\]\)\{0,1\} //' "$1" 2>/dev/null |
		awk -v w="$2" '
			$1 == "ok" && $3 == w { r = "ok" }
			$1 == "not" && $2 == "ok" && $4 == w { r = "not-ok" }
			END { print r == "" ? "none" : r }'
}

# Does a triage.tsv hold the finding's site (idiom finding:NAME)?
reported() { # triage.tsv name
	awk -F'\t' -v i="finding:$2" '$8 == i { f = 1 } END { exit !f }' "$1" 2>/dev/null
}

rc=0
printf 'finding\tkernel\tunfixed\tfixed\tverdict\n' 2>/dev/null >"$tmp" || werr=1
printf '%-16s %-8s %-24s %-24s %s\n' finding kernel "without the fix" "with the fix" verdict
for name; do
	w=$(awk -F'\t' 'NR == 2 { print $2 }' "$top/patches/findings/$name/bug.tsv")
	u=$(result "$dir/boots/control/console.log" "$w")
	reported "$dir/boots/control/triage.tsv" "$name" && u="$u,reported" || u="$u,silent"
	f=$(result "$dir/boots/$name/console.log" "$w")
	reported "$dir/boots/$name/triage.tsv" "$name" && f="$f,reported" || f="$f,silent"
	if [ "$u" = "not-ok,reported" ] && [ "$f" = "ok,silent" ]; then
		v=confirmed
	else
		v="NOT CONFIRMED"
		rc=1
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$kernel" "$u" "$f" "$v" 2>/dev/null >>"$tmp" || werr=1
	printf '%-16s %-8s %-24s %-24s %s\n' "$name" "$kernel" "$u" "$f" "$v"
done
if [ $werr = 1 ] || ! mv "$tmp" "$out"; then
	sh "$top/tools/space.sh" nowrite findings-table "$out" "$out" "$tmp"
	exit 2
fi
exit $rc
