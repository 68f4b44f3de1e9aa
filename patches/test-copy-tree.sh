#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of copy-tree.sh's sharing (SHARE, -n, -c) on a scratch tree made
# from a few files of the unpacked tarball: what is still the tarball's is
# a hard link to it, what a patch or a build wrote is a copy, and a build
# that writes a shared file in place is named.
#
# usage: test-copy-tree.sh PRISTINE
set -u
pristine=$1
here=$(cd "$(dirname "$0")" && pwd)
copy=$here/copy-tree.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
KTAP_BUF=$tmp/ktap
# shellcheck source=tools/tests/ktap.sh
. "$here/../tools/tests/ktap.sh"

# check NAME CMD...: CMD's output is the reason of a failure
check() {
	name=$1
	shift
	if out=$("$@" 2>&1); then ok "$name"; else bad "$name" "$out"; fi
}

same() {
	[ "$(stat -c %d:%i "$1")" = "$(stat -c %d:%i "$2")" ]
}

differ() {
	! same "$1" "$2"
}

# the scratch "tarball": three of the real tree's files and 4 MiB more
src=$tmp/src
mkdir -p "$src/kernel/events"
cp -p "$pristine/Makefile" "$pristine/COPYING" "$src/"
cp -p "$pristine/kernel/events/core.c" "$src/kernel/events/"
head -c 4194304 /dev/zero >"$src/big.bin"
# the "built tree": a copy of it, one file patched, an object and a vmlinux
cp -a "$src" "$tmp/tree"
echo '/* patched */' >>"$tmp/tree/COPYING"
head -c 65536 /dev/urandom >"$tmp/tree/kernel/events/core.o"
head -c 4096 /dev/urandom >"$tmp/tree/vmlinux"

all=$(sh "$copy" -n "$tmp/tree" "$tmp/copy")
mib=$(sh "$copy" -n "$tmp/tree" "$tmp/copy" "" "$src")
check "-n: sharing, the copy writes less (${mib:-?} MiB, ${all:-?} MiB without)" \
	[ "${mib:-9}" -lt "${all:-0}" ]
check "the copy is made" sh "$copy" "$tmp/tree" "$tmp/copy" "" "" "$src"
check "a file still the tarball's is a hard link to it" \
	same "$tmp/copy/Makefile" "$src/Makefile"
check "a patched file is a copy" differ "$tmp/copy/COPYING" "$src/COPYING"
check "an object is a copy" differ "$tmp/copy/kernel/events/core.o" "$tmp/tree/kernel/events/core.o"
check "-c: nothing shared was written" sh "$copy" -c "$tmp/copy"
# a build that writes a source file in place (as an editor keeping links)
sleep 1
echo '# written in place' >>"$tmp/copy/Makefile"
sh "$copy" -c "$tmp/copy" >"$tmp/c.out" 2>&1
check "-c: a shared file written in place fails the check" [ $? -eq 1 ]
check "-c: and is named" grep -q '^  Makefile$' "$tmp/c.out"
ktap_end
