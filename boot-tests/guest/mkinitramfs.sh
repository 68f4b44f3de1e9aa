#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Pack the boot-test initramfs, deterministically: a fresh staging
# directory, fixed modes and mtimes, sorted names, owner root, no device
# or inode numbers from the host (cpio --reproducible).
#
# usage: mkinitramfs.sh -o OUT.cpio -s STAGING -i INIT [-m "MODULES"]
#                       [-f SRC:DEST]... [-d SRC:DEST]... [-r DIR:DEST]...
#                       [-l LINK:TARGET]... [-B BUSYBOX] [-W LIST] BIN...
#
# Layout: /init, /bin/<BIN>, /lib/modules/<MODULE>, /dev/console, and empty
# /proc, /sys, /tmp for init's mounts. -f copies a file to DEST (an absolute
# path in the image; mode 755 if SRC is executable, else 644), -l makes the
# symlink LINK pointing to TARGET, which must be relative (the script
# follows the links in /bin on the host), e.g. /bin/NAME:../usr/libexec/PROG.
# -d copies a program like -f, and, if it is dynamically linked, its shared
# libraries (as ldd resolves them on the host) and the dynamic loader, at
# the paths ldd names. -r copies a directory tree to DEST. -B installs a
# static busybox as /bin/busybox and /bin/sh, with a link in /usr/bin for
# each applet that no other file of the image provides. -W copies LIST, the
# workloads in their order, to /etc/kit/workloads (see init.c).
set -eu

out='' stage='' init='' mods='' files='' links='' progs='' dirs='' busybox='' list=''
nl='
'
while getopts o:s:i:m:f:l:d:r:B:W: opt; do
	case $opt in
	o) out=$OPTARG ;;
	s) stage=$OPTARG ;;
	i) init=$OPTARG ;;
	m) mods=$OPTARG ;;
	f) files=$files$OPTARG$nl ;;
	l) links=$links$OPTARG$nl ;;
	d) progs=$progs$OPTARG$nl ;;
	r) dirs=$dirs$OPTARG$nl ;;
	B) busybox=$OPTARG ;;
	W) list=$OPTARG ;;
	*) echo "usage: $0 -o OUT -s STAGING -i INIT [-m MODULES] [-f SRC:DEST]..." \
		"[-d SRC:DEST]... [-r DIR:DEST]... [-l LINK:TARGET]... [-B BUSYBOX]" \
		"[-W LIST] BIN..." >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ -z "$out" ] || [ -z "$stage" ] || [ -z "$init" ]; then
	echo "$0: -o, -s and -i are required" >&2
	exit 2
fi
case $stage in
/*/*) ;;
*) echo "$0: staging directory must be an absolute path below /" >&2
   exit 2 ;;
esac

rm -rf "$stage"
# The room: the staging directory and the archive each take about what the
# inputs take (their links followed; 8 MiB more for the libraries of -d);
# the archive is written to a scratch name and renamed when whole. A
# failure takes both away and, on a full disk, says so in one line
# (tools/space.sh).
space=$(cd "$(dirname "$0")/../.." && pwd)/tools/space.sh
srcs() {
	printf '%s' "$files$progs$dirs" | cut -d: -f1
	printf '%s\n' "$init" "$list" "$busybox" "$@"
	for m in $mods; do echo "$m"; done
}
# shellcheck disable=SC2046 # file names without blanks, one per line
need=$(($(sh "$space" size -L $(srcs "$@" | sed '/^$/d')) * 2 + 8))
tmp=$out.tmp
sh "$space" need "$out" $need || exit 1
on_exit() {
	st=$?
	[ $st -eq 0 ] && return
	sh "$space" full "$out" $need || :
	rm -rf "$stage" "$tmp"
}
trap on_exit EXIT
mkdir -p "$stage/bin" "$stage/lib/modules" "$stage/dev" "$stage/proc" \
	"$stage/sys" "$stage/tmp"
cp "$init" "$stage/init"
for b in "$@"; do
	cp "$b" "$stage/bin/"
done
for m in $mods; do
	cp "$m" "$stage/lib/modules/"
done
printf '%s' "$files" | while IFS=: read -r src dest; do
	mkdir -p "$stage${dest%/*}"
	cp "$src" "$stage$dest" || exit 1
done
# a program and what the dynamic loader would load for it
printf '%s' "$progs" | while IFS=: read -r src dest; do
	mkdir -p "$stage${dest%/*}"
	cp "$src" "$stage$dest" || exit 1
	ldd "$src" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' |
		while read -r lib; do
			[ -e "$stage$lib" ] && continue
			mkdir -p "$stage${lib%/*}"
			cp -L "$lib" "$stage$lib" || exit 1
		done
done
printf '%s' "$dirs" | while IFS=: read -r src dest; do
	mkdir -p "$stage$dest"
	cp -a "$src/." "$stage$dest/" || exit 1
done
if [ -n "$list" ]; then
	mkdir -p "$stage/etc/kit"
	cp "$list" "$stage/etc/kit/workloads"
fi
printf '%s' "$links" | while IFS=: read -r link target; do
	mkdir -p "$stage${link%/*}"
	ln -s "$target" "$stage$link" || exit 1
done
if [ -n "$busybox" ]; then
	mkdir -p "$stage/usr/bin"
	cp "$busybox" "$stage/bin/busybox"
	[ -e "$stage/bin/sh" ] || ln -s busybox "$stage/bin/sh"
	"$busybox" --list | while read -r applet; do
		[ -e "$stage/bin/$applet" ] || [ -e "$stage/usr/bin/$applet" ] ||
			[ -e "$stage/sbin/$applet" ] || [ -e "$stage/usr/sbin/$applet" ] ||
			ln -s ../../bin/busybox "$stage/usr/bin/$applet"
	done
fi
# The kernel's built-in initramfs usually has /dev/console already; ours
# makes sure init has a console even when it does not.
mknod -m 600 "$stage/dev/console" c 5 1

find "$stage" -type d -exec chmod 755 {} +
find "$stage" -type f ! -perm -u=x -exec chmod 644 {} +
find "$stage" -type f -perm -u=x -exec chmod 755 {} +
chmod 755 "$stage/init"
for b in "$@"; do
	chmod 755 "$stage/bin/${b##*/}"
done
find "$stage" -exec touch -h -d @0 {} +

(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
	cpio -o -H newc -R 0:0 --reproducible --quiet) > "$tmp"
mv "$tmp" "$out"
echo "initramfs: $out ($(wc -c < "$out") bytes)"
