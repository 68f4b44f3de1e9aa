# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# KTAP for the tools' test scripts (sourced, with KTAP_BUF a scratch file):
#   ok NAME                  a check passed
#   bad NAME [REASON]        a check failed; REASON's first line goes on
#                            the result line, the others below as "# " lines
#   skip NAME REASON         a check that could not run ("ok N - NAME # SKIP")
#   diag [TEXT]              "# " lines (TEXT, else stdin)
#   fold PREFIX FILE         another suite's KTAP: its results, renumbered,
#                            named "PREFIX: name", and its "#" lines
#   ktap_end                 prints "TAP version 13", "1..N", the results,
#                            then the plain line "N passed, M failed";
#                            returns 1 if a check failed
#   wait_for SECONDS CMD...  runs CMD every 0.1 s until it succeeds or
#                            SECONDS have passed; CMD's last status
# Results are kept until ktap_end so that the plan comes first. A test
# name holds no '#'. Skips are neither passed nor failed.
: "${KTAP_BUF:?}"
: >"$KTAP_BUF"
ktap_n=0
pass=0
fail=0
skipped=0

diag() {
	if [ $# -gt 0 ]; then
		printf '%s\n' "$*"
	else
		cat
	fi | sed 's/^/# /' >>"$KTAP_BUF"
}

ok() {
	ktap_n=$((ktap_n + 1))
	pass=$((pass + 1))
	printf 'ok %d - %s\n' "$ktap_n" "$1" | tr '#' '_' >>"$KTAP_BUF"
}

bad() {
	ktap_n=$((ktap_n + 1))
	fail=$((fail + 1))
	reason=$(printf '%s\n' "${2-}" | head -n 1)
	printf 'not ok %d - %s' "$ktap_n" "$1" | tr '#' '_' >>"$KTAP_BUF"
	printf '%s\n' "${reason:+ # $reason}" >>"$KTAP_BUF"
	printf '%s\n' "${2-}" | sed 1d | diag
}

skip() {
	ktap_n=$((ktap_n + 1))
	skipped=$((skipped + 1))
	printf 'ok %d - %s' "$ktap_n" "$1" | tr '#' '_' >>"$KTAP_BUF"
	printf ' # SKIP %s\n' "$2" >>"$KTAP_BUF"
}

fold() { # prefix file
	while IFS= read -r line; do
		case $line in
		'TAP version '* | 'KTAP version '* | 1..* | \
			[0-9]*' passed, '[0-9]*' failed') ;;
		'ok '*' # SKIP'*)
			line=${line#ok * - }
			skip "$1: ${line%% \# SKIP*}" "${line#* \# SKIP }"
			;;
		'ok '*)
			ok "$1: ${line#ok * - }"
			;;
		'not ok '*' # '*)
			line=${line#not ok * - }
			bad "$1: ${line%% \# *}" "${line#* \# }"
			;;
		'not ok '*)
			bad "$1: ${line#not ok * - }"
			;;
		'#'*)
			printf '%s\n' "$line" >>"$KTAP_BUF"
			;;
		*)
			diag "$line"
			;;
		esac
	done <"$2"
}

ktap_end() {
	echo "TAP version 13"
	echo "1..$ktap_n"
	cat "$KTAP_BUF"
	[ "$skipped" -eq 0 ] || echo "# $skipped skipped"
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

wait_for() {
	w_n=$(($1 * 10))
	shift
	while ! "$@" && [ $w_n -gt 0 ]; do
		sleep 0.1
		w_n=$((w_n - 1))
	done
	"$@"
}
