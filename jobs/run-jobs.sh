#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The one runner of boot jobs: runs a job list here, or fans it out over ssh
# with GNU parallel, and puts each job's results where the kit expects them.
#
# usage: run-jobs.sh -n RUN -d DIR -K KIT -T TRIAGE [-H HOSTS [-S SSH]]
#                    [-W WD] [-j N] [-R TRIES] [-F] JOBLIST
#
#   RUN      the run's name (boot, boot-variants, detect, ...)
#   DIR      the local side: DIR/WD is what every host has under ~/WD
#   KIT      the kit's checkout; TRIAGE its ubsan-triage binary
#   HOSTS    GNU parallel's --sshloginfile ("N/[user@]host", "N/ssh -p P
#            host", ":" for this machine); none: every job runs here
#   SSH      the ssh command for plain logins (default ssh)
#   WD       relative directory, on every host, for the kit, the images and
#            the results (default int-sanitizer-kit)
#   N        jobs at once without HOSTS (default 1); with HOSTS, each line's N/
#   TRIES    attempts per job, on other hosts when there are (default 3)
#   -F       start afresh even if the last run of RUN was interrupted
#
# JOBLIST: one job a line, tab-separated: name, result directory, bzImage,
# initramfs, vmlinux (or -), build name, expectation (fixed, caught or -),
# workloads, run-qemu.sh options (shell words). See jobs/README.md.
#
# Exit status 0 when every job finished with a guest verdict (whatever it
# is); 1 when some did not (host faults after every attempt): their result
# directories are absent, they are listed, and running the same command
# again runs only them; 2 on bad usage or input (an unreadable file, a
# HOSTS line that is no login, a bad line of the kit's lists: no
# result is touched then), or a full disk
# here: the room for the kit, the images not yet staged and 16 MiB per job
# is checked before anything is written, and a write that fails on a full
# disk ends the run with the one line of tools/space.sh ("kit: no space:
# DIR needs N MiB, has M MiB free"); the results of a job that a full disk
# cut short never count (boot-job.sh).
set -u

usage() {
	sed -n '7,8p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

die() {
	echo "run-jobs: $*" >&2
	exit 2
}

# a write failed: the line if the disk is full, else MESSAGE; then the
# scratch PATHs go (the disk is judged before they free their room)
wdie() { # DIR MESSAGE [PATH...]
	sh "$space" full "$1" 16
	full=$?
	w=$2
	shift 2
	rm -rf "$@"
	[ $full = 0 ] && exit 2
	die "$w"
}

run='' dir='' kit='' triage='' hosts='' ssh=ssh wd=int-sanitizer-kit
jobs=1 tries=3 fresh=0
while getopts n:d:K:T:H:S:W:j:R:F opt; do
	case $opt in
	n) run=$OPTARG ;;
	d) dir=$OPTARG ;;
	K) kit=$OPTARG ;;
	T) triage=$OPTARG ;;
	H) hosts=$OPTARG ;;
	S) ssh=$OPTARG ;;
	W) wd=$OPTARG ;;
	j) jobs=$OPTARG ;;
	R) tries=$OPTARG ;;
	F) fresh=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] && [ -n "$run" ] && [ -n "$dir" ] && [ -n "$kit" ] && [ -n "$triage" ] || usage
list=$1
case $run in *[!A-Za-z0-9._-]* | '') die "bad run name '$run'" ;; esac
case $wd in /* | *..* | '') die "WD must be a relative path without '..'" ;; esac
[ -r "$list" ] || die "cannot read $list"
[ -x "$triage" ] || die "no ubsan-triage at $triage"
# Bad input stops the run before anything is written: a HOSTS line that is
# no login, a bad line of the kit's lists (each job's triage would fail).
if [ -n "$hosts" ]; then
	err=$(sh "$(dirname "$0")/check-hosts.sh" "$hosts" 2>&1) || die "$err"
fi
"$triage" --kit "$kit" --check-lists || exit 2
command -v parallel >/dev/null || die "GNU parallel is not installed (make deps)"
kit=$(cd "$kit" && pwd)
space=$kit/tools/space.sh
[ -r "$space" ] || die "no tools/space.sh in $kit"
sh "$space" need "$dir" 16 || exit 2
mkdir -p "$dir" 2>/dev/null || wdie "$dir" "cannot create $dir"
dir=$(cd "$dir" && pwd)
ship=$dir/$wd
rundir=$ship/runs/$run
mkdir -p "$ship/img" "$ship/kit" "$ship/runs" 2>/dev/null || wdie "$ship" "cannot write $ship"
tab=$(printf '\t')
t0=$(date +%s)

# The kit's part of a job, in a directory named by its content.
kit_files="jobs/boot-job.sh boot-tests/host/run-qemu.sh report/verdict.sh
report/u16-boundary.sh annotations/sites.tsv annotations/rules.tsv tools/space.sh"
kit_files="$kit_files $(cd "$kit" && ls sanitizer-ignorelist/*.scl corpus/*/known-bugs.tsv)"
# shellcheck disable=SC2086 # lists of file names
khash=$({ (cd "$kit" && sha256sum $kit_files) && sha256sum <"$triage"; } |
	sha256sum | cut -c1-16)
if [ ! -d "$ship/kit/$khash" ]; then
	t=$ship/kit/.tmp.$$
	rm -rf "$t"
	for f in $kit_files; do
		mkdir -p "$t/$(dirname "$f")" 2>/dev/null && cp "$kit/$f" "$t/$f" 2>/dev/null ||
			wdie "$ship" "cannot copy $f" "$t"
	done
	mkdir -p "$t/bin" && cp "$triage" "$t/bin/ubsan-triage" 2>/dev/null &&
		mv "$t" "$ship/kit/$khash" || wdie "$ship" "cannot stage the kit" "$t"
fi

# Kernels and initramfs, by content: a host that has one never gets it again.
# A copy, not a link: Kbuild rewrites bzImage in place. Status 3: no room
# for it (the line is said).
image() {
	h=$(sha256sum <"$1" | cut -c1-64) || return 1
	if [ ! -e "$ship/img/$h" ]; then
		sh "$space" need "$ship/img" "$(sh "$space" size -L "$1")" || return 3
		if ! cp --reflink=auto "$1" "$ship/img/.$h.$$" 2>/dev/null; then
			sh "$space" full "$ship/img" 16 && st=3 || st=1
			rm -f "$ship/img/.$h.$$"
			return "$st"
		fi
		mv "$ship/img/.$h.$$" "$ship/img/$h" || return 1
	fi
	echo "$h"
}

# Read the list; write the specs (boot-job.sh's arguments) to a new
# directory, and the run's key: the kit, the list and every spec.
new=$ship/runs/.new.$run.$$
rm -rf "$new" && mkdir -p "$new/spec" || die "cannot write $new"
trap 'rm -rf "$new"' EXIT
n=0
while IFS=$tab read -r name outdir kernel initrd vmlinux build expect workloads options; do
	case $name in '' | '#'*) continue ;; esac
	case $name$build$workloads$expect in
	*[!A-Za-z0-9._,+=-]*) die "$list: job '$name': name, build, workloads and expectation are [A-Za-z0-9._,+=-]" ;;
	esac
	[ ! -e "$new/body.$name" ] || die "$list: job $name twice"
	case $outdir in /*) ;; *) die "$list: job $name: result directory must be absolute" ;; esac
	for f in "$kernel" "$initrd"; do
		[ -r "$f" ] || die "$list: job $name: cannot read $f"
	done
	k=$(image "$kernel") && i=$(image "$initrd")
	case $? in
	0) ;;
	3) exit 2 ;;
	*) die "cannot stage $kernel, $initrd" ;;
	esac
	printf '%s\n' "-o runs/$run/out/$name -k img/$k -i img/$i -n $name -w $workloads -e $expect -b $build -- -c kvm-probe $options" \
		>"$new/body.$name"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$outdir" "$vmlinux" "$build" "$k" "$i" "$workloads" \
		>>"$new/jobs.tsv"
	echo "$name" >>"$new/names"
	n=$((n + 1))
done <"$list"
[ $n -gt 0 ] || die "$list: no job"
# shellcheck disable=SC2013 # names are single words
key=$( (echo "$khash" && cd "$new" && cat jobs.tsv && for name in $(cat names); do
	cat "body.$name"; done) | sha256sum | cut -c1-16)
# shellcheck disable=SC2013 # names are single words
for name in $(cat "$new/names"); do
	echo "-r $key $(cat "$new/body.$name")" >"$new/spec/$name" && rm "$new/body.$name"
done
# the specs are whole (a full disk cut none short), and the results have
# room: 16 MiB a job
sh "$space" full "$new" 16 && exit 2
sh "$space" need "$ship/runs" $((16 * n)) || exit 2

# Resume only an interrupted run of the same jobs; else start afresh, and
# take away the results that the new run replaces.
resume=0
if [ $fresh = 0 ] && [ -s "$rundir/key" ] && [ "$(cat "$rundir/key")" = "$key" ] &&
	[ -e "$rundir/joblog" ] && [ ! -e "$rundir/complete" ]; then
	resume=1
	rm -rf "$new"
else
	while IFS=$tab read -r _ outdir _; do
		rm -rf "$outdir"
	done <"$new/jobs.tsv"
	rm -rf "$rundir" && mv "$new" "$rundir" || die "cannot create $rundir"
	echo "$key" >"$rundir/key"
fi
trap - EXIT

# Hosts: check each line before the run; one that cannot be reached, or
# lacks a tool, is named and left out, and its jobs go to the others.
set -- --joblog "$rundir/joblog" --retries "$tries" --wd "$wd"
[ $resume = 1 ] && set -- "$@" --resume-failed
where="this machine"
if [ -n "$hosts" ]; then
	: >"$rundir/hosts"
	while IFS= read -r line; do
		case $line in '' | '#'*) continue ;; esac
		login=$(echo "$line" | sed 's|^\(@[^/]*/\)\{0,1\}\([0-9]*/\)\{0,1\}||')
		if [ "$login" = : ]; then
			echo "$line" >>"$rundir/hosts"
			continue
		fi
		case $login in
		*' '*) cmd=${login%% *} args=${login#* } ;;
		*) cmd=$ssh args=$login ;;
		esac
		# shellcheck disable=SC2086,SC2016 # ssh command and its options; $p is the remote shell's
		missing=$($cmd -o BatchMode=yes -o ConnectTimeout=10 $args \
			'for p in qemu-system-x86_64 perl rsync sha256sum awk; do command -v $p >/dev/null || echo $p; done' \
			</dev/null 2>"$rundir/ssh-probe.err")
		rc=$?
		if [ $rc -ne 0 ]; then
			echo "run-jobs: host '$line' cannot be reached (ssh exit $rc: $(tail -1 "$rundir/ssh-probe.err")); its jobs go to the other hosts" >&2
		elif [ -n "$missing" ]; then
			# shellcheck disable=SC2116,SC2086 # echo joins the lines into one
			echo "run-jobs: host '$line' lacks $(echo $missing); its jobs go to the other hosts" >&2
		else
			echo "$line" >>"$rundir/hosts"
		fi
	done <"$hosts"
	[ -s "$rundir/hosts" ] || { echo "run-jobs: no usable host in $hosts" >&2; exit 1; }
	where="$(grep -c . "$rundir/hosts") host(s)"
	# -t: keep mtimes, so that rsync's quick check skips what a host has
	set -- "$@" --sshloginfile "$rundir/hosts" --ssh "$ssh" --rsync-opts -rlDzRt
	if grep -qv '^\([0-9]*/\)\{0,1\}:$' "$rundir/hosts"; then
		set -- "$@" --basefile "$wd/./kit/$khash" --basefile "$wd/./runs/$run/spec" \
			--return "$wd/./runs/$run/out/{}"
		for h in $(cut -f5,6 "$rundir/jobs.tsv" | tr '\t' '\n' | sort -u); do
			set -- "$@" --basefile "$wd/./img/$h"
		done
	fi
else
	set -- "$@" -j "$jobs"
fi

# A job here ends if this script is killed (boot-job.sh): GNU parallel puts
# each job in a process group of its own, which a kill of make's misses.
KIT_JOBS_RUNNER=$$
export KIT_JOBS_RUNNER
echo "run-jobs: $run: $n job(s) on $where$([ $resume = 1 ] && echo ", resuming $rundir/joblog")"
# --ungroup: a failed attempt's output (its host fault) is shown too
(cd "$dir" && parallel --ungroup "$@" "sh kit/$khash/jobs/boot-job.sh -f runs/$run/spec/{}" \
	:::: "$rundir/names") 2>&1 | tee -a "$rundir/output.log"

# Collect: a job's results count when its checksums hold and it ran for
# this run; symbolize here (the hosts get no vmlinux), then move them where
# the kit expects them.
valid() {
	[ -s "$1/checksums" ] && grep -qx "run_key=$key" "$1/job.txt" 2>/dev/null &&
		(cd "$1" && sha256sum -c --quiet checksums >/dev/null 2>&1)
}
seq=0 ndone=0 notrun='' boot_s=0 job_s=0
: >"$rundir/boots.tsv.tmp"
while IFS=$tab read -r name outdir vmlinux build k i workloads; do
	seq=$((seq + 1))
	staged=$ship/runs/$run/out/$name
	state="done"
	if valid "$staged"; then
		# triaged again with its vmlinux (jobs/retriage.sh)
		[ "$vmlinux" = - ] || [ ! -r "$vmlinux" ] ||
			sh "$kit/jobs/retriage.sh" "$kit" "$triage" "$staged" "$vmlinux" "$name" ||
			exit 2
		rm -rf "$outdir" && mkdir -p "$(dirname "$outdir")" && mv "$staged" "$outdir" ||
			die "cannot move $staged to $outdir"
	elif ! valid "$outdir"; then
		state=notrun
		rm -rf "$outdir" "$staged"
		# a job that exited 0 but whose results did not come back (the
		# return failed): make the joblog say so, for the next run
		awk -F'\t' -v s=$seq 'BEGIN { OFS = "\t" } $1 == s && $7 == 0 { $7 = 75 } { print }' \
			"$rundir/joblog" >"$rundir/joblog.new" && mv "$rundir/joblog.new" "$rundir/joblog"
	fi
	host=$(awk -F'\t' -v s=$seq '$1 == s && $7 == 0 { h = $2; t = $4 } END { print h }' "$rundir/joblog")
	if [ "$state" = "done" ]; then
		ndone=$((ndone + 1))
		w=$(sed -n 's/^wall_s=//p' "$outdir/boot.txt")
		t=$(awk -F'\t' -v s=$seq '$1 == s && $7 == 0 { t = $4 } END { print t + 0 }' "$rundir/joblog")
		boot_s=$(awk -v a="$boot_s" -v b="$w" 'BEGIN { print a + b }')
		job_s=$(awk -v a="$job_s" -v b="$t" 'BEGIN { print a + b }')
		f=$(grep -c "^boot-job $name: host fault" "$rundir/output.log")
		printf '  %-24s %-8s %-28s %6s s boot, %6.1f s job, on %s%s\n' "$name" \
			"$(cat "$outdir/verdict")" \
			"$(sed -n 's/^verdict [^:]*: //p' "$outdir/expect.txt" 2>/dev/null | head -1)" \
			"$w" "$t" "${host:-(earlier run)}" "$([ "$f" -gt 0 ] && echo ", after $f host fault(s)")"
	else
		notrun="$notrun $name"
		printf '  %-24s NOT RUN (host faults on every attempt; see above)\n' "$name"
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$outdir" "$build" "$k" "$workloads" "$state" "$key" \
		>>"$rundir/boots.tsv.tmp" || wdie "$rundir" "cannot write $rundir/boots.tsv"
done <"$rundir/jobs.tsv"
# whole or not at all: make kcidb reads it
mv "$rundir/boots.tsv.tmp" "$rundir/boots.tsv" || die "cannot write $rundir/boots.tsv"

wall=$(($(date +%s) - t0))
echo "run-jobs: $run: $ndone of $n done in $wall s; boots $boot_s s, jobs $job_s s in all (joblog $rundir/joblog)"
if [ -n "$notrun" ]; then
	echo "run-jobs: $run: not run:$notrun; the same command runs only these" >&2
	exit 1
fi
touch "$rundir/complete"
exit 0
