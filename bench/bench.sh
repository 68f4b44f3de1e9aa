#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench's measurements and report (see bench/README.md).
#
#   bench.sh measure   sizes of the three kernels, their -icount boots with
#                      the bench workloads, and the trap kernel's test_ubsan
#                      boot; writes $BENCH/results/
#   bench.sh report    the table on stdout, $BENCH/bench.json, and the
#                      change of every ratio since the previous run
#
# Environment: TOP, BENCH (absolute), TRIAGE, KVM_CACHE, ROUNDS, WORKLOADS,
# ACCEL.
set -u
: "${TOP:?}" "${BENCH:?}" "${TRIAGE:?}" "${KVM_CACHE:?}" "${ROUNDS:=5}" "${ACCEL:=auto}"
: "${WORKLOADS:=bench-syscalls perf-cve-2023-6931 perf-u16-2015 perf-read-format-sweep}"
FLAVORS="none report trap none-trap"
RES=$BENCH/results
# The read_format sweep alone takes 14 s of guest time: once a boot.
ONCE=perf-read-format-sweep

die() {
	echo "bench: $*" >&2
	exit 1
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

# metric<TAB>value lines from a console log: each workload's time_ms, each
# bench-syscalls phase's ns, and the guest time at which init started.
parse_log() {
	awk '
	function ts(s) { sub(/^\[ */, "", s); sub(/\].*/, "", s); return s }
	{ sub(/\r$/, "") }
	/kit: workload end / {
		for (i = 1; i <= NF; i++) {
			if ($i == "end") name = $(i + 1)
			if ($i ~ /^time_ms=/) { v = $i; sub(/time_ms=/, "", v) }
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
	/KTAP version 1/ && !boot { boot = 1; printf "boot_to_init_ms\t%.0f\n", ts($0) * 1000 }
	END { if (bad != "") printf "failed\t%s\n", bad }
	' "$1"
}

measure() {
	mkdir -p "$RES"
	list=$(workload_list)
	for f in $FLAVORS; do
		tree=$BENCH/$f
		[ -f "$tree/vmlinux" ] || die "no $tree/vmlinux; run make bench"
		{
			# The linked vmlinux pads .text to 2 MiB boundaries (its
			# .text is the same size in all three), so code and data
			# are measured in vmlinux.o, before the layout; llvm-size's
			# Berkeley totals of vmlinux are given as well.
			llvm-size -A "$tree/vmlinux.o" | awk '
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
			llvm-size "$tree/vmlinux" | awk 'NR == 2 {
				printf "size:vmlinux_text\t%d\nsize:vmlinux_data\t%d\n", $1, $2 }'
			printf 'size:bzImage\t%d\n' \
				"$(stat -c %s "$tree/arch/x86/boot/bzImage")"
		} >"$RES/$f.size"
		out=$BENCH/boots/run-$f
		"$TOP/boot-tests/host/run-qemu.sh" -I -t 1800 -k "$tree/arch/x86/boot/bzImage" \
			-i "$BENCH/boot-tests/initramfs.cpio" -o "$out" -n "bench-$f" \
			-w "$list" || echo "bench: $f: boot verdict $(cat "$out/verdict")"
		parse_log "$out/console.log" >"$RES/$f.run"
		grep -q '^failed' "$RES/$f.run" &&
			echo "bench: $f: failed workloads:$(sed -n 's/^failed\t//p' "$RES/$f.run")"
		sed -n 's/^wall_s=/wall:icount_boot_s\t/p' "$out/boot.txt" >>"$RES/$f.run"
	done
	# Trap mode says what fired: test_ubsan on the trap kernel oopses on
	# its first case; the line before the oops names the check.
	out=$BENCH/boots/trap-test-ubsan
	"$TOP/boot-tests/host/run-qemu.sh" -a "$ACCEL" -c "$KVM_CACHE" -t 300 \
		-k "$BENCH/trap/arch/x86/boot/bzImage" \
		-i "$BENCH/boot-tests-trap/initramfs.cpio" -o "$out" -n trap-test-ubsan \
		-w test-ubsan >/dev/null
	"$TRIAGE" --tsv "$out/console.log" \
		>"$out/triage.tsv" 2>/dev/null
	{
		printf 'trap_line\t%s\n' "$(grep -m1 -o 'UBSAN: [^ ]* in .*' "$out/console.log" | tr -d '\r')"
		printf 'trap_triage\t%s\n' "$(cut -f2,4 "$out/triage.tsv" | head -n 1 | tr '\t' ' ')"
	} >"$RES/trap-check"
}

# value of metric M for flavor F: all rounds, one a line
vals() {
	awk -F'\t' -v m="$2" '$1 == m { print $2 }' "$RES/$1.run" "$RES/$1.size" 2>/dev/null
}

# median min max of numbers on stdin
stats() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (!NR) { print "0 0 0"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		print m, v[1], v[NR] }'
}

report() {
	[ -f "$RES/none.run" ] || die "no results; run make bench"
	machine="$(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	date=$(date -u '+%Y-%m-%d %H:%M UTC')
	# every metric any flavor has, sizes first
	metrics=$(cat "$RES"/none.size "$RES"/none.run | cut -f1 |
		grep -v '^failed$' | awk '!seen[$0]++')
	: >"$RES/ratios.tsv"
	tsv=$RES/table.tsv
	: >"$tsv"
	for m in $metrics; do
		line=$m
		for f in $FLAVORS; do
			# shellcheck disable=SC2046 # median min max, split on purpose
			set -- $(vals "$f" "$m" | stats)
			n=$(vals "$f" "$m" | wc -l)
			line="$line	$1	$2	$3	$n"
		done
		echo "$line" >>"$tsv"
	done
	awk -F'\t' -v date="$date" -v machine="$machine" -v rounds="$ROUNDS" \
		-v ratios="$RES/ratios.tsv" -v json="$BENCH/bench.json.tmp" '
	function spread(med, lo, hi) { return med ? 100 * (hi - lo) / med : 0 }
	function r(a, b) { return b ? a / b : 0 }
	function unit(m) {
		return m ~ /^size:/ ? "bytes" : m ~ /^phase:/ ? "ns" : "ms"
	}
	BEGIN {
		nf = split("none report trap none-trap", fl, " ")
		nr = split("report/none trap/none trap/report trap/none-trap", rn, " ")
		printf "make bench, %s, %s\n", date, machine
		printf "run time: guest CLOCK_MONOTONIC under QEMU TCG -icount shift=0,sleep=off -smp 1 (1 ns per instruction); %d rounds, the read_format sweep once\n\n", rounds
		printf "%-26s %11s %11s %11s %11s %8s %8s %8s %8s %7s\n", "metric", "none",
			"report", "trap", "none-trap", "rep/none", "trap/non", "trap/rep",
			"trap/ntr", "spread%"
		printf "{\n  \"date\": \"%s\",\n  \"machine\": \"%s\",\n", date, machine >json
		printf "  \"clock\": \"guest CLOCK_MONOTONIC, QEMU TCG -icount shift=0,sleep=off -smp 1\",\n" >json
		printf "  \"rounds\": %d,\n  \"metrics\": [\n", rounds >json
	}
	{
		m = $1; sp = 0
		for (i = 1; i <= nf; i++) {
			med[i] = $(4 * i - 2); lo[i] = $(4 * i - 1)
			hi[i] = $(4 * i); n[i] = $(4 * i + 1)
			if (spread(med[i], lo[i], hi[i]) > sp)
				sp = spread(med[i], lo[i], hi[i])
		}
		ra[1] = r(med[2], med[1]); ra[2] = r(med[3], med[1])
		ra[3] = r(med[3], med[2]); ra[4] = r(med[3], med[4])
		printf "%-26s %11s %11s %11s %11s %8.4f %8.4f %8.4f %8.4f %7.2f\n", m,
			med[1], med[2], med[3], med[4], ra[1], ra[2], ra[3], ra[4], sp
		for (i = 1; i <= nr; i++)
			printf "%s\t%s\t%.6f\n", m, rn[i], ra[i] >ratios
		printf "%s    {\"metric\": \"%s\", \"unit\": \"%s\",\n", (NR > 1 ? ",\n" : ""), m, unit(m) >json
		for (i = 1; i <= nf; i++)
			printf "     \"%s\": {\"median\": %s, \"min\": %s, \"max\": %s, \"n\": %d},\n", fl[i], med[i], lo[i], hi[i], n[i] >json
		printf "     \"ratio\": {\"report_none\": %.6f, \"trap_none\": %.6f, \"trap_report\": %.6f, \"trap_none_trap\": %.6f},\n", ra[1], ra[2], ra[3], ra[4] >json
		printf "     \"max_spread_pct\": %.3f}", sp >json
	}
	END { printf "\n  ],\n" >json }
	' "$tsv"

	# time to verdict
	echo
	echo "time to verdict (wall, this machine):"
	for f in $FLAVORS; do
		[ -f "$BENCH/times/$f.clean-build" ] &&
			echo "  clean build of $f from a fresh copy: $(cat "$BENCH/times/$f.clean-build")"
	done
	[ -f "$BENCH/times/ttv" ] &&
		echo "  touch kernel/events/core.c, rebuild + boot + triage (report tree): $(cat "$BENCH/times/ttv")"
	echo "  the -icount boots above, wall s: $(for f in $FLAVORS; do printf '%s=%s ' "$f" "$(vals "$f" wall:icount_boot_s)"; done)"
	echo
	echo "trap mode: $(sed -n 's/^trap_line\t//p' "$RES/trap-check")"
	echo "  ubsan-triage reads it as: $(sed -n 's/^trap_triage\t//p' "$RES/trap-check")"

	{
		printf '  "time_to_verdict": {\n'
		for f in $FLAVORS; do
			kv=$(cat "$BENCH/times/$f.clean-build" 2>/dev/null)
			printf '    "clean_build_%s": {%s},\n' "$f" \
				"$(echo "$kv" | sed 's/\([a-z_]*\)=\([0-9]*\)/"\1": \2,/g; s/,$//')"
		done
		kv=$(cat "$BENCH/times/ttv" 2>/dev/null)
		printf '    "touch_core_c_rebuild_boot_triage": {%s}\n  },\n' \
			"$(echo "$kv" | sed 's/\([a-z_]*\)=\([0-9]*\)/"\1": \2,/g; s/,$//')"
		printf '  "trap_line": "%s",\n' \
			"$(sed -n 's/^trap_line\t//p' "$RES/trap-check" | sed 's/["\\]/\\&/g')"
		printf '  "trap_triage": "%s"\n}\n' \
			"$(sed -n 's/^trap_triage\t//p' "$RES/trap-check" | sed 's/["\\]/\\&/g')"
	} >>"$BENCH/bench.json.tmp"
	[ -f "$BENCH/bench.json" ] && mv "$BENCH/bench.json" "$BENCH/bench.prev.json"
	mv "$BENCH/bench.json.tmp" "$BENCH/bench.json"

	# stability: every ratio against the previous run's
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
	echo "JSON: $BENCH/bench.json"
}

case ${1:-} in
measure) measure ;;
report) report ;;
*) die "usage: bench.sh measure|report" ;;
esac
