#!/bin/sh
# Bring a kernel tree to "pristine + patch series (+ extra patches)".
#
# usage: apply-series.sh PRISTINE TREE SERIES [EXTRA_PATCH...]
#
# The series is applied to copies of the touched files in a scratch
# directory; only files whose content differs are then copied into TREE, so
# that Kbuild rebuilds exactly what a change of the series affects. A
# manifest of what was written (TREE/.kit-patches/manifest) lets a later run
# notice a file that was edited by hand, and stop instead of overwriting it.
# A patch that is already in the tree (it comes out cleanly in reverse) is
# reported and skipped; a patch that applies neither way stops the run with
# its failed hunks. Patches must apply exactly (no fuzz).
#
# A full disk: the room for the staged files is checked before the tree is
# written (tools/space.sh), each file of the tree is replaced whole (a
# scratch name renamed over it) and so is the manifest, so that no source
# file is left cut short.
set -eu
space=$(cd "$(dirname "$0")/.." && pwd)/tools/space.sh

die() {
	echo "apply-series: $*" >&2
	exit 1
}

[ $# -ge 3 ] || die "usage: apply-series.sh PRISTINE TREE SERIES [EXTRA_PATCH...]"
pristine=$1
tree=$2
series=$3
shift 3
pdir=$(dirname "$series")
state=$tree/.kit-patches
[ -f "$pristine/Makefile" ] || die "no pristine tree at $pristine"
[ -f "$tree/Makefile" ] || die "no tree at $tree"

patches=$(sed -e 's/#.*//' "$series" | awk 'NF { print $1 }' |
	while read -r p; do echo "$pdir/$p"; done)
for extra in "$@"; do
	patches="$patches
$extra"
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT INT TERM

# Every file that the patches touch, plus every file an earlier run wrote
# (a patch dropped from the series must have its files restored).
for p in $patches; do
	[ -f "$p" ] || die "$p: no such patch (listed in $series)"
	sed -n -e 's|^--- a/\([^[:space:]]*\).*|\1|p' \
		-e 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p"
done >"$scratch/files"
[ -f "$state/manifest" ] && cut -d' ' -f3- "$state/manifest" >>"$scratch/files"
sort -u "$scratch/files" -o "$scratch/files"

# Stop on hand edits before writing anything.
if [ -f "$state/manifest" ]; then
	(cd "$tree" && sha256sum --quiet -c "$state/manifest" 2>/dev/null) >"$scratch/changed" ||
		die "files changed by hand since the series was applied (restore them, or delete the tree):
$(sed 's/^/  /' "$scratch/changed")"
fi

mkdir "$scratch/stage"
while read -r f; do
	if [ -f "$pristine/$f" ]; then
		mkdir -p "$scratch/stage/$(dirname "$f")"
		cp -p "$pristine/$f" "$scratch/stage/$f"
	fi
done <"$scratch/files"

# Which patches are already in the tree? Walk the series backwards over a
# copy of the pristine files, reversing each patch that comes out cleanly:
# a later fix must come out before the earlier fix it builds on (as with
# the two perf fixes, both in 6.1.192).
cp -R "$scratch/stage" "$scratch/reverse"
: >"$scratch/present"
# shellcheck disable=SC2086 # patch paths have no blanks
for p in $(printf '%s\n' $patches | sed -n '1!G;h;$p'); do
	if patch -R -p1 -F0 -d "$scratch/reverse" -f -s --dry-run <"$p" >/dev/null 2>&1; then
		patch -R -p1 -F0 -d "$scratch/reverse" -f -s --no-backup-if-mismatch <"$p"
		echo "$p" >>"$scratch/present"
	fi
done

for p in $patches; do
	name=$(basename "$p")
	if grep -qxF "$p" "$scratch/present"; then
		echo "  SKIP    $name: already in $(basename "$pristine")"
	elif patch -p1 -F0 -d "$scratch/stage" -f --dry-run <"$p" >"$scratch/out" 2>&1; then
		patch -p1 -F0 -d "$scratch/stage" -f -s --no-backup-if-mismatch <"$p"
		echo "  PATCH   $name"
	else
		echo "apply-series: $name does not apply:" >&2
		sed 's/^/  /' "$scratch/out" >&2
		exit 1
	fi
done

# A file of the tree, replaced whole or not at all.
need=1
put() { # SRC DEST
	if ! cp "$1" "$2.kit-new" 2>/dev/null || ! mv "$2.kit-new" "$2"; then
		# the disk is judged before the scratch file goes
		sh "$space" full "$tree" "$need" || echo "apply-series: cannot write $2" >&2
		rm -f "$2.kit-new"
		exit 1
	fi
}

# Copy what differs; restore files that the series no longer touches.
need=$(sh "$space" size "$scratch/stage")
sh "$space" need "$tree" "$need" || exit 1
mkdir -p "$state"
: >"$scratch/manifest"
while read -r f; do
	if [ -f "$scratch/stage/$f" ]; then
		if ! cmp -s "$scratch/stage/$f" "$tree/$f"; then
			mkdir -p "$tree/$(dirname "$f")"
			put "$scratch/stage/$f" "$tree/$f"
			echo "  UPDATE  $f"
		fi
		(cd "$tree" && sha256sum "$f") >>"$scratch/manifest"
	elif [ -f "$tree/$f" ]; then
		rm -f "$tree/$f"
		echo "  REMOVE  $f"
	fi
done <"$scratch/files"
put "$scratch/manifest" "$state/manifest"
