# The kit's pipeline, one stage a folder, each stage's output a file that the
# next stage reads:
#
#   patches/ + kconfig/ + sanitizer-ignorelist/  ->  $(B)/linux (patched tree, .config)
#   kernel build (Kbuild, Clang 19, LLVM=1)       ->  bzImage, vmlinux, test_ubsan.ko
#   boot-tests/ (static init, perf workloads)     ->  $(B)/boot-tests/initramfs.cpio
#   boot-tests/run-qemu.sh                        ->  $(B)/boots/NAME/console.log, verdict
#   tools/ubsan-triage                            ->  $(B)/boots/NAME/triage.json
#   report                                        ->  verdicts and figures on stdout
#
# `make` runs it all; `make test` is what CI runs. See README.md.

BUILD ?= build
B := $(abspath $(BUILD))
KIT := $(abspath .)
TARBALL ?= /usr/src/linux-source-6.1.tar.xz
PRISTINE := $(B)/src/linux-source-6.1
TREE := $(B)/linux
JOBS ?= $(shell nproc)
LLVM_BIN ?= /usr/lib/llvm-19/bin
# TRAP=1 builds the main kernel with CONFIG_UBSAN_TRAP.
TRAP ?= 0
# SANITIZERS=none builds the main kernel without the integer checks.
SANITIZERS ?= integer

export PATH := $(LLVM_BIN):$(PATH)
SHELL := /bin/sh

# One kernel build at a time on this 2-core machine: every Kbuild run of the
# kit (main tree, variants, bench and detect trees) takes the same lock.
# Several checkouts on one machine share it by naming one file here.
KBUILD_LOCK ?= $(B)/.kbuild.lock
KMAKE = mkdir -p $(B) && flock $(KBUILD_LOCK) $(MAKE) -C $(1) ARCH=x86_64 LLVM=1 -j$(JOBS)

.PHONY: all deps kernel variants check-vmlinux checkpatch test test-patches \
	clean distclean help initramfs boot boot-variants tools triage verdict \
	report test-tools fuzz bench-triage bench bench-kernels \
	check-ignorelist test-ignorelist fp-rate sparse
## all             (default) build, boot, triage and report
all: kernel boot report

help:
	@sed -n 's/^## //p' $(KIT)/Makefile

## deps            install every Debian package the kit needs (apt-get)
DEB_PACKAGES := linux-source-6.1 clang-19 lld-19 llvm-19 libclang-rt-19-dev \
	qemu-system-x86 sparse make gcc libc6-dev flex bison bc cpio kmod \
	libelf-dev libssl-dev dwarves rsync xz-utils perl patch clang-format \
	zlib1g-dev liblzma-dev
deps: $(B)/.deps-stamp
$(B)/.deps-stamp: Makefile
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
		grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		cmd="apt-get update && apt-get install -y --no-install-recommends $$missing"; \
		if [ "$$(id -u)" -ne 0 ]; then \
			echo "deps: missing packages; as root, run:"; echo "  $$cmd"; exit 1; \
		fi; \
		echo "deps: installing $$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@mkdir -p $(B) && touch $@

# ---------------------------------------------------------------------------
# Stage 1: the patched tree and its configuration.

SERIES := $(KIT)/patches/series
SERIES_PATCHES := $(addprefix $(KIT)/patches/,$(shell sed -e 's/\#.*//' $(SERIES)))
IGNORELISTS := $(sort $(wildcard $(KIT)/sanitizer-ignorelist/*.scl))
# The patch that adds <linux/wrapping.h>: its wrap_ types become type:
# entries of the list when the compiler takes them (Clang 20 and later).
WRAPPING_PATCH := $(wildcard $(KIT)/patches/0008-include-linux-Add-wrapping-types-*.patch)
# The lists are concatenated into one file, rewritten only when it changes.
# Kbuild cannot track its content (fixdep takes Clang's first dependency,
# the list, for the source file), so CONFIG_UBSAN_INTEGER_IGNORELIST names a
# copy whose file name carries the content's hash: an edit changes the
# config, hence every instrumented object's command line, and they rebuild.
IGNORELIST := $(B)/integer-ignorelist.scl
FRAGMENTS := $(KIT)/kconfig/guest.config $(KIT)/kconfig/ubsan.config \
	$(if $(filter integer,$(SANITIZERS)),$(KIT)/kconfig/integer-sanitizers.config \
		$(B)/ignorelist.config) \
	$(if $(filter 1,$(TRAP)),$(KIT)/kconfig/trap.config)

$(PRISTINE)/Makefile: | $(B)/.deps-stamp
	@echo "  UNPACK  $(TARBALL)"
	@rm -rf $(PRISTINE) && mkdir -p $(PRISTINE)
	@tar -C $(PRISTINE) --strip-components=1 -xf $(TARBALL)
	@v=$$(make -s -C $(PRISTINE) kernelversion); echo "  VERSION $$v"; \
	[ "$$v" = 6.1.192 ] || echo "warning: the series was made for 6.1.192, not $$v"

$(TREE)/Makefile: | $(PRISTINE)/Makefile
	@echo "  COPY    $(TREE)"
	@cp -a $(PRISTINE) $(TREE).tmp && mv $(TREE).tmp $(TREE)

# Always checked (cheap), so that a hand-edited tree stops the build; it
# writes nothing when the series is unchanged.
$(TREE)/.kit-patches/stamp: $(SERIES) $(SERIES_PATCHES) $(KIT)/patches/apply-series.sh \
		FORCE | $(TREE)/Makefile
	@$(KIT)/patches/apply-series.sh $(PRISTINE) $(TREE) $(SERIES) >$(B)/.series.log || \
		{ cat $(B)/.series.log; exit 1; }
	@if ! cmp -s $(TREE)/.kit-patches/manifest $@; then cat $(B)/.series.log; \
		cp $(TREE)/.kit-patches/manifest $@; fi

$(IGNORELIST): $(IGNORELISTS) FORCE
	@mkdir -p $(B)
	@{ cat /dev/null $(IGNORELISTS); \
		sh $(KIT)/sanitizer-ignorelist/gen-type-entries.sh $(LLVM_BIN)/clang \
			$(WRAPPING_PATCH); } >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; echo "  LIST    $@"; fi

# TRAP and SANITIZERS pick the fragments: a change of either reconfigures.
$(B)/.flavor: FORCE
	@mkdir -p $(B); echo "TRAP=$(TRAP) SANITIZERS=$(SANITIZERS)" >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(B)/ignorelist.config: $(IGNORELIST)
	@h=$$(sha256sum <$< | cut -c1-12); mkdir -p $(B)/ignorelist; \
	cp $< $(B)/ignorelist/integer-$$h.scl; \
	echo "CONFIG_UBSAN_INTEGER_IGNORELIST=\"$(B)/ignorelist/integer-$$h.scl\"" >$@.tmp; \
	if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(TREE)/.kit-config-stamp: $(filter-out $(B)/ignorelist.config,$(FRAGMENTS)) \
		$(KIT)/kconfig/configure.sh $(TREE)/.kit-patches/stamp $(B)/.flavor \
		$(if $(filter integer,$(SANITIZERS)),$(B)/ignorelist.config)
	@$(KIT)/kconfig/configure.sh $(TREE) $(FRAGMENTS)
	@touch $@

# ---------------------------------------------------------------------------
# Stage 2: the kernel build.

## kernel          unpack, patch, configure and build bzImage, vmlinux, modules
kernel: $(TREE)/.kit-config-stamp $(IGNORELIST)
	@start=$$(date +%s); \
	before=$$(stat -c %Y $(TREE)/vmlinux 2>/dev/null || echo 0); \
	$(call KMAKE,$(TREE)) bzImage modules || exit 1; \
	after=$$(stat -c %Y $(TREE)/vmlinux); \
	if [ "$$before" = "$$after" ]; then echo "kernel: up to date ($$(( $$(date +%s) - start )) s)"; \
	else echo "kernel: built $(TREE)/arch/x86/boot/bzImage in $$(( $$(date +%s) - start )) s"; fi

FORCE:

## variants        build the kernels with a perf bug re-introduced (incremental)
REGRESSIONS := cve-2023-6931 perf-u16-2015
VARIANT_IMAGES := $(foreach v,$(REGRESSIONS),$(B)/variants/$(v)/arch/x86/boot/bzImage)
variants: $(VARIANT_IMAGES)

# A variant is a copy of the main tree, objects included, with one more
# patch: Kbuild then rebuilds only what that patch touches. The files that
# the patch touches are kept out of the copy and managed by apply-series.sh.
$(B)/variants/%/arch/x86/boot/bzImage: $(KIT)/patches/regressions/%.patch \
		$(TREE)/vmlinux
	@echo "  VARIANT $*"
	@mkdir -p $(B)/variants/$*
	@sed -n 's|^+++ b/\([^[:space:]]*\).*|/\1|p' $< >$(B)/variants/.$*.exclude
	@rsync -a --delete --exclude=/.kit-patches/ \
		--exclude-from=$(B)/variants/.$*.exclude $(TREE)/ $(B)/variants/$*/
	@# objtool is built with absolute paths; point them at the copy (keeping
	@# mtimes), or objtool and then every object would be rebuilt.
	@grep -rlIF '$(TREE)/' $(B)/variants/$*/tools/objtool | while read -r f; do \
		sed "s|$(TREE)/|$(B)/variants/$*/|g" "$$f" >"$$f.tmp" && \
		touch -r "$$f" "$$f.tmp" && mv "$$f.tmp" "$$f"; done
	@# The copy is the kit's, never edited by hand: its series files come
	@# from the main tree, so the hand-edit manifest does not apply.
	@rm -f $(B)/variants/$*/.kit-patches/manifest
	@# rsync brought the main tree's objects of the files the patch touches:
	@# make the sources newer so that Kbuild rebuilds them.
	@sed "s|^|$(B)/variants/$*|" $(B)/variants/.$*.exclude | xargs -r touch
	@$(KIT)/patches/apply-series.sh $(PRISTINE) $(B)/variants/$* $(SERIES) $<
	@start=$$(date +%s); $(call KMAKE,$(B)/variants/$*) bzImage modules || exit 1; \
	echo "variant $*: built in $$(( $$(date +%s) - start )) s"


# ---------------------------------------------------------------------------
# Stage 3: the guest (static init, perf workloads, test_ubsan.ko).

INITRAMFS := $(B)/boot-tests/initramfs.cpio
## initramfs       build the guest programs and pack the initramfs
initramfs: kernel perf-tool
	@$(MAKE) -s -C $(KIT)/boot-tests O=$(B)/boot-tests KMODS=$(TREE)/lib/test_ubsan.ko \
		PERF=$(PERF_OUT)/perf PERF_SELFTESTS=$(PERF_SELFTESTS)

# The real perf tool and the perf_events selftests, from the unpacked tree
# (same version as the kernel), built with gcc: userspace, static, as the
# initramfs has no libc. A static build leaves out what has no static
# library here (libdw, libzstd, libcap, libnuma, libunwind, slang); Python
# (bindings, and the jevents tables: no PMU in the guest) and Perl are off.
# perf is rebuilt only when these flags change (or build/perf/perf is
# removed), so a second `make initramfs` does not touch it.
PERF_OUT := $(B)/perf
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
$(PERF_OUT)/perf: $(PERF_OUT)/flags | $(PRISTINE)/Makefile $(B)/.deps-stamp
	@date +%s >$(PERF_OUT)/.start; \
	$(MAKE) -s -C $(PRISTINE)/tools/perf O=$(PERF_OUT) \
		-j$(JOBS) $(PERF_FLAGS) $@ >$(PERF_OUT)/build.log 2>&1 || \
		{ tail -30 $(PERF_OUT)/build.log; exit 1; }
	@touch $@; echo "perf-tool: built $@ in $$(( $$(date +%s) - $$(cat $(PERF_OUT)/.start) )) s"

# tools/testing/selftests/perf_events, through the tree's own lib.mk and
# flags (no -O: sigtrap_threads reads a counter that its signal handler
# bumps without a barrier, which -O2 caches), static
$(PERF_SELFTESTS)/.built: | $(PRISTINE)/Makefile $(B)/.deps-stamp
	@mkdir -p $(@D)
	@$(MAKE) -s -C $(PRISTINE)/tools/testing/selftests/perf_events \
		OUTPUT=$(@D) CC='gcc -static'
	@touch $@

# ---------------------------------------------------------------------------
# Stage 4: boots. Each writes $(B)/boots/NAME/{console.log,verdict,boot.txt}.

BOOT_TIMEOUT ?= 600
ACCEL ?= auto
RUN_QEMU = $(KIT)/boot-tests/run-qemu.sh -a $(ACCEL) -c $(B)/kvm-probe \
	-t $(BOOT_TIMEOUT) -i $(INITRAMFS)
REPRODUCERS := perf-cve-2023-6931,perf-u16-2015

## boot            boot the kit's kernel with every workload
boot: initramfs
	-@$(RUN_QEMU) -k $(TREE)/arch/x86/boot/bzImage -o $(B)/boots/fixed -n fixed

## boot-variants   boot each perf-bug kernel with the two reproducers
boot-variants: initramfs variants
	-@for v in $(REGRESSIONS); do \
		$(RUN_QEMU) -k $(B)/variants/$$v/arch/x86/boot/bzImage \
			-o $(B)/boots/$$v -n $$v -w $(REPRODUCERS); \
	done

# ---------------------------------------------------------------------------
# Stage 5: triage, and the verdict on each boot.

TRIAGE := $(B)/tools/ubsan-triage
## tools           build ubsan-triage
tools: $(B)/.deps-stamp
	@$(MAKE) -s -C $(KIT)/tools O=$(B)/tools

# triage.tsv for sh, triage.json for machines; "new" sites do not fail here.
# Only the JSON carries source lines, so only it is symbolized.
TRIAGE_BOOT = $(TRIAGE) --kit $(KIT) --tsv \
		$(B)/boots/$(1)/console.log >$(B)/boots/$(1)/triage.tsv; \
	$(TRIAGE) --kit $(KIT) --vmlinux $(2)/vmlinux --json \
		$(B)/boots/$(1)/console.log >$(B)/boots/$(1)/triage.json; true

## triage          triage the fixed kernel's boot log
triage: tools
	@$(call TRIAGE_BOOT,fixed,$(TREE))
	@$(TRIAGE) --kit $(KIT) $(B)/boots/fixed/console.log || true
	@$(TRIAGE) --kit $(KIT) --fp-rate $(B)/boots/fixed/console.log || true

## verdict         check the expected results of every boot
verdict: tools
	@pass=0; fail=0; \
	for b in fixed:$(TREE):fixed $(foreach v,$(REGRESSIONS),$(v):$(B)/variants/$(v):caught); do \
		name=$${b%%:*}; rest=$${b#*:}; tree=$${rest%%:*}; expect=$${rest#*:}; \
		$(call TRIAGE_BOOT,$$name,$$tree); \
		if $(KIT)/boot-tests/verdict.sh $(B)/boots/$$name $$expect; then pass=$$((pass + 1)); \
		else fail=$$((fail + 1)); fi; \
	done; echo "verdicts: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

## report          the boot times and the triage of the fixed kernel
report: triage
	@for f in $(B)/boots/*/boot.txt; do \
		echo "$$(basename $$(dirname $$f)): $$(tr '\n' ' ' <$$f)"; done

## check-vmlinux   count the calls to each integer sanitizer handler in vmlinux
HANDLERS := add_overflow sub_overflow mul_overflow negate_overflow implicit_conversion
check-vmlinux: kernel
	@llvm-objdump -d --no-show-raw-insn $(TREE)/vmlinux | \
		grep -oE '(call|jmp)q?[[:space:]]+(0x)?[0-9a-f]+ <__ubsan_handle_[a-z_0-9]+>' | \
		sed 's/.*<\(.*\)>/\1/' | sort | uniq -c >$(B)/handler-calls.txt
	@cat $(B)/handler-calls.txt
	@for h in $(HANDLERS); do \
		grep -q "__ubsan_handle_$$h$$" $(B)/handler-calls.txt || \
		{ echo "check-vmlinux: no call to __ubsan_handle_$$h in vmlinux"; exit 1; }; \
	done; echo "check-vmlinux: every integer handler is called from vmlinux"

## checkpatch      run the tree's scripts/checkpatch.pl over every patch
checkpatch: | $(PRISTINE)/Makefile
	@fail=0; for p in $(KIT)/patches/*.patch $(KIT)/patches/regressions/*.patch; do \
		out=$$(cd $(PRISTINE) && perl scripts/checkpatch.pl -q --no-tree $$p); \
		printf '%s: %s\n' "$$(basename $$p)" \
			"$$(echo "$$out" | grep -E '^total:' || echo clean)"; \
		echo "$$out" | grep -A3 -E '^(ERROR|WARNING)' | sed 's/^/    /'; \
		echo "$$out" | grep -q '^ERROR' && fail=1; \
	done; exit $$fail

# ---------------------------------------------------------------------------
# Bench (not part of test): what the integer checks cost in size, run time
# and time to verdict. Trees of one configuration under $(B)/bench: none
# (no integer checks), report, trap (CONFIG_UBSAN_TRAP), and none-trap (no
# integer checks, the base UBSAN checks trapping: trap's reference). Each
# is patched and configured like the main tree and built incrementally;
# the main tree is never read or written. See bench/README.md.

BENCH := $(B)/bench
BENCH_FLAVORS := none report trap none-trap
BENCH_ROUNDS ?= 5
# A trap kernel dies on the first check that fires, and sites fire while
# booting: the bench's list adds those sites to the kit's, for report and
# trap alike, so that every bench kernel boots and runs the same workloads.
BENCH_IGNORELISTS := $(IGNORELISTS) $(KIT)/bench/boot-sites.scl
BENCH_FRAGMENTS = $(KIT)/kconfig/guest.config $(KIT)/kconfig/ubsan.config \
	$(if $(filter none%,$(1)),,$(KIT)/kconfig/integer-sanitizers.config \
		$(BENCH)/ignorelist.config) \
	$(if $(filter %trap,$(1)),$(KIT)/kconfig/trap.config)
BENCH_WORKLOADS := bench-syscalls perf-cve-2023-6931 perf-u16-2015 \
	perf-read-format-sweep
# Fixed version strings: the images differ by the checks alone.
BENCH_KENV := export KBUILD_BUILD_TIMESTAMP=2026-01-01 KBUILD_BUILD_VERSION=1 \
	KBUILD_BUILD_USER=kit KBUILD_BUILD_HOST=bench

$(BENCH)/ignorelist.config: $(BENCH_IGNORELISTS)
	@mkdir -p $(BENCH)/ignorelist
	@cat $(BENCH_IGNORELISTS) >$(BENCH)/ignorelist.tmp; \
	h=$$(sha256sum <$(BENCH)/ignorelist.tmp | cut -c1-12); \
	f=$(BENCH)/ignorelist/integer-$$h.scl; \
	if [ -e $$f ]; then rm $(BENCH)/ignorelist.tmp; else mv $(BENCH)/ignorelist.tmp $$f; fi; \
	echo "CONFIG_UBSAN_INTEGER_IGNORELIST=\"$(BENCH)/ignorelist/integer-$$h.scl\"" >$@.tmp; \
	if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

# The copy's start time begins the "clean build from a fresh tree" figure.
$(BENCH)/%/Makefile: | $(PRISTINE)/Makefile
	@echo "  COPY    $(BENCH)/$*"
	@mkdir -p $(BENCH)/times && date +%s >$(BENCH)/times/$*.copy-start
	@rm -rf $(BENCH)/$*.tmp && cp -a $(PRISTINE) $(BENCH)/$*.tmp && \
		mv $(BENCH)/$*.tmp $(BENCH)/$*

$(BENCH)/%/.kit-patches/stamp: $(SERIES) $(SERIES_PATCHES) \
		$(KIT)/patches/apply-series.sh FORCE | $(BENCH)/%/Makefile
	@$(KIT)/patches/apply-series.sh $(PRISTINE) $(BENCH)/$* $(SERIES) \
		>$(BENCH)/times/$*.series.log || { cat $(BENCH)/times/$*.series.log; exit 1; }
	@cmp -s $(BENCH)/$*/.kit-patches/manifest $@ || \
		cp $(BENCH)/$*/.kit-patches/manifest $@

$(BENCH)/%/.kit-config-stamp: $(KIT)/kconfig/guest.config $(KIT)/kconfig/ubsan.config \
		$(KIT)/kconfig/integer-sanitizers.config $(KIT)/kconfig/trap.config \
		$(KIT)/kconfig/configure.sh $(BENCH)/%/.kit-patches/stamp \
		$(BENCH)/ignorelist.config
	@$(KIT)/kconfig/configure.sh $(BENCH)/$* $(call BENCH_FRAGMENTS,$*)
	@touch $@

# Kbuild's output goes to times/FLAVOR.kbuild.log; a build into a tree with
# no vmlinux yet is the clean build and its times go to FLAVOR.clean-build.
$(BENCH)/%/.kit-built: $(BENCH)/%/.kit-config-stamp FORCE
	@start=$$(date +%s); \
	before=$$(stat -c %Y $(BENCH)/$*/vmlinux 2>/dev/null || echo 0); \
	$(BENCH_KENV); $(call KMAKE,$(BENCH)/$*) bzImage modules \
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
.PRECIOUS: $(BENCH)/%/Makefile $(BENCH)/%/.kit-patches/stamp \
	$(BENCH)/%/.kit-config-stamp $(BENCH)/%/.kit-built

## bench           sizes, run times and time to verdict of the none/report/trap kernels (not in test)
bench: $(BENCH_TREES) tools
	@$(MAKE) -s -C $(KIT)/boot-tests O=$(BENCH)/boot-tests \
		WORKLOADS="$(BENCH_WORKLOADS)" KMODS=
	@$(MAKE) -s -C $(KIT)/boot-tests O=$(BENCH)/boot-tests-ubsan \
		WORKLOADS="test-ubsan perf-cve-2023-6931 perf-u16-2015" \
		KMODS=$(BENCH)/report/lib/test_ubsan.ko
	@$(MAKE) -s -C $(KIT)/boot-tests O=$(BENCH)/boot-tests-trap \
		WORKLOADS="test-ubsan" KMODS=$(BENCH)/trap/lib/test_ubsan.ko
	@KIT=$(KIT) BENCH=$(BENCH) ROUNDS=$(BENCH_ROUNDS) ACCEL=$(ACCEL) \
		TRIAGE=$(TRIAGE) KVM_CACHE=$(B)/kvm-probe \
		WORKLOADS="$(BENCH_WORKLOADS)" sh $(KIT)/bench/bench.sh measure
	@# Time to verdict: touch one perf file in the report tree, rebuild,
	@# boot the reproducers and triage. Only the touched file and the link
	@# are redone (the content, hence the image, stays the same).
	@t0=$$(date +%s%3N); touch $(BENCH)/report/kernel/events/core.c; \
	$(BENCH_KENV); $(call KMAKE,$(BENCH)/report) bzImage modules \
		>$(BENCH)/times/ttv.kbuild.log 2>&1 || { tail -30 $(BENCH)/times/ttv.kbuild.log; exit 1; }; \
	t1=$$(date +%s%3N); \
	$(KIT)/boot-tests/run-qemu.sh -a $(ACCEL) -c $(B)/kvm-probe -t $(BOOT_TIMEOUT) \
		-i $(BENCH)/boot-tests-ubsan/initramfs.cpio -k $(BENCH)/report/arch/x86/boot/bzImage \
		-o $(BENCH)/boots/ttv -n ttv -w $(REPRODUCERS) >/dev/null; \
	t2=$$(date +%s%3N); \
	$(TRIAGE) --kit $(KIT) --vmlinux $(BENCH)/report/vmlinux --json \
		$(BENCH)/boots/ttv/console.log >$(BENCH)/boots/ttv/triage.json; \
	t3=$$(date +%s%3N); \
	echo "rebuild_ms=$$((t1 - t0)) boot_ms=$$((t2 - t1)) triage_ms=$$((t3 - t2)) total_ms=$$((t3 - t0))" \
		>$(BENCH)/times/ttv
	@KIT=$(KIT) BENCH=$(BENCH) ROUNDS=$(BENCH_ROUNDS) \
		TRIAGE=$(TRIAGE) KVM_CACHE=$(B)/kvm-probe \
		WORKLOADS="$(BENCH_WORKLOADS)" sh $(KIT)/bench/bench.sh report

# ---------------------------------------------------------------------------
# Annotations and ignorelist: hygiene, the noise they remove, sparse.

## check-ignorelist every ignorelist entry still matches the patched tree, with a reason
check-ignorelist: | $(TREE)/.kit-patches/stamp
	@sh $(KIT)/sanitizer-ignorelist/gen-type-entries.sh $(LLVM_BIN)/clang \
		$(WRAPPING_PATCH) >$(B)/type-entries.scl
	@sh $(KIT)/sanitizer-ignorelist/check-ignorelist.sh $(TREE) $(IGNORELISTS) \
		$$([ -s $(B)/type-entries.scl ] && echo $(B)/type-entries.scl)

## test-ignorelist check-ignorelist.sh catches stale, unexplained and broad entries
test-ignorelist: | $(TREE)/.kit-patches/stamp
	@sh $(KIT)/sanitizer-ignorelist/test-check-ignorelist.sh $(TREE)

# The baseline of fp-rate: the same configuration without the ignorelist and
# without the triage patches (those below the "--- triage:" line of the
# series), built in $(FP_BASE)/linux from a copy of the unpacked tarball.
FP_BASE := $(B)/fp-baseline
$(FP_BASE)/linux/vmlinux: $(SERIES) $(SERIES_PATCHES) $(FRAGMENTS) \
		$(KIT)/patches/apply-series.sh | $(PRISTINE)/Makefile
	@mkdir -p $(FP_BASE)/patches
	@ln -sf $(SERIES_PATCHES) $(FP_BASE)/patches/
	@sed '/^# --- triage:/,$$d' $(SERIES) >$(FP_BASE)/patches/series
	@echo 'CONFIG_UBSAN_INTEGER_IGNORELIST=""' >$(FP_BASE)/no-ignorelist.config
	@[ -f $(FP_BASE)/linux/Makefile ] || { echo "  COPY    $(FP_BASE)/linux"; \
		cp -a $(PRISTINE) $(FP_BASE)/linux.tmp && mv $(FP_BASE)/linux.tmp $(FP_BASE)/linux; }
	@$(KIT)/patches/apply-series.sh $(PRISTINE) $(FP_BASE)/linux $(FP_BASE)/patches/series \
		>$(FP_BASE)/series.log || { cat $(FP_BASE)/series.log; exit 1; }
	@$(KIT)/kconfig/configure.sh $(FP_BASE)/linux $(filter-out $(B)/ignorelist.config,$(FRAGMENTS)) \
		$(FP_BASE)/no-ignorelist.config
	@start=$$(date +%s); $(call KMAKE,$(FP_BASE)/linux) bzImage || exit 1; \
	touch $@; echo "fp-baseline: built in $$(( $$(date +%s) - start )) s"

## fp-rate         sites and false-positive rate without and with the kit, checks kept
fp-rate: tools boot boot-variants $(FP_BASE)/linux/vmlinux
	@w=$$(ls $(B)/boot-tests/root/bin | grep -vx test-ubsan | paste -sd, -); \
	$(RUN_QEMU) -k $(FP_BASE)/linux/arch/x86/boot/bzImage -o $(B)/boots/fp-baseline \
		-n fp-baseline -w "$$w" || true
	@$(call TRIAGE_BOOT,fp-baseline,$(FP_BASE)/linux)
	@$(foreach v,$(REGRESSIONS),$(call TRIAGE_BOOT,$(v),$(B)/variants/$(v));)
	@sh $(KIT)/annotations/fp-rate.sh $(TRIAGE) $(KIT) $(B)/boots/fp-baseline \
		$(B)/boots/fixed $(FP_BASE)/linux/vmlinux $(TREE)/vmlinux \
		$(addprefix $(B)/boots/,$(REGRESSIONS)) | tee $(B)/fp-rate.txt

## sparse          sparse (C=2) on every file the patches touch: no new warning
sparse: kernel
	@flock $(KBUILD_LOCK) sh $(KIT)/patches/sparse-compare.sh $(PRISTINE) $(TREE) \
		$(B)/sparse-base $(SERIES)

# ---------------------------------------------------------------------------
# Tests.

## test-patches    apply-series.sh: applies, skips the perf fixes, stops on hand edits
test-patches: | $(PRISTINE)/Makefile
	@$(KIT)/patches/test-apply-series.sh $(PRISTINE) $(SERIES)

## test-tools      ubsan-triage unit and corpus tests, and the runner selftest
test-tools: tools
	@$(MAKE) -s -C $(KIT)/tools O=$(B)/tools test
	@KERNEL=$(TREE)/arch/x86/boot/bzImage sh $(KIT)/boot-tests/selftest.sh

## fuzz            ubsan-triage under libFuzzer with ASan+UBSan (FUZZ_SECONDS, default 60)
FUZZ_SECONDS ?= 60
fuzz: $(B)/.deps-stamp
	@$(MAKE) -s -C $(KIT)/tools O=$(B)/tools FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz

## bench-triage    ubsan-triage throughput against grep on a 1 GiB log
bench-triage: tools
	@$(MAKE) -s -C $(KIT)/tools O=$(B)/tools bench

## test            what CI runs: patches, kernel, handler calls, ignorelist, tools, boots, verdicts
test: deps test-patches checkpatch kernel check-vmlinux check-ignorelist \
		test-ignorelist test-tools fuzz boot boot-variants
	@$(MAKE) -s verdict

# ---------------------------------------------------------------------------
# Detection corpus (not part of test): historical integer bugs put back one
# at a time, each booted with its own reproducer, to measure what the
# sanitizers catch. patches/regressions/corpus.tsv lists the bugs,
# known-bugs.tsv their expected sites.
#
# One tree, $(B)/detect/linux: the series plus kconfig/detect.config, built
# once. For each bug apply-series.sh brings the tree to "series + that
# regression patch" (undoing whatever an interrupted run left applied),
# Kbuild rebuilds the touched files and relinks, the kernel boots with that
# bug's reproducer only and ubsan-triage reads the log. The tree goes back
# to the series alone at the start and at the end. The "control" boot runs
# every reproducer on the tree without any regression patch.

.PHONY: detect
DETECT := $(B)/detect
DETECT_TREE := $(DETECT)/linux
DETECT_CORPUS := $(KIT)/patches/regressions/corpus.tsv
DETECT_BUGS := $(shell awk -F'\t' 'NR > 1 && $$1 !~ /^\#/ { print $$1 }' $(DETECT_CORPUS))
DETECT_WORKLOADS := $(shell awk -F'\t' 'NR > 1 && $$1 !~ /^\#/ && !seen[$$2]++ { print $$2 }' $(DETECT_CORPUS))
DETECT_FRAGMENTS := $(KIT)/kconfig/guest.config $(KIT)/kconfig/ubsan.config \
	$(KIT)/kconfig/integer-sanitizers.config $(B)/ignorelist.config \
	$(KIT)/kconfig/detect.config
DETECT_TIMEOUT ?= 240
# An oops ends the boot at once (QEMU runs with -no-reboot): several of the
# bugs corrupt memory right after the arithmetic that the sanitizers check.
# The read_format sweep needs 55-80 s on the 32 KiB kernel; on the 64 KiB
# one kit.timeout cuts it, minutes after the report (its second group).
DETECT_QEMU = $(KIT)/boot-tests/run-qemu.sh -a $(ACCEL) -c $(B)/kvm-probe \
	-t $(DETECT_TIMEOUT) -i $(DETECT)/boot-tests/initramfs.cpio \
	-x 'oops=panic kit.timeout=180'
DETECT_TRIAGE = $(TRIAGE) --kit $(KIT) --tsv $(DETECT)/boots/$(1)/console.log \
		>$(DETECT)/boots/$(1)/triage.tsv; \
	$(TRIAGE) --kit $(KIT) --vmlinux $(DETECT_TREE)/vmlinux --json \
		$(DETECT)/boots/$(1)/console.log >$(DETECT)/boots/$(1)/triage.json
DETECT_BUILD = s=$$(date +%s); \
	$(call KMAKE,$(DETECT_TREE)) bzImage >$(DETECT)/kbuild-$(1).log 2>&1 || \
		{ tail -40 $(DETECT)/kbuild-$(1).log; exit 1; }; \
	echo "$(1)	build	$$(( $$(date +%s) - s ))" >>$(DETECT)/times.tsv; \
	echo "  BUILT   $(1) in $$(( $$(date +%s) - s )) s"

$(DETECT_TREE)/Makefile: | $(PRISTINE)/Makefile
	@echo "  COPY    $(DETECT_TREE)"
	@mkdir -p $(DETECT) && rm -rf $(DETECT_TREE).tmp && \
		cp -a $(PRISTINE) $(DETECT_TREE).tmp && mv $(DETECT_TREE).tmp $(DETECT_TREE)

## detect          re-introduce each corpus bug, boot its reproducer, table of catches
detect: $(B)/.deps-stamp tools $(IGNORELIST) $(B)/ignorelist.config | $(DETECT_TREE)/Makefile
	@# The recipe runs make recursively, so make -n would run it, boots included.
	@$(if $(findstring n,$(firstword -$(MAKEFLAGS))),echo "detect: skipped under make -n"; exit 0;) \
	start=$$(date +%s); mkdir -p $(DETECT)/boots; : >$(DETECT)/times.tsv; \
	$(KIT)/patches/apply-series.sh $(PRISTINE) $(DETECT_TREE) $(SERIES) \
		>$(DETECT)/series.log || { cat $(DETECT)/series.log; exit 1; }; \
	$(KIT)/kconfig/configure.sh $(DETECT_TREE) $(DETECT_FRAGMENTS) || exit 1; \
	$(call DETECT_BUILD,control); \
	$(MAKE) -s -C $(KIT)/boot-tests O=$(DETECT)/boot-tests KMODS= \
		WORKLOADS='$(DETECT_WORKLOADS)' || exit 1; \
	$(DETECT_QEMU) -k $(DETECT_TREE)/arch/x86/boot/bzImage \
		-o $(DETECT)/boots/control -n detect-control \
		-w $$(echo $(DETECT_WORKLOADS) | tr ' ' ,); \
	$(call DETECT_TRIAGE,control); \
	for bug in $(DETECT_BUGS); do \
		w=$$(awk -F'\t' -v b=$$bug '$$1 == b { print $$2 }' $(DETECT_CORPUS)); \
		$(KIT)/patches/apply-series.sh $(PRISTINE) $(DETECT_TREE) $(SERIES) \
			$(KIT)/patches/regressions/$$bug.patch >$(DETECT)/series.log || \
			{ cat $(DETECT)/series.log; exit 1; }; \
		$(call DETECT_BUILD,$$bug); \
		$(DETECT_QEMU) -k $(DETECT_TREE)/arch/x86/boot/bzImage \
			-o $(DETECT)/boots/$$bug -n detect-$$bug -w $$w; \
		$(call DETECT_TRIAGE,$$bug); \
	done; \
	$(KIT)/patches/apply-series.sh $(PRISTINE) $(DETECT_TREE) $(SERIES) \
		>$(DETECT)/series.log || { cat $(DETECT)/series.log; exit 1; }; \
	$(KIT)/boot-tests/detect-table.sh $(KIT) $(DETECT) $(DETECT_BUGS); \
	echo "detect: $$(( $$(date +%s) - start )) s in all"

## clean           remove the build directory's kernels and logs (keeps the unpacked tarball)
clean:
	rm -rf $(TREE) $(B)/variants $(B)/boots $(B)/boot-tests $(B)/tools

distclean:
	rm -rf $(B)
