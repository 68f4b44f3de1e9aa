#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# clang-format --dry-run --Werror on the tools' and the guest's C (make
# check), with the kernel tree's .clang-format: the kit does not commit a
# copy; STYLE is the unpacked tree's (build/src/linux-source-6.1/.clang-format).
# Without it, one KTAP SKIP line. One KTAP line per file.
#
# usage: check-format.sh TOP STYLE
set -u
top=${1:?usage: check-format.sh TOP STYLE}
style=${2:-}
cd "$top" || exit 2
echo "TAP version 13"
if [ ! -r "$style" ]; then
	echo "1..0 # SKIP no kernel .clang-format at '$style' (the unpacked tarball: make kernel)"
	exit 0
fi
if ! command -v clang-format >/dev/null; then
	echo "1..0 # SKIP clang-format is not installed (make deps)"
	exit 0
fi
files=$(for f in tools/*.c tools/*/*.c tools/*/*.h boot-tests/*/*.c boot-tests/*/*.h \
	corpus/*/*.c; do [ -f "$f" ] && echo "$f"; done | sort)
echo "1..$(echo "$files" | wc -l)"
n=0
pass=0
fail=0
for f in $files; do
	n=$((n + 1))
	if out=$(clang-format --dry-run --Werror -style="file:$style" "$f" 2>&1); then
		pass=$((pass + 1))
		echo "ok $n - $f"
	else
		fail=$((fail + 1))
		echo "$out" | head -20 | sed 's/^/# /'
		echo "not ok $n - $f"
	fi
done
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
