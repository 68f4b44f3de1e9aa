#!/bin/sh
# Configure a kernel tree from a base configuration plus the given
# fragments, and fail if any option that a fragment asks for did not survive
# olddefconfig.
#
# usage: configure.sh TREE BASE FRAGMENT...
#        configure.sh --check BASE
#
# BASE is one of
#   tiny       tinyconfig (allnoconfig + the tiny.config fragments)
#   defconfig  the architecture's defconfig (x86_64_defconfig)
#   FILE       any .config, or .config.xz, of an x86_64 kernel (for example
#              Debian's /usr/src/linux-config-6.1/config.amd64_none_amd64.xz)
# --check only validates BASE (the file exists, decompresses, and is a
# 64-bit x86 configuration), so that a bad BASE stops before anything is
# copied or built.
#
# The configuration is made in a scratch file and copied over TREE/.config
# only when it is complete and differs, so a failure leaves the previous
# .config as it was and an unchanged result rebuilds nothing. The caller's
# PATH must find LLVM 19's clang and ld.lld first (the Makefile sees to it).
#
# A full disk: configure needs 16 MiB in TREE (tiny wrote 1.7 MiB:
# scripts/kconfig/, include/config/, include/generated/), checked first;
# a run that fails on a full disk ends with one line naming TREE
# (tools/space.sh) and leaves .config as it was.
set -eu
space=$(cd "$(dirname "$0")/.." && pwd)/tools/space.sh
need=16

die() {
	echo "configure: $*" >&2
	exit 1
}

# Print BASE's FILE content on stdout (xz or plain).
cat_base() {
	case $1 in
	*.xz) xz -dc -- "$1" ;;
	*) cat -- "$1" ;;
	esac
}

check_base() {
	case $1 in
	tiny | defconfig) return 0 ;;
	esac
	[ -e "$1" ] || die "BASE=$1: no such file"
	[ -f "$1" ] && [ -r "$1" ] || die "BASE=$1: not a readable file"
	cat_base "$1" >/dev/null 2>&1 || die "BASE=$1: cannot be decompressed"
	cat_base "$1" | grep -q '^CONFIG_64BIT=y$' ||
		die "BASE=$1: not a 64-bit kernel configuration (no CONFIG_64BIT=y); the kit builds x86_64 kernels"
	cat_base "$1" | grep -q '^CONFIG_X86_64=y$' ||
		die "BASE=$1: not an x86_64 configuration (no CONFIG_X86_64=y)"
}

if [ "${1:-}" = --check ]; then
	[ $# -eq 2 ] || die "usage: configure.sh --check BASE"
	check_base "$2"
	exit 0
fi

[ $# -ge 3 ] || die "usage: configure.sh TREE BASE FRAGMENT..."
tree=$(cd "$1" && pwd)
base=$2
shift 2
check_base "$base"
for frag in "$@"; do
	[ -r "$frag" ] || die "fragment $frag: cannot read it"
done
new=.kit-config.new
sh "$space" need "$tree" $need || exit 1
# a failure on a full disk: the scratch file goes, and the line says why
on_exit() {
	st=$?
	[ $st -eq 0 ] && return
	sh "$space" full "$tree" $need || :
	rm -f "$tree/$new"
}
trap on_exit EXIT
kmake() {
	make -s -C "$tree" ARCH=x86_64 LLVM=1 KCONFIG_CONFIG=$new "$@"
}

rm -f "$tree/$new"
# The base goes into the scratch file; the base's own fragments (tinyconfig's)
# are merged first, then the kit's, in order.
case $base in
tiny)
	# tinyconfig (allnoconfig with tiny-base.config, then the tiny.config
	# fragments), spelled out because the tinyconfig target always writes
	# .config
	KCONFIG_ALLCONFIG=kernel/configs/tiny-base.config kmake allnoconfig >/dev/null
	set -- kernel/configs/tiny.config arch/x86/configs/tiny.config "$@"
	;;
defconfig)
	kmake defconfig >/dev/null
	;;
*)
	cat_base "$base" >"$tree/$new"
	;;
esac
(cd "$tree" && KCONFIG_CONFIG=$new ./scripts/kconfig/merge_config.sh -m \
	$new "$@") >"$tree/.kit-merge.log" 2>&1 ||
	{ rm -f "$tree/$new"; die "merge_config.sh failed; see $tree/.kit-merge.log"; }
kmake olddefconfig >"$tree/.kit-olddefconfig.log" 2>&1 ||
	{ rm -f "$tree/$new"; die "olddefconfig failed; see $tree/.kit-olddefconfig.log"; }

# The "depends on" lines of option $1's Kconfig entries, as a hint.
depends_of() {
	find "$tree" -name 'Kconfig*' -path "$tree/*" ! -path "$tree/tools/*" \
		-exec awk -v sym="config ${1#CONFIG_}" '
			/^(menu)?config / { on = ($0 == sym || $0 == "menu" sym) }
			on && /^[ \t]+depends on/ { sub(/^[ \t]+/, ""); print }
		' {} + 2>/dev/null | sort -u | paste -sd';' - | sed 's/;/; /g'
}

# Every CONFIG_FOO=value and "# CONFIG_FOO is not set" of the kit's fragments
# must be in the result as asked (the base's own fragments are not checked).
# A later fragment overrides an earlier one, as in merge_config.sh: only an
# option's last request is checked (make bench's wrap.config turns off what
# integer-sanitizers.config turned on).
for frag in "$@"; do
	case $frag in kernel/configs/* | arch/*/configs/*) continue ;; esac
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)$/\1/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/p' "$frag" |
		sed "s|^|$frag	|"
done | tac | awk -F'\t' '{ o = $2; sub(/=.*/, "", o) } !seen[o]++' | tac |
	while IFS='	' read -r frag want; do
		opt=${want%%=*}
		val=${want#*=}
		got=$(grep -E "^$opt=" "$tree/$new" || echo "$opt=n")
		got=${got#*=}
		[ "$got" = "$val" ] && continue
		deps=$(depends_of "$opt")
		echo "  $opt=$val (from $(basename "$frag")): got $opt=$got${deps:+; it $deps}"
	done >"$tree/.kit-config-check"
if [ -s "$tree/.kit-config-check" ]; then
	rm -f "$tree/$new"
	cat "$tree/.kit-config-check" >&2
	die "BASE=$base: $(wc -l <"$tree/.kit-config-check") requested option(s) did not stick (unmet dependencies above, or the compiler lacks the flag); $tree/.config is unchanged"
fi

asked=0
for frag in "$@"; do
	case $frag in kernel/configs/* | arch/*/configs/*) continue ;; esac
	asked=$((asked + $(grep -cE '^CONFIG_|^# CONFIG_.* is not set' "$frag" || true)))
done
if cmp -s "$tree/$new" "$tree/.config"; then
	rm -f "$tree/$new"
	echo "  CONFIG  $base: unchanged; all $asked requested options stuck"
else
	mv "$tree/$new" "$tree/.config"
	echo "  CONFIG  $base: written; all $asked requested options stuck"
fi
