#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make chaos: the pipeline of the tiny 6.1 kernel (unpack, series,
# configure, Kbuild, the variants, ubsan-triage, perf, initramfs, boots,
# triage, verdicts) killed in every stage, each kill followed by an
# undisturbed rerun whose results must equal those of an undisturbed run.
#
# First an undisturbed run of GOAL in DIR (a build directory of its own,
# emptied first unless CHAOS_KEEP=1) gives the reference. Then, for each
# kill of the plan: the stage is made to run again (its output removed or
# a source touched, cheaply: a Kbuild kill recompiles one file), GOAL is
# started in a session of its own, and once the stage's process runs (plus
# a delay drawn from the seed) the whole process group gets SIGINT, SIGTERM
# or SIGKILL (in turn). Then: the make and everything it started must be
# gone (QEMU included, which GNU parallel runs in process groups of their
# own), the build directory's lock free, and GOAL run again undisturbed must
# succeed, rebuild no kernel that the kill did not need rebuilt, leave no
# scratch file behind, and end with what the reference ended with: the
# verdicts, each boot's triage table and verdict, the .config, the series
# manifest, the unpacked source's file list, the symbols of each vmlinux,
# the initramfs's file list and the perf tool's version.
#
# usage: chaos-test.sh TOP DIR KBUILD_LOCK
# Environment: CHAOS_SEED (default 1) draws the delays and, with the kill's
# number, the signal; CHAOS_PLAN, the kills (default: the plan below);
# CHAOS_KEEP=1 keeps DIR's earlier build; JOBS, Kbuild's -j.
# Prints one line per kill on stderr as it goes, KTAP on stdout at the
# end, and last the summary line "chaos: N kills in S stages ...".
# Exit status 1 if a rerun differed or failed, or anything was left.
set -u
usage() {
	sed -n '24,24p' "$0" | sed 's/^# //' >&2
	exit 2
}
[ $# -eq 3 ] || usage
top=$(cd "$1" && pwd) || usage
dir=$2
klock=$3
seed=${CHAOS_SEED:-1}
case $seed in '' | *[!0-9]*) echo "chaos: CHAOS_SEED=$seed: a number" >&2 && exit 2 ;; esac
goal="kernel boot boot-variants verdict"
mkdir -p "$dir" || exit 2
dir=$(cd "$dir" && pwd)
case $dir in /) exit 2 ;; esac
# DIR is emptied: only a directory this script made, or an empty one
if [ -z "${CHAOS_KEEP:-}" ] && [ -n "$(ls -A "$dir")" ]; then
	[ -d "$dir/.chaos" ] || {
		echo "chaos: $dir is not empty and is no chaos directory: not emptied" >&2
		exit 2
	}
	find "$dir" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
fi
work=$dir/.chaos
mkdir -p "$work" || exit 2
KTAP_BUF=$work/ktap
# shellcheck source=tools/tests/ktap.sh
. "$top/tools/tests/ktap.sh"

out=$dir/tiny
tree=$out/linux
src=$dir/src/linux-source-6.1
variant=$out/variants/cve-2023-6931
boots="fixed cve-2023-6931 perf-u16-2015"
mypg=$(ps -o pgid= -p $$ | tr -d ' ')
t_start=$(date +%s)

# The plan: each kill is a stage's name (one kill of it). Twenty-two kills
# over the twelve stages, the ones that write most more than once.
plan=${CHAOS_PLAN:-"deps unpack unpack series configure kbuild-cc kbuild-ld
variant-copy variant-kbuild tools series configure perf initramfs boot boot boot
variant-boot triage triage-verdict verdict kbuild-cc"}

# stage_of KILL: the stage it counts for
stage_of() {
	case $1 in
	kbuild-*) echo kbuild ;;
	variant-boot) echo boot ;;
	variant-*) echo variant ;;
	triage-*) echo triage ;;
	*) echo "$1" ;;
	esac
}

# set_kill KILL: what makes the stage run again (prep), the process that
# shows it running (trigger: an extended regular expression over its
# arguments), the most of the delay after it shows (tenths of a second),
# and whether the rerun may rebuild a kernel (main, variant, none).
set_kill() {
	prep=: delay=0 rebuild=none
	case $1 in
	deps)
		prep="rm -f $dir/.deps-stamp" trigger='dpkg-query' delay=5 ;;
	unpack)
		prep="rm -rf $src" trigger="tar -C $src.tmp" delay=300 ;;
	series)
		trigger="apply-series.sh $src $tree " delay=20 ;;
	configure)
		prep="touch -d @1 $tree/.kit-config-stamp" trigger="configure.sh $tree " delay=20 ;;
	kbuild-cc)
		prep="touch $tree/kernel/events/core.c" trigger='clang .* -c -o kernel/events/core\.o ' \
			delay=100 rebuild=main ;;
	kbuild-ld)
		prep="touch $tree/lib/ubsan.c" trigger='ld\.lld .*vmlinux' delay=30 rebuild=main ;;
	variant-copy)
		prep="rm -f $variant/arch/x86/boot/bzImage" trigger="copy-tree.sh $tree " delay=20 \
			rebuild=variant ;;
	variant-kbuild)
		prep="rm -f $variant/arch/x86/boot/bzImage" trigger="^make -C $variant " delay=100 \
			rebuild=variant ;;
	tools)
		prep="rm -f $dir/tools/ubsan-triage" trigger="-o $dir/tools/ubsan-triage " delay=10 ;;
	perf)
		prep="rm -f $dir/perf/perf" trigger="^make -s -C $src/tools/perf " delay=50 ;;
	initramfs)
		prep="rm -f $out/boot-tests/initramfs.cpio" trigger='mkinitramfs\.sh' delay=10 ;;
	boot)
		trigger='qemu-system-x86_64 .*kit\.workloads=all' delay=200 ;;
	variant-boot)
		trigger='qemu-system-x86_64 .*kit\.workloads=perf-' delay=20 ;;
	triage)
		trigger='^[^ ]*/ubsan-triage --kit [^ ]* (--vmlinux [^ ]* )?--(tsv|json) -o ' ;;
	triage-verdict)
		trigger="^$dir/tools/ubsan-triage --kit [^ ]* --vmlinux [^ ]* --(tsv|json) -o $out/boots/" ;;
	verdict)
		trigger="^/bin/sh [^ ]*/report/verdict\\.sh $out/boots/" ;;
	*) return 1 ;;
	esac
}

# a number below $1 drawn from the seed and $2
draw() {
	awk -v n="$1" -v s="$seed" -v k="$2" 'BEGIN { srand(s * 7919 + k); print int(rand() * n) }'
}

# the processes of this run: the make's group, and every process whose
# arguments name DIR (the boot jobs, in groups of their own); not this
# script's group
run_procs() { # [pgid]
	ps -eo pid=,pgid=,args= | awk -v pg="${1:--}" -v d="$dir/" -v me="$mypg" \
		'$2 != me && ($2 == pg || index($0, d)) { print }'
}
first_match() { # ERE
	run_procs "$pg" | awk -v re="$1" '{ a = $0; sub(/^ *[0-9]+ +[0-9]+ +/, "", a) }
		a ~ re { print $1; exit }'
}

# start GOAL in DIR, in a session (and process group) of its own
kmake_start() { # log
	# shellcheck disable=SC2086 # GOAL is a list of goals
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u KIT_LOCKED setsid \
		make -C "$top" --no-print-directory BUILD="$dir" KBUILD_LOCK="$klock" \
			${JOBS:+JOBS="$JOBS"} $goal >"$1" 2>&1 </dev/null &
	pid=$!
	pg=$pid
}

# the results a run ends with, into folder $1; its log is $2
fingerprint() {
	rm -rf "$1" && mkdir -p "$1"
	# the verdict goal's lines, after the last boot stage: a boot job
	# prints its own verdict only when it runs, and a rerun resumes the
	# jobs that were done (run-jobs, joblog) without running them again
	awk '/^run-jobs: / { n = 0 } /^verdict/ { v[++n] = $0 }
		END { for (i = 1; i <= n; i++) print v[i] }' "$2" >"$1/verdicts"
	for b in $boots; do
		for f in triage.tsv verdict expect.txt; do
			cp "$out/boots/$b/$f" "$1/$b.$f" 2>/dev/null || echo missing >"$1/$b.$f"
		done
	done
	cp "$tree/.config" "$1/config" 2>/dev/null
	cp "$tree/.kit-patches/manifest" "$1/manifest" 2>/dev/null
	(cd "$src" && find . -type f -printf '%s %p\n' | LC_ALL=C sort | sha256sum) >"$1/source"
	for t in "$tree" "$out"/variants/*; do
		printf '%s %s\n' "${t#"$out"/}" "$("${LLVM_NM:-/usr/lib/llvm-19/bin/llvm-nm}" -j --defined-only "$t/vmlinux" 2>&1 |
			LC_ALL=C sort | sha256sum)"
	done >"$1/symbols"
	cpio -it --quiet <"$out/boot-tests/initramfs.cpio" 2>&1 | LC_ALL=C sort >"$1/initramfs"
	"$dir/perf/perf" --version >"$1/perf" 2>&1
}

# what a rerun did, from its log
did() { # log
	awk '
	/^  UNPACK / { a["unpacked"] = 1 }
	/^  COPY    \// { a["copied the tree"] = 1 }
	/^  CONFIG  / { a["reconfigured"] = 1 }
	/^  UPDATE / { a["patched"] = 1 }
	/^kernel: built/ { a["rebuilt the kernel"] = 1 }
	/^  VARIANT / { v++ }
	/^perf-tool: built/ { a["relinked perf"] = 1 }
	/^run-jobs: .*resuming/ { a["resumed the boots"] = 1 }
	END {
		s = ""
		for (k in a) s = s (s == "" ? "" : ", ") k
		if (v) s = s (s == "" ? "" : ", ") "rebuilt " v " variant(s)"
		print s == "" ? "rebuilt no kernel" : s
	}' "$1"
}

# run GOAL undisturbed; $1 names it; sets rc, secs
rerun() { # name
	t0=$(date +%s)
	kmake_start "$work/$1.log"
	wait "$pid"
	rc=$?
	secs=$(($(date +%s) - t0))
}

group_gone() { [ -z "$(ps -eo pgid= | awk -v pg="$pg" '$1 == pg')" ]; }
no_qemu() { [ -z "$(run_procs | awk '/qemu-system-x86_64/')" ]; }
lock_free() { flock -n "$dir/.make.lock" true; }
nothing_left() { [ -z "$(run_procs)" ]; }

echo "chaos: seed $seed, in $dir; the undisturbed run first" >&2
rerun reference
if [ $rc -ne 0 ] || ! grep -q '^verdicts: 3 passed, 0 failed' "$work/reference.log"; then
	bad "the undisturbed run of $goal" "exit status $rc
$(tail -20 "$work/reference.log")"
	ktap_end
	echo "chaos: the undisturbed run failed (exit status $rc): no kill made; $work/reference.log"
	exit 1
fi
fingerprint "$work/ref" "$work/reference.log"
ok "the undisturbed run ($secs s): $(grep '^verdicts:' "$work/reference.log")"
echo "chaos: undisturbed run $secs s" >&2

kills=0 equal=0 differ=0 qemu_left=0 locks=0 missed=0 n=0 stages=''
for k in $plan; do
	set_kill "$k" || {
		bad "kill $k" "no such stage"
		continue
	}
	n=$((n + 1))
	case $(((n + seed) % 3)) in
	0) sig=INT ;;
	1) sig=TERM ;;
	*) sig=KILL ;;
	esac
	st=$(stage_of "$k")
	# a stage that ended before the signal came is tried again
	hit=0 try=0
	while [ $hit = 0 ] && [ $try -lt 3 ]; do
		try=$((try + 1))
		sh -c "$prep"
		t0=$(date +%s)
		kmake_start "$work/kill-$n.log"
		d=$(draw "$((delay + 1))" "$n$try")
		# the stage's process, then the delay; if the process has ended
		# by then, its next one (triage and verdict run several times)
		while [ $hit = 0 ] && kill -0 "$pid" 2>/dev/null; do
			p=$(first_match "$trigger")
			if [ -z "$p" ]; then
				sleep 0.05
				continue
			fi
			[ "$d" = 0 ] || sleep "$((d / 10)).$((d % 10))"
			if kill -0 "$p" 2>/dev/null; then
				hit=1
				kill -"$sig" -"$pg" 2>/dev/null
			else
				d=0
			fi
		done
		wait "$pid"
		rc=$?
		if [ $hit = 0 ]; then
			missed=$((missed + 1))
			echo "chaos: kill $n ($k): the run ended (status $rc) before the stage could be hit; again" >&2
		fi
	done
	[ $hit = 1 ] || {
		bad "kill $n ($k, SIG$sig)" "the stage never ran long enough to be killed in 3 tries"
		continue
	}
	kills=$((kills + 1))
	case " $stages " in *" $st "*) ;; *) stages="$stages $st" ;; esac
	at="$((d / 10)).$((d % 10)) s into $k, $(($(date +%s) - t0)) s after the start"
	why=''
	wait_for 60 group_gone || why="$why; the make's process group outlived SIG$sig by 60 s"
	if ! wait_for 15 no_qemu; then
		why="$why; QEMU left: $(run_procs | awk '/qemu-system-x86_64/ { print $1 }' | tr '\n' ' ')"
		qemu_left=$((qemu_left + $(run_procs | grep -c qemu-system-x86_64)))
	fi
	if ! wait_for 15 lock_free; then
		why="$why; the lock is still held: $(head -n 1 "$dir/.make.lock")"
		locks=$((locks + 1))
	fi
	if ! wait_for 5 nothing_left; then
		why="$why; left running: $(run_procs | awk '{ $2 = ""; print }' | cut -c1-120 | tr '\n' ';')"
		# they are this test's: end them, so that the next kills count
		for q in $(run_procs | awk '{ print $1 }'); do kill -TERM "$q" 2>/dev/null; done
		sleep 3
		for q in $(run_procs | awk '{ print $1 }'); do kill -KILL "$q" 2>/dev/null; done
		wait_for 30 lock_free
	fi
	rerun "rerun-$n"
	what=$(did "$work/rerun-$n.log")
	[ $rc -eq 0 ] || why="$why; the rerun failed (exit status $rc): $(grep -v '^ ' "$work/rerun-$n.log" | tail -3 | tr '\n' ' ')"
	if [ $rc -eq 0 ]; then
		case $rebuild in
		none) grep -qE '^(kernel: built|  VARIANT )' "$work/rerun-$n.log" &&
			why="$why; the rerun rebuilt a kernel that the kill did not need rebuilt" ;;
		variant) grep -q '^kernel: built' "$work/rerun-$n.log" &&
			why="$why; the rerun rebuilt the main kernel for a variant's kill" ;;
		esac
		left=$(find "$dir" "$dir/src" "$out" -maxdepth 1 -name '*.tmp' 2>/dev/null)
		[ -z "$left" ] || why="$why; scratch files left: $left"
		fingerprint "$work/cur" "$work/rerun-$n.log"
		if diff -r "$work/ref" "$work/cur" >"$work/diff-$n" 2>&1; then
			equal=$((equal + 1))
			res=equal
		else
			differ=$((differ + 1))
			res=different
			why="$why; the rerun's results differ from the undisturbed run's:
$(head -30 "$work/diff-$n")"
		fi
	else
		differ=$((differ + 1))
		res="failed"
	fi
	line="kill $n: $st ($k), SIG$sig $at; rerun $secs s: $what; $res"
	echo "chaos: $line" >&2
	if [ -z "$why" ]; then
		ok "$line"
	else
		bad "$line" "${why#; }"
	fi
done

# shellcheck disable=SC2086 # the words of the list
nstages=$(echo $stages | wc -w)
wall=$(($(date +%s) - t_start))
ktap_end
status=$?
echo "chaos: $kills kills in $nstages stages ($(echo "${stages# }" | tr " " ,)), seed $seed: $equal reruns equal to the undisturbed run, $differ different; QEMU left $qemu_left, locks held $locks; $missed missed; $wall s"
[ $status -eq 0 ] && [ $differ -eq 0 ] && [ $qemu_left -eq 0 ] && [ $locks -eq 0 ]
