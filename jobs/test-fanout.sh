#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The fan-out's test, with real boots: a throw-away sshd on 127.0.0.1 is one
# host, this machine (":") the other, and a third line names a port where
# nothing listens.
#
# 1. The given jobs (make test: the fixed boot and the two variants) run
#    across the hosts; once a job's QEMU runs on the ssh host, that job's
#    ssh is killed. Checked: the dead host is reported by name, jobs ran on
#    both hosts, the killed job ran again on the other host, every result
#    came back complete, and each verdict (runner's and expectation's)
#    equals the local run's.
# 2. The short jobs (those not running every workload; else all) run again
#    on this machine alone, and the runner is killed
#    (SIGKILL, with everything it started) once the first job is done.
#    Checked: the re-run resumes, runs only the jobs that had not finished,
#    and every result is there.
# The sshd is stopped at the end, whatever happened.
#
# usage: test-fanout.sh KIT TRIAGE WORK JOBLIST...
#   the job lists of the local runs (their result directories hold the
#   local results); WORK is emptied first.
# Last line: "fanout: N passed, N failed"; exit status 1 on a failure.
set -u
[ $# -ge 4 ] || { sed -n '20,22p' "$0" | sed 's/^# //' >&2; exit 2; }
kit=$1 triage=$2 work=$3
shift 3
tab=$(printf '\t')
# shellcheck source=jobs/check.sh
. "$kit/jobs/check.sh"

# every process below $1, deepest last
descendants() {
	ps -eo pid=,ppid= | awk -v root="$1" '{ kid[$2] = kid[$2] " " $1 }
		END { n = split(kid[root], q, " "); for (i = 1; i <= n; i++) {
			print q[i]; m = split(kid[q[i]], more, " ");
			for (j = 1; j <= m; j++) q[++n] = more[j] } }'
}

rm -rf "$work" && mkdir -p "$work" || exit 2
work=$(cd "$work" && pwd)
sshd=$work/sshd
trap 'sh "$kit/jobs/test-sshd.sh" stop "$sshd"' EXIT
trap 'exit 130' INT TERM HUP
port=$(sh "$kit/jobs/test-sshd.sh" start "$sshd") || { echo "fanout: sshd did not start"; exit 1; }
user=$(id -un)
sshhost="1/ssh -F $sshd/ssh_config -p $port $user@127.0.0.1"
deadhost="1/ssh -F $sshd/ssh_config -p 1 $user@127.0.0.1"
printf '%s\n1/:\n%s\n' "$sshhost" "$deadhost" >"$work/hosts"
echo "1/:" >"$work/local"
echo "fanout: sshd on 127.0.0.1:$port; hosts: $work/hosts"

# The same jobs, their results under WORK.
cat "$@" | awk -F'\t' -v d="$work/results" 'BEGIN { OFS = "\t" } { $2 = d "/" $1; print }' \
	>"$work/jobs.tsv"
names=$(cut -f1 "$work/jobs.tsv")
run_jobs() {
	sh "$kit/jobs/run-jobs.sh" -n fanout-test -d "$work/ship" -K "$kit" -T "$triage" "$@" \
		"$work/jobs.tsv"
}
result_ok() {
	[ -s "$1/checksums" ] && (cd "$1" && sha256sum -c --quiet checksums >/dev/null 2>&1) &&
		echo complete
}

# --- 1: two hosts and a dead one; one job's ssh killed --------------------
t1=$(date +%s)
run_jobs -H "$work/hosts" -R 3 -F >"$work/run1.log" 2>&1 &
runner=$!
killed='' killed_at=0 i=0
remote=$sshd/home/int-sanitizer-kit/runs/fanout-test/out/.partial/
while [ -z "$killed" ] && kill -0 $runner 2>/dev/null && [ $i -lt 1800 ]; do
	i=$((i + 1))
	sleep 0.1
	# a QEMU of the ssh host (sshd's child, not the runner's): its
	# console log is under that host's directory
	# shellcheck disable=SC2009 # the full command line is matched, pgrep -f would match this shell too
	q=$(ps -eo args= | grep -o "^qemu-system-x86_64 .*${remote}[^/]*" |
		grep -o "${remote}[^/]*" | head -1)
	[ -n "$q" ] || continue
	# that job's ssh: the runner's one ssh to the host (one slot)
	for p in $(descendants $runner); do
		case $(tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline") in
		ssh\ *GNU_Parallel_worker*)
			killed=${q#"$remote"}
			killed_at=$(date +%s)
			kill "$p"
			echo "fanout: killed the ssh (pid $p) of job $killed on the ssh host"
			break
			;;
		esac
	done
done
wait $runner
rc=$?
sed 's/^/    | /' "$work/run1.log"
check "fan-out run exits 0" $rc 0
check "the unreachable host is reported by name" \
	"$(grep -c "host '$deadhost' cannot be reached" "$work/run1.log")" 1
log=$work/ship/int-sanitizer-kit/runs/fanout-test/joblog
n=$(awk -F'\t' 'NR > 1 && $2 ~ /^ssh / && $7 == 0 { n++ } END { print n + 0 }' "$log")
check "jobs ran on the ssh host" "$([ "$n" -gt 0 ] && echo yes)" yes
check "jobs ran on this machine" "$(awk -F'\t' 'NR > 1 && $2 == ":" && $7 == 0 { n++ } END { print (n > 0) }' "$log")" 1
check "a job's ssh was killed while its QEMU ran" "$([ -n "$killed" ] && echo yes)" yes
if [ -n "$killed" ]; then
	check "job $killed ran again, on the other host" \
		"$(awk -F'\t' -v n="$killed" 'NR > 1 && $7 == 0 && $9 ~ "/" n "$" { print $2 }' "$log")" :
	st=$(sed -n 's/^start_time=//p' "$work/results/$killed/job.txt")
	check "job $killed's result is from after the kill" \
		"$([ "$(date -d "$st" +%s 2>/dev/null || echo 0)" -ge "$killed_at" ] && echo yes)" yes
fi
images=$(cut -f3,4 "$work/jobs.tsv" | tr '\t' '\n' | sort -u | xargs sha256sum | cut -c1-64 | sort -u)
# shellcheck disable=SC2012,SC2116,SC2086 # file names are hashes; echo joins the lines
check "the ssh host got each image once, by content" \
	"$(cd "$sshd/home/int-sanitizer-kit/img" 2>/dev/null && ls | sort | paste -sd' ' -)" \
	"$(echo $images)"
while IFS=$tab read -r name _ _ _ vml _; do
	local_dir=$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$@")
	check "$name: results back, complete" "$(result_ok "$work/results/$name")" complete
	check "$name: runner verdict as locally" "$(cat "$work/results/$name/verdict" 2>/dev/null)" \
		"$(cat "$local_dir/verdict" 2>/dev/null)"
	# the collector triaged it again with the vmlinux the hosts never got
	if [ "$vml" != - ] && [ -s "$work/results/$name/console.log" ]; then
		rm -f "$work/want.tsv"
		"$triage" --kit "$kit" --vmlinux "$vml" --tsv -o "$work/want.tsv" \
			"$work/results/$name/console.log"
		check "$name: triage.tsv is the one with its vmlinux" \
			"$(cmp -s "$work/want.tsv" "$work/results/$name/triage.tsv" && echo same)" same
	fi
	if [ -e "$local_dir/expect.txt" ]; then
		check "$name: expectation as locally" \
			"$(tail -1 "$work/results/$name/expect.txt" 2>/dev/null)" "$(tail -1 "$local_dir/expect.txt")"
	fi
done <"$work/jobs.tsv"
echo "fanout: run 1 took $(($(date +%s) - t1)) s"

# --- 2: the runner killed after its first job; the re-run resumes ---------
# the short jobs (not every workload), or all
awk -F'\t' '$8 != "all"' "$work/jobs.tsv" >"$work/short.tsv"
[ -s "$work/short.tsv" ] && mv "$work/short.tsv" "$work/jobs.tsv"
names=$(cut -f1 "$work/jobs.tsv")
t2=$(date +%s)
run_jobs -H "$work/local" -F >"$work/run2.log" 2>&1 &
runner=$!
i=0
while kill -0 $runner 2>/dev/null && [ $i -lt 3000 ]; do
	i=$((i + 1))
	sleep 0.1
	# the joblog is the new run's once the runner has started parallel
	grep -q 'job(s) on' "$work/run2.log" || continue
	[ "$(awk -F'\t' 'NR > 1 && $7 == 0' "$log" 2>/dev/null | grep -c .)" -ge 1 ] && break
done
pids="$runner $(descendants $runner)"
# shellcheck disable=SC2086 # a list of pids
kill -KILL $pids 2>/dev/null
wait $runner 2>/dev/null
first=$(awk -F'\t' 'NR > 1 && $7 == 0 { sub(/.*\//, "", $9); print $9 }' "$log")
# shellcheck disable=SC2116,SC2086 # echo joins the lines into one
echo "fanout: killed the runner and everything it started, after job(s) $(echo $first)"
missing=$(for n in $names; do echo "$first" | grep -qx "$n" || echo "$n"; done)
check "the killed run left jobs to do" "$([ -n "$missing" ] && echo yes)" yes
run_jobs -H "$work/local" >"$work/run3.log" 2>&1
rc=$?
sed 's/^/    | /' "$work/run3.log"
check "the re-run exits 0" $rc 0
check "the re-run resumes" "$(grep -c 'resuming' "$work/run3.log")" 1
ran=$(sed -n 's/^boot \([^:]*\): .*/\1/p' "$work/run3.log" | sort | paste -sd' ' -)
check "the re-run boots only what had not finished" "$ran" "$(echo "$missing" | sort | paste -sd' ' -)"
for n in $names; do
	check "$n: result complete after the re-run" "$(result_ok "$work/results/$n")" complete
done
echo "fanout: runs 2 and 3 took $(($(date +%s) - t2)) s"
echo "fanout: $pass passed, $fail failed"
[ $fail -eq 0 ]
