# Stage 6, findings: what the triage judged likely bugs, in one report, and
# the confirmed ones proved on real kernels. patches/findings/NAME/ is one
# confirmed finding (patches/findings/README.md): its fix for each kernel
# (KERNEL.patch, one logical change, for upstream), its reproducer
# (repro.c, workload finding-NAME) and bug.tsv.
#
# make findings runs corpus/detect.sh over that folder in a tree of its own,
# $(OUT)/findings/linux (the detect fragments and kconfig/findings.config):
# "control" is the kit's kernel without any fix, booted with every
# reproducer; each finding's kernel has its fix. report/findings-table.sh
# says which are confirmed (wrong and reported without the fix, right and
# silent with it). Then ubsan-triage --findings reads every console log of
# the build directory (boots, detect, findings, fuzzing) into
# $(OUT)/findings.md and findings.json.

.PHONY: findings findings-report census
FINDINGS := $(OUT)/findings
FINDINGS_DIR := $(TOP)/patches/findings
FINDINGS_BUGS := $(notdir $(patsubst %/bug.tsv,%,$(wildcard $(FINDINGS_DIR)/*/bug.tsv)))
FINDINGS_WORKLOADS := $(call corpus_workloads,$(FINDINGS_DIR))
FINDINGS_FRAGMENTS := $(DETECT_FRAGMENTS) $(TOP)/kconfig/findings.config
$(eval $(call tree_rules,$(FINDINGS)/linux,$(SERIES),$(SERIES_PATCHES),$(FINDINGS_FRAGMENTS),, \
	$(FINDINGS)/series.log,,))

## findings        prove each confirmed finding (patches/findings/) on the kernel without and
##                 with its fix, then the report of every run's findings: build/<base>/findings.md
findings: $(BUILD_DIR)/.deps-stamp tools $(IGNORELIST) $(IGNORELIST_CONFIG) \
		| $(FINDINGS)/linux/Makefile
	@$(if $(findstring n,$(firstword -$(MAKEFLAGS))),echo "findings: skipped under make -n"; exit 0;) \
	rc=0; $(call DETECT_SH,$(FINDINGS),$(FINDINGS_DIR),findings,$(TOP)/report/findings-table.sh, \
		$(FINDINGS_FRAGMENTS),$(FINDINGS_BUGS),$(FINDINGS_BUGS),$(FINDINGS_WORKLOADS)) || rc=1; \
	$(MAKE) -s findings-report || rc=1; exit $$rc

# The trees a finding's statement is looked up in: every unpacked kernel.
FINDINGS_TREES = $(foreach k,$(KERNELS),$(if $(wildcard $(BUILD_DIR)/src/linux-source-$(k)/Makefile), \
	--tree $(KERNEL_VERSION_$(k))=$(BUILD_DIR)/src/linux-source-$(k)))
FINDINGS_LOGS = $(wildcard $(BUILD_DIR)/*/boots/*/console.log \
	$(BUILD_DIR)/*/detect/boots/*/console.log $(BUILD_DIR)/*/findings/boots/*/console.log)
FINDINGS_SYZ = $(foreach d,$(wildcard $(BUILD_DIR)/*-syz/fuzz/workdir/crashes),--syz $(dir $(d)))

## findings-report the findings of every console log of the build directory, judged:
##                 build/<base>/findings.{md,json} (open ones fail it)
findings-report: tools
	@[ -n '$(FINDINGS_LOGS)$(FINDINGS_SYZ)' ] || { echo "findings-report: no console log under $(BUILD_DIR) yet"; exit 1; }
	@rc=0; for f in md json; do \
		$(TRIAGE) --kit $(TOP) --src $(TREE) $(FINDINGS_TREES) --findings $$f \
			$(FINDINGS_SYZ) $(FINDINGS_LOGS) >$(OUT)/findings.$$f.tmp 2>$(OUT)/findings.err; \
		st=$$?; [ $$st -ge 2 ] && { cat $(OUT)/findings.err; exit 2; }; [ $$st -eq 0 ] || rc=1; \
		mv $(OUT)/findings.$$f.tmp $(OUT)/findings.$$f; \
	done; tail -n 1 $(OUT)/findings.md; echo "findings-report: $(OUT)/findings.md, findings.json"; \
	exit $$rc

## census          every integer check of vmlinux and the guest's modules: $(OUT)/census.tsv, its
##                 summary, rows against check-vmlinux's count (2%), and the rules' coverage
census: kernel tools
	@$(BUILD_DIR)/tools/ubsan-census -o $(OUT)/census.tsv.tmp $(TREE)/vmlinux \
		$(wildcard $(TREE)/lib/test_ubsan.ko $(TREE)/lib/test_ubsan_smp.ko) && \
		mv $(OUT)/census.tsv.tmp $(OUT)/census.tsv
	@sh $(TOP)/tools/census/check-count.sh $(TREE)/vmlinux $(OUT)/census.tsv
	@$(TRIAGE) --kit $(TOP) --src $(TREE) --coverage $(OUT)/census.tsv | tee $(OUT)/coverage.txt
