#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench's measurements and report (see bench/README.md).
#
#   bench.sh measure   for each flavor: sizes, the checks in vmlinux, and the
#                      -icount boot with the bench workloads; the trap
#                      kernel's test_ubsan boot; writes $BENCH/results/
#   bench.sh report    the ratios table on stdout, $BENCH/bench.json, the
#                      budget's verdict (BUDGET), and the change of every
#                      ratio since the previous run
#
# Environment: TOP, BENCH and BENCH_REF (absolute: the checked flavors'
# trees are in BENCH, the references' in BENCH_REF), TRIAGE, CENSUS,
# KVM_CACHE, ROUNDS, FLAVORS, WORKLOADS, ACCEL, BUDGET (empty: none),
# RAW_CENSUS (with a budget: the raw kernel's census, the floor's reference).
set -u
: "${TOP:?}" "${BENCH:?}" "${BENCH_REF:?}" "${TRIAGE:?}" "${CENSUS:?}" \
	"${KVM_CACHE:?}" "${ROUNDS:=5}" "${ACCEL:=auto}" "${BUDGET:=}"
: "${FLAVORS:=none none-trap report trap wrap wrap-trap trunc trunc-trap}"
: "${WORKLOADS:=bench-syscalls perf-cve-2023-6931 perf-u16-2015 perf-read-format-sweep}"
RES=$BENCH/results
# The read_format sweep alone takes 14 s of guest time: once a boot.
ONCE=perf-read-format-sweep
# The ratios: each checked flavor over its reference, and trap over report.
PAIRS="report/none trap/none-trap wrap/none wrap-trap/none-trap trunc/none trunc-trap/none-trap trap/report"

die() {
	echo "bench: $*" >&2
	exit 1
}

# is flavor $1 among FLAVORS
has() {
	case " $FLAVORS " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# the tree of flavor $1
tree() {
	case $1 in
	none*) echo "$BENCH_REF/$1" ;;
	*) echo "$BENCH/$1" ;;
	esac
}

# "NAME,NAME,..." for kit.workloads: ROUNDS rounds of the short workloads,
# then the long one once.
workload_list() {
	list=
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		for w in $WORKLOADS; do
			[ "$w" = $ONCE ] || list=$list${list:+,}$w
		done
		r=$((r + 1))
	done
	for w in $WORKLOADS; do
		[ "$w" = $ONCE ] && list=$list${list:+,}$w
	done
	echo "$list"
}

# metric<TAB>value lines from a console log: each workload's time in us (in
# ms from an init that gave only time_ms), each bench-syscalls phase's ns,
# and the guest time at which init started, in us.
parse_log() {
	awk '
	function ts(s) { sub(/^\[ */, "", s); sub(/\].*/, "", s); return s }
	{ sub(/\r$/, "") }
	/kit: workload end / {
		for (i = 1; i <= NF; i++) {
			if ($i == "end") name = $(i + 1)
			if ($i ~ /^time_ms=/) { v = 1000 * substr($i, 9) }
			if ($i ~ /^time_us=/) { v = substr($i, 9) }
			if ($i ~ /^status=/) { st = $i; sub(/status=/, "", st) }
		}
		if (st != 0) bad = bad " " name
		printf "workload:%s\t%s\n", name, v
	}
	/# bench: / {
		for (i = 1; i <= NF; i++) {
			if ($i == "bench:") name = $(i + 1)
			if ($i ~ /^ns=/) { v = $i; sub(/ns=/, "", v) }
		}
		printf "phase:%s\t%s\n", name, v
	}
	/KTAP version 1/ && !boot { boot = 1; printf "boot_to_init_us\t%.0f\n", ts($0) * 1000000 }
	END { if (bad != "") printf "failed\t%s\n", bad }
	' "$1"
}

# size:NAME<TAB>bytes lines of a tree: code and data of vmlinux.o (the
# linked vmlinux pads .text to 2 MiB boundaries, the same size in every
# flavor), llvm-size's Berkeley totals of vmlinux, the bzImage
sizes() {
	llvm-size -A "$1/vmlinux.o" | awk '
		$1 == ".text" { t = $2 }
		$1 == ".init.text" { i = $2 }
		$1 == ".rodata" { r = $2 }
		$1 == ".data" { d = $2 }
		END {
			printf "size:vmlinux.o_text\t%d\n", t
			printf "size:vmlinux.o_init_text\t%d\n", i
			printf "size:vmlinux.o_rodata\t%d\n", r
			printf "size:vmlinux.o_data\t%d\n", d
		}'
	llvm-size "$1/vmlinux" | awk 'NR == 2 {
		printf "size:vmlinux_text\t%d\nsize:vmlinux_data\t%d\n", $1, $2 }'
	printf 'size:bzImage\t%d\n' "$(stat -c %s "$1/arch/x86/boot/bzImage")"
}

# the integer checks of a report-mode vmlinux (a trap kernel has no
# handler call for the census to count)
checks() {
	case $2 in
	none* | *trap) return ;;
	esac
	"$CENSUS" -o "$RES/$2.census.tsv" "$1/vmlinux" 2>/dev/null &&
		printf 'checks\t%d\n' $(($(wc -l <"$RES/$2.census.tsv") - 1))
}

measure() {
	mkdir -p "$RES"
	list=$(workload_list)
	for f in $FLAVORS; do
		t=$(tree "$f")
		[ -f "$t/vmlinux" ] || die "no $t/vmlinux; run make bench"
		sizes "$t" >"$RES/$f.size"
		checks "$t" "$f" >>"$RES/$f.size"
		out=$BENCH/boots/run-$f
		"$TOP/boot-tests/host/run-qemu.sh" -I -t 1800 -k "$t/arch/x86/boot/bzImage" \
			-i "$BENCH/boot-tests/initramfs.cpio" -o "$out" -n "bench-$f" \
			-w "$list" >/dev/null || echo "bench: $f: boot verdict $(cat "$out/verdict")"
		parse_log "$out/console.log" >"$RES/$f.run"
		grep -q '^failed' "$RES/$f.run" &&
			echo "bench: $f: failed workloads:$(sed -n 's/^failed\t//p' "$RES/$f.run")"
		sed -n 's/^wall_s=/wall:icount_boot_s\t/p' "$out/boot.txt" >>"$RES/$f.run"
		echo "bench: $f: measured ($(sed -n 's/^wall_s=//p' "$out/boot.txt") s)"
	done
	# Trap mode says what fired: test_ubsan on the trap kernel traps on
	# each case; the line before the oops names the check.
	if ! has trap; then
		printf 'trap_line\tnot measured (no trap flavor)\ntrap_triage\t\n' >"$RES/trap-check"
		return
	fi
	out=$BENCH/boots/trap-test-ubsan
	"$TOP/boot-tests/host/run-qemu.sh" -a "$ACCEL" -c "$KVM_CACHE" -t 300 \
		-k "$BENCH/trap/arch/x86/boot/bzImage" \
		-i "$BENCH/boot-tests-trap/initramfs.cpio" -o "$out" -n trap-test-ubsan \
		-w test-ubsan >/dev/null
	"$TRIAGE" --tsv "$out/console.log" >"$out/triage.tsv" 2>/dev/null
	{
		printf 'trap_line\t%s\n' "$(grep -m1 -o -E 'UBSAN: .* (in|at) .*' "$out/console.log" | tr -d '\r')"
		printf 'trap_triage\t%s\n' "$(cut -f2,4 "$out/triage.tsv" | head -n 1 | tr '\t' ' ')"
	} >"$RES/trap-check"
}

# value of metric M for flavor F: all rounds, one a line
vals() {
	awk -F'\t' -v m="$2" '$1 == m { print $2 }' "$RES/$1.run" "$RES/$1.size" 2>/dev/null
}

# median min max n iqr of numbers on stdin; iqr is the spread of the middle
# half, (q3 - q1) / median in per cent: a cold first round does not move it,
# a metric that takes two values from round to round does
stats() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (!NR) { print "0 0 0 0 0"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		q1 = v[int((NR + 3) / 4)]; q3 = v[NR + 1 - int((NR + 3) / 4)]
		iqr = m ? 100 * (q3 - q1) / m : 0
		printf (m == int(m) ? "%d" : "%.1f") " %s %s %d %.3f\n", m, v[1], v[NR], NR, iqr }'
}

# metric, then median min max n iqr for each flavor of FLAVORS: one line a metric
medians() {
	metrics=$(for s in size run; do for f in $FLAVORS; do cat "$RES/$f.$s"; done; done |
		cut -f1 | grep -v '^failed$' | awk '!seen[$0]++')
	for m in $metrics; do
		line=$m
		for f in $FLAVORS; do
			# shellcheck disable=SC2046 # median min max n iqr, split on purpose
			set -- $(vals "$f" "$m" | stats)
			line="$line	$1	$2	$3	$4	$5"
		done
		echo "$line"
	done
}

report() {
	for f in $FLAVORS; do
		[ -f "$RES/$f.run" ] || die "no results of $f; run make bench"
	done
	machine="$(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	date=$(date -u '+%Y-%m-%d %H:%M UTC')
	medians >"$RES/table.tsv"
	awk -F'\t' -v date="$date" -v machine="$machine" -v rounds="$ROUNDS" \
		-v flavors="$FLAVORS" -v pairs="$PAIRS" -v budget="$BUDGET" \
		-v failed="$(for f in $FLAVORS; do grep -q '^failed' "$RES/$f.run" && printf ' %s' "$f"; done)" \
		-v ratios="$RES/ratios.tsv" \
		-v verdict="$RES/budget" -v json="$BENCH/bench.json.tmp" \
		-f "$TOP/bench/report.awk" "$RES/table.tsv"
	kept
	time_to_verdict
	{
		printf '  "trap_line": "%s",\n' \
			"$(sed -n 's/^trap_line\t//p' "$RES/trap-check" | sed 's/["\\]/\\&/g')"
		printf '  "trap_triage": "%s"\n}\n' \
			"$(sed -n 's/^trap_triage\t//p' "$RES/trap-check" | sed 's/["\\]/\\&/g')"
	} >>"$BENCH/bench.json.tmp"
	[ -f "$BENCH/bench.json" ] && mv "$BENCH/bench.json" "$BENCH/bench.prev.json"
	mv "$BENCH/bench.json.tmp" "$BENCH/bench.json"
	stability
	echo "JSON: $BENCH/bench.json"
	# the budget's verdict is the last line, and the exit status
	[ -z "$BUDGET" ] || { cat "$RES/budget"; grep -q holds "$RES/budget"; }
}

# the integer checks in each report-mode kernel; with a budget, the share
# of the unbudgeted kernel's (BENCH_REF's bench of the same flavor) kept,
# and of the raw kernel's (RAW_CENSUS: the floor of make budget and make
# noise, 95 %)
kept() {
	echo
	for f in $FLAVORS; do
		n=$(vals "$f" checks)
		[ -n "$n" ] || continue
		all=
		[ -n "$BUDGET" ] && all=$(awk -F'\t' '$1 == "checks" { print $2 }' \
			"$BENCH_REF/results/$f.size" 2>/dev/null)
		if [ -n "$all" ]; then
			awk -v f="$f" -v n="$n" -v all="$all" 'BEGIN {
				printf "checks kept in %s: %d of %d, %.2f %%\n", f, n, all, 100 * n / all }'
		else
			echo "checks in $f: $n"
		fi
		[ ! -s "${RAW_CENSUS:-}" ] || awk -v f="$f" -v n="$n" \
			-v raw="$(($(wc -l <"$RAW_CENSUS") - 1))" 'BEGIN {
			printf "checks kept in %s, against the raw kernel: %d of %d, %.2f %%\n", f, n, raw, 100 * n / raw }'
	done | tee "$RES/kept"
}

# "key": value, pairs of a times file's key=value words
json_kv() {
	sed 's/\([a-z_]*\)=\([0-9]*\)/"\1": \2,/g; s/,$//' "$1" 2>/dev/null
}

# time to verdict, on stdout and in the JSON
time_to_verdict() {
	echo
	echo "time to verdict (wall, this machine):"
	printf '  "time_to_verdict": {\n' >>"$BENCH/bench.json.tmp"
	for f in $FLAVORS; do
		c=$(tree "$f").clean-build
		[ -f "$c" ] || continue
		echo "  clean build of $f from a fresh copy: $(cat "$c")"
		printf '    "clean_build_%s": {%s},\n' "$f" "$(json_kv "$c")" >>"$BENCH/bench.json.tmp"
	done
	[ -f "$BENCH/ttv.times" ] &&
		echo "  touch kernel/events/core.c, rebuild + boot + triage (report tree): $(cat "$BENCH/ttv.times")"
	printf '    "touch_core_c_rebuild_boot_triage": {%s}\n  },\n' \
		"$(json_kv "$BENCH/ttv.times")" >>"$BENCH/bench.json.tmp"
	echo "  the -icount boots, wall s: $(for f in $FLAVORS; do printf '%s=%s ' "$f" "$(vals "$f" wall:icount_boot_s)"; done)"
	echo
	echo "trap mode: $(sed -n 's/^trap_line\t//p' "$RES/trap-check")"
	has trap || return 0
	echo "  ubsan-triage reads it as: $(sed -n 's/^trap_triage\t//p' "$RES/trap-check")"
}

# every ratio against the previous run's
stability() {
	if [ -f "$RES/ratios.prev.tsv" ]; then
		echo
		awk -F'\t' 'NR == FNR { prev[$1 "\t" $2] = $3; next }
		($1 "\t" $2) in prev && prev[$1 "\t" $2] > 0 && $1 !~ /^wall:/ {
			d = 100 * ($3 - prev[$1 "\t" $2]) / prev[$1 "\t" $2]
			if (d < 0) d = -d
			if (d > max) { max = d; at = $1 " " $2 }
			n++; if (d > 2) over++
		}
		END { printf "stability vs the previous make bench (guest-time and size ratios): %d ratios, largest change %.3f%% (%s), %d over 2%%\n", n, max, at, over }
		' "$RES/ratios.prev.tsv" "$RES/ratios.tsv"
	fi
	cp "$RES/ratios.tsv" "$RES/ratios.prev.tsv"
}

case ${1:-} in
measure) measure ;;
report) report ;;
*) die "usage: bench.sh measure|report" ;;
esac
