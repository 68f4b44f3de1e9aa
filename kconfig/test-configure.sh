#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# configure.sh against a real configured tree: a bad BASE stops with a
# message that names the problem, and leaves TREE/.config exactly as it was
# (nothing half-configured). KTAP on stdout.
#
# usage: test-configure.sh TREE FRAGMENT...
#   TREE      a configured kernel tree (its .config is the good base)
#   FRAGMENT  the kit's fragments, as the Makefile passes them
set -u
tree=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
conf=$here/configure.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

sum() {
	sha256sum <"$tree/.config" | cut -c1-64
}
before=$(sum)
# kept to put back should a test change it, so that the tree is never left
# reconfigured
cp -p "$tree/.config" "$tmp/orig.config"

# result NAME WHY: a KTAP line, "ok" when WHY is empty, else "not ok" with
# WHY and configure.sh's output
result() {
	n=$((n + 1))
	if [ -z "$2" ]; then
		echo "ok $n $1"
	else
		echo "not ok $n $1 # $2"
		sed 's/^/# /' "$tmp/out"
		failed=$((failed + 1))
	fi
}

# expect NAME MESSAGE BASE [FRAGMENT...]: configure.sh fails, says MESSAGE,
# and .config is unchanged
expect() {
	name=$1
	msg=$2
	shift 2
	why=
	if sh "$conf" "$tree" "$@" >"$tmp/out" 2>&1; then
		why="configure.sh succeeded"
	elif ! grep -qF -- "$msg" "$tmp/out"; then
		why="no \"$msg\" in its message"
	elif [ "$(sum)" != "$before" ]; then
		why=".config changed"
	elif [ -e "$tree/.kit-config.new" ]; then
		why="scratch .kit-config.new left behind"
	fi
	result "$name" "$why"
}

echo "KTAP version 1"
echo "1..6"
expect "a missing file" "no such file" "$tmp/no-such.config" "$@"
printf 'garbage\n' >"$tmp/bad.config.xz"
expect "a file that does not decompress" "cannot be decompressed" \
	"$tmp/bad.config.xz" "$@"
grep -v -e '^CONFIG_64BIT=' -e '^CONFIG_X86_64=' "$tree/.config" \
	>"$tmp/i386.config"
echo 'CONFIG_X86_32=y' >>"$tmp/i386.config"
expect "a 32-bit configuration" "no CONFIG_64BIT=y" "$tmp/i386.config" "$@"
sed 's/^CONFIG_X86_64=y$/# CONFIG_X86_64 is not set/' "$tree/.config" \
	>"$tmp/not-x86.config"
expect "a 64-bit configuration that is not x86_64" "no CONFIG_X86_64=y" \
	"$tmp/not-x86.config" "$@"
# An option whose dependency the base lacks: the message names the option
# and its "depends on".
grep -v -e '^CONFIG_BLOCK=' -e '^CONFIG_EXPERT=' "$tree/.config" \
	>"$tmp/noblock.config"
printf 'CONFIG_EXPERT=y\n' >>"$tmp/noblock.config"
echo '# CONFIG_BLOCK is not set' >>"$tmp/noblock.config"
echo 'CONFIG_EROFS_FS=y' >"$tmp/needs-block.config"
expect "an option that cannot stick" "CONFIG_EROFS_FS=y (from needs-block.config): got CONFIG_EROFS_FS=n; it depends on BLOCK" \
	"$tmp/noblock.config" "$@" "$tmp/needs-block.config"
# The tree's own configuration, xz-compressed, as a FILE base: it
# configures, and to the very same .config.
xz -c "$tree/.config" >"$tmp/base.config.xz"
why=
if ! sh "$conf" "$tree" "$tmp/base.config.xz" "$@" >"$tmp/out" 2>&1 ||
	! grep -q 'requested options stuck' "$tmp/out"; then
	why="configure.sh failed"
elif [ "$(sum)" != "$before" ]; then
	why=".config changed: not a fixed point"
	cp -p "$tmp/orig.config" "$tree/.config"
fi
result "the tree's own configuration as an xz FILE base" "$why"
[ "$failed" -eq 0 ]
