# SPDX-License-Identifier: GPL-2.0
#
# make bench's table (bench.sh report): one line a metric of table.tsv
# (metric, then median min max n iqr of each flavor of `flavors`), printed as
# the medians of the kit's kernel and its reference and the ratio of every
# pair of `pairs`; every ratio to `ratios` (metric pair ratio iqr, the larger
# spread of the two flavors' rounds), the whole to
# `json`, and, with a `budget`, its verdict to `verdict`.
#
# Variables: date, machine, rounds, flavors, pairs, budget (percent, or
# empty), failed (the flavors whose boot had a failed workload), ratios,
# verdict, json. The trap budget is the report budget times
# 0.57, the seed's ratio of the two: 0.57 % at 1 %.

function ratio(a, b) { return b ? a / b : 0 }
function unit(m) {
	return m ~ /^size:/ ? "bytes" : m ~ /^phase:/ ? "ns" : m == "checks" ? "checks" : "us"
}
# the metrics a budget is judged on: guest instructions, not sizes, not the
# host's wall time
function run_time(m) { return m ~ /^(phase:|workload:|boot_to_init)/ }
# the worst ratio of pair p so far, and the metric it is at
function worst(p, v, m) {
	if (v > worst_v[p]) { worst_v[p] = v; worst_m[p] = m }
}
# a budget of B % cannot be judged on a metric whose rounds spread more than
# B % (the middle half, either flavor): it is named, not counted
function unresolved(a, b) {
	return iqr[col[a]] > budget || iqr[col[b]] > budget
}
function max(a, b) { return a > b ? a : b }
function json_key(p) { gsub(/[\/-]/, "_", p); return p }

BEGIN {
	FS = "\t"
	budget_trap = budget * 0.57
	nf = split(flavors, fl, " ")
	for (i = 1; i <= nf; i++)
		col[fl[i]] = i
	# the pairs whose two flavors were measured
	nall = split(pairs, all, " ")
	for (p = 1; p <= nall; p++) {
		split(all[p], ab, "/")
		if (ab[1] in col && ab[2] in col)
			pr[++np] = all[p]
	}
	printf "make bench, %s, %s\n", date, machine
	printf "guest time: CLOCK_MONOTONIC under QEMU TCG -icount shift=0,sleep=off -smp 1 (1 ns per instruction); %d rounds, the read_format sweep once\n", rounds
	if (budget != "")
		printf "budget: %s %% (report/none), %s %% (trap/none-trap)\n", budget, budget_trap
	printf "\n%-30s %12s %12s", "metric", "none", "report"
	for (p = 1; p <= np; p++)
		printf " %10s", pr[p]
	printf " %7s\n", "iqr%"
	printf "{\n  \"date\": \"%s\",\n  \"machine\": \"%s\",\n", date, machine >json
	printf "  \"clock\": \"guest CLOCK_MONOTONIC, QEMU TCG -icount shift=0,sleep=off -smp 1\",\n" >json
	printf "  \"rounds\": %d,\n  \"budget_pct\": %s,\n  \"metrics\": [\n", rounds,
		budget == "" ? "null" : budget >json
	printf "" >ratios
}

{
	m = $1
	sp = 0
	for (i = 1; i <= nf; i++) {
		med[i] = $(5 * i - 3); lo[i] = $(5 * i - 2)
		hi[i] = $(5 * i - 1); n[i] = $(5 * i); iqr[i] = $(5 * i + 1)
		if (iqr[i] > sp)
			sp = iqr[i]
	}
	printf "%-30s %12s %12s", m, med[col["none"]], med[col["report"]]
	printf "%s    {\"metric\": \"%s\", \"unit\": \"%s\",\n", (NR > 1 ? ",\n" : ""), m, unit(m) >json
	for (i = 1; i <= nf; i++)
		printf "     \"%s\": {\"median\": %s, \"min\": %s, \"max\": %s, \"n\": %d, \"iqr_pct\": %s},\n", fl[i], med[i], lo[i], hi[i], n[i], iqr[i] >json
	printf "     \"ratio\": {" >json
	for (p = 1; p <= np; p++) {
		split(pr[p], ab, "/")
		v = ratio(med[col[ab[1]]], med[col[ab[2]]])
		printf " %10.4f", v
		printf "%s\"%s\": %.6f", (p > 1 ? ", " : ""), json_key(pr[p]), v >json
		printf "%s\t%s\t%.6f\t%.3f\n", m, pr[p], v,
			max(iqr[col[ab[1]]], iqr[col[ab[2]]]) >ratios
		if (run_time(m) && v && budget != "" && unresolved(ab[1], ab[2]))
			noisy[pr[p]] = noisy[pr[p]] " " m
		else if (run_time(m) && v)
			worst(pr[p], v, m)
		else if (run_time(m))
			missing[pr[p]] = m
	}
	printf " %7.2f\n", sp
	printf "},\n     \"max_iqr_pct\": %.3f}", sp >json
}

END {
	printf "\n  ],\n  \"worst_run_time_ratio\": {" >json
	for (p = 1; p <= np; p++)
		printf "%s\"%s\": {\"ratio\": %.6f, \"metric\": \"%s\"}", (p > 1 ? ", " : ""),
			json_key(pr[p]), worst_v[pr[p]], worst_m[pr[p]] >json
	printf "},\n" >json
	printf "\nworst run-time ratio of each pair:\n"
	for (p = 1; p <= np; p++)
		printf "  %-20s %.4f  %s\n", pr[p], worst_v[pr[p]], worst_m[pr[p]]
	if (budget == "")
		exit
	r = worst_v["report/none"]; t = worst_v["trap/none-trap"]
	ok = r <= 1 + budget / 100 && t <= 1 + budget_trap / 100
	# a metric one side lacks, or a workload that failed, is no measurement
	if ("report/none" in missing || "trap/none-trap" in missing || failed != "")
		ok = 0
	printf "budget %s %%: report/none %.4f (%s) <= %.4f, trap/none-trap %.4f (%s) <= %.4f: %s\n",
		budget, r, worst_m["report/none"], 1 + budget / 100, t,
		worst_m["trap/none-trap"], 1 + budget_trap / 100,
		ok ? "holds" : "misses" >verdict
	if ("report/none" in missing)
		printf "  no report/none ratio for %s\n", missing["report/none"] >verdict
	if ("trap/none-trap" in missing)
		printf "  no trap/none-trap ratio for %s\n", missing["trap/none-trap"] >verdict
	if (failed != "")
		printf "  workloads failed in:%s\n", failed >verdict
	for (p in noisy)
		printf "  %s, not judged (rounds spread over %s %%):%s\n", p, budget, noisy[p] >verdict
}
