# Per-check profile (not part of test; issue 29): how many times each
# integer check of the kernel runs under the kit's workloads, and what it
# adds, counted in QEMU without a PMU (tools/hot/README.md):
#
#   ubsan-census --branches vmlinux  ->  census.tsv (each check's jumps, and
#                                        the instructions each adds)
#   hot-checks addresses             ->  jumps.txt
#   run-qemu.sh -I -P hot-checks.so  ->  RUN/counts.tsv (each jump's
#                                        executions, the guest's instructions)
#   hot-checks report                ->  RUN/hot-checks.tsv (every check by
#                                        cost), RUN/top.md, RUN/report.txt
#
# RUN is HOT_NAME, by default the workloads' names (all, none,
# perf-read-format-sweep, ...): runs of several workloads sit side by side
# over one census. The
# kernel is this base's and KERNEL's ($(TREE), built if needed) and the
# guest its initramfs; HOT_FROM=DIR takes both from the output directory of
# another build (DIR/linux/vmlinux, DIR/linux/arch/x86/boot/bzImage,
# DIR/boot-tests/initramfs.cpio) and builds nothing.

HOT := $(OUT)/hot-checks
HOT_FROM ?=
HOT_BENCH ?=
# the workloads of the boot (kit.workloads=), and the length of the top
HOT_WORKLOADS ?= all
HOT_TOP ?= 20
HOT_TIMEOUT ?= $(BOOT_TIMEOUT)
HOT_NAME ?= $(subst $(comma),+,$(HOT_WORKLOADS))
HOT_RUN := $(HOT)/$(HOT_NAME)
ifneq ($(HOT_BENCH),)
# make budget: a bench's report kernel and guest (mk/bench.mk)
HOT := $(HOT_BENCH)/hot-checks
HOT_RUN := $(HOT)/$(HOT_NAME)
HOT_TREE := $(HOT_BENCH)/report
HOT_INITRAMFS := $(HOT_BENCH)/boot-tests/initramfs.cpio
HOT_DEPS :=
else ifeq ($(HOT_FROM),)
HOT_TREE := $(TREE)
HOT_INITRAMFS := $(INITRAMFS)
HOT_DEPS := kernel initramfs
else
HOT_TREE := $(abspath $(HOT_FROM))/linux
HOT_INITRAMFS := $(abspath $(HOT_FROM))/boot-tests/initramfs.cpio
HOT_DEPS :=
endif
HOT_TOOL := $(BUILD_DIR)/tools/hot-checks
HOT_PLUGIN := $(BUILD_DIR)/tools/hot-checks.so

# The census is redone when the kernel, the census or the kernel's place
# changes, not for each run.
$(HOT)/from: FORCE
	@mkdir -p $(@D); echo "$(HOT_TREE)" >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(HOT)/census.tsv: $(HOT)/from $(HOT_TREE)/vmlinux $(BUILD_DIR)/tools/ubsan-census
	@start=$$(date +%s); \
	$(BUILD_DIR)/tools/ubsan-census -q --branches -o $@.tmp $(HOT_TREE)/vmlinux && \
	$(HOT_TOOL) addresses $@.tmp >$(HOT)/jumps.txt && mv $@.tmp $@ && \
	echo "hot-checks: census of $(HOT_TREE)/vmlinux in $$(($$(date +%s) - start)) s: $$(($$(wc -l <$@) - 1)) checks, $$(wc -l <$(HOT)/jumps.txt) jumps"

.PHONY: hot-checks hot-census
hot-census: $(HOT_DEPS) tools
	@$(MAKE) -s $(HOT)/census.tsv

## hot-checks      per-check profile: each integer check's executions in a -icount boot with
##                 HOT_WORKLOADS (all) and what it adds, by cost: build/<base>/hot-checks/
##                 (HOT_FROM=DIR: another build's kernel and guest; HOT_TOP=20)
hot-checks: hot-census
	@mkdir -p $(HOT_RUN); rm -f $(HOT_RUN)/counts.tsv; \
	$(RUN_QEMU) -I -a tcg -t $(HOT_TIMEOUT) -m $(QEMU_MEM) -D $(QEMU_DEVICES) \
		-k $(HOT_TREE)/arch/x86/boot/bzImage -i $(HOT_INITRAMFS) -o $(HOT_RUN)/boot \
		-n hot-checks -w $(HOT_WORKLOADS) -x nokaslr \
		-P $(HOT_PLUGIN),addrs=$(HOT)/jumps.txt,out=$(HOT_RUN)/counts.tsv; \
	test -s $(HOT_RUN)/counts.tsv || { echo "hot-checks: the plugin wrote no counts"; \
		tail -5 $(HOT_RUN)/boot/qemu.stderr; exit 1; }
	@$(HOT_TOOL) report -n $(HOT_TOP) -o $(HOT_RUN)/hot-checks.tsv -m $(HOT_RUN)/top.md \
		$(HOT)/census.tsv $(HOT_RUN)/counts.tsv | tee $(HOT_RUN)/report.txt

# Where two of the bench's kernels differ under one workload, function by
# function, measured (tools/hot/README.md): the same boot on HOT_DIFF's
# two flavors (NEW/OLD: report/none, trap/none-trap, wrap/none ...) under
# the plugin with insns=, each instruction given to its function,
# the functions joined by name. What `added` does not see is there: what
# the checks cost the compiler around them, and inlining that moved. The
# kernels are the last `make bench` [BUDGET=N]'s; no kernel is built.
HOT_DIFF ?= report/none
HOT_DIFF_NEW = $(firstword $(subst /, ,$(HOT_DIFF)))
HOT_DIFF_OLD = $(lastword $(subst /, ,$(HOT_DIFF)))
# HOT_PHASES: bench-syscalls' phases to run, alone (kit.bench=)
HOT_PHASES ?=
HOT_DIFF_NAME ?= $(HOT_NAME)$(if $(HOT_PHASES),-$(subst $(comma),+,$(HOT_PHASES)))
HOT_DIFF_RUN = $(BENCH)/hot-diff/$(subst /,-,$(HOT_DIFF))/$(HOT_DIFF_NAME)
# $(call hot_diff_boot,FLAVOR): its instructions' executions under the
# workloads, and the function each is written in (the innermost inline
# frame: llvm-symbolizer, one record an instruction)
hot_diff_boot = t=$(call bench_tree,$(1)); \
	test -f $$t/vmlinux || { echo "hot-diff: no $$t/vmlinux: make bench$(if $(BUDGET), BUDGET=$(BUDGET)) first"; exit 2; }; \
	rm -f $(HOT_DIFF_RUN)/$(1).insns; \
	$(RUN_QEMU) -I -a tcg -t $(HOT_TIMEOUT) -m $(QEMU_MEM) -D $(QEMU_DEVICES) \
		-k $$t/arch/x86/boot/bzImage -i $(BENCH)/boot-tests/initramfs.cpio \
		-o $(HOT_DIFF_RUN)/$(1) -n hot-diff-$(1) -w $(HOT_WORKLOADS) -x 'nokaslr$(if $(HOT_PHASES), kit.bench=$(HOT_PHASES))' \
		-P $(HOT_PLUGIN),insns=$(HOT_DIFF_RUN)/$(1).insns,out=$(HOT_DIFF_RUN)/$(1).counts >/dev/null; \
	test -s $(HOT_DIFF_RUN)/$(1).insns || { echo "hot-diff: the plugin wrote no instructions for $(1)"; \
		tail -5 $(HOT_DIFF_RUN)/$(1)/qemu.stderr; exit 1; }; \
	awk 'NR > 2 { print $$1 }' $(HOT_DIFF_RUN)/$(1).insns | \
		$(LLVM_BIN)/llvm-symbolizer --obj=$$t/vmlinux --print-address | \
		awk 'BEGIN { RS = ""; FS = "\n" } { print $$1 "\t" $$2 }' >$(HOT_DIFF_RUN)/$(1).funcs && \
	test -s $(HOT_DIFF_RUN)/$(1).funcs || { echo "hot-diff: llvm-symbolizer named no instruction of $(1)"; exit 2; }

.PHONY: hot-diff
## hot-diff        two bench kernels (HOT_DIFF=report/none) under HOT_WORKLOADS, function by
##                 function in guest instructions measured (HOT_PHASES=pipe-pingpong: that
##                 bench-syscalls phase alone): build/<base>/bench/hot-diff/
hot-diff: tools perf-tool
	@$(BENCH_GUEST)
	@mkdir -p $(HOT_DIFF_RUN)
	@$(call hot_diff_boot,$(HOT_DIFF_OLD))
	@$(call hot_diff_boot,$(HOT_DIFF_NEW))
	@$(BUILD_DIR)/tools/ubsan-census -q -o $(HOT_DIFF_RUN)/$(HOT_DIFF_NEW).census.tsv \
		$(call bench_tree,$(HOT_DIFF_NEW))/vmlinux
	@$(HOT_TOOL) diff -n $(HOT_TOP) -o $(HOT_DIFF_RUN)/diff.tsv \
		-c $(HOT_DIFF_RUN)/$(HOT_DIFF_NEW).census.tsv -p $(HOT_DIFF_RUN)/profile.tsv \
		$(HOT_DIFF_RUN)/$(HOT_DIFF_OLD).funcs $(HOT_DIFF_RUN)/$(HOT_DIFF_OLD).insns \
		$(HOT_DIFF_RUN)/$(HOT_DIFF_NEW).funcs $(HOT_DIFF_RUN)/$(HOT_DIFF_NEW).insns \
		| tee $(HOT_DIFF_RUN)/report.txt
