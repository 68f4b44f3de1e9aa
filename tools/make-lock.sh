#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One make at a time in a build directory (the top Makefile). The make
# started by hand runs its goals in a second make under this script, which
# holds BUILD_DIR/.make.lock (flock) on descriptor 9: the second make and
# everything it starts inherit it and find KIT_LOCKED=BUILD_DIR in their
# environment, so their own makes take no lock, and the lock is released
# when the last of them has exited (a process left running keeps it).
#
# usage: make-lock.sh probe LOCK BUILD_DIR
#            prints why a make cannot start now (LOCK is held), or nothing
#        make-lock.sh run LOCK WAIT BUILD_DIR WHAT CMD...
#            takes LOCK, waiting WAIT seconds (0: refuse at once; forever),
#            writes "pid N (WHAT) since TIME" into it, and execs CMD with
#            KIT_LOCKED=BUILD_DIR
# Exit status: probe 0; run CMD's, or 2 when LOCK stayed held (the message
# names the make that holds it) or WAIT is not a number of seconds.
set -u

# Who holds LOCK, from what its holder wrote into it.
holder() {
	info=$(head -n 1 "$1" 2>/dev/null)
	pid=${info#pid }
	pid=${pid%% *}
	if [ -z "$info" ]; then
		echo "another make"
	elif [ -n "$pid" ] && [ ! -d "/proc/$pid" ]; then
		echo "$info, which has exited, but a process it started holds the lock (fuser -v $1)"
	else
		echo "$info"
	fi
}

refusal() { # lock build_dir
	echo "$2 is in use by $(holder "$1"): not started; LOCK_WAIT=SECONDS waits for it"
}

case ${1:-} in
probe)
	[ $# -eq 3 ] || exit 2
	# a shared lock conflicts with the holder's only
	[ ! -e "$2" ] || flock -n -s "$2" true 2>/dev/null || refusal "$2" "$3"
	exit 0
	;;
run)
	[ $# -ge 6 ] || exit 2
	;;
*)
	sed -n '11,16p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
	;;
esac
lock=$2 wait=$3 build=$4 what=$5
shift 5
case $wait in
forever) ;;
'' | *[!0-9]*)
	echo "make: LOCK_WAIT=$wait: a number of seconds (0: refuse at once), or forever" >&2
	exit 2
	;;
esac
mkdir -p "$build" || exit 2
# read-write: opening it does not truncate what the holder wrote
exec 9<>"$lock" || exit 2
if ! flock -n 9; then
	if [ "$wait" = 0 ]; then
		echo "make: $(refusal "$lock" "$build")" >&2
		exit 2
	fi
	echo "make: waiting for $build, in use by $(holder "$lock") (LOCK_WAIT=$wait)" >&2
	if [ "$wait" = forever ]; then
		flock 9
	else
		flock -w "$wait" 9
	fi || {
		echo "make: $build is still in use after $wait s by $(holder "$lock")" >&2
		exit 2
	}
fi
printf 'pid %s (%s) since %s\n' $$ "$what" "$(date '+%F %T')" >"$lock"
KIT_LOCKED=$build
export KIT_LOCKED
exec "$@"
