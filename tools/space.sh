#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Room on the disk, for every stage that writes into the build directory:
# checked before the stage writes, and named when a write failed for lack
# of it. Either way one line on stderr, naming the path the stage writes:
#
#   kit: no space: DIR needs N MiB, has M MiB free
#
# (", and no free inode" is added when the filesystem ran out of inodes;
# KIT_SPACE_WHO replaces "kit": a boot job's host fault names itself).
#
# usage: space.sh need DIR MIB        exit 1 with the line if the filesystem
#                                     of DIR (or of its nearest existing
#                                     parent) has less than MIB MiB free
#        space.sh full DIR MIB        after a failed write: exit 0 with the
#                                     line if that filesystem is full (less
#                                     than 1 MiB or no inode free), else 1
#        space.sh nowrite WHO OUT FILE [SCRATCH...]
#                                     after a failed write of FILE, a part
#                                     of OUT that is written whole or not
#                                     at all: the line if OUT's filesystem
#                                     is full (as full OUT 1), else "WHO:
#                                     cannot write FILE"; then SCRATCH...
#                                     removed; exit 0 (the caller stops)
#        space.sh run [-q] DIR MIB CMD...
#                                     need, then CMD, its stderr copied aside
#                                     (-q: kept back, not shown as it
#                                     comes); if CMD fails on a full disk
#                                     (its stderr says ENOSPC, or the
#                                     filesystem is full) the line follows
#                                     (-q: instead of CMD's stderr); exit
#                                     status: CMD's, 1 for need
#        space.sh size [-L] PATH...   the MiB that PATH... take (du; -L: what
#                                     their links point to), rounded up
#        space.sh kbuild TREE MIB     the MiB a Kbuild run in TREE may write:
#                                     MIB without a vmlinux; with one, a
#                                     relink's (twice vmlinux and vmlinux.o)
#        space.sh unpacked TARBALL    the MiB TARBALL takes unpacked: its tar
#                                     size (xz's index), plus an eighth for
#                                     the filesystem's blocks (measured: 6.1's
#                                     1299 MiB tar takes 1437 MiB on ext4)
#
# KIT_SPACE_PRECHECK=0 skips the check of need and run, so that a test
# meets the full disk in the write itself.
set -u

die() {
	echo "space.sh: $*" >&2
	exit 2
}

# the nearest existing directory of a path
existing() {
	d=$1
	while [ ! -e "$d" ]; do
		d=$(dirname "$d")
	done
	printf '%s\n' "$d"
}

# "KiB-available inodes-total inodes-free" of a path's filesystem
df_of() {
	d=$(existing "$1")
	k=$(df -Pk "$d" 2>/dev/null | awk 'NR == 2 { print $4 }')
	i=$(df -Pi "$d" 2>/dev/null | awk 'NR == 2 { print $2, $4 }')
	echo "${k:-0} ${i:-0 0}"
}

# the line: DIR NEED_MIB [KiB-available inodes-total inodes-free]
say() {
	# shellcheck disable=SC2046 # three numbers
	[ $# -ge 5 ] || set -- "$1" "$2" $(df_of "$1")
	inode=
	[ "$4" != 0 ] && [ "$5" = 0 ] && inode=", and no free inode"
	echo "${KIT_SPACE_WHO:-kit}: no space: $1 needs $2 MiB, has $(($3 / 1024)) MiB free$inode" >&2
}

need() { # DIR MIB
	[ "${KIT_SPACE_PRECHECK:-1}" = 0 ] && return 0
	# shellcheck disable=SC2046 # three numbers
	set -- "$1" "$2" $(df_of "$1")
	if [ "$3" -lt $(($2 * 1024)) ] || { [ "$4" != 0 ] && [ "$5" = 0 ]; }; then
		say "$@"
		return 1
	fi
}

full() { # DIR MIB
	# shellcheck disable=SC2046 # three numbers
	set -- "$1" "$2" $(df_of "$1")
	if [ "$3" -lt 1024 ] || { [ "$4" != 0 ] && [ "$5" = 0 ]; }; then
		say "$@"
		return 0
	fi
	return 1
}

nowrite() { # WHO OUT FILE [SCRATCH...]
	who=$1 file=$3
	full "$2" 1 || echo "$who: cannot write $file" >&2
	shift 3
	rm -f -- "$@"
	return 0
}

enospc='No space left on device|Disk quota exceeded|not enough space|out of disk space'

run() { # [-q] DIR MIB CMD...
	quiet=0
	[ "$1" = -q ] && quiet=1 && shift
	[ $# -ge 3 ] || die "usage: space.sh run [-q] DIR MIB CMD..."
	dir=$1 mib=$2
	shift 2
	need "$dir" "$mib" || return 1
	err=$(mktemp "${TMPDIR:-/tmp}/kit-space.XXXXXX" 2>/dev/null) || err=
	if [ -z "$err" ]; then
		# nowhere to keep stderr: it goes as it comes, full() decides
		"$@"
		st=$?
		[ $st -eq 0 ] || full "$dir" "$mib"
		return $st
	fi
	if [ $quiet = 1 ]; then
		"$@" 2>"$err"
		st=$?
	elif rm -f "$err.fifo" && mkfifo "$err.fifo" 2>/dev/null; then
		# stderr shown as it comes and copied aside through a FIFO: the
		# command's other file descriptors (a make's jobserver) are left
		# as they are
		tee "$err" <"$err.fifo" >&2 2>/dev/null &
		tpid=$!
		"$@" 2>"$err.fifo"
		st=$?
		wait "$tpid"
		rm -f "$err.fifo"
	else
		"$@"
		st=$?
	fi
	if [ "$st" -ne 0 ]; then
		if grep -Eqi "$enospc" "$err"; then
			say "$dir" "$mib"
		elif ! full "$dir" "$mib" && [ $quiet = 1 ]; then
			cat "$err" >&2
		fi
	elif [ $quiet = 1 ]; then
		cat "$err" >&2
	fi
	rm -f "$err"
	return "$st"
}

size() { # [-L] PATH... -> MiB, rounded up
	l=
	[ "${1:-}" = -L ] && l=L && shift
	du -sk$l -- "$@" 2>/dev/null | awk '{ k += $1 } END { print int((k + 1023) / 1024) }'
}

kbuild() { # TREE MIB -> MiB
	if [ -s "$1/vmlinux" ]; then
		echo $(($(size "$1/vmlinux" "$1/vmlinux.o") * 2))
	else
		echo "$2"
	fi
}

unpacked() { # TARBALL -> MiB
	case $1 in
	*.xz) b=$(xz --robot -l -- "$1" 2>/dev/null | awk '$1 == "totals" { print $5 }') ;;
	*) b=$(stat -c %s -- "$1" 2>/dev/null) ;;
	esac
	[ -n "$b" ] || die "cannot read $1"
	awk -v b="$b" 'BEGIN { printf "%d\n", b * 9 / 8 / 1048576 + 1 }'
}

[ $# -ge 1 ] || die "usage: space.sh need|full|nowrite|run|size|kbuild|unpacked ..."
verb=$1
shift
case $verb in
need | full)
	[ $# -eq 2 ] || die "usage: space.sh $verb DIR MIB"
	case $2 in '' | *[!0-9]*) die "$verb: MIB must be a number, not '$2'" ;; esac
	"$verb" "$@"
	;;
nowrite)
	[ $# -ge 3 ] || die "usage: space.sh nowrite WHO OUT FILE [SCRATCH...]"
	nowrite "$@"
	;;
run) run "$@" ;;
kbuild)
	[ $# -eq 2 ] || die "usage: space.sh kbuild TREE MIB"
	kbuild "$@"
	;;
size) size "$@" ;;
unpacked)
	[ $# -eq 1 ] || die "usage: space.sh unpacked TARBALL"
	unpacked "$1"
	;;
*) die "unknown verb '$verb'" ;;
esac
