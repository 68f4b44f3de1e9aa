#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build syzkaller for linux/amd64 in OUT, offline but for Debian's archive:
#   1. Go 1.22 from bookworm-backports (golang-1.22-go, golang-1.22-src),
#      fetched with apt-get through a private sources list and unpacked
#      with dpkg-deb -x into OUT/go: the machine's apt sources stay as they
#      are, and nothing is installed;
#   2. syzkaller from SRC, a tarball (git archive, one top directory) or a
#      checkout, built with its vendored modules only (GOFLAGS=-mod=vendor,
#      GOPROXY=off, GOTOOLCHAIN=local): syz-manager, syz-executor,
#      syz-execprog and syz-hub.
# A second run with the same SRC does nothing.
#
# usage: build.sh OUT SRC [REV]
#   REV  the commit SRC was made from, when SRC is a tarball (syz-manager
#        and syz-executor must carry the same one); a checkout's own HEAD
#        is used otherwise.
set -eu

[ $# -ge 2 ] || {
	echo "usage: $0 OUT SRC [REV]" >&2
	exit 2
}
out=$1 src=$2 rev=${3:-}
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ -e "$src" ] || {
	echo "syzkaller: SYZKALLER_SRC=$src: no such file or directory" >&2
	exit 1
}
src=$(cd "$(dirname "$src")" && pwd)/$(basename "$src")

if [ -d "$src" ]; then
	rev=$(git -C "$src" rev-parse HEAD)
	key="checkout $src $rev"
else
	[ -n "$rev" ] || {
		echo "syzkaller: a tarball needs its commit (SYZKALLER_REV)" >&2
		exit 1
	}
	key="tarball $(sha256sum <"$src" | cut -c1-16) $rev"
fi
tree=$out/src/syzkaller
bins="$tree/bin/syz-manager $tree/bin/linux_amd64/syz-executor
	$tree/bin/linux_amd64/syz-execprog $tree/bin/syz-hub"
if [ "$(cat "$out/.built" 2>/dev/null)" = "$key" ]; then
	ok=1
	for f in $bins; do [ -x "$f" ] || ok=0; done
	if [ $ok = 1 ]; then
		echo "syzkaller: up to date ($tree/bin)"
		exit 0
	fi
fi
start=$(date +%s)

# 1. Go, into OUT/go.
goroot=$out/go/usr/lib/go-1.22
if ! [ -x "$goroot/bin/go" ]; then
	apt=$out/apt
	mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/cache" "$apt/debs"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
		"http://deb.debian.org/debian bookworm-backports main" >"$apt/sources.list"
	set -- -o Dir::Etc::SourceList="$apt/sources.list" \
		-o Dir::Etc::SourceParts=/nonexistent \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
		-o Dir::Cache::Archives="$apt/archives" \
		-o APT::Sandbox::User="$(id -un)" -o Debug::NoLocking=1
	echo "  APT     golang-1.22-go golang-1.22-src (bookworm-backports)"
	apt-get -qq "$@" update
	(cd "$apt/debs" && rm -f ./*.deb &&
		apt-get -qq "$@" download golang-1.22-go golang-1.22-src)
	rm -rf "$out/go"
	for deb in "$apt"/debs/*.deb; do
		dpkg-deb -x "$deb" "$out/go"
	done
fi
export GOROOT="$goroot" PATH="$goroot/bin:$PATH"
export GOPATH="$out/gopath" GOCACHE="$out/gocache" GOFLAGS=-mod=vendor \
	GOPROXY=off GOTOOLCHAIN=local GOTELEMETRY=off
echo "  GO      $(go version)"

# 2. syzkaller, into OUT/src/syzkaller.
rm -rf "$out/src" && mkdir -p "$out/src"
if [ -d "$src" ]; then
	echo "  COPY    $src ($rev)"
	git -C "$src" archive --prefix=syzkaller/ HEAD | tar -C "$out/src" -xf -
else
	echo "  UNPACK  $src"
	tar -C "$out/src" -xf "$src"
	[ -d "$tree" ] || {
		echo "syzkaller: $src has no top directory syzkaller/" >&2
		exit 1
	}
fi
[ -f "$tree/vendor/modules.txt" ] || {
	echo "syzkaller: $src has no vendor/: it needs the module proxy (use commit 475a4c203)" >&2
	exit 1
}
# git archive stamps every file with the commit's time: the revision date
# that syzkaller builds into its binaries.
revdate=$(date -u -d "@$(stat -c %Y "$tree/Makefile")" +%Y%m%d-%H%M%S)
echo "  MAKE    syz-manager syz-executor syz-execprog syz-hub (log: $out/build.log)"
if ! make -C "$tree" REV="$rev" GITREVDATE="$revdate" TARGETOS=linux \
	TARGETARCH=amd64 manager executor execprog hub >"$out/build.log" 2>&1; then
	tail -30 "$out/build.log"
	exit 1
fi
for f in $bins; do
	[ -x "$f" ] || {
		echo "syzkaller: $f was not built" >&2
		exit 1
	}
done
echo "$key" >"$out/.built"
echo "syzkaller: built $tree/bin in $(($(date +%s) - start)) s"
