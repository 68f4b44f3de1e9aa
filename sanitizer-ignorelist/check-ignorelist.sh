#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Ignorelist hygiene: every entry of a Clang special case list must still
# name something in the patched tree, say why it is there, and say why if it
# reaches beyond one file.
#
# usage: check-ignorelist.sh TREE LIST...
#
# For each entry:
#   - it is inside a [section] (outside one it would exempt every check);
#   - the comment line right above it gives the reason;
#   - src:GLOB matches at least one file of TREE (Clang's '*' crosses '/');
#   - fun:GLOB matches a function defined in TREE's C sources, or a symbol
#     of TREE/vmlinux when there is one (for functions made by macros);
#   - type:NAME names a typedef of TREE/include/linux/wrapping.h;
#   - an entry that matches more than one file (a src: glob, or a fun: whose
#     name is defined in several files) carries "why broad:" in its reason.
# Prints one line per entry and exits 1 if any entry fails.
set -u

if [ $# -lt 2 ]; then
	echo "usage: $0 TREE LIST..." >&2
	exit 2
fi
tree=$1
shift
[ -f "$tree/Makefile" ] || { echo "$0: $tree: not a kernel tree" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
syms=$tmp/syms
if [ -f "$tree/vmlinux" ] && command -v llvm-nm >/dev/null; then
	llvm-nm --defined-only "$tree/vmlinux" 2>/dev/null |
		awk '{ print $3 }' | sed 's/\..*//' | sort -u >"$syms"
else
	: >"$syms"
fi

fail=0
entries=0

# Files of the tree that define function NAME (a regex), one per line.
fun_files() {
	grep -rlE --include='*.c' --include='*.h' \
		"^[A-Za-z_][A-Za-z0-9_ *]*[ *]($1)\(" "$tree" 2>/dev/null |
		grep -v "^$tree/tools/\|^$tree/scripts/\|^$tree/Documentation/"
}

check_entry() { # file line section reason type pattern
	where="$1:$2"
	section=$3 reason=$4 kind=$5 pat=$6
	entries=$((entries + 1))
	problem=''
	n=0
	[ -n "$section" ] || problem="outside any [section]"
	[ -n "$problem" ] || [ -n "$reason" ] ||
		problem="no reason on the comment line above"
	if [ -z "$problem" ]; then
		case $kind in
		src)
			n=$(cd "$tree" && find . -path "./$pat" -type f \
				! -path './build/*' 2>/dev/null | wc -l)
			[ "$n" -gt 0 ] || problem="stale: no file matches"
			;;
		fun)
			re=$(printf '%s' "$pat" | sed 's/\*/[A-Za-z0-9_]*/g; s/?/[A-Za-z0-9_]/g')
			n=$(fun_files "$re" | wc -l)
			if [ "$n" -eq 0 ] && grep -Eqx "$re" "$syms"; then
				n=1
			fi
			[ "$n" -gt 0 ] || problem="stale: no function matches"
			;;
		type)
			re=$(printf '%s' "$pat" | sed 's/\*/[A-Za-z0-9_]*/g')
			grep -Eq "^typedef .*[ *]($re);" \
				"$tree/include/linux/wrapping.h" 2>/dev/null ||
				problem="stale: no wrapping type matches"
			n=1
			;;
		*)
			problem="unknown entry type '$kind'"
			;;
		esac
	fi
	if [ -z "$problem" ] && [ "$n" -gt 1 ]; then
		case $reason in
		*"why broad:"*) ;;
		*) problem="matches $n files; say \"why broad:\" in the reason" ;;
		esac
	fi
	if [ -n "$problem" ]; then
		echo "FAIL  $where [$section] $kind:$pat: $problem"
		fail=1
	else
		echo "ok    $where [$section] $kind:$pat ($n)"
	fi
}

for list in "$@"; do
	[ -r "$list" ] || { echo "FAIL  $list: cannot read"; fail=1; continue; }
	# One record per entry: line, section, reason, type, pattern, split
	# by US (\037): unlike a tab, it is not IFS white space, so empty
	# fields survive read.
	awk '
	/^[[:space:]]*$/ { reason = ""; next }
	/^[[:space:]]*#/ {
		r = $0; sub(/^[[:space:]]*#[[:space:]]*/, "", r); reason = r; next
	}
	/^\[/ { section = $0; gsub(/^\[|\].*$/, "", section); reason = ""; next }
	{
		line = $0; sub(/[[:space:]]+$/, "", line)
		i = index(line, ":")
		type = i ? substr(line, 1, i - 1) : line
		pat = i ? substr(line, i + 1) : ""
		sub(/=.*/, "", pat)
		printf "%d\037%s\037%s\037%s\037%s\n", NR, section, reason, type, pat
		reason = ""
	}' "$list" >"$tmp/entries"
	while IFS=$(printf '\037') read -r line section reason kind pat; do
		check_entry "$list" "$line" "$section" "$reason" "$kind" "$pat"
	done <"$tmp/entries"
done
echo "check-ignorelist: $entries entries, $([ $fail -eq 0 ] && echo all good || echo FAILED)"
exit $fail
