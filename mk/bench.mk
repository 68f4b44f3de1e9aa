# Bench (not part of test): what the integer checks cost in size, run time
# and time to verdict. Trees of one configuration under $(BUILD_DIR)/bench: none
# (no integer checks), report, trap (CONFIG_UBSAN_TRAP), and none-trap (no
# integer checks, the base UBSAN checks trapping: trap's reference). Each
# is a tree of mk/tree.mk like the main tree, built incrementally;
# the main tree is never read or written. See bench/README.md.

BENCH := $(OUT)/bench
BENCH_FLAVORS := none report trap none-trap
BENCH_ROUNDS ?= 5
# A trap kernel dies on the first check that fires, and sites fire while
# booting: the bench's list adds those sites to the kit's, for report and
# trap alike, so that every bench kernel boots and runs the same workloads.
BENCH_IGNORELISTS := $(IGNORELISTS) $(TOP)/bench/boot-sites.scl
BENCH_FRAGMENTS = $(GUEST_FRAGMENTS) \
	$(if $(filter none%,$(1)),,$(TOP)/kconfig/integer-sanitizers.config \
		$(BENCH)/ignorelist.config) \
	$(if $(filter %trap,$(1)),$(TOP)/kconfig/trap.config)
BENCH_WORKLOADS := bench-syscalls perf-cve-2023-6931 perf-u16-2015 \
	perf-read-format-sweep
# Fixed version strings: the images differ by the checks alone.
BENCH_KENV := export KBUILD_BUILD_TIMESTAMP=2026-01-01 KBUILD_BUILD_VERSION=1 \
	KBUILD_BUILD_USER=kit KBUILD_BUILD_HOST=bench

$(BENCH)/ignorelist.config: $(BENCH_IGNORELISTS) | tools
	@$(call CHECK_SCL,$(BENCH_IGNORELISTS))
	@mkdir -p $(BENCH)/ignorelist
	@cat $(BENCH_IGNORELISTS) >$(BENCH)/ignorelist.tmp; \
	h=$$(sha256sum <$(BENCH)/ignorelist.tmp | cut -c1-12); \
	f=$(BENCH)/ignorelist/integer-$$h.scl; \
	if [ -e $$f ]; then rm $(BENCH)/ignorelist.tmp; else mv $(BENCH)/ignorelist.tmp $$f; fi; \
	echo "CONFIG_UBSAN_INTEGER_IGNORELIST=\"$(BENCH)/ignorelist/integer-$$h.scl\"" >$@.tmp; \
	if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

# The trees (mk/tree.mk), one per flavor. The copy's start time begins the
# "clean build from a fresh tree" figure.
$(foreach f,$(BENCH_FLAVORS),$(eval $(call tree_rules,$(BENCH)/$(f),$(SERIES), \
	$(SERIES_PATCHES),$(call BENCH_FRAGMENTS,$(f)),,$(BENCH)/times/$(f).series.log, \
	mkdir -p $(BENCH)/times && date +%s >$(BENCH)/times/$(f).copy-start,)))

# Kbuild's output goes to times/FLAVOR.kbuild.log; a build into a tree with
# no vmlinux yet is the clean build and its times go to FLAVOR.clean-build.
$(BENCH)/%/.kit-built: $(BENCH)/%/.kit-config-stamp FORCE
	@start=$$(date +%s); \
	before=$$(stat -c %Y $(BENCH)/$*/vmlinux 2>/dev/null || echo 0); \
	$(BENCH_KENV); $(call KMAKE,$(BENCH)/$*) $(KBUILD_TARGETS) \
		>$(BENCH)/times/$*.kbuild.log 2>&1 || \
		{ tail -30 $(BENCH)/times/$*.kbuild.log; exit 1; }; \
	end=$$(date +%s); after=$$(stat -c %Y $(BENCH)/$*/vmlinux); \
	if [ "$$before" = 0 ]; then \
		first=$$(find $(BENCH)/$* -name '*.o' -newer $(BENCH)/$*/.config \
			-printf '%T@\n' | sort -n | head -n 1); \
		echo "kbuild_s=$$((end - $${first%.*})) wall_s=$$((end - start)) total_s=$$((end - $$(cat $(BENCH)/times/$*.copy-start)))" \
			>$(BENCH)/times/$*.clean-build; fi; \
	if [ "$$before" = "$$after" ]; then echo "bench $*: up to date ($$((end - start)) s)"; \
	else echo "bench $*: built in $$((end - start)) s"; fi
	@touch $@

BENCH_TREES := $(foreach f,$(BENCH_FLAVORS),$(BENCH)/$(f)/.kit-built)
bench-kernels: $(BENCH_TREES)
# made through pattern rules, hence intermediate: never delete them
.PRECIOUS: $(BENCH)/%/.kit-built

## bench           sizes, run times and time to verdict of the none/report/trap kernels (not in test)
bench: $(BENCH_TREES) tools
	@$(MAKE) -s -C $(TOP)/boot-tests O=$(BENCH)/boot-tests \
		KIT_WORKLOADS="$(BENCH_WORKLOADS)" KMODS=
	@$(MAKE) -s -C $(TOP)/boot-tests O=$(BENCH)/boot-tests-ubsan \
		KIT_WORKLOADS="test-ubsan perf-cve-2023-6931 perf-u16-2015" \
		KMODS=$(BENCH)/report/lib/test_ubsan.ko
	@$(MAKE) -s -C $(TOP)/boot-tests O=$(BENCH)/boot-tests-trap \
		KIT_WORKLOADS="test-ubsan" KMODS=$(BENCH)/trap/lib/test_ubsan.ko
	@TOP=$(TOP) BENCH=$(BENCH) ROUNDS=$(BENCH_ROUNDS) ACCEL=$(ACCEL) \
		TRIAGE=$(TRIAGE) KVM_CACHE=$(BUILD_DIR)/kvm-probe \
		WORKLOADS="$(BENCH_WORKLOADS)" sh $(TOP)/bench/bench.sh measure
	@# Time to verdict: touch one perf file in the report tree, rebuild,
	@# boot the reproducers and triage. Only the touched file and the link
	@# are redone (the content, hence the image, stays the same).
	@t0=$$(date +%s%3N); touch $(BENCH)/report/kernel/events/core.c; \
	$(BENCH_KENV); $(call KMAKE,$(BENCH)/report) $(KBUILD_TARGETS) \
		>$(BENCH)/times/ttv.kbuild.log 2>&1 || { tail -30 $(BENCH)/times/ttv.kbuild.log; exit 1; }; \
	t1=$$(date +%s%3N); \
	$(TOP)/boot-tests/host/run-qemu.sh -a $(ACCEL) -c $(BUILD_DIR)/kvm-probe -t $(BOOT_TIMEOUT) \
		-i $(BENCH)/boot-tests-ubsan/initramfs.cpio -k $(BENCH)/report/arch/x86/boot/bzImage \
		-o $(BENCH)/boots/ttv -n ttv -w $(REPRODUCERS) >/dev/null; \
	t2=$$(date +%s%3N); \
	$(TRIAGE) --kit $(TOP) --vmlinux $(BENCH)/report/vmlinux --json \
		$(BENCH)/boots/ttv/console.log >$(BENCH)/boots/ttv/triage.json; \
	t3=$$(date +%s%3N); \
	echo "rebuild_ms=$$((t1 - t0)) boot_ms=$$((t2 - t1)) triage_ms=$$((t3 - t2)) total_ms=$$((t3 - t0))" \
		>$(BENCH)/times/ttv
	@TOP=$(TOP) BENCH=$(BENCH) ROUNDS=$(BENCH_ROUNDS) \
		TRIAGE=$(TRIAGE) KVM_CACHE=$(BUILD_DIR)/kvm-probe \
		WORKLOADS="$(BENCH_WORKLOADS)" sh $(TOP)/bench/bench.sh report
