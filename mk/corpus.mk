# The detection corpus (not part of test): historical integer bugs put back
# one at a time, each booted with its own reproducer, to measure what the
# sanitizers catch. One folder per bug, corpus/BUG/ (corpus/README.md):
# bug.tsv (its workload and expectation), known-bugs.tsv (its expected
# sites), KERNEL.patch (its revert), repro.c (its reproducer, if it owns one).
# The aggregate tables are made into the build directory (corpus/tsv.sh).
#
# One tree, $(OUT)/detect/linux (mk/tree.mk): the series plus
# kconfig/detect.config; corpus/detect.sh builds a kernel per bug in it and
# boots them (HOSTS=FILE: over ssh).

.PHONY: detect detect-modes corpus-tables
DETECT := $(OUT)/detect
DETECT_TREE := $(DETECT)/linux
DETECT_CORPUS_BUGS := $(notdir $(patsubst %/bug.tsv,%,$(wildcard $(TOP)/corpus/*/bug.tsv)))
DETECT_BUGS := $(DETECT_CORPUS_BUGS)
# the workloads of the bug folders of a corpus (their bug.tsv), once each
corpus_workloads = $(shell sh $(TOP)/corpus/tsv.sh $(1) bug | \
	awk -F'\t' 'NR > 1 && $$1 !~ /^\#/ && !seen[$$2]++ { print $$2 }')
DETECT_WORKLOADS := $(call corpus_workloads,$(TOP)/corpus)
DETECT_FRAGMENTS := $(GUEST_FRAGMENTS) \
	$(TOP)/kconfig/integer-sanitizers.config $(IGNORELIST_CONFIG) \
	$(TOP)/kconfig/detect.config $(wildcard $(TOP)/kconfig/detect-$(KERNEL).config) \
	$(if $(UNSIGNED_WRAP),$(OUT)/unsigned-wrap.config)
DETECT_TIMEOUT ?= 240
# CVE-2021-38166 needs 4 GiB of map values in one hash bucket: its reproducer
# skips the wrap in a smaller guest. QEMU only allocates what the guest uses.
DETECT_MEM ?= 6144
# An oops ends the boot at once (QEMU runs with -no-reboot): several of the
# bugs corrupt memory right after the arithmetic that the sanitizers check.
# kit.timeout cuts a workload that runs on after its report (the read_format
# sweep on the 64 KiB kernel).
DETECT_QEMU_OPTS = -a $(ACCEL) -t $(DETECT_TIMEOUT) -x 'oops=panic kit.timeout=180' \
	$(QEMU_OPTS) -m $(DETECT_MEM)

# $(call DETECT_SH,DIR,CORPUS,RUN,TABLE,FRAGMENTS,BUGS,TABLE_BUGS,WORKLOADS):
# corpus/detect.sh over the bug folders of CORPUS in the tree DIR/linux
# (make detect: corpus/; make findings: patches/findings/)
DETECT_SH = TOP=$(TOP) KERNEL=$(KERNEL) PRISTINE=$(PRISTINE) DETECT=$(1) \
	CORPUS=$(2) RUN=$(3) TABLE=$(4) SERIES=$(SERIES) SERIES_PATCHES='$(SERIES_PATCHES)' \
	FRAGMENTS='$(strip $(5))' BASE_ARG=$(BASE_ARG) BASE_FILE='$(BASE_FILE)' \
	BUGS='$(strip $(6))' CORPUS_BUGS='$(strip $(7))' WORKLOADS='$(strip $(8))' \
	QEMU_OPTS="$(strip $(DETECT_QEMU_OPTS))" \
	KBUILD_LOCK=$(KBUILD_LOCK) KBUILD_MIB=$(KBUILD_MIB) JOBS=$(JOBS) MAKE='$(MAKE)' TRIAGE=$(TRIAGE) \
	JOBS_DIR=$(JOBS_DIR) HOSTS='$(if $(HOSTS),$(abspath $(HOSTS)))' HOSTS_SSH='$(HOSTS_SSH)' \
	HOSTS_WD=$(HOSTS_WD) BOOT_JOBS=$(BOOT_JOBS) BOOT_TRIES=$(BOOT_TRIES) \
	sh $(TOP)/corpus/detect.sh

# the copy only: corpus/detect.sh applies the series and each revert itself
$(eval $(call tree_rules,$(DETECT_TREE),$(SERIES),$(SERIES_PATCHES),$(DETECT_FRAGMENTS),, \
	$(DETECT)/series.log,,))

## corpus-tables   the corpus's aggregate tables: build/corpus/{corpus,known-bugs}.tsv
corpus-tables:
	@mkdir -p $(BUILD_DIR)/corpus
	@for t in bug:corpus known-bugs:known-bugs; do f=$(BUILD_DIR)/corpus/$${t#*:}.tsv; \
		sh $(TOP)/corpus/tsv.sh $(TOP)/corpus $${t%%:*} 2>/dev/null >$$f.tmp && mv $$f.tmp $$f || \
		{ $(SPACE) full $$f 1 || echo "corpus-tables: cannot write $$f"; rm -f $$f.tmp; exit 1; }; \
	done
	@echo "corpus-tables: $(BUILD_DIR)/corpus/corpus.tsv, known-bugs.tsv"

## detect          re-introduce each corpus bug, boot its reproducer, table of catches (HOSTS=FILE: boots over ssh)
detect: $(BUILD_DIR)/.deps-stamp tools $(IGNORELIST) $(IGNORELIST_CONFIG) \
		$(if $(UNSIGNED_WRAP),$(OUT)/unsigned-wrap.config) | $(DETECT_TREE)/Makefile
	@# The recipe runs make recursively, so make -n would run it, boots included.
	@$(if $(findstring n,$(firstword -$(MAKEFLAGS))),echo "detect: skipped under make -n"; exit 0;) \
	$(call DETECT_SH,$(DETECT),$(TOP)/corpus,detect,$(TOP)/corpus/detect-table.sh, \
		$(DETECT_FRAGMENTS),$(DETECT_BUGS),$(DETECT_CORPUS_BUGS),$(DETECT_WORKLOADS))

# make detect-modes: the corpus once per unsigned-wrap mode, each mode in its
# own detect tree ($(BUILD_DIR)/<base>[-uw-<setting>]/detect), then one table.
# off is the kit's default (no unsigned-wrap checks); DETECT_AUDIT is the
# directories a user would audit for sizes that come from user space.
DETECT_AUDIT ?= net/packet,kernel/bpf,fs
DETECT_MODES ?= off $(DETECT_AUDIT) all size_t
# the UNSIGNED_WRAP value of a mode: off is none
uw_setting = $(filter-out off,$(1))
DETECT_MODE_DIRS = $(foreach m,$(DETECT_MODES), \
	$(m)=$(BUILD_DIR)/$(BASE_NAME)$(KV_NAME)$(call uw_suffix,$(call uw_setting,$(m)))/detect)
## detect-modes    make detect in each unsigned-wrap mode (DETECT_MODES), one table of catches
detect-modes:
	@rc=0; $(foreach m,$(DETECT_MODES), \
		echo "detect-modes: UNSIGNED_WRAP=$(m)"; \
		$(MAKE) -s detect UNSIGNED_WRAP=$(call uw_setting,$(m)) || rc=1;) \
	sh $(TOP)/corpus/detect-modes.sh $(TOP) $(BUILD_DIR)/$(BASE_NAME)$(KV_NAME)/detect-modes.tsv \
		$(DETECT_MODE_DIRS) || rc=1; exit $$rc
