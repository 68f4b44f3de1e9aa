#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# clang-format --dry-run --Werror on the tools' and the guest's C (make
# check), with the kernel tree's .clang-format: the kit does not commit a
# copy; STYLE is the unpacked tree's (build/src/linux-source-6.1/.clang-format),
# else the one in Debian's tarball. Without either, one KTAP SKIP line. One
# KTAP line per file.
#
# usage: check-format.sh TOP STYLE
set -u
top=${1:?usage: check-format.sh TOP STYLE}
style=${2:-}
cd "$top" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# Before the tarball is unpacked (make check runs first in make test), the
# file comes out of Debian's tarball itself: it is near its start.
tarball=/usr/src/linux-source-6.1.tar.xz
if [ ! -r "$style" ] && [ -r "$tarball" ]; then
	tar -xOf "$tarball" --occurrence=1 linux-source-6.1/.clang-format \
		>"$tmp/.clang-format" 2>/dev/null && [ -s "$tmp/.clang-format" ] &&
		style=$tmp/.clang-format
fi
if [ ! -r "$style" ]; then
	echo "TAP version 13"
	echo "1..0 # SKIP no kernel .clang-format at '$style' nor in $tarball (make deps)"
	exit 0
fi
if ! command -v clang-format >/dev/null; then
	echo "TAP version 13"
	echo "1..0 # SKIP clang-format is not installed (make deps)"
	exit 0
fi
files=$(for f in tools/*.c tools/*/*.c tools/*/*.h boot-tests/*/*.c boot-tests/*/*.h \
	corpus/*/*.c patches/findings/*/*.c; do [ -f "$f" ] && echo "$f"; done | sort)
KTAP_BUF=$tmp/ktap
# shellcheck source=tools/tests/ktap.sh
. ./tools/tests/ktap.sh
for f in $files; do
	if out=$(clang-format --dry-run --Werror -style="file:$style" "$f" 2>&1); then
		ok "$f"
	else
		bad "$f" "clang-format
$(echo "$out" | head -20)"
	fi
done
ktap_end
