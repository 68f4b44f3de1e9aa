#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Copy a built kernel tree, objects included, so that Kbuild in the copy
# rebuilds only what differs from the original (a patch, a Kconfig symbol).
#
# usage: copy-tree.sh FROM TO [AS [EXCLUDE]]
#   FROM     the built tree
#   TO       where the copy goes (made or updated with rsync --delete)
#   AS       the path the copy will have when it is used (default TO; the
#            caller may copy to a temporary name and rename it)
#   EXCLUDE  a file of /paths to leave out of the copy (rsync
#            --exclude-from), e.g. the files a patch will touch
#
# objtool is built with absolute paths in its .cmd files: they are pointed
# at AS, with their mtimes kept, or objtool and then every object would be
# rebuilt. The kit's series state (.kit-patches/) is not copied.
set -eu
[ $# -ge 2 ] || {
	echo "usage: copy-tree.sh FROM TO [AS [EXCLUDE]]" >&2
	exit 2
}
from=${1%/}
to=${2%/}
as=${3:-$to}
as=${as%/}
[ -s "$from/vmlinux" ] || {
	echo "copy-tree.sh: $from has no vmlinux: not a built tree" >&2
	exit 1
}
mkdir -p "$to"
rsync -a --delete --exclude=/.kit-patches/ \
	${4:+--exclude-from="$4"} "$from/" "$to/"
grep -rlIF "$from/" "$to/tools/objtool" | while read -r f; do
	sed "s|$from/|$as/|g" "$f" >"$f.tmp"
	touch -r "$f" "$f.tmp"
	mv "$f.tmp" "$f"
done
