#!/bin/sh
# Configure a kernel tree from tinyconfig plus the given fragments, and fail
# if any option that a fragment asks for did not survive olddefconfig.
#
# usage: configure.sh TREE FRAGMENT...
#
# The configuration is made in a scratch file and copied over TREE/.config
# only when it differs, so an unchanged result rebuilds nothing. The caller's
# PATH must find LLVM 19's clang and ld.lld first (the Makefile sees to it).
set -eu

die() {
	echo "configure: $*" >&2
	exit 1
}

[ $# -ge 2 ] || die "usage: configure.sh TREE FRAGMENT..."
tree=$(cd "$1" && pwd)
shift
new=.kit-config.new
kmake() {
	make -s -C "$tree" ARCH=x86_64 LLVM=1 KCONFIG_CONFIG=$new "$@"
}

# This is tinyconfig (allnoconfig with tiny-base.config, then the tiny.config
# fragments), spelled out because the tinyconfig target always writes .config;
# the kit's fragments are merged over it in order.
KCONFIG_ALLCONFIG=kernel/configs/tiny-base.config kmake allnoconfig >/dev/null
(cd "$tree" && KCONFIG_CONFIG=$new ./scripts/kconfig/merge_config.sh -m \
	$new kernel/configs/tiny.config arch/x86/configs/tiny.config "$@") >"$tree/.kit-merge.log" 2>&1 ||
	die "merge_config.sh failed; see $tree/.kit-merge.log"
kmake olddefconfig

# Every CONFIG_FOO=value and "# CONFIG_FOO is not set" of the fragments must
# be in the result as asked.
for frag in "$@"; do
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)$/\1/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/p' "$frag" |
		while IFS= read -r want; do
			opt=${want%%=*}
			val=${want#*=}
			got=$(grep -E "^$opt=" "$tree/$new" || echo "$opt=n")
			got=${got#*=}
			[ "$got" = "$val" ] ||
				echo "  $opt=$val (from $(basename "$frag")): got $opt=$got"
		done
done >"$tree/.kit-config-check"
if [ -s "$tree/.kit-config-check" ]; then
	cat "$tree/.kit-config-check" >&2
	die "$(wc -l <"$tree/.kit-config-check") requested option(s) did not stick: unmet dependencies, or the compiler lacks the flag"
fi

asked=$(cat "$@" | grep -cE '^CONFIG_|^# CONFIG_.* is not set')
if cmp -s "$tree/$new" "$tree/.config"; then
	rm -f "$tree/$new"
	echo "  CONFIG  unchanged; all $asked requested options stuck"
else
	mv "$tree/$new" "$tree/.config"
	echo "  CONFIG  written; all $asked requested options stuck"
fi
