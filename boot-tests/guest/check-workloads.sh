#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# WORKLOADS=DIR, checked before anything is built: every file of DIR runs
# in the guest as /bin/user-NAME, so each must be an executable file or a
# link to one. Hidden files (.NAME) are left out; a folder, a dangling
# link or a file without an execute bit is an error. Prints the first bad
# one ("PATH: why") on stderr and exits 2; prints nothing and exits 0 when
# DIR is good.
#
# usage: check-workloads.sh DIR
set -u
dir=${1:?usage: check-workloads.sh DIR}
if [ ! -d "$dir" ]; then
	echo "$dir: not a directory" >&2
	exit 2
fi
for f in "$dir"/*; do
	if [ -L "$f" ] && [ ! -e "$f" ]; then
		why="a dangling link (to $(readlink "$f"))"
	elif [ ! -e "$f" ]; then
		continue # no file at all: the * stayed as it was
	elif [ -d "$f" ]; then
		why="a folder; the workloads are the files of $dir"
	elif [ ! -f "$f" ]; then
		why="not a regular file"
	elif [ ! -x "$f" ]; then
		why="not executable (every file of WORKLOADS runs in the guest)"
	else
		continue
	fi
	echo "$f: $why" >&2
	exit 2
done
exit 0
