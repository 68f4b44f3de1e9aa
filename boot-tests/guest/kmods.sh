#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The modules of guest/modules.conf that a kernel's configuration builds as
# modules: one path per line, relative to the tree (a Kbuild target), in
# the table's order.
#
# usage: kmods.sh TREE [CONF]
#   TREE  a configured kernel tree (its .config is read)
#   CONF  the table (default: modules.conf beside this script)
set -eu

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 TREE [CONF]" >&2
	exit 2
fi
tree=$1
conf=${2:-$(dirname "$0")/modules.conf}
if [ ! -r "$tree/.config" ]; then
	echo "$0: $tree/.config: not a configured tree" >&2
	exit 2
fi
awk -F'\t' 'NR == FNR { if (/^CONFIG_[A-Za-z0-9_]*=m$/) m[substr($0, 1, index($0, "=") - 1)] = 1; next }
	/^#/ || NF < 2 { next }
	$1 in m { print $2 }' "$tree/.config" "$conf"
