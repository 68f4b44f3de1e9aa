#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build the tree's kselftests for the guest, statically, and write one item
# list per target for boot-tests/guest/items.c.
#
# usage: build-kselftests.sh SRC CONF OUT TARGET...
#   SRC     an unpacked kernel tree (only tools/testing/selftests is read;
#           the builds write into OUT)
#   CONF    boot-tests/guest/kselftests.conf: tests skipped (why) or given another
#           time budget
#   OUT     OUT/TARGET/ gets what the target's Makefile builds, plus its
#           scripts and data files; OUT/kselftest-TARGET is its item list;
#           OUT/TARGET.log the build's output
#
# The tests of a target are those its Makefile names (make emit_tests, the
# list kselftest's own runner uses). A compiled test that built runs as it
# is; a shell script runs with the guest's bash (busybox provides the
# commands it calls); a test that did not build, and a Python one (the
# guest has no Python), is listed as skipped with the reason. Each test's
# time budget is the target's "settings" timeout (kselftest's default 45 s;
# 0, no limit, becomes 600 s), at most 900 s, unless CONF says otherwise.
set -eu

[ $# -ge 4 ] || { echo "usage: $0 SRC CONF OUT TARGET..." >&2; exit 2; }
src=$(cd "$1/tools/testing/selftests" && pwd)
conf=$2
out=$3
shift 3

# "ACTION ARG..." of CONF's first line for target $1 whose glob matches $2
conf_for() {
	grep -v '^#' "$conf" | while IFS='	' read -r ct cglob action arg; do
		[ "$ct" = "$1" ] || continue
		# shellcheck disable=SC2254
		case $2 in $cglob) echo "$action $arg"; break ;; esac
	done
}
mkdir -p "$out"
out=$(cd "$out" && pwd)
guest_dir=/usr/libexec/kit/kselftest

for t in "$@"; do
	[ -d "$src/$t" ] || { echo "build-kselftests: no target $t in $src" >&2; exit 1; }
	rm -rf "${out:?}/$t"
	mkdir -p "$out/$t"
	# -k: build what builds; what does not is listed as skipped below
	make -k -C "$src/$t" OUTPUT="$out/$t" CC='gcc -static' \
		>"$out/$t.log" 2>&1 || true
	# not for the guest: objects of helper libraries built on the way
	find "$out/$t" -type f \( -name '*.o' -o -name '*.a' \) -delete
	# programs without their symbols, where that makes them smaller (strip
	# pads a program linked with a large max-page-size out to it)
	find "$out/$t" -type f -perm -u=x | while read -r f; do
		[ "$(head -c 4 "$f")" = "$(printf '\177ELF')" ] || continue
		strip -o "$f.stripped" "$f" &&
			[ "$(wc -c <"$f.stripped")" -lt "$(wc -c <"$f")" ] &&
			mv "$f.stripped" "$f"
		rm -f "$f.stripped"
	done
	# scripts and data files next to the programs, as kselftest installs them
	(cd "$src/$t" && find . -type f ! -name '*.[ch]' ! -name '*.o' |
		while read -r f; do
			[ -e "$out/$t/$f" ] && continue
			mkdir -p "$out/$t/$(dirname "$f")"
			cp -p "$f" "$out/$t/$f"
		done)
	timeout=$(sed -n 's/^timeout=//p' "$src/$t/settings" 2>/dev/null || true)
	timeout=${timeout:-45}
	[ "$timeout" -gt 0 ] || timeout=600
	[ "$timeout" -le 900 ] || timeout=900
	list=$out/kselftest-$t
	{
		echo "# tools/testing/selftests/$t, built by build-kselftests.sh"
		echo "skip-status: 4"
		make -s -C "$src/$t" OUTPUT="$out/$t" emit_tests 2>/dev/null |
			sed 's/^[^:]*://' | while read -r test; do
			c=$(conf_for "$t" "$test")
			budget=$timeout
			case $c in
			skip\ *) echo "$test $c"; continue ;;
			timeout\ *) budget=${c#timeout } ;;
			esac
			if [ -x "$out/$t/$test" ] && [ ! -d "$out/$t/$test" ]; then
				case $test in
				*.py) echo "$test skip needs Python, which the guest does not have" ;;
				*.sh) echo "$test $budget $guest_dir/$t /bin/bash ./$test" ;;
				*) echo "$test $budget $guest_dir/$t ./$test" ;;
				esac
			else
				why=$(grep -m1 -E "error:|Error [0-9]" "$out/$t.log" |
					grep -F "$test" | cut -c1-160 || true)
				echo "$test skip did not build statically here${why:+: $why}"
			fi
		done
	} >"$list"
	echo "  KSELFTEST $t: $(grep -cv -e '^#' -e '^skip-status' -e ' skip ' "$list") to run, $(grep -c ' skip ' "$list" || true) skipped"
done
