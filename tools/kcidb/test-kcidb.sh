#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Checks a KCIDB document of the kit against the kit's schema with ajv, and
# that documents broken on purpose fail: a test with an unknown status, a
# test without its id, an issue without its version. Then a few facts of
# the kit's own runs, when the document has them: the fixed boot passed, a
# perf-bug variant's incident points at a known-bug issue of the code.
#
# With TRIAGE, KIT, CHECKOUT and PEER_LOGS, also: a document made of every
# log under PEER_LOGS (other projects' real console logs, each as a boot)
# validates too.
#
# usage: test-kcidb.sh AJV AJV_FORMATS SCHEMA DOC [TRIAGE KIT CHECKOUT PEER_LOGS]
#   AJV          ajv-cli's ajv (npm ajv-cli@5), AJV_FORMATS the ajv-formats
#                module directory (npm ajv-formats@3)
# The last line is "kcidb: N passed, N failed"; exit status 1 on a failure.
set -u
[ $# -eq 4 ] || [ $# -eq 8 ] || { sed -n '14,16p' "$0" | sed 's/^# //' >&2; exit 2; }
ajv=$1 formats=$2 schema=$3 doc=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=jobs/check.sh
. "$(dirname "$0")/../../jobs/check.sh"

validate() {
	"$ajv" validate --spec=draft7 --errors=text -c "$formats" -s "$schema" -d "$1" \
		>"$work/ajv.out" 2>&1 && echo valid || echo invalid
}

[ -x "$ajv" ] || { echo "test-kcidb: no ajv at $ajv (make deps)" >&2; exit 2; }
[ -s "$doc" ] || { echo "test-kcidb: no document $doc" >&2; exit 2; }
v=$(validate "$doc")
check "$(basename "$doc") validates against $(basename "$schema")" "$v" valid
[ "$v" = valid ] || sed 's/^/        /' "$work/ajv.out"

# One member a line: the first test's status, then the first test's id.
awk '/^  "tests": \[/ { t = 1 } t && !done && /^      "status": / {
	sub(/"status": "[A-Z]*"/, "\"status\": \"PASSED\""); done = 1 } { print }' \
	"$doc" >"$work/bad-status.json"
check "a test with status PASSED is rejected" "$(validate "$work/bad-status.json")" invalid
grep -q 'must be equal to one of the allowed values' "$work/ajv.out"
check "  ... for its status" $? 0
awk '/^  "tests": \[/ { t = 1 } t && !done && /^      "id": / { done = 1; next } { print }' \
	"$doc" >"$work/no-id.json"
check "a test without its id is rejected" "$(validate "$work/no-id.json")" invalid
grep -q "must have required property 'id'" "$work/ajv.out"
check "  ... for its id" $? 0
awk '/^  "issues": \[/ { t = 1 } t && !done && /^      "version": / { done = 1; next } { print }' \
	"$doc" >"$work/no-version.json"
if grep -q '^  "issues": \[$' "$doc" && ! cmp -s "$doc" "$work/no-version.json"; then
	check "an issue without its version is rejected" "$(validate "$work/no-version.json")" invalid
fi

# The kit's runs: the fixed boot, and the variants' caught bug.
status_of() {
	awk -v p="$1" '$0 ~ "^      \"path\": \"" p "\",$" { f = 1; next }
		f && /^      "status": / { gsub(/[",]/, "", $2); print $2; exit }' "$doc"
}
if grep -q '"path": "intsan.fixed",' "$doc"; then
	check "test intsan.fixed" "$(status_of 'intsan[.]fixed')" PASS
	check "test intsan.fixed.test-ubsan" "$(status_of 'intsan[.]fixed[.]test-ubsan')" PASS
fi
if grep -q '"path": "intsan.cve-2023-6931",' "$doc"; then
	# the variant's reproducer fails (the bug is there) and an incident
	# of that test points at a known-bug issue blamed on the code
	check "test intsan.cve-2023-6931.perf-cve-2023-6931" \
		"$(status_of 'intsan[.]cve-2023-6931[.]perf-cve-2023-6931')" FAIL
	issue=$(awk '/"issue_id": / { i = $2 } /"test_id": .*[.]cve-2023-6931[.]perf-cve-2023-6931"/ {
		gsub(/[",]/, "", i); print i; exit }' "$doc")
	class=$(awk -v id="$issue" '$0 ~ "\"id\": \"" id "\"" { f = 1 }
		f && /"culprit": / { c = $0 } f && /"misc": / { print c " " $0; exit }' "$doc")
	case $class in
	*'"code": true'*'"class": "known-bug"'*) c=known-bug-code ;;
	*) c="$class" ;;
	esac
	check "the variant's incident is a known bug of the code" "$c" known-bug-code
fi
# Other projects' logs: each a boot of its own, its sha256 as the kernel's.
if [ $# -eq 8 ] && [ -d "$8" ]; then
	n=0
	mkdir -p "$work/peer"
	find "$8" -type f ! -name '*.md' | sort | while read -r log; do
		n=$((n + 1))
		mkdir -p "$work/peer/$n" && ln -s "$log" "$work/peer/$n/console.log"
		printf 'peer-%s\t%s\tpeer\t%s\tall\tdone\t-\n' "$(basename "$log")" "$work/peer/$n" \
			"$(sha256sum <"$log" | cut -c1-64)"
	done >"$work/peer/boots.tsv"
	"$5" --kit "$6" --kcidb "$7" "$work/peer/boots.tsv" >"$work/peer.json"
	check "--kcidb over $(grep -c . "$work/peer/boots.tsv") peer logs exits 0" $? 0
	v=$(validate "$work/peer.json")
	check "... and validates ($(grep -c '"report_subject": ' "$work/peer.json") issues)" "$v" valid
	[ "$v" = valid ] || head -20 "$work/ajv.out" | sed 's/^/        /'
fi
echo "kcidb: $pass passed, $fail failed"
[ $fail -eq 0 ]
