#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs shellcheck on every shell script of the checkout: every *.sh, and every
# file that starts with #!/bin/sh or #!/bin/bash (make check). The
# settings are in .shellcheckrc; a script disables a check on a line with
# its reason. One KTAP line per script.
#
# usage: check-shell.sh TOP
set -u
top=${1:?usage: check-shell.sh TOP}
cd "$top" || exit 2
if ! command -v shellcheck >/dev/null; then
	echo "TAP version 13"
	echo "1..0 # SKIP shellcheck is not installed (make deps)"
	exit 0
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	all=$(git ls-files)
else
	all=$(find . -path ./build -prune -o -type f -print | sed 's|^\./||')
fi
# *.sh, and the files without an extension that start with a shell's #!
scripts=$(echo "$all" | while read -r f; do
	case $f in
	build/*) ;;
	*.sh) echo "$f" ;;
	*/*.* | [!/]*.*) ;;
	*) [ -f "$f" ] && head -n 1 "$f" | grep -qE '^#! ?/bin/(ba)?sh' && echo "$f" ;;
	esac
done | sort -u)
# one run over all of them, so that a script's sourced files are seen
# shellcheck disable=SC2086 # file names without blanks
out=$(shellcheck -f gcc $scripts 2>&1)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
KTAP_BUF=$tmp/ktap
# shellcheck source=tools/tests/ktap.sh
. ./tools/tests/ktap.sh
failed=$(echo "$out" | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: .*/\1/p' | sort -u)
for f in $scripts; do
	if ! echo "$failed" | grep -qxF "$f"; then
		ok "$f"
	else
		bad "$f" "shellcheck
$(echo "$out" | grep -F "$f:")"
	fi
done
# anything shellcheck said of no script of the list (it could not run)
if [ -n "$out" ] && ! echo "$out" | grep -qE '^[^:]+:[0-9]+:[0-9]+: '; then
	bad "shellcheck ran" "$out"
fi
ktap_end
