#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The checkout of the KCIDB document (make kcidb): Debian's linux-source
# plus the kit's series, as key=value lines for ubsan-triage --kcidb.
# patchset_hash is KCIDB's: sha256 of each patch's sha256, in series order.
#
# usage: kcidb-checkout.sh TOP KERNEL PRISTINE CLANG SERIES PATCH... >FILE
set -eu
[ $# -ge 5 ] || { echo "usage: $0 TOP KERNEL PRISTINE CLANG SERIES PATCH..." >&2; exit 2; }
top=$1
kernel=$2
pristine=$3
clang=$4
series=$5
shift 5
version=$(dpkg-query -W -f='${Version}' "linux-source-$kernel")
echo origin=intsan
echo "tree_name=linux-source-$kernel"
echo "version=$version"
echo "kernelversion=$(make -s -C "$pristine" kernelversion)"
echo "patchset_hash=$(for p in "$@"; do sha256sum "$p" | cut -c-64; done |
	sha256sum | cut -c-64)"
echo "compiler=$("$clang" --version | head -1)"
echo "comment=Debian linux-source-$kernel $version + ${series#"$top"/} ($# patches)"
