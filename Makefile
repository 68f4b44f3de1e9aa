# The kit's pipeline, one stage a folder, each stage's output a file that the
# next stage reads. BASE picks the kernel configuration it starts from and
# KERNEL the Debian kernel source (6.1, 6.12); every base and kernel has its
# own trees and outputs under $(BB) = $(B)/<base>[-<kernel>]:
#
#   patches/ + kconfig/ + sanitizer-ignorelist/  ->  $(BB)/linux (patched tree, .config)
#   kernel build (Kbuild, Clang 19, LLVM=1)       ->  bzImage, vmlinux, test_ubsan.ko
#   boot-tests/ (static init, workload groups)    ->  $(BB)/boot-tests/initramfs.cpio
#   boot-tests/run-qemu.sh                        ->  $(BB)/boots/NAME/console.log, verdict
#   tools/ubsan-triage                            ->  $(BB)/boots/NAME/triage.json
#   report, noise                                 ->  verdicts and figures on stdout
#
# `make` runs it all; `make test` is what CI runs (BASE=tiny, 6.1 then 6.12).
# See README.md.

BUILD ?= build
B := $(abspath $(BUILD))
KIT := $(abspath .)
# KERNEL: which Debian linux-source the kit builds: 6.1 (6.1.192, Debian
# bookworm's own, the default) or 6.12 (6.12.118, the LTS of Debian 13,
# in bookworm-security). One pipeline: KERNEL picks the tarball, the series
# (patches/series, patches/6.12/series) with its regressions/, a fragment
# kconfig/kernel-<version>.config, and the folders: 6.1's outputs stay in
# $(B)/<base>, another kernel's go to $(B)/<base>-<version>.
KERNEL ?= 6.1
KERNELS := 6.1 6.12
ifeq ($(filter $(KERNEL),$(KERNELS)),)
$(error KERNEL=$(KERNEL): the kit has a series for $(KERNELS))
endif
KERNEL_VERSION_6.1 := 6.1.192
KERNEL_VERSION_6.12 := 6.12.118
KV_NAME := $(if $(filter 6.1,$(KERNEL)),,-$(KERNEL))
PATCHES := $(KIT)/patches$(if $(KV_NAME),/$(KERNEL))
# the kernel's regressions (bugs put back): patch files, one per name of
# patches/regressions/corpus.tsv and of REGRESSIONS
REGRESSIONS_DIR := $(PATCHES)/regressions
TARBALL ?= /usr/src/linux-source-$(KERNEL).tar.xz
PRISTINE := $(B)/src/linux-source-$(KERNEL)
JOBS ?= $(shell nproc)
LLVM_BIN ?= /usr/lib/llvm-19/bin
# TRAP=1 builds the main kernel with CONFIG_UBSAN_TRAP.
TRAP ?= 0
# SANITIZERS=none builds the main kernel without the integer checks.
SANITIZERS ?= integer

# BASE: tiny (tinyconfig, the default), defconfig (x86_64_defconfig), or the
# path of any x86_64 .config or .config.xz. The kit's fragments are merged
# over it (kconfig/configure.sh, which fails with the list of options that
# did not stick).
BASE ?= tiny
ifneq ($(filter tiny defconfig,$(BASE)),)
BASE_ARG := $(BASE)
BASE_NAME := $(BASE)
BASE_FILE :=
else
ifeq ($(wildcard $(BASE)),)
$(error BASE=$(BASE): no such file; BASE is tiny, defconfig, or the path of a kernel .config or .config.xz)
endif
BASE_ARG := $(abspath $(BASE))
BASE_FILE := $(BASE_ARG)
# build/<file name without .xz>, e.g. build/config.amd64_none_amd64
BASE_NAME := $(shell printf '%s' '$(notdir $(BASE))' | sed 's/\.xz$$//; s/[^A-Za-z0-9._-]/_/g')
endif
# UNSIGNED_WRAP: unsigned wrap-around checks (patch 0034), off by default:
# all (every object), size_t (every object, reporting size_t arithmetic
# only, as upstream's UBSAN_INTEGER_WRAP did), or directories separated by
# commas (net/packet,kernel/bpf; their subdirectories too). Each setting
# has its own trees and outputs: $(B)/<base>-uw-<setting>.
UNSIGNED_WRAP ?=
ifneq ($(UNSIGNED_WRAP),)
ifneq ($(KERNEL),6.1)
$(error UNSIGNED_WRAP: patch 0034 has no $(KERNEL) port yet; it is a 6.1 setting)
endif
endif
comma := ,
# the suffix of a setting's folder: net/packet,fs -> -uw-net_packet+fs
uw_suffix = $(if $(1),-uw-$(subst /,_,$(subst $(comma),+,$(1))))
UW_NAME := $(call uw_suffix,$(UNSIGNED_WRAP))
# SYZ=1: the fuzzing kernel, with kconfig/syzkaller.config (KCOV, the VM's
# network and consoles) on top of the kit's fragments; its own trees: $(B)/<base>-syz.
# make fuzz-kernel sets it.
SYZ ?= 0
SYZ_NAME := $(if $(filter 1,$(SYZ)),-syz)
BB := $(B)/$(BASE_NAME)$(KV_NAME)$(UW_NAME)$(SYZ_NAME)
TREE := $(BB)/linux
# all and size_t instrument the same objects; only lib/ubsan.c reads
# CONFIG_UBSAN_UNSIGNED_WRAP_SIZE_T. The second of the two to be built
# starts as a copy of the other, objects included (patches/copy-tree.sh),
# and Kbuild rebuilds that one file and relinks: about 2 min on defconfig
# instead of about 40.
UW_TWIN := $(if $(filter all,$(UNSIGNED_WRAP)),size_t,$(if $(filter size_t,$(UNSIGNED_WRAP)),all))
TWIN_TREE := $(if $(UW_TWIN),$(B)/$(BASE_NAME)$(KV_NAME)$(call uw_suffix,$(UW_TWIN))$(SYZ_NAME)/linux)

# The guest and its workloads. tiny: one CPU, 512 MiB, no devices but the
# serial port (-nodefaults), the kit's own workloads. Any other base: QEMU's
# default PC devices (still no network backend), 2 CPUs, 2 GiB, and the
# workloads nobody here wrote: stress-ng and the tree's kselftests.
# WORKLOADS=DIR adds every executable in DIR as a workload of group "user".
ifeq ($(BASE),tiny)
QEMU_CPUS ?= 1
QEMU_MEM ?= 512
QEMU_DEVICES ?= none
WORKLOAD_GROUPS ?= kit
else
QEMU_CPUS ?= 2
QEMU_MEM ?= 2048
QEMU_DEVICES ?= pc
WORKLOAD_GROUPS ?= kit stress-ng kselftests
endif
WORKLOADS ?=
# Kbuild targets. A distribution's config has thousands of modules: build the
# kernel and the one module the guest loads.
KBUILD_TARGETS ?= $(if $(BASE_FILE),bzImage lib/test_ubsan.ko lib/test_ubsan_smp.ko,bzImage modules)

export PATH := $(LLVM_BIN):$(PATH)
SHELL := /bin/sh

# One kernel build at a time on this 2-core machine: every Kbuild run of the
# kit (main tree, variants, bench and detect trees) takes the same lock.
# Several checkouts on one machine share it by naming one file here.
KBUILD_LOCK ?= $(B)/.kbuild.lock
KMAKE = mkdir -p $(B) && flock $(KBUILD_LOCK) $(MAKE) -C $(1) ARCH=x86_64 LLVM=1 -j$(JOBS)

.PHONY: all deps kernel variants check-vmlinux checkpatch test test-patches test-configure \
	clean distclean help initramfs boot boot-variants tools triage verdict \
	report test-tools fuzz bench-triage bench bench-kernels \
	check-ignorelist test-ignorelist fp-rate noise sparse kselftests kcidb \
	test-kcidb test-fanout test-kernel
## all             (default) build, boot, triage and report
all: kernel boot report

help:
	@sed -n 's/^## //p' $(KIT)/Makefile

## deps            install every Debian package the kit needs (apt-get)
DEB_PACKAGES := $(addprefix linux-source-,$(KERNELS)) clang-19 lld-19 llvm-19 libclang-rt-19-dev \
	qemu-system-x86 sparse make gcc libc6-dev flex bison bc cpio kmod \
	libelf-dev libssl-dev dwarves rsync xz-utils perl patch clang-format \
	zlib1g-dev liblzma-dev stress-ng busybox-static libcap-dev \
	parallel openssh-client openssh-server g++ binutils procps \
	libtraceevent-dev
# and ajv from npm, into the build directory
NPM_DIR := $(B)/npm
AJV := $(NPM_DIR)/node_modules/.bin/ajv
deps: $(B)/.deps-stamp $(AJV)
$(B)/.deps-stamp: Makefile
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
		grep -q 'install ok installed' || echo $$p; done; \
		command -v npm >/dev/null || echo nodejs npm); \
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

# ajv (JSON Schema validator, for the KCIDB document), from npm
$(AJV): | $(B)/.deps-stamp
	@echo "  NPM     ajv-cli@5 ajv-formats@3 -> $(NPM_DIR)"
	@npm install --prefix $(NPM_DIR) --no-audit --no-fund --loglevel=error \
		ajv-cli@5 ajv-formats@3 >$(B)/npm-install.log 2>&1 || \
		{ cat $(B)/npm-install.log; exit 1; }
	@touch $@

# ---------------------------------------------------------------------------
# Stage 1: the patched tree and its configuration.

SERIES := $(PATCHES)/series
SERIES_PATCHES := $(addprefix $(PATCHES)/,$(shell sed -e 's/\#.*//' $(SERIES)))
IGNORELISTS := $(sort $(wildcard $(KIT)/sanitizer-ignorelist/*.scl))
# The patch that adds <linux/wrapping.h>: its wrap_ types become type:
# entries of the list when the compiler takes them (Clang 20 and later).
WRAPPING_PATCH := $(wildcard $(PATCHES)/0008-include-linux-Add-wrapping-types-*.patch)
# The lists are concatenated into one file, rewritten only when it changes.
# Kbuild cannot track its content (fixdep takes Clang's first dependency,
# the list, for the source file), so CONFIG_UBSAN_INTEGER_IGNORELIST names a
# copy whose file name carries the content's hash: an edit changes the
# config, hence every instrumented object's command line, and they rebuild.
IGNORELIST := $(B)/integer-ignorelist.scl
# The fragments every kernel of the kit starts from: the guest, UBSAN as a
# distribution enables it, and what the kernel version needs of its own.
GUEST_FRAGMENTS := $(KIT)/kconfig/guest.config $(KIT)/kconfig/ubsan.config \
	$(KIT)/kconfig/kernel-$(KERNEL).config
FRAGMENTS := $(GUEST_FRAGMENTS) \
	$(if $(filter integer,$(SANITIZERS)),$(KIT)/kconfig/integer-sanitizers.config \
		$(B)/ignorelist.config) \
	$(if $(filter 1,$(TRAP)),$(KIT)/kconfig/trap.config) \
	$(if $(UNSIGNED_WRAP),$(BB)/unsigned-wrap.config) \
	$(if $(filter 1,$(SYZ)),$(KIT)/kconfig/syzkaller.config)

$(PRISTINE)/Makefile: | $(B)/.deps-stamp
	@echo "  UNPACK  $(TARBALL)"
	@rm -rf $(PRISTINE) && mkdir -p $(PRISTINE)
	@tar -C $(PRISTINE) --strip-components=1 -xf $(TARBALL)
	@v=$$(make -s -C $(PRISTINE) kernelversion); echo "  VERSION $$v"; \
	[ "$$v" = $(KERNEL_VERSION_$(KERNEL)) ] || \
		echo "warning: the series was made for $(KERNEL_VERSION_$(KERNEL)), not $$v"

$(TREE)/Makefile: | $(PRISTINE)/Makefile
	@$(KIT)/kconfig/configure.sh --check $(BASE_ARG)
	@mkdir -p $(BB); rm -rf $(TREE).tmp
	@if [ -n '$(TWIN_TREE)' ] && [ -s $(TWIN_TREE)/vmlinux ]; then \
		echo "  COPY    $(TREE), objects included, from $(TWIN_TREE)"; \
		sh $(KIT)/patches/copy-tree.sh $(TWIN_TREE) $(TREE).tmp $(TREE); \
		else echo "  COPY    $(TREE)"; cp -a $(PRISTINE) $(TREE).tmp; fi && \
		mv $(TREE).tmp $(TREE)

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
$(BB)/.flavor: FORCE
	@mkdir -p $(BB); echo "TRAP=$(TRAP) SANITIZERS=$(SANITIZERS)" >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

# The fragment of UNSIGNED_WRAP, rewritten only when the setting changes.
# An 8 MiB log buffer: the kernel-wide modes report hundreds of sites
# before the console is up, and defconfig's 256 KiB buffer dropped 8967
# of those lines in the first all boot (only kernel/printk/printk.c reads
# the option, so the change costs one object and a link).
$(BB)/unsigned-wrap.config: FORCE
	@mkdir -p $(@D); { echo CONFIG_UBSAN_UNSIGNED_WRAP=y; \
	echo CONFIG_LOG_BUF_SHIFT=23; \
	case '$(UNSIGNED_WRAP)' in \
	all) echo CONFIG_UBSAN_UNSIGNED_WRAP_ALL=y ;; \
	size_t) echo CONFIG_UBSAN_UNSIGNED_WRAP_ALL=y; \
		echo CONFIG_UBSAN_UNSIGNED_WRAP_SIZE_T=y ;; \
	*) echo 'CONFIG_UBSAN_UNSIGNED_WRAP_DIRS="$(subst $(comma), ,$(UNSIGNED_WRAP))"' ;; \
	esac; } >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(B)/ignorelist.config: $(IGNORELIST)
	@h=$$(sha256sum <$< | cut -c1-12); mkdir -p $(B)/ignorelist; \
	cp $< $(B)/ignorelist/integer-$$h.scl; \
	echo "CONFIG_UBSAN_INTEGER_IGNORELIST=\"$(B)/ignorelist/integer-$$h.scl\"" >$@.tmp; \
	if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(TREE)/.kit-config-stamp: $(filter-out $(B)/ignorelist.config,$(FRAGMENTS)) \
		$(KIT)/kconfig/configure.sh $(TREE)/.kit-patches/stamp $(BB)/.flavor \
		$(if $(filter integer,$(SANITIZERS)),$(B)/ignorelist.config) $(BASE_FILE)
	@$(KIT)/kconfig/configure.sh $(TREE) $(BASE_ARG) $(FRAGMENTS)
	@touch $@

# ---------------------------------------------------------------------------
# Stage 2: the kernel build.

## kernel          unpack, patch, configure and build bzImage, vmlinux, modules
kernel: $(TREE)/.kit-config-stamp $(IGNORELIST)
	@start=$$(date +%s); \
	before=$$(stat -c %Y $(TREE)/vmlinux 2>/dev/null || echo 0); \
	$(call KMAKE,$(TREE)) $(KBUILD_TARGETS) || exit 1; \
	after=$$(stat -c %Y $(TREE)/vmlinux); \
	if [ "$$before" = "$$after" ]; then echo "kernel: up to date ($$(( $$(date +%s) - start )) s)"; \
	else echo "kernel: built $(TREE)/arch/x86/boot/bzImage in $$(( $$(date +%s) - start )) s"; fi

FORCE:

## variants        build the kernels with a perf bug re-introduced (incremental)
REGRESSIONS := cve-2023-6931 perf-u16-2015
VARIANT_IMAGES := $(foreach v,$(REGRESSIONS),$(BB)/variants/$(v)/arch/x86/boot/bzImage)
variants: $(VARIANT_IMAGES)

# A variant is a copy of the main tree, objects included, with one more
# patch: Kbuild then rebuilds only what that patch touches. The files that
# the patch touches are kept out of the copy and managed by apply-series.sh.
$(BB)/variants/%/arch/x86/boot/bzImage: $(REGRESSIONS_DIR)/%.patch \
		$(TREE)/vmlinux
	@echo "  VARIANT $*"
	@mkdir -p $(BB)/variants/$*
	@sed -n 's|^+++ b/\([^[:space:]]*\).*|/\1|p' $< >$(BB)/variants/.$*.exclude
	@sh $(KIT)/patches/copy-tree.sh $(TREE) $(BB)/variants/$* $(BB)/variants/$* \
		$(BB)/variants/.$*.exclude
	@# The copy is the kit's, never edited by hand: its series files come
	@# from the main tree, so the hand-edit manifest does not apply.
	@rm -f $(BB)/variants/$*/.kit-patches/manifest
	@# rsync brought the main tree's objects of the files the patch touches:
	@# make the sources newer so that Kbuild rebuilds them.
	@sed "s|^|$(BB)/variants/$*|" $(BB)/variants/.$*.exclude | xargs -r touch
	@$(KIT)/patches/apply-series.sh $(PRISTINE) $(BB)/variants/$* $(SERIES) $<
	@start=$$(date +%s); $(call KMAKE,$(BB)/variants/$*) $(KBUILD_TARGETS) || exit 1; \
	echo "variant $*: built in $$(( $$(date +%s) - start )) s"


# ---------------------------------------------------------------------------
# Stage 3: the guest: static init, test_ubsan.ko, and the workload groups
# (boot-tests/Makefile): kit (the kit's programs, perf and its selftests),
# kselftests, stress-ng, user (WORKLOADS=DIR).

INITRAMFS := $(BB)/boot-tests/initramfs.cpio
GUEST_GROUPS := $(sort kit $(WORKLOAD_GROUPS))
ifneq ($(filter-out kit kselftests stress-ng,$(GUEST_GROUPS)),)
$(error WORKLOAD_GROUPS: unknown group(s) $(filter-out kit kselftests stress-ng,$(GUEST_GROUPS)); the groups are kit kselftests stress-ng, and WORKLOADS=DIR adds user)
endif
ifneq ($(WORKLOADS),)
ifeq ($(wildcard $(WORKLOADS)/.),)
$(error WORKLOADS=$(WORKLOADS): not a directory)
endif
endif
STRESS_NG := /usr/bin/stress-ng
## initramfs       build the guest programs and pack the initramfs
initramfs: kernel perf-tool $(if $(filter kselftests,$(GUEST_GROUPS)),kselftests)
	@$(MAKE) -s -C $(KIT)/boot-tests O=$(BB)/boot-tests KMODS="$(TREE)/lib/test_ubsan.ko $(TREE)/lib/test_ubsan_smp.ko" \
		PERF=$(PERF_OUT)/perf PERF_SELFTESTS=$(PERF_SELFTESTS) \
		$(if $(filter stress-ng,$(GUEST_GROUPS)),STRESS_NG=$(STRESS_NG)) \
		$(if $(filter kselftests,$(GUEST_GROUPS)),KSELFTESTS=$(KSELFTESTS_OUT)) \
		$(if $(WORKLOADS),USER_WORKLOADS=$(abspath $(WORKLOADS)))

# The tree's kselftests (boot-tests/build-kselftests.sh, kselftests.conf),
# static, for every base: userspace programs of the same kernel version.
# In 6.1 the mm tests are still called vm; 6.12 calls them mm.
KSELFTEST_TARGETS ?= timers futex $(if $(KV_NAME),mm,vm) exec proc seccomp sigaltstack size net
KSELFTESTS_OUT := $(B)/kselftests$(KV_NAME)
.PHONY: kselftests
## kselftests      build the tree's kselftests for the guest (static, gcc)
kselftests: $(KSELFTESTS_OUT)/.built
$(KSELFTESTS_OUT)/targets: FORCE
	@mkdir -p $(@D); echo '$(KSELFTEST_TARGETS)' >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(KSELFTESTS_OUT)/.built: $(KSELFTESTS_OUT)/targets $(KIT)/boot-tests/build-kselftests.sh \
		$(KIT)/boot-tests/kselftests.conf | $(PRISTINE)/Makefile $(B)/.deps-stamp
	@start=$$(date +%s); \
	sh $(KIT)/boot-tests/build-kselftests.sh $(PRISTINE) $(KIT)/boot-tests/kselftests.conf \
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
PERF_OUT := $(B)/perf$(KV_NAME)
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
# Stage 4: boots. Each writes $(BB)/boots/NAME/{console.log,verdict,boot.txt}.

BOOT_TIMEOUT ?= $(if $(filter tiny,$(BASE)),600,10800)
ACCEL ?= auto
QEMU_OPTS = -s $(QEMU_CPUS) -m $(QEMU_MEM) -D $(QEMU_DEVICES)
RUN_QEMU = $(KIT)/boot-tests/run-qemu.sh -a $(ACCEL) -c $(B)/kvm-probe \
	-t $(BOOT_TIMEOUT) -i $(INITRAMFS) $(QEMU_OPTS)
REPRODUCERS := perf-cve-2023-6931,perf-u16-2015

# Boots are jobs (jobs/README.md): a target writes a job list, and
# jobs/run-jobs.sh runs it here (BOOT_JOBS at once), or, with HOSTS=FILE
# (GNU parallel's --sshloginfile), on those machines over ssh. Each job's
# results land in its directory complete, or not at all.
HOSTS ?=
HOSTS_SSH ?= ssh
HOSTS_WD ?= int-sanitizer-kit
BOOT_JOBS ?= 1
BOOT_TRIES ?= 3
JOBS_DIR := $(BB)/fanout
# One line of a job list: name, result directory, bzImage, initramfs,
# vmlinux, build, expectation, workloads, run-qemu.sh options.
JOB_LINE = printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(strip $(1))" "$(strip $(2))" \
	"$(strip $(3))" "$(strip $(4))" "$(strip $(5))" "$(strip $(6))" "$(strip $(7))" \
	"$(strip $(8))" "$(strip $(9))"
# $(call RUN_JOBS,RUN,JOBLIST[,more run-jobs.sh options])
RUN_JOBS = sh $(KIT)/jobs/run-jobs.sh -n $(1) -d $(JOBS_DIR) -K $(KIT) -T $(TRIAGE) \
	-W $(HOSTS_WD) -j $(BOOT_JOBS) -R $(BOOT_TRIES) \
	$(if $(HOSTS),-H $(abspath $(HOSTS)) -S '$(HOSTS_SSH)') $(3) $(2)
# the kit's main kernel, as KCIDB's build config_name
MAIN_BUILD := kit-$(BASE_NAME)-$(SANITIZERS)$(if $(filter 1,$(TRAP)),-trap)

## boot            boot the kit's kernel with every workload (a job; HOSTS=FILE: over ssh)
boot: initramfs tools
	@mkdir -p $(JOBS_DIR)
	@$(call JOB_LINE,fixed,$(BB)/boots/fixed,$(TREE)/arch/x86/boot/bzImage,$(INITRAMFS), \
		$(TREE)/vmlinux,$(MAIN_BUILD),fixed,all,-a $(ACCEL) -t $(BOOT_TIMEOUT) $(QEMU_OPTS)) \
		>$(JOBS_DIR)/boot.jobs
	@$(call RUN_JOBS,boot,$(JOBS_DIR)/boot.jobs)

## boot-variants   boot each perf-bug kernel with the two reproducers (jobs)
boot-variants: initramfs variants tools
	@mkdir -p $(JOBS_DIR)
	@for v in $(REGRESSIONS); do \
		$(call JOB_LINE,$$v,$(BB)/boots/$$v,$(BB)/variants/$$v/arch/x86/boot/bzImage, \
			$(INITRAMFS),$(BB)/variants/$$v/vmlinux,variant-$$v,caught,$(REPRODUCERS), \
			-a $(ACCEL) -t $(BOOT_TIMEOUT) $(QEMU_OPTS)); \
	done >$(JOBS_DIR)/boot-variants.jobs
	@$(call RUN_JOBS,boot-variants,$(JOBS_DIR)/boot-variants.jobs)

# ---------------------------------------------------------------------------
# KCIDB: the boot runs' results as one KCIDB v5.3 document (tools/kcidb/).
# The checkout is Debian's linux-source plus the series; patchset_hash is
# KCIDB's: sha256 of each patch's sha256, in series order.
KCIDB_RUNS ?= boot boot-variants detect
KCIDB_DOC := $(BB)/kcidb.json
KCIDB_CHECKOUT := $(B)/kcidb-checkout$(KV_NAME).txt
$(KCIDB_CHECKOUT): $(SERIES) $(SERIES_PATCHES) FORCE | $(PRISTINE)/Makefile
	@{ echo origin=intsan; echo tree_name=linux-source-$(KERNEL); \
	echo version=$$(dpkg-query -W -f='$${Version}' linux-source-$(KERNEL)); \
	echo kernelversion=$$(make -s -C $(PRISTINE) kernelversion); \
	echo patchset_hash=$$(for p in $(SERIES_PATCHES); do sha256sum $$p | cut -c-64; done | \
		sha256sum | cut -c-64); \
	echo compiler=$$($(LLVM_BIN)/clang --version | head -1); \
	echo "comment=Debian linux-source-$(KERNEL) $$(dpkg-query -W -f='$${Version}' linux-source-$(KERNEL)) + $(patsubst $(KIT)/%,%,$(SERIES)) ($(words $(SERIES_PATCHES)) patches)"; \
	} >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

## kcidb           one KCIDB v5.3 document of the last boot runs: build/<base>/kcidb.json
kcidb: tools $(KCIDB_CHECKOUT)
	@runs=$$(for r in $(KCIDB_RUNS); do \
		f=$(JOBS_DIR)/$(HOSTS_WD)/runs/$$r/boots.tsv; [ -s $$f ] && echo $$f; done); \
	[ -n "$$runs" ] || { echo "kcidb: no run of $(KCIDB_RUNS) yet"; exit 1; }; \
	$(TRIAGE) --kit $(KIT) --kcidb $(KCIDB_CHECKOUT) $$runs >$(KCIDB_DOC).tmp && \
		mv $(KCIDB_DOC).tmp $(KCIDB_DOC) && \
	echo "kcidb: $(KCIDB_DOC) from $$(echo $$runs | wc -w) run(s):" \
		"$$(grep -c '"path": ' $(KCIDB_DOC)) tests," \
		"$$(grep -c '"report_subject": ' $(KCIDB_DOC)) issues," \
		"$$(grep -c '"issue_id": ' $(KCIDB_DOC)) incidents"

## test-kcidb      build/kcidb.json validates (ajv, tools/kcidb/schema.json); broken copies do not
test-kcidb: kcidb $(AJV)
	@sh $(KIT)/tools/kcidb/test-kcidb.sh $(AJV) $(NPM_DIR)/node_modules/ajv-formats \
		$(KIT)/tools/kcidb/schema.json $(KCIDB_DOC) \
		$(TRIAGE) $(KIT) $(KCIDB_CHECKOUT) $(abspath $(KIT)/../shared/peer-logs)

# ---------------------------------------------------------------------------
# Stage 5: triage, and the verdict on each boot.

TRIAGE := $(B)/tools/ubsan-triage
## tools           build ubsan-triage
tools: $(B)/.deps-stamp
	@$(MAKE) -s -C $(KIT)/tools O=$(B)/tools

# triage.tsv for sh, triage.json for machines; "new" sites do not fail here.
# Both are symbolized: an early-boot report with no reliable frame is named
# after the frame that passes through its site.
TRIAGE_BOOT = $(TRIAGE) --kit $(KIT) --vmlinux $(2)/vmlinux --tsv \
		$(BB)/boots/$(1)/console.log >$(BB)/boots/$(1)/triage.tsv; \
	$(TRIAGE) --kit $(KIT) --vmlinux $(2)/vmlinux --json \
		$(BB)/boots/$(1)/console.log >$(BB)/boots/$(1)/triage.json; true

## triage          triage the fixed kernel's boot log
triage: tools
	@$(call TRIAGE_BOOT,fixed,$(TREE))
	@$(TRIAGE) --kit $(KIT) --vmlinux $(TREE)/vmlinux $(BB)/boots/fixed/console.log || true
	@$(TRIAGE) --kit $(KIT) --vmlinux $(TREE)/vmlinux --fp-rate $(BB)/boots/fixed/console.log || true

## verdict         check the expected results of every boot
verdict: tools
	@pass=0; fail=0; \
	for b in fixed:$(TREE):fixed $(foreach v,$(REGRESSIONS),$(v):$(BB)/variants/$(v):caught); do \
		name=$${b%%:*}; rest=$${b#*:}; tree=$${rest%%:*}; expect=$${rest#*:}; \
		$(call TRIAGE_BOOT,$$name,$$tree); \
		if $(KIT)/boot-tests/verdict.sh $(BB)/boots/$$name $$expect; then pass=$$((pass + 1)); \
		else fail=$$((fail + 1)); fi; \
	done; echo "verdicts: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

## report          the boot times and the triage of the fixed kernel
report: triage
	@for f in $(BB)/boots/*/boot.txt; do \
		echo "$$(basename $$(dirname $$f)): $$(tr '\n' ' ' <$$f)"; done

## check-vmlinux   count the calls to each integer sanitizer handler in vmlinux
HANDLERS := add_overflow sub_overflow mul_overflow negate_overflow implicit_conversion
check-vmlinux: kernel
	@llvm-objdump -d --no-show-raw-insn $(TREE)/vmlinux | \
		grep -oE '(call|jmp)q?[[:space:]]+(0x)?[0-9a-f]+ <__ubsan_handle_[a-z_0-9]+>' | \
		sed 's/.*<\(.*\)>/\1/' | sort | uniq -c >$(BB)/handler-calls.txt
	@cat $(BB)/handler-calls.txt
	@for h in $(HANDLERS); do \
		grep -q "__ubsan_handle_$$h$$" $(BB)/handler-calls.txt || \
		{ echo "check-vmlinux: no call to __ubsan_handle_$$h in vmlinux"; exit 1; }; \
	done; echo "check-vmlinux: every integer handler is called from vmlinux"

## census          every integer check in vmlinux and the guest's modules: $(BB)/census.tsv, a summary, rows vs check-vmlinux (2%)
.PHONY: census
census: kernel tools
	@$(B)/tools/ubsan-census -o $(BB)/census.tsv $(TREE)/vmlinux \
		$(TREE)/lib/test_ubsan.ko $(TREE)/lib/test_ubsan_smp.ko
	@sh $(KIT)/tools/census/check-count.sh $(TREE)/vmlinux $(BB)/census.tsv

## checkpatch      run the tree's scripts/checkpatch.pl over every patch
checkpatch: | $(PRISTINE)/Makefile
	@fail=0; for p in $(SERIES_PATCHES) $(wildcard $(REGRESSIONS_DIR)/*.patch); do \
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

BENCH := $(BB)/bench
BENCH_FLAVORS := none report trap none-trap
BENCH_ROUNDS ?= 5
# A trap kernel dies on the first check that fires, and sites fire while
# booting: the bench's list adds those sites to the kit's, for report and
# trap alike, so that every bench kernel boots and runs the same workloads.
BENCH_IGNORELISTS := $(IGNORELISTS) $(KIT)/bench/boot-sites.scl
BENCH_FRAGMENTS = $(GUEST_FRAGMENTS) \
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

$(BENCH)/%/.kit-config-stamp: $(GUEST_FRAGMENTS) \
		$(KIT)/kconfig/integer-sanitizers.config $(KIT)/kconfig/trap.config \
		$(KIT)/kconfig/configure.sh $(BENCH)/%/.kit-patches/stamp \
		$(BENCH)/ignorelist.config
	@$(KIT)/kconfig/configure.sh $(BENCH)/$* $(BASE_ARG) $(call BENCH_FRAGMENTS,$*)
	@touch $@

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
.PRECIOUS: $(BENCH)/%/Makefile $(BENCH)/%/.kit-patches/stamp \
	$(BENCH)/%/.kit-config-stamp $(BENCH)/%/.kit-built

## bench           sizes, run times and time to verdict of the none/report/trap kernels (not in test)
bench: $(BENCH_TREES) tools
	@$(MAKE) -s -C $(KIT)/boot-tests O=$(BENCH)/boot-tests \
		KIT_WORKLOADS="$(BENCH_WORKLOADS)" KMODS=
	@$(MAKE) -s -C $(KIT)/boot-tests O=$(BENCH)/boot-tests-ubsan \
		KIT_WORKLOADS="test-ubsan perf-cve-2023-6931 perf-u16-2015" \
		KMODS=$(BENCH)/report/lib/test_ubsan.ko
	@$(MAKE) -s -C $(KIT)/boot-tests O=$(BENCH)/boot-tests-trap \
		KIT_WORKLOADS="test-ubsan" KMODS=$(BENCH)/trap/lib/test_ubsan.ko
	@KIT=$(KIT) BENCH=$(BENCH) ROUNDS=$(BENCH_ROUNDS) ACCEL=$(ACCEL) \
		TRIAGE=$(TRIAGE) KVM_CACHE=$(B)/kvm-probe \
		WORKLOADS="$(BENCH_WORKLOADS)" sh $(KIT)/bench/bench.sh measure
	@# Time to verdict: touch one perf file in the report tree, rebuild,
	@# boot the reproducers and triage. Only the touched file and the link
	@# are redone (the content, hence the image, stays the same).
	@t0=$$(date +%s%3N); touch $(BENCH)/report/kernel/events/core.c; \
	$(BENCH_KENV); $(call KMAKE,$(BENCH)/report) $(KBUILD_TARGETS) \
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

## test-configure  a bad BASE stops configure.sh with its reason and leaves .config as it was
test-configure: kernel
	@flock $(KBUILD_LOCK) sh $(KIT)/kconfig/test-configure.sh $(TREE) $(FRAGMENTS)

## test-ignorelist check-ignorelist.sh catches stale, unexplained and broad entries
test-ignorelist: | $(TREE)/.kit-patches/stamp
	@sh $(KIT)/sanitizer-ignorelist/test-check-ignorelist.sh $(TREE)

# The raw kernel of make noise: the same base and configuration without the
# ignorelist and without the triage patches (those below the "--- triage:"
# line of the series), built in $(RAW)/linux from a copy of the unpacked
# tarball: what a user of the integer checks gets without the kit's triage.
RAW := $(BB)/raw
$(RAW)/linux/vmlinux: $(SERIES) $(SERIES_PATCHES) $(FRAGMENTS) $(BASE_FILE) \
		$(KIT)/patches/apply-series.sh | $(PRISTINE)/Makefile
	@$(KIT)/kconfig/configure.sh --check $(BASE_ARG)
	@mkdir -p $(RAW)/patches
	@ln -sf $(SERIES_PATCHES) $(RAW)/patches/
	@# one folder of links: 6.12's series names 6.1's patches as ../NNNN
	@sed -e '/^# --- triage:/,$$d' -e 's|^\.\./||' $(SERIES) >$(RAW)/patches/series
	@echo 'CONFIG_UBSAN_INTEGER_IGNORELIST=""' >$(RAW)/no-ignorelist.config
	@[ -f $(RAW)/linux/Makefile ] || { echo "  COPY    $(RAW)/linux"; \
		cp -a $(PRISTINE) $(RAW)/linux.tmp && mv $(RAW)/linux.tmp $(RAW)/linux; }
	@$(KIT)/patches/apply-series.sh $(PRISTINE) $(RAW)/linux $(RAW)/patches/series \
		>$(RAW)/series.log || { cat $(RAW)/series.log; exit 1; }
	@$(KIT)/kconfig/configure.sh $(RAW)/linux $(BASE_ARG) $(filter-out $(B)/ignorelist.config,$(FRAGMENTS)) \
		$(RAW)/no-ignorelist.config
	@start=$$(date +%s); $(call KMAKE,$(RAW)/linux) bzImage || exit 1; \
	touch $@; echo "raw kernel: built in $$(( $$(date +%s) - start )) s"

## noise           sites raw (no ignorelist, no triage patches) against the kit, per class,
##                 group and idiom; checks kept; both perf bugs caught (for BASE)
noise: tools boot boot-variants $(RAW)/linux/vmlinux
	@w=$$(awk '$$1 != "test-ubsan" { print $$1 }' $(BB)/boot-tests/workloads.list | paste -sd, -); \
	$(call JOB_LINE,raw,$(BB)/boots/raw,$(RAW)/linux/arch/x86/boot/bzImage,$(INITRAMFS), \
		$(RAW)/linux/vmlinux,raw-$(BASE_NAME),-,$$w,-a $(ACCEL) -t $(BOOT_TIMEOUT) $(QEMU_OPTS)) \
		>$(JOBS_DIR)/noise.jobs
	@$(call RUN_JOBS,noise,$(JOBS_DIR)/noise.jobs)
	@$(call TRIAGE_BOOT,raw,$(RAW)/linux)
	@$(call TRIAGE_BOOT,fixed,$(TREE))
	@$(foreach v,$(REGRESSIONS),$(call TRIAGE_BOOT,$(v),$(BB)/variants/$(v));)
	@NOISE_FUZZ_TSV='$(wildcard $(B)/$(BASE_NAME)$(KV_NAME)-syz/fuzz/triage.tsv)' \
		sh $(KIT)/annotations/noise.sh $(BASE_NAME) $(BB)/boots/raw \
		$(BB)/boots/fixed $(RAW)/linux/vmlinux $(TREE)/vmlinux \
		$(addprefix $(BB)/boots/,$(REGRESSIONS)) | tee $(BB)/noise.txt

## fp-rate         make noise on the tiny base
fp-rate:
	@$(MAKE) -s noise BASE=tiny

## sparse          sparse (C=2) on every file the patches touch: no new warning
sparse: kernel
	@flock $(KBUILD_LOCK) sh $(KIT)/patches/sparse-compare.sh $(PRISTINE) $(TREE) \
		$(B)/sparse-base $(SERIES)

# ---------------------------------------------------------------------------
# Tests.

## test-patches    apply-series.sh: applies, skips the perf fixes, stops on hand edits
test-patches: | $(PRISTINE)/Makefile
	@$(KIT)/patches/test-apply-series.sh $(PRISTINE) $(SERIES)

## test-tools      ubsan-triage unit and corpus tests, syz-manager ignores, and the runner selftest
PEER_LOGS ?= $(abspath $(KIT)/../shared/peer-logs)
test-tools: tools
	@$(MAKE) -s -C $(KIT)/tools O=$(B)/tools PEER_LOGS=$(PEER_LOGS) test
	@sh $(KIT)/syzkaller/test-ignores.sh $(KIT) $(TRIAGE) $(KIT)/tools/testdata/*.log \
		$$(find $(PEER_LOGS) -type f 2>/dev/null)
	@KERNEL=$(TREE)/arch/x86/boot/bzImage sh $(KIT)/boot-tests/selftest.sh

## fuzz            ubsan-triage under libFuzzer with ASan+UBSan (FUZZ_SECONDS, default 60)
FUZZ_SECONDS ?= 60
fuzz: $(B)/.deps-stamp
	@$(MAKE) -s -C $(KIT)/tools O=$(B)/tools FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz

## bench-triage    ubsan-triage throughput against grep on a 1 GiB log
bench-triage: tools
	@$(MAKE) -s -C $(KIT)/tools O=$(B)/tools bench

## test-fanout     the fixed and variant boots over a throw-away sshd on 127.0.0.1 and here
test-fanout: boot boot-variants
	@sh $(KIT)/jobs/test-fanout.sh $(KIT) $(TRIAGE) $(B)/fanout-test \
		$(JOBS_DIR)/boot.jobs $(JOBS_DIR)/boot-variants.jobs

## test            what CI runs: patches, kernel, handler calls, ignorelist, tools, boots, verdicts;
##                 then test-kernel for every other kernel (TEST_KERNELS: 6.12)
TEST_KERNELS ?= $(filter-out $(KERNEL),$(KERNELS))
test: deps test-patches checkpatch kernel check-vmlinux check-ignorelist \
		test-ignorelist test-configure test-tools fuzz boot boot-variants test-fanout test-kcidb
	@$(MAKE) -s verdict
	@for k in $(TEST_KERNELS); do echo "test: KERNEL=$$k"; \
		$(MAKE) -s test-kernel KERNEL=$$k || exit 1; done

# The ignorelist, the tools, the runner, fan-out and KCIDB are the same for
# every kernel: test checks them once, on KERNEL (6.1).
## test-kernel     one kernel's part of test (KERNEL=): patches, checkpatch, build, handler calls, boots, verdicts
test-kernel: deps test-patches checkpatch kernel check-vmlinux boot boot-variants
	@$(MAKE) -s verdict

# ---------------------------------------------------------------------------
# Detection corpus (not part of test): historical integer bugs put back one
# at a time, each booted with its own reproducer, to measure what the
# sanitizers catch. patches/regressions/corpus.tsv lists the bugs,
# known-bugs.tsv their expected sites.
#
# One tree, $(B)/detect/linux: the series plus kconfig/detect.config. First
# every kernel is built and kept: for each bug apply-series.sh brings the
# tree to "series + that regression patch" (undoing whatever an interrupted
# run left applied), Kbuild rebuilds the touched files and relinks, and
# bzImage and vmlinux go to $(DETECT)/images/BUG/; an image whose series,
# patch and configuration did not change is kept as it is. The builds take
# the Kbuild lock once, together. The tree goes
# back to the series alone at the start and at the end. Then every boot is a
# job (HOSTS=FILE: fanned out over ssh): each bug's kernel with that bug's
# reproducer only, and the "control" kernel, without any regression patch,
# with every reproducer; ubsan-triage reads each log.

.PHONY: detect
DETECT := $(BB)/detect
DETECT_TREE := $(DETECT)/linux
DETECT_IMAGES := $(DETECT)/images
DETECT_CORPUS := $(KIT)/patches/regressions/corpus.tsv
DETECT_CORPUS_BUGS := $(shell awk -F'\t' 'NR > 1 && $$1 !~ /^\#/ { print $$1 }' $(DETECT_CORPUS))
DETECT_BUGS := $(DETECT_CORPUS_BUGS)
DETECT_WORKLOADS := $(shell awk -F'\t' 'NR > 1 && $$1 !~ /^\#/ && !seen[$$2]++ { print $$2 }' $(DETECT_CORPUS))
DETECT_FRAGMENTS := $(GUEST_FRAGMENTS) \
	$(KIT)/kconfig/integer-sanitizers.config $(B)/ignorelist.config \
	$(KIT)/kconfig/detect.config $(wildcard $(KIT)/kconfig/detect-$(KERNEL).config) \
	$(if $(UNSIGNED_WRAP),$(BB)/unsigned-wrap.config)
# The table has this run's bugs and every earlier boot whose kernel image and
# initramfs are still current (boots/BUG/run-key), so that runs of a few bugs
# (DETECT_BUGS=...) add up to the whole corpus.
DETECT_TIMEOUT ?= 240
# CVE-2021-38166 needs 4 GiB of map values in one hash bucket: its reproducer
# skips the wrap in a smaller guest. QEMU only allocates what the guest uses.
DETECT_MEM ?= 6144
# An oops ends the boot at once (QEMU runs with -no-reboot): several of the
# bugs corrupt memory right after the arithmetic that the sanitizers check.
# The read_format sweep needs 55-80 s on the 32 KiB kernel; on the 64 KiB
# one kit.timeout cuts it, minutes after the report (its second group).
DETECT_QEMU_OPTS = -a $(ACCEL) -t $(DETECT_TIMEOUT) -x 'oops=panic kit.timeout=180' \
	$(QEMU_OPTS) -m $(DETECT_MEM)
# The build phase takes the Kbuild lock once for all its builds (fd 9).
DETECT_BUILD = s=$$(date +%s); \
	$(MAKE) -C $(DETECT_TREE) ARCH=x86_64 LLVM=1 -j$(JOBS) bzImage \
		>$(DETECT)/kbuild-$(1).log 2>&1 || { tail -40 $(DETECT)/kbuild-$(1).log; exit 1; }; \
	mkdir -p $(DETECT_IMAGES)/$(1) && \
	cp $(DETECT_TREE)/arch/x86/boot/bzImage $(DETECT_TREE)/vmlinux $(DETECT_IMAGES)/$(1)/ && \
	echo $$(( $$(date +%s) - s )) >$(DETECT_IMAGES)/$(1)/build_s && \
	echo "$$key" >$(DETECT_IMAGES)/$(1)/key || exit 1; \
	echo "  BUILT   $(1) in $$(( $$(date +%s) - s )) s"

$(DETECT_TREE)/Makefile: | $(PRISTINE)/Makefile
	@echo "  COPY    $(DETECT_TREE)"
	@mkdir -p $(DETECT) && rm -rf $(DETECT_TREE).tmp && \
		cp -a $(PRISTINE) $(DETECT_TREE).tmp && mv $(DETECT_TREE).tmp $(DETECT_TREE)

## detect          re-introduce each corpus bug, boot its reproducer, table of catches (HOSTS=FILE: boots over ssh)
detect: $(B)/.deps-stamp tools $(IGNORELIST) $(B)/ignorelist.config \
		$(if $(UNSIGNED_WRAP),$(BB)/unsigned-wrap.config) | $(DETECT_TREE)/Makefile
	@# The recipe runs make recursively, so make -n would run it, boots included.
	@$(if $(findstring n,$(firstword -$(MAKEFLAGS))),echo "detect: skipped under make -n"; exit 0;) \
	start=$$(date +%s); mkdir -p $(DETECT)/boots $(DETECT_IMAGES); \
	$(KIT)/patches/apply-series.sh $(PRISTINE) $(DETECT_TREE) $(SERIES) \
		>$(DETECT)/series.log || { cat $(DETECT)/series.log; exit 1; }; \
	$(KIT)/kconfig/configure.sh $(DETECT_TREE) $(BASE_ARG) $(DETECT_FRAGMENTS) || exit 1; \
	base=$$( (echo $(BASE_ARG); cat $(SERIES) $(SERIES_PATCHES) $(DETECT_FRAGMENTS) $(BASE_FILE)) | sha256sum | cut -c1-16); \
	patch_of() { [ $$1 = control ] || echo $(REGRESSIONS_DIR)/$$1.patch; }; \
	key_of() { echo $$base-$$(cat /dev/null $$(patch_of $$1) | sha256sum | cut -c1-16); }; \
	todo=; for bug in control $(DETECT_BUGS); do \
		if [ "$$(cat $(DETECT_IMAGES)/$$bug/key 2>/dev/null)" = "$$(key_of $$bug)" ] && \
			[ -s $(DETECT_IMAGES)/$$bug/vmlinux ]; then echo "  KEPT    $$bug"; \
		else todo="$$todo $$bug"; fi; \
	done; \
	if [ -n "$$todo" ]; then \
		exec 9>$(KBUILD_LOCK); echo "  LOCK    $(KBUILD_LOCK)"; flock 9; \
		echo "  LOCKED  after $$(( $$(date +%s) - start )) s"; \
		for bug in $$todo; do \
			key=$$(key_of $$bug); \
			$(KIT)/patches/apply-series.sh $(PRISTINE) $(DETECT_TREE) $(SERIES) \
				$$(patch_of $$bug) >$(DETECT)/series.log || { cat $(DETECT)/series.log; exit 1; }; \
			$(call DETECT_BUILD,$$bug); \
		done; \
		flock -u 9; exec 9>&-; \
		$(KIT)/patches/apply-series.sh $(PRISTINE) $(DETECT_TREE) $(SERIES) \
			>$(DETECT)/series.log || { cat $(DETECT)/series.log; exit 1; }; \
	fi; \
	built=$$(date +%s); \
	for bug in control $(DETECT_CORPUS_BUGS); do \
		[ -r $(DETECT_IMAGES)/$$bug/build_s ] || continue; \
		printf '%s\tbuild\t%s\n' $$bug $$(cat $(DETECT_IMAGES)/$$bug/build_s); \
	done >$(DETECT)/times.tsv; \
	$(MAKE) -s -C $(KIT)/boot-tests O=$(DETECT)/boot-tests KMODS= \
		KIT_WORKLOADS='$(DETECT_WORKLOADS)' || exit 1; \
	{ $(call JOB_LINE,detect-control,$(DETECT)/boots/control,$(DETECT_IMAGES)/control/bzImage, \
		$(DETECT)/boot-tests/initramfs.cpio,$(DETECT_IMAGES)/control/vmlinux,detect-control,-, \
		$$(echo $(DETECT_WORKLOADS) | tr ' ' ,),$(DETECT_QEMU_OPTS)); \
	for bug in $(DETECT_BUGS); do \
		w=$$(awk -F'\t' -v b=$$bug '$$1 == b { print $$2 }' $(DETECT_CORPUS)); \
		$(call JOB_LINE,detect-$$bug,$(DETECT)/boots/$$bug,$(DETECT_IMAGES)/$$bug/bzImage, \
			$(DETECT)/boot-tests/initramfs.cpio,$(DETECT_IMAGES)/$$bug/vmlinux,detect-$$bug,-, \
			$$w,$(DETECT_QEMU_OPTS)); \
	done; } >$(DETECT)/detect.jobs; \
	mkdir -p $(JOBS_DIR); rc=0; $(call RUN_JOBS,detect,$(DETECT)/detect.jobs) || rc=1; \
	ikey=$$(sha256sum <$(DETECT)/boot-tests/initramfs.cpio | cut -c1-16); \
	for bug in $(DETECT_BUGS); do mkdir -p $(DETECT)/boots/$$bug; \
		echo "$$(key_of $$bug) $$ikey" >$(DETECT)/boots/$$bug/run-key; done; \
	table=; for bug in $(DETECT_CORPUS_BUGS); do \
		[ "$$(cat $(DETECT)/boots/$$bug/run-key 2>/dev/null)" = "$$(key_of $$bug) $$ikey" ] && \
			table="$$table $$bug"; \
	done; \
	$(KIT)/boot-tests/detect-table.sh $(KIT) $(REGRESSIONS_DIR) $(DETECT) $$table; \
	echo "detect: $$(( $$(date +%s) - start )) s in all: builds $$((built - start)) s, boots $$(( $$(date +%s) - built )) s"; \
	exit $$rc

# make detect-modes: the corpus once per unsigned-wrap mode, each mode in its
# own detect tree ($(B)/<base>[-uw-<setting>]/detect), then one table.
# off is the kit's default (no unsigned-wrap checks); DETECT_AUDIT is the
# directories a user would audit for sizes that come from user space.
DETECT_AUDIT ?= net/packet,kernel/bpf,fs
DETECT_MODES ?= off $(DETECT_AUDIT) all size_t
# the UNSIGNED_WRAP value of a mode: off is none
uw_setting = $(filter-out off,$(1))
DETECT_MODE_DIRS = $(foreach m,$(DETECT_MODES), \
	$(m)=$(B)/$(BASE_NAME)$(KV_NAME)$(call uw_suffix,$(call uw_setting,$(m)))/detect)
.PHONY: detect-modes
## detect-modes    make detect in each unsigned-wrap mode (DETECT_MODES), one table of catches
detect-modes:
	@rc=0; $(foreach m,$(DETECT_MODES), \
		echo "detect-modes: UNSIGNED_WRAP=$(m)"; \
		$(MAKE) -s detect UNSIGNED_WRAP=$(call uw_setting,$(m)) || rc=1;) \
	$(KIT)/boot-tests/detect-modes.sh $(KIT) $(B)/$(BASE_NAME)$(KV_NAME)/detect-modes.tsv \
		$(DETECT_MODE_DIRS) || rc=1; exit $$rc

# ---------------------------------------------------------------------------
# Fuzzing (not part of test): syzkaller drives QEMU VMs of the kit's kernel
# with KCOV (SYZ=1: kconfig/syzkaller.config over FUZZ_BASE), then
# ubsan-triage reads every crash directory that syz-manager saved
# (syzkaller/fuzz.sh). The run's files: $(B)/<base>-syz/fuzz/.

.PHONY: syzkaller fuzz-kernel fuzz-run
# A tarball made by git archive --prefix=syzkaller/, or a checkout; the
# commit must have a complete vendor/ (475a4c203 is the last one).
SYZKALLER_SRC ?= $(abspath $(KIT)/../shared/syzkaller/syzkaller-475a4c203.tar.xz)
SYZKALLER_REV ?= 475a4c203afb8b7d3af51c4fd32bb170ff32a45e
SYZ_OUT := $(B)/syzkaller
## syzkaller       Go 1.22 (bookworm-backports, unpacked here) and syzkaller (SYZKALLER_SRC), built once
syzkaller: $(B)/.deps-stamp
	@sh $(KIT)/syzkaller/build.sh $(SYZ_OUT) $(SYZKALLER_SRC) $(SYZKALLER_REV)

# The base of the fuzzing kernel: BASE if given, else defconfig.
FUZZ_BASE = $(if $(filter command line environment,$(origin BASE)),$(BASE),defconfig)
FUZZ_MINUTES ?= 20
FUZZ_VMS ?= $(JOBS)
FUZZ_PROCS ?= 2
FUZZ_HTTP ?=
## fuzz-kernel     build the fuzzing kernel, run syz-manager FUZZ_MINUTES (20) on FUZZ_VMS VMs, triage its crashes
fuzz-kernel: syzkaller tools
	@$(MAKE) -s fuzz-run BASE=$(FUZZ_BASE) SYZ=1

# (internal: fuzz-kernel with SYZ=1) the base's own boots, when there are
# any, add the sites they explained to the ignores.
fuzz-run: kernel
	@FUZZ_PROCS=$(FUZZ_PROCS) FUZZ_HTTP='$(FUZZ_HTTP)' \
		sh $(KIT)/syzkaller/fuzz.sh $(KIT) $(SYZ_OUT)/src/syzkaller $(TREE) $(BB)/fuzz \
		$(FUZZ_MINUTES) $(FUZZ_VMS) $(TRIAGE) \
		$(wildcard $(B)/$(BASE_NAME)$(KV_NAME)/boots/*/triage.tsv)

## clean           remove the build directory's kernels and logs (keeps the unpacked tarball)
clean:
	rm -rf $(TREE) $(BB)/variants $(BB)/boots $(BB)/boot-tests $(B)/tools \
		$(BB)/fanout $(B)/fanout-test

distclean:
	rm -rf $(B)
