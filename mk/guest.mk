# Stage 3: the guest: static init, test_ubsan.ko, and the workload groups
# (boot-tests/Makefile): kit (the kit's own workloads, perf and its
# selftests), kselftests, stress-ng, user (WORKLOADS=DIR).

INITRAMFS := $(OUT)/boot-tests/initramfs.cpio
# (GUEST_GROUPS and the checks of WORKLOAD_GROUPS and WORKLOADS are in the
# top Makefile, with the knobs: they stop make before anything runs.)
STRESS_NG := /usr/bin/stress-ng
# $(call GUEST_PACK,OUT-DIR,KERNEL-MODULES,TREE): the guest programs and the
# initramfs of GUEST_GROUPS (and WORKLOADS) in OUT-DIR, with TREE's modules
# of boot-tests/guest/modules.conf, which init loads first (the features
# a distribution's config builds as modules); GUEST_NEEDS builds what they
# take from the tree. The raw kernel's guest (mk/report.mk) is packed the
# same way, without the test modules.
KMODS_SH := $(TOP)/boot-tests/guest/kmods.sh
# $(call guest_kmods,TREE): in a recipe, TREE's modules of modules.conf
guest_kmods = $$(sh $(KMODS_SH) $(1) | sed 's|^|$(1)/|' | tr '\n' ' ')
GUEST_PACK = $(MAKE) -s -C $(TOP)/boot-tests O=$(1) KMODS="$(strip $(2))" \
		BOOT_KMODS="$(call guest_kmods,$(3))" \
		PERF=$(PERF_OUT)/perf PERF_SELFTESTS=$(PERF_SELFTESTS) \
		$(if $(filter stress-ng,$(GUEST_GROUPS)),STRESS_NG=$(STRESS_NG)) \
		$(if $(filter kselftests,$(GUEST_GROUPS)),KSELFTESTS=$(KSELFTESTS_OUT)) \
		$(if $(WORKLOADS),USER_WORKLOADS=$(abspath $(WORKLOADS)))
GUEST_NEEDS := perf-tool $(if $(filter kselftests,$(GUEST_GROUPS)),kselftests)
## initramfs       build the guest programs and pack the initramfs
initramfs: kernel $(GUEST_NEEDS)
	@$(call GUEST_PACK,$(OUT)/boot-tests,$(TREE)/lib/test_ubsan.ko $(TREE)/lib/test_ubsan_smp.ko,$(TREE))

# The tree's kselftests (boot-tests/guest/build-kselftests.sh, kselftests.conf),
# static, for every base: userspace programs of the same kernel version.
# In 6.1 the mm tests are still called vm; 6.12 calls them mm.
KSELFTEST_TARGETS ?= timers futex $(if $(KV_NAME),mm,vm) exec proc seccomp sigaltstack size net
KSELFTESTS_OUT := $(BUILD_DIR)/kselftests$(KV_NAME)
.PHONY: kselftests
## kselftests      build the tree's kselftests for the guest (static, gcc)
kselftests: $(KSELFTESTS_OUT)/.built
$(KSELFTESTS_OUT)/targets: FORCE
	@mkdir -p $(@D); echo '$(KSELFTEST_TARGETS)' >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(KSELFTESTS_OUT)/.built: $(KSELFTESTS_OUT)/targets $(TOP)/boot-tests/guest/build-kselftests.sh \
		$(TOP)/boot-tests/guest/kselftests.conf | $(PRISTINE)/Makefile $(BUILD_DIR)/.deps-stamp
	@start=$$(date +%s); \
	sh $(TOP)/boot-tests/guest/build-kselftests.sh $(PRISTINE) $(TOP)/boot-tests/guest/kselftests.conf \
		$(KSELFTESTS_OUT) $(KSELFTEST_TARGETS) || exit 1; \
	echo "kselftests: built in $$(( $$(date +%s) - start )) s"
	@touch $@

# The real perf tool and the perf_events selftests, from the unpacked tree
# (same version as the kernel), built with gcc: userspace, static, as the
# initramfs has no libc. A static build leaves out what has no static
# library here (libdw, libzstd, libcap, libnuma, libunwind, slang); Python
# (bindings, and the jevents tables: no PMU in the guest) and Perl are off.
# perf is rebuilt only when these flags change (or build/perf/perf is
# removed), so a second `make initramfs` does not touch it.
PERF_OUT := $(BUILD_DIR)/perf$(KV_NAME)
PERF_SELFTESTS := $(PERF_OUT)/selftests
PERF_FLAGS := CC=gcc LDFLAGS=-static WERROR=0 NO_JEVENTS=1 NO_LIBPYTHON=1 \
	NO_LIBPERL=1 NO_SLANG=1 NO_GTK2=1 NO_LIBUNWIND=1 NO_LIBDW_DWARF_UNWIND=1 \
	NO_DWARF=1 NO_LIBNUMA=1 NO_LIBAUDIT=1 NO_JVMTI=1 NO_LIBBABELTRACE=1 \
	NO_LIBCAP=1 NO_SDT=1 NO_LIBCRYPTO=1 NO_LIBZSTD=1 NO_LIBDEBUGINFOD=1 \
	NO_LIBBPF=1
.PHONY: perf-tool
## perf-tool       build the tree's perf (static, gcc) and perf_events selftests
perf-tool: $(PERF_OUT)/perf $(PERF_SELFTESTS)/.built

$(PERF_OUT)/flags: FORCE
	@mkdir -p $(PERF_OUT); echo '$(PERF_FLAGS)' >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

# Only the perf binary: the dlfilter test objects cannot link with -static.
# The touch has a line of its own: make -n runs the line with $(MAKE).
$(PERF_OUT)/perf: $(PERF_OUT)/flags | $(PRISTINE)/Makefile $(BUILD_DIR)/.deps-stamp
	@date +%s >$(PERF_OUT)/.start; \
	$(MAKE) -s -C $(PRISTINE)/tools/perf O=$(PERF_OUT) \
		-j$(JOBS) $(PERF_FLAGS) $@ >$(PERF_OUT)/build.log 2>&1 || \
		{ tail -30 $(PERF_OUT)/build.log; exit 1; }
	@touch $@; echo "perf-tool: built $@ in $$(( $$(date +%s) - $$(cat $(PERF_OUT)/.start) )) s"

# tools/testing/selftests/perf_events, through the tree's own lib.mk and
# flags (no -O: sigtrap_threads reads a counter that its signal handler
# bumps without a barrier, which -O2 caches), static
$(PERF_SELFTESTS)/.built: | $(PRISTINE)/Makefile $(BUILD_DIR)/.deps-stamp
	@mkdir -p $(@D)
	@$(MAKE) -s -C $(PRISTINE)/tools/testing/selftests/perf_events \
		OUTPUT=$(@D) CC='gcc -static'
	@touch $@

