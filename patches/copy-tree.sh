#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Copy a built kernel tree, objects included, so that Kbuild in the copy
# rebuilds only what differs from the original (a patch, a Kconfig symbol).
#
# usage: copy-tree.sh FROM TO [AS [EXCLUDE [SHARE]]]
#   FROM     the built tree
#   TO       where the copy goes (made or updated with rsync --delete)
#   AS       the path the copy will have when it is used (default TO; the
#            caller may copy to a temporary name and rename it)
#   EXCLUDE  a file of /paths to leave out of the copy (rsync
#            --exclude-from), e.g. the files a patch will touch; "" for none
#   SHARE    the unpacked tarball FROM was copied from: a file of FROM that
#            is still the tarball's (same size, time and mode) becomes a
#            hard link to SHARE's instead of a copy, so that the copy
#            takes the room of the objects and the patched files only
#            (6.1's tiny tree: 375 MiB instead of 1.8 GiB). Only for copies
#            the kit owns and nobody edits by hand: an editor that writes
#            a hard-linked file in place would change the tarball's.
#        copy-tree.sh -n FROM TO [EXCLUDE [SHARE]]
#            the MiB that the copy would write (rsync's dry run)
#        copy-tree.sh -c TO
#            after a build in TO: exit 1 naming every file it shares with
#            SHARE that changed since the copy (a build that wrote a
#            source file in place), so that a damaged tarball tree is
#            known at once
#
# objtool is built with absolute paths in its .cmd files: they are pointed
# at AS, with their mtimes kept, or objtool and then every object would be
# rebuilt. The kit's series state (.kit-patches/) is not copied.
set -eu

usage() {
	echo "usage: copy-tree.sh FROM TO [AS [EXCLUDE [SHARE]]]" >&2
	echo "       copy-tree.sh -n FROM TO [EXCLUDE [SHARE]] | -c TO" >&2
	exit 2
}

# the stamp of a copy that shares files: its time, and SHARE's path
stamp=.kit-shared

# rsync FROM/ TO/ with the options of EXCLUDE and SHARE, then ARGS...
sync() { # FROM TO EXCLUDE SHARE [RSYNC_ARGS...]
	f=$1 t=$2 x=$3 s=$4
	shift 4
	rsync -a --delete --exclude=/.kit-patches/ --exclude="/$stamp" \
		${x:+--exclude-from="$x"} ${s:+--link-dest="$s"} "$@" "$f/" "$t/"
}

# an absolute path (rsync takes --link-dest relative to the destination)
absolute() {
	[ -z "$1" ] || (cd "$1" && pwd)
}

built() {
	[ -s "$1/vmlinux" ] || {
		echo "copy-tree.sh: $1 has no vmlinux: not a built tree" >&2
		exit 1
	}
}

# -n: regular files written (rsync's "transferred" size) plus a block for
# each directory, in MiB rounded up
dry_run() { # FROM TO [EXCLUDE [SHARE]]
	built "$1"
	sync "${1%/}" "${2%/}" "${3:-}" "$(absolute "${4:-}")" -n --stats |
		awk -F': ' '/^Number of files:/ { s = $0; gsub(/,/, "", s); sub(/.*dir: /, "", s); d = s + 0 }
			/^Total transferred file size:/ { gsub(/[^0-9]/, "", $2); b = $2 }
			END { printf "%d\n", (b + d * 4096) / 1048576 + 1 }'
}

# the same file: one inode
same() {
	[ "$(stat -c %d:%i -- "$1")" = "$(stat -c %d:%i -- "$2" 2>/dev/null)" ]
}

# -c: files of TO that are hard links to SHARE's and newer than the copy
check() { # TO
	to=${1%/}
	[ -f "$to/$stamp" ] || return 0
	share=$(cat "$to/$stamp")
	bad=$(cd "$to" && find . -type f -links +1 -newer "$stamp" | sed "s|^\./||" |
		while read -r f; do
			same "$f" "$share/$f" && echo "$f"
		done) || true
	[ -z "$bad" ] && return 0
	echo "copy-tree.sh: a build in $to wrote files it shares with $share in place:" >&2
	echo "$bad" | sed 's/^/  /' >&2
	echo "  (unpack the tarball again: delete $share)" >&2
	return 1
}

case ${1:-} in
-n)
	[ $# -ge 3 ] || usage
	shift
	dry_run "$@"
	exit
	;;
-c)
	[ $# -eq 2 ] || usage
	check "$2"
	exit
	;;
esac

[ $# -ge 2 ] || usage
from=${1%/}
to=${2%/}
as=${3:-$to}
as=${as%/}
share=$(absolute "${5:-}")
built "$from"
mkdir -p "$to"
rm -f "$to/$stamp"
sync "$from" "$to" "${4:-}" "$share"
grep -rlIF "$from/" "$to/tools/objtool" | while read -r f; do
	sed "s|$from/|$as/|g" "$f" >"$f.tmp"
	touch -r "$f" "$f.tmp"
	mv "$f.tmp" "$f"
done
[ -z "$share" ] || echo "$share" >"$to/$stamp"
