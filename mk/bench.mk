# Bench (not part of test): what the integer checks cost in size, run time
# and time to verdict, on the kit's own kernels (its ignorelist, its
# annotations; with BUDGET, its budget list too). Trees of one configuration
# under $(OUT)/bench, one per flavor:
#
#   report  the kit's kernel: every integer check, report mode
#   trap    the same, CONFIG_UBSAN_TRAP (every UBSAN check traps)
#   wrap, wrap-trap    signed wrap-around alone (the seed's anchor)
#   trunc, trunc-trap  implicit truncation alone
#   none, none-trap    no integer checks (the base UBSAN checks on,
#                      trapping in none-trap): the references, kept in
#                      $(OUT_REF)/bench whatever the budget
#
# Each is a tree of mk/tree.mk like the main tree, built incrementally;
# the main tree is never read or written. See bench/README.md.

BENCH := $(OUT)/bench
BENCH_REF := $(OUT_REF)/bench
# with a budget, the kit's kernel alone: the budget is judged on it. A
# subset (BENCH_CHECKED=report, say) builds and boots only the references
# it needs: none for report mode, none-trap for trap mode.
BENCH_CHECKED := report trap $(if $(BUDGET),,wrap wrap-trap trunc trunc-trap)
BENCH_REFS := $(if $(filter-out %trap,$(BENCH_CHECKED)),none) \
	$(if $(filter %trap,$(BENCH_CHECKED)),none-trap)
BENCH_FLAVORS := $(strip $(BENCH_REFS) $(BENCH_CHECKED))
# a flavor's tree: the references' are shared by every budget
bench_tree = $(if $(filter none%,$(1)),$(BENCH_REF),$(BENCH))/$(1)
BENCH_ROUNDS ?= 5
BENCH_FRAGMENTS = $(GUEST_FRAGMENTS) \
	$(if $(filter none%,$(1)),,$(TOP)/kconfig/integer-sanitizers.config \
		$(IGNORELIST_CONFIG)) \
	$(if $(filter wrap%,$(1)),$(TOP)/bench/wrap.config) \
	$(if $(filter trunc%,$(1)),$(TOP)/bench/trunc.config) \
	$(if $(filter %trap,$(1)),$(TOP)/kconfig/trap.config)
# The workloads, each timed in guest instructions (bench/README.md).
BENCH_WORKLOADS := bench-syscalls perf-cve-2023-6931 perf-u16-2015 \
	perf-read-format-sweep
# the guest of the bench boots (and of make hot-diff)
BENCH_GUEST = $(MAKE) -s -C $(TOP)/boot-tests O=$(BENCH)/boot-tests \
	KIT_WORKLOADS="$(BENCH_WORKLOADS)" KMODS= PERF=$(PERF_OUT)/perf
# Fixed version strings: the images differ by the checks alone.
BENCH_KENV := export KBUILD_BUILD_TIMESTAMP=2026-01-01 KBUILD_BUILD_VERSION=1 \
	KBUILD_BUILD_USER=kit KBUILD_BUILD_HOST=bench

# The trees (mk/tree.mk), one per flavor. The copy's start time begins the
# "clean build from a fresh tree" figure.
$(foreach f,$(BENCH_FLAVORS),$(eval $(call tree_rules,$(call bench_tree,$(f)),$(SERIES), \
	$(SERIES_PATCHES),$(call BENCH_FRAGMENTS,$(f)),,$(call bench_tree,$(f)).series.log, \
	mkdir -p $(dir $(call bench_tree,$(f))) && date +%s >$(call bench_tree,$(f)).copy-start,)))

# Kbuild's output goes to FLAVOR.kbuild.log beside the tree; a build into a
# tree with no vmlinux yet is the clean build and its times go to
# FLAVOR.clean-build.
define bench_build
$(1)/.kit-built: $(1)/.kit-config-stamp FORCE
	@start=$$$$(date +%s); \
	before=$$$$(stat -c %Y $(1)/vmlinux 2>/dev/null || echo 0); \
	$$(BENCH_KENV); $$(call KMAKE,$(1)) $$(KBUILD_TARGETS) \
		>$(1).kbuild.log 2>&1 || { tail -30 $(1).kbuild.log; exit 1; }; \
	end=$$$$(date +%s); after=$$$$(stat -c %Y $(1)/vmlinux); \
	if [ "$$$$before" = 0 ]; then \
		first=$$$$(find $(1) -name '*.o' -newer $(1)/.config \
			-printf '%T@\n' | sort -n | head -n 1); \
		echo "kbuild_s=$$$$((end - $$$${first%.*})) wall_s=$$$$((end - start)) total_s=$$$$((end - $$$$(cat $(1).copy-start)))" \
			>$(1).clean-build; fi; \
	if [ "$$$$before" = "$$$$after" ]; then echo "bench $(2): up to date ($$$$((end - start)) s)"; \
	else echo "bench $(2): built in $$$$((end - start)) s"; fi
	@touch $$@
endef
$(foreach f,$(BENCH_FLAVORS),$(eval $(call bench_build,$(call bench_tree,$(f)),$(f))))

BENCH_TREES := $(foreach f,$(BENCH_FLAVORS),$(call bench_tree,$(f))/.kit-built)
.PHONY: bench bench-kernels
bench-kernels: $(BENCH_TREES)
BENCH_SH = TOP=$(TOP) BENCH=$(BENCH) BENCH_REF=$(BENCH_REF) ROUNDS=$(BENCH_ROUNDS) \
	ACCEL=$(ACCEL) TRIAGE=$(TRIAGE) CENSUS=$(BUILD_DIR)/tools/ubsan-census \
	RAW_CENSUS=$(if $(BUDGET),$(RAW)/census.tsv) \
	KVM_CACHE=$(BUILD_DIR)/kvm-probe BUDGET=$(BUDGET) \
	FLAVORS="$(BENCH_FLAVORS)" WORKLOADS="$(BENCH_WORKLOADS)" sh $(TOP)/bench/bench.sh

## bench           size and guest instructions of the kit's kernels per sanitizer, report and
##                 trap, against none/none-trap; with BUDGET, the budget's (not in test)
bench: $(BENCH_TREES) tools perf-tool
	@$(BENCH_GUEST)
	@# with a budget, the floor's reference: the raw kernel's checks
	$(if $(BUDGET),@$(MAKE) -s BUDGET= $(RAW)/census.tsv)
	$(if $(filter report,$(BENCH_FLAVORS)),@$(MAKE) -s -C $(TOP)/boot-tests O=$(BENCH)/boot-tests-ubsan \
		KIT_WORKLOADS="test-ubsan perf-cve-2023-6931 perf-u16-2015" \
		KMODS=$(BENCH)/report/lib/test_ubsan.ko)
	$(if $(filter trap,$(BENCH_FLAVORS)),@$(MAKE) -s -C $(TOP)/boot-tests O=$(BENCH)/boot-tests-trap \
		KIT_WORKLOADS="test-ubsan" KMODS=$(BENCH)/trap/lib/test_ubsan.ko)
	@$(BENCH_SH) measure
	@# Time to verdict: touch one perf file in the report tree, rebuild,
	@# boot the reproducers and triage. Only the touched file and the link
	@# are redone (the content, hence the image, stays the same). Without
	@# a report flavor, no figure: not an earlier run's.
	$(if $(filter report,$(BENCH_FLAVORS)),@t0=$$(date +%s%3N); touch $(BENCH)/report/kernel/events/core.c; \
	$(BENCH_KENV); $(call KMAKE,$(BENCH)/report) $(KBUILD_TARGETS) \
		>$(BENCH)/ttv.kbuild.log 2>&1 || { tail -30 $(BENCH)/ttv.kbuild.log; exit 1; }; \
	t1=$$(date +%s%3N); \
	$(TOP)/boot-tests/host/run-qemu.sh -a $(ACCEL) -c $(BUILD_DIR)/kvm-probe -t $(BOOT_TIMEOUT) \
		-i $(BENCH)/boot-tests-ubsan/initramfs.cpio -k $(BENCH)/report/arch/x86/boot/bzImage \
		-o $(BENCH)/boots/ttv -n ttv -w $(REPRODUCERS) >/dev/null; \
	t2=$$(date +%s%3N); \
	$(TRIAGE) --kit $(TOP) --vmlinux $(BENCH)/report/vmlinux --json \
		$(BENCH)/boots/ttv/console.log >$(BENCH)/boots/ttv/triage.json; \
	t3=$$(date +%s%3N); \
	echo "rebuild_ms=$$((t1 - t0)) boot_ms=$$((t2 - t1)) triage_ms=$$((t3 - t2)) total_ms=$$((t3 - t0))" \
		>$(BENCH)/ttv.times,@rm -f $(BENCH)/ttv.times)
	@$(BENCH_SH) report

# The overhead budget (BUDGET=N, bench/README.md). One step: profile
# the last bench's report kernel (the budget's own once its list exists,
# else the unbudgeted one) in two boots, the syscall loops and the
# read_format sweep; take the functions whose checks cost the most into
# sanitizer-ignorelist/budget/<base>[-<kernel>]/N.scl (never the corpus's bugs' or the
# findings'), then rebuild and measure the budget's kernels. Run it again
# until the bench's last line says the budget holds.
BUDGET_PROTECT := $(OUT_REF)/budget-protect.tsv
BUDGET_SRC = $(if $(wildcard $(BUDGET_SCL)),$(BENCH),$(BENCH_REF))
BUDGET_SYSCALLS := bench-syscalls,perf-cve-2023-6931,perf-u16-2015
BUDGET_SWEEP := perf-read-format-sweep
# BUDGET_COST: what a check costs. added (make hot-checks): its own
# instructions times its executions. measured (make hot-diff): what its
# function runs more than in the none kernel, measured under the same
# workload, shared among the function's checks: what the checks make the
# compiler spend around them, and inlining lost, included.
BUDGET_COST ?= added
# the phases of bench-syscalls a measured profile runs (sched messaging
# cannot be measured, bench/README.md)
BUDGET_PHASES := perf-open-read-close,fork-exec,pipe-pingpong,file-cwru,tcp-loopback
# $(call budget_profile,NAME,WORKLOADS[,PHASES]): profile NAME of the
# source bench's report kernel, and the file hot-checks budget reads
budget_profile = $(if $(filter measured,$(BUDGET_COST)), \
	$(MAKE) -s hot-diff BUDGET=$(if $(wildcard $(BUDGET_SCL)),$(BUDGET)) HOT_DIFF=report/none \
		HOT_DIFF_NAME=$(1) HOT_WORKLOADS=$(2) HOT_PHASES=$(3), \
	$(MAKE) -s hot-checks BUDGET= HOT_BENCH=$(BUDGET_SRC) HOT_NAME=$(1) HOT_WORKLOADS=$(2))
budget_profile_tsv = $(strip $(if $(filter measured,$(BUDGET_COST)), \
	$(BUDGET_SRC)/hot-diff/report-none/$(1)/profile.tsv, \
	$(BUDGET_SRC)/hot-checks/$(1)/hot-checks.tsv))
# the share of the checks a budget keeps, at least (per cent): of the raw
# kernel's checks ($(RAW)/census.tsv), what make noise judges
BUDGET_FLOOR ?= 95
# the measured overhead, in per cent, of the metrics that match $(1) in the
# bench at $(2): the worst of report/none and of trap/none-trap over 0.57
# (the trap budget is 0.57 times the report budget), on the metrics whose
# rounds spread less than the budget (bench/README.md)
BUDGET_OVERHEAD = awk -F'\t' '$$1 ~ /$(1)/ && $$4 <= $(BUDGET) && ($$2 == "report/none" || $$2 == "trap/none-trap") { \
	o = 100 * ($$3 - 1) / ($$2 == "report/none" ? 1 : 0.57); if (o > w) w = o } \
	END { printf "%.3f", w + 0 }' $(2)/results/ratios.tsv

$(BUDGET_PROTECT): $(wildcard $(TOP)/corpus/*/known-bugs.tsv) $(TOP)/annotations/sites.tsv
	@mkdir -p $(@D); { \
	echo '# function	kind: the checks make budget never takes (generated)'; \
	awk -F'\t' 'FNR > 1 { print $$3 "\t" $$4 }' $(TOP)/corpus/*/known-bugs.tsv; \
	awk -F'\t' 'FNR > 1 && $$4 == "bug" { print $$2 "\t" $$3 }' $(TOP)/annotations/sites.tsv; \
	} >$@.tmp && mv $@.tmp $@

.PHONY: budget
## budget          BUDGET=N: take the costliest checks' functions into sanitizer-ignorelist/
##                 budget/<base>[-<kernel>]/N.scl from the last bench's profile, then make bench BUDGET=N
budget: $(BUDGET_PROTECT) tools
	@test -n "$(BUDGET)" || { echo "budget: which budget? make budget BUDGET=PERCENT"; exit 2; }
	@test -f $(BUDGET_SRC)/results/ratios.tsv || { echo "budget: no bench in $(BUDGET_SRC):" \
		"run make bench$(if $(wildcard $(BUDGET_SCL)), BUDGET=$(BUDGET)) first"; exit 2; }
	@$(MAKE) -s BUDGET= $(RAW)/census.tsv
	@$(call budget_profile,budget-syscalls,$(BUDGET_SYSCALLS),$(BUDGET_PHASES))
	@$(call budget_profile,budget-sweep,$(BUDGET_SWEEP))
	@mkdir -p $(dir $(BUDGET_SCL)); rc=0; \
	$(BUILD_DIR)/tools/hot-checks budget -b $(BUDGET) -f $(BUDGET_FLOOR) -k $(BUDGET_PROTECT) \
		-r $$(($$(wc -l <$(RAW)/census.tsv) - 1)) \
		-l $(BUDGET_SCL) -o $(BUDGET_SCL) \
		syscalls=$(call budget_profile_tsv,budget-syscalls):$$($(call \
			BUDGET_OVERHEAD,^(boot_to_init|phase:|workload:(bench-syscalls|perf-cve|perf-u16)),$(BUDGET_SRC))) \
		sweep=$(call budget_profile_tsv,budget-sweep):$$($(call \
			BUDGET_OVERHEAD,^workload:perf-read-format-sweep,$(BUDGET_SRC))) || rc=$$?; \
	[ $$rc -le 1 ] || exit $$rc; \
	echo "budget: $(BUDGET_SCL): $$(grep -c '^fun:' $(BUDGET_SCL)) entries"
	@$(MAKE) -s bench BUDGET=$(BUDGET)
