# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by the kit's sh tests (jobs/test-fanout.sh, tools/kcidb/test-kcidb.sh):
# check NAME GOT WANT prints "ok" or "FAIL" and counts into pass and fail.
pass=0 fail=0

check() {
	if [ "$2" = "$3" ]; then
		echo "  ok    $1"
		pass=$((pass + 1))
	else
		echo "  FAIL  $1: got '$2', want '$3'"
		fail=$((fail + 1))
	fi
}
