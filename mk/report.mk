# Stage 6: the verdict on each boot (report/verdict.sh), the report, and
# the noise figures (report/noise.sh) against the raw kernel.

## verdict         check the expected results of every boot (a perf-bug variant
##                 that was not booted is named and skipped: make boot-variants)
verdict: tools
	@pass=0; fail=0; skip=0; \
	for b in fixed:$(TREE):fixed $(foreach v,$(REGRESSIONS),$(v):$(OUT)/variants/$(v):caught); do \
		name=$${b%%:*}; rest=$${b#*:}; tree=$${rest%%:*}; expect=$${rest#*:}; \
		if [ $$name != fixed ] && [ ! -e $(OUT)/boots/$$name/console.log ]; then \
			echo "verdict $$name: not booted (make boot-variants)"; skip=$$((skip + 1)); \
		elif ! { $(call TRIAGE_BOOT,$$name,$$tree); }; then \
			echo "verdict $$name: FAIL (no triage: see above)"; fail=$$((fail + 1)); \
		elif $(TOP)/report/verdict.sh $(OUT)/boots/$$name $$expect; then pass=$$((pass + 1)); \
		else fail=$$((fail + 1)); fi; \
	done; echo "verdicts: $$pass passed, $$fail failed$$([ $$skip -eq 0 ] || echo ", $$skip not booted")"; \
	[ $$fail -eq 0 ]

## report          the boot times and the triage of the fixed kernel
report: triage
	@for f in $(OUT)/boots/*/boot.txt; do \
		echo "$$(basename $$(dirname $$f)): $$(tr '\n' ' ' <$$f)"; done

# The raw kernel of make noise: the same base and configuration without the
# ignorelist and without the triage patches (those below the "--- triage:"
# line of the series), a tree of its own (mk/tree.mk) in $(RAW)/linux: what
# a user of the integer checks gets without the kit's triage. A budget
# leaves it as it is: every BUDGET shares the one of OUT_REF.
RAW := $(OUT_REF)/raw
RAW_SERIES := $(RAW)/patches/series
RAW_FRAGMENTS := $(filter-out $(IGNORELIST_CONFIG),$(FRAGMENTS)) \
	$(RAW)/no-ignorelist.config
# one folder of links: 6.12's series names 6.1's patches as ../6.1/NNNN
$(RAW_SERIES): $(SERIES) $(SERIES_PATCHES)
	@mkdir -p $(@D)
	@ln -sf $(SERIES_PATCHES) $(@D)/
	@sed -e '/^# --- triage:/,$$d' -e 's|^\.\./6\.1/||' $(SERIES) >$@
$(RAW)/no-ignorelist.config:
	@mkdir -p $(@D); echo 'CONFIG_UBSAN_INTEGER_IGNORELIST=""' >$@
$(eval $(call tree_rules,$(RAW)/linux,$(RAW_SERIES),$(SERIES_PATCHES),$(RAW_FRAGMENTS),, \
	$(RAW)/series.log,$(TOP)/kconfig/configure.sh --check $(BASE_ARG),))
$(RAW)/linux/vmlinux: $(RAW)/linux/.kit-config-stamp
	@start=$$(date +%s); mods=$$(sh $(KMODS_SH) $(RAW)/linux) || exit 1; \
	$(call KMAKE_MODS,$(RAW)/linux,bzImage,$$mods) || exit 1; \
	touch $@; echo "raw kernel: built in $$(( $$(date +%s) - start )) s"
# its integer checks (ubsan-census), the reference of make budget's floor
$(RAW)/census.tsv: $(RAW)/linux/vmlinux $(BUILD_DIR)/tools/ubsan-census
	@$(BUILD_DIR)/tools/ubsan-census -q -o $@.tmp $< && mv $@.tmp $@

# The raw kernel's guest: the same programs, packed without the test modules
# (the raw tree builds bzImage and the modules of
# boot-tests/guest/modules.conf). RAW_SKIP: the workloads that load the
# kit's test modules, whose reports are deliberate anyway.
RAW_SKIP := test-ubsan kmsg-interleave
RAW_INITRAMFS := $(RAW)/boot-tests/initramfs.cpio
## raw-boot        boot the raw kernel with every workload but RAW_SKIP's, and triage it:
##                 what a user of the integer checks sees without the kit (boots/raw)
raw-boot: tools $(GUEST_NEEDS) $(RAW)/linux/vmlinux
	@$(call GUEST_PACK,$(RAW)/boot-tests,,$(RAW)/linux)
	@mkdir -p $(JOBS_DIR)
	@w=$$(awk -v skip=' $(RAW_SKIP) ' 'index(skip, " " $$1 " ") == 0 { print $$1 }' $(RAW)/boot-tests/workloads.list | paste -sd, -); \
	$(call JOB_LINE,raw,$(OUT)/boots/raw,$(RAW)/linux/arch/x86/boot/bzImage,$(RAW_INITRAMFS), \
		$(RAW)/linux/vmlinux,raw-$(BASE_NAME),-,$$w,-a $(ACCEL) -t $(BOOT_TIMEOUT) $(QEMU_OPTS)) \
		>$(JOBS_DIR)/raw.jobs
	@$(call RUN_JOBS,raw,$(JOBS_DIR)/raw.jobs)
	@$(call TRIAGE_BOOT,raw,$(RAW)/linux)
	@echo "raw-boot: the bug sites, judged by the rules alone (bug rows set aside):"
	@sh $(TOP)/report/judge-raw.sh $(TRIAGE) $(TOP) $(OUT)/boots/raw $(RAW)/linux/vmlinux

## noise           sites raw (no ignorelist, no triage patches) against the kit, per class,
##                 group and idiom; checks kept; both perf bugs caught (for BASE)
noise: tools boot boot-variants raw-boot
	@$(MAKE) -s --no-print-directory noise-table

## noise-table     make noise's figures again from its boots, as they are (no build, no boot):
##                 after a change of the rules, or boots run by hand
noise-table: tools
	@$(call TRIAGE_BOOT,fixed,$(TREE))
	@$(foreach v,$(REGRESSIONS),$(call TRIAGE_BOOT,$(v),$(OUT)/variants/$(v)) &&) true
	@# noise.txt is renamed into place when noise.sh could write it whole
	@NOISE_FUZZ_TSV='$(wildcard $(BUILD_DIR)/$(BASE_NAME)$(KV_NAME)-syz/fuzz/triage.tsv)' \
		NOISE_TRIAGE=$(TRIAGE) NOISE_KIT=$(TOP) \
		sh $(TOP)/report/noise.sh $(BASE_NAME) $(OUT)/boots/raw \
		$(OUT)/boots/fixed $(RAW)/linux/vmlinux $(TREE)/vmlinux \
		$(addprefix $(OUT)/boots/,$(REGRESSIONS)) >$(OUT)/noise.txt.tmp; st=$$?; \
	cat $(OUT)/noise.txt.tmp; \
	if [ $$st -ne 0 ] && $(SPACE) full $(OUT)/noise.txt 1; then \
		rm -f $(OUT)/noise.txt.tmp; exit 1; fi; \
	mv $(OUT)/noise.txt.tmp $(OUT)/noise.txt; exit $$st

## fp-rate         make noise on the tiny base
fp-rate:
	@$(MAKE) -s noise BASE=tiny
