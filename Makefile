# The kit's pipeline, one stage a folder, each stage's output a file that the
# next stage reads. BASE picks the kernel configuration it starts from and
# KERNEL the Debian kernel source (6.1, 6.12); every base and kernel has its
# own trees and outputs under $(OUT) = $(BUILD_DIR)/<base>[-<kernel>]:
#
#   patches/ + kconfig/ + sanitizer-ignorelist/  ->  $(OUT)/linux (patched tree, .config)
#   kernel build (Kbuild, Clang 19, LLVM=1)       ->  bzImage, vmlinux, test_ubsan.ko
#   boot-tests/ (static init, workload groups)    ->  $(OUT)/boot-tests/initramfs.cpio
#   boot-tests/host/run-qemu.sh, jobs/            ->  $(OUT)/boots/NAME/console.log, verdict
#   tools/ubsan-triage                            ->  $(OUT)/boots/NAME/triage.json
#   report/ (verdict, noise)                      ->  verdicts and figures on stdout
#
# This file holds the knobs, the help and the includes; each stage's rules
# are in mk/<stage>.mk (mk/README.md). `make` runs it all; `make check` is
# what needs no kernel; `make test` is what CI runs (BASE=tiny, 6.1 then
# 6.12). See README.md.

BUILD ?= build
# the build directory, and the checkout
BUILD_DIR := $(abspath $(BUILD))
TOP := $(abspath .)
# KERNEL: which Debian linux-source the kit builds: 6.1 (6.1.192, Debian
# bookworm's own, the default) or 6.12 (6.12.118, the LTS of Debian 13,
# in bookworm-security). One pipeline: KERNEL picks the tarball, the series
# (patches/6.1/series, patches/6.12/series), each corpus bug's revert
# (corpus/<bug>/<kernel>.patch), a fragment kconfig/kernel-<version>.config,
# and the folders: 6.1's outputs stay in $(BUILD_DIR)/<base>, another
# kernel's go to $(BUILD_DIR)/<base>-<version>.
KERNEL ?= 6.1
KERNELS := 6.1 6.12
ifeq ($(filter $(KERNEL),$(KERNELS)),)
$(error KERNEL=$(KERNEL): the kit has a series for $(KERNELS))
endif
KERNEL_VERSION_6.1 := 6.1.192
KERNEL_VERSION_6.12 := 6.12.118
KV_NAME := $(if $(filter 6.1,$(KERNEL)),,-$(KERNEL))
TARBALL ?= /usr/src/linux-source-$(KERNEL).tar.xz
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
# has its own trees and outputs: $(BUILD_DIR)/<base>-uw-<setting>. Only a
# kernel whose series carries 0034 has the options (6.1 and 6.12 do).
UNSIGNED_WRAP ?=
ifneq ($(UNSIGNED_WRAP),)
ifeq ($(shell grep -s -x '[./0-9]*0034-ubsan-Check-unsigned-wrap.*' $(TOP)/patches/$(KERNEL)/series),)
$(error UNSIGNED_WRAP: patches/$(KERNEL)/series has no patch 0034 (unsigned wrap))
endif
endif
comma := ,
# the suffix of a setting's folder: net/packet,fs -> -uw-net_packet+fs
uw_suffix = $(if $(1),-uw-$(subst /,_,$(subst $(comma),+,$(1))))
UW_NAME := $(call uw_suffix,$(UNSIGNED_WRAP))
# SYZ=1: the fuzzing kernel, with kconfig/syzkaller.config (KCOV, the VM's
# network and consoles) on top of the kit's fragments; its own trees:
# $(BUILD_DIR)/<base>-syz. make fuzz-kernel sets it.
SYZ ?= 0
SYZ_NAME := $(if $(filter 1,$(SYZ)),-syz)
# BUDGET: an overhead budget in percent of the guest's instructions (1, 2,
# 5, ...; empty: none, every check kept). The kit's ignorelist then takes
# sanitizer-ignorelist/budget/<base>[-<kernel>]/$(BUDGET).scl too: the
# functions whose checks cost the most in that base's and kernel's bench,
# each with its measured cost, written by `make budget` (bench/README.md);
# a list measured on one kernel is never applied to another, whose
# functions and inlining differ. Each budget has its own trees and
# outputs: $(BUILD_DIR)/<base>[-<kernel>]-b<budget>.
BUDGET ?=
BUDGET_NAME := $(if $(BUDGET),-b$(BUDGET))
BUDGET_SCL := $(if $(BUDGET),$(TOP)/sanitizer-ignorelist/budget/$(BASE_NAME)$(KV_NAME)/$(BUDGET).scl)
ifneq ($(BUDGET),)
ifeq ($(filter budget help,$(MAKECMDGOALS))$(wildcard $(BUDGET_SCL)),)
$(error BUDGET=$(BUDGET): no $(BUDGET_SCL): a budget list is measured on its own base and kernel; `make bench` then `make budget BUDGET=$(BUDGET)` with the same BASE and KERNEL write it)
endif
endif
# this base's and kernel's output directory, and its kernel tree; OUT_REF
# is the same without a budget (the bench's references, which have no
# integer checks to leave out)
OUT_REF := $(BUILD_DIR)/$(BASE_NAME)$(KV_NAME)$(UW_NAME)$(SYZ_NAME)
OUT := $(OUT_REF)$(BUDGET_NAME)
TREE := $(OUT)/linux

# The guest and its workloads. tiny: one CPU, 512 MiB, no devices but the
# serial port (-nodefaults), the kit's own workloads (group kit). Any other
# base: QEMU's default PC devices (still no network backend), 2 CPUs,
# 2 GiB, and the workloads nobody here wrote: stress-ng and the tree's
# kselftests. WORKLOADS=DIR adds every executable in DIR as a workload of
# group "user".
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
GUEST_GROUPS := $(sort kit $(WORKLOAD_GROUPS))
ifneq ($(filter-out kit kselftests stress-ng,$(GUEST_GROUPS)),)
$(error WORKLOAD_GROUPS: unknown group(s) $(filter-out kit kselftests stress-ng,$(GUEST_GROUPS)); the groups are kit kselftests stress-ng, and WORKLOADS=DIR adds user)
endif
# every file of WORKLOADS must run: a dangling link or a file without an
# execute bit stops make here, before anything is built
ifneq ($(WORKLOADS),)
WORKLOADS_ERROR := $(shell sh $(TOP)/boot-tests/guest/check-workloads.sh '$(WORKLOADS)' 2>&1)
ifneq ($(WORKLOADS_ERROR),)
$(error WORKLOADS=$(WORKLOADS): $(WORKLOADS_ERROR))
endif
endif
# Kbuild targets. A distribution's config has thousands of modules: build the
# kernel and the one module the guest loads.
KBUILD_TARGETS ?= $(if $(BASE_FILE),bzImage lib/test_ubsan.ko lib/test_ubsan_smp.ko,bzImage modules)
# The room a Kbuild run into a tree without a vmlinux must find before it
# starts (tools/space.sh; a built tree needs room for a relink): tiny's
# build adds 373 MiB to its copy of the source (6.1; 6.12: 427 MiB); the
# other bases' figure is an estimate from their 287 MB vmlinux.
KBUILD_MIB ?= $(if $(filter tiny,$(BASE)),512,4096)
# Boots: BOOT_TIMEOUT seconds each, ACCEL (auto, kvm, tcg); HOSTS=FILE
# (GNU parallel's --sshloginfile) runs them over ssh (jobs/README.md).
BOOT_TIMEOUT ?= $(if $(filter tiny,$(BASE)),600,10800)
ACCEL ?= auto
HOSTS ?=
HOSTS_SSH ?= ssh
HOSTS_WD ?= int-sanitizer-kit
# a HOSTS line that is no login stops make here, naming it
ifneq ($(HOSTS),)
HOSTS_ERROR := $(shell sh $(TOP)/jobs/check-hosts.sh '$(HOSTS)' 2>&1)
ifneq ($(HOSTS_ERROR),)
$(error HOSTS=$(HOSTS): $(HOSTS_ERROR))
endif
endif
BOOT_JOBS ?= 1
BOOT_TRIES ?= 3

export PATH := $(LLVM_BIN):$(PATH)
SHELL := /bin/sh
# A target whose recipe failed (a full disk, an interrupt) is removed, so
# that the next make does not take what was half written for done.
.DELETE_ON_ERROR:
# The room on the disk, checked before a stage writes and named when a
# write fails for lack of it: "kit: no space: DIR needs N MiB, has M MiB
# free" (tools/space.sh).
SPACE := sh $(TOP)/tools/space.sh

# One kernel build at a time on this 2-core machine: every Kbuild run of the
# kit (main tree, variants, bench and detect trees) takes the same lock.
# Several checkouts on one machine share it by naming one file here.
KBUILD_LOCK ?= $(BUILD_DIR)/.kbuild.lock

# One make at a time in a build directory. The make started by hand runs
# its goals in a second make under the lock $(MAKE_LOCK)
# (tools/make-lock.sh), as the kernel's top Makefile runs its own in the
# output directory; that make and everything it starts inherit the lock and
# find KIT_LOCKED=$(BUILD_DIR) in their environment, so the kit's
# recursive makes take nothing and cannot deadlock. Another make of the same
# build directory refuses at once and names the first (LOCK_WAIT=0, the
# default), or waits LOCK_WAIT seconds (or forever) for it. Free of the
# lock: `make help`, and make -p and -q, which run no recipe of the kit.
# Kbuild's KBUILD_LOCK is always taken after this one, inside it.
MAKE_LOCK := $(BUILD_DIR)/.make.lock
LOCK_WAIT ?= 0
LOCK_FREE := help
ifeq ($(abspath $(KBUILD_LOCK)),$(MAKE_LOCK))
$(error KBUILD_LOCK=$(KBUILD_LOCK) is the build directory's lock: Kbuild would wait for the make that holds it)
endif
ifneq ($(KIT_LOCKED),$(BUILD_DIR))
ifneq ($(filter-out $(LOCK_FREE),$(or $(MAKECMDGOALS),all)),)
ifeq ($(findstring p,$(firstword -$(MAKEFLAGS)))$(findstring q,$(firstword -$(MAKEFLAGS))),)
need_lock := 1
endif
endif
endif

ifeq ($(need_lock),1)
# refused at once: one line, before anything runs
ifeq ($(LOCK_WAIT),0)
LOCK_BUSY := $(shell sh $(TOP)/tools/make-lock.sh probe $(MAKE_LOCK) $(BUILD_DIR))
ifneq ($(LOCK_BUSY),)
$(error $(LOCK_BUSY))
endif
endif
sq = $(subst ','\'',$(1))
.PHONY: $(or $(MAKECMDGOALS),all) locked-make
$(or $(MAKECMDGOALS),all): locked-make
	@:
locked-make:
	@sh $(TOP)/tools/make-lock.sh run $(MAKE_LOCK) '$(call sq,$(LOCK_WAIT))' $(BUILD_DIR) \
		'$(call sq,make $(MAKECMDGOALS) $(MAKEOVERRIDES))' \
		$(MAKE) --no-print-directory $(MAKECMDGOALS)
else

.PHONY: all deps kernel variants check-vmlinux checkpatch check test test-patches \
	test-configure clean distclean help initramfs boot boot-variants tools triage \
	verdict report test-tools fuzz-triage bench-triage bench bench-kernels \
	check-ignorelist test-ignorelist fp-rate noise noise-table raw-boot sparse kselftests kcidb \
	test-kcidb test-fanout test-kernel FORCE
## all             (default) build, boot, triage and report
all: kernel boot report

# The stages, in pipeline order; `make help` lists their ## lines in it.
MK_FILES := $(addprefix $(TOP)/mk/,deps.mk tree.mk kernel.mk guest.mk boot.mk \
	triage.mk report.mk corpus.mk findings.mk kcidb.mk fuzz.mk bench.mk hot.mk check.mk)
## help            this list: every target of the Makefile and mk/*.mk
help:
	@sed -n 's/^## //p' $(TOP)/Makefile $(MK_FILES)

include $(MK_FILES)

FORCE:

## clean           remove the build directory's kernels and logs (keeps the unpacked tarball)
clean:
	rm -rf $(TREE) $(OUT)/variants $(OUT)/boots $(OUT)/boot-tests $(BUILD_DIR)/tools \
		$(OUT)/fanout $(BUILD_DIR)/fanout-test $(BUILD_DIR)/check

## distclean       remove the whole build directory (but its lock, which this make holds)
distclean:
	find $(BUILD_DIR) -mindepth 1 -maxdepth 1 ! -name .make.lock -exec rm -rf {} +

endif # need_lock
