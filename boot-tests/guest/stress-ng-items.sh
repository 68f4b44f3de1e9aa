#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The item list of the stress-ng workload (for boot-tests/guest/items.c): one item
# per stressor that this stress-ng knows, in its order.
#
# usage: stress-ng-items.sh STRESS_NG CONF SECONDS BUDGET > LIST
#   STRESS_NG  the stress-ng binary (the one the guest gets)
#   CONF       boot-tests/guest/stress-ng.conf: the stressors that are skipped, why
#   SECONDS    each stressor's --timeout
#   BUDGET     each stressor's time before it is killed (TIMEOUT)
set -eu

[ $# -eq 4 ] || { echo "usage: $0 STRESS_NG CONF SECONDS BUDGET" >&2; exit 2; }
bin=$1 conf=$2 secs=$3 budget=$4
stressors=$("$bin" --stressors) || { echo "$0: $bin --stressors failed" >&2; exit 1; }
[ -n "$stressors" ] || { echo "$0: $bin lists no stressors" >&2; exit 1; }

# shellcheck disable=SC2086 # split to count the words
echo "# stress-ng $("$bin" --version | sed -n 's/.*version \([^ ,]*\).*/\1/p'): $(echo $stressors | wc -w) stressors"
# 3: no resources for the stressor, 4: not implemented on this system
echo "skip-status: 3 4"
for s in $stressors; do
	why=$(awk -F'\t' -v s="$s" '$1 == s && $2 == "skip" { print $3 }' "$conf")
	if [ -n "$why" ]; then
		echo "$s skip $why"
	else
		echo "$s $budget /tmp /usr/bin/stress-ng --$s 1 --timeout $secs --oomable --temp-path /tmp --log-brief --metrics-brief"
	fi
done
