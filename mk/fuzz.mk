# Fuzzing (not part of test): syzkaller drives QEMU VMs of the kit's kernel
# with KCOV (SYZ=1: the main tree of mk/kernel.mk, kconfig/syzkaller.config
# added, over FUZZ_BASE), then ubsan-triage reads every crash directory that
# syz-manager saved (syzkaller/fuzz.sh). The run's files: FUZZ_DIR,
# $(BUILD_DIR)/<base>-syz/fuzz/ by default.

.PHONY: syzkaller fuzz-kernel fuzz-run check-fuzz
# A tarball made by git archive --prefix=syzkaller/, or a checkout; the
# commit must have a complete vendor/ (475a4c203 is the last one).
SYZKALLER_SRC ?= $(abspath $(TOP)/../shared/syzkaller/syzkaller-475a4c203.tar.xz)
SYZKALLER_REV ?= 475a4c203afb8b7d3af51c4fd32bb170ff32a45e
# where syzkaller is built (Go and the binaries); another build directory's
# $(BUILD_DIR)/syzkaller can be named here, `make syzkaller` then finds it
# up to date
SYZ_OUT ?= $(BUILD_DIR)/syzkaller
## syzkaller       Go 1.22 (bookworm-backports, unpacked here) and syzkaller (SYZKALLER_SRC), built once
syzkaller: $(BUILD_DIR)/.deps-stamp
	@sh $(TOP)/syzkaller/build.sh $(SYZ_OUT) $(SYZKALLER_SRC) $(SYZKALLER_REV)

# The base of the fuzzing kernel: BASE if given, else defconfig.
FUZZ_BASE = $(if $(filter command line environment,$(origin BASE)),$(BASE),defconfig)
FUZZ_MINUTES ?= 20
FUZZ_VMS ?= $(JOBS)
FUZZ_PROCS ?= 2
FUZZ_HTTP ?=
# the only syscalls syzkaller may generate (its enable_syscalls; names
# separated by spaces or commas); all by default
FUZZ_SYSCALLS ?=
# the run's directory (manager.cfg, workdir/, consoles/, triage): its
# workdir's corpus and crashes carry over to the next run of the same one
FUZZ_DIR ?= $(OUT)/fuzz
# a fuzzing kernel tree built elsewhere (bzImage, vmlinux, CONFIG_KCOV):
# fuzzed as it is, nothing built
FUZZ_TREE ?=
## fuzz-kernel     build the fuzzing kernel, run syz-manager FUZZ_MINUTES (20) on FUZZ_VMS VMs, triage its crashes
fuzz-kernel: syzkaller tools
	@$(MAKE) -s fuzz-run BASE=$(FUZZ_BASE) SYZ=1

# (internal: fuzz-kernel with SYZ=1) the base's own boots, when there are
# any, add the sites they explained to the ignores.
fuzz-run: $(if $(FUZZ_TREE),,kernel)
	@FUZZ_PROCS=$(FUZZ_PROCS) FUZZ_HTTP='$(FUZZ_HTTP)' FUZZ_SYSCALLS='$(FUZZ_SYSCALLS)' \
		sh $(TOP)/syzkaller/fuzz.sh $(TOP) $(SYZ_OUT)/src/syzkaller \
		$(if $(FUZZ_TREE),$(abspath $(FUZZ_TREE)),$(TREE)) $(abspath $(FUZZ_DIR)) \
		$(FUZZ_MINUTES) $(FUZZ_VMS) $(TRIAGE) \
		$(wildcard $(BUILD_DIR)/$(BASE_NAME)$(KV_NAME)/boots/*/triage.tsv)

# The no-crash run, for real: a short fuzz-kernel on a fresh run directory
# with syscalls that reach no unexplained site, checked by
# syzkaller/test-fuzz.sh. It builds the fuzzing kernel when there is none
# (40-57 min; FUZZ_TREE names a built one), so it is not part of check.
CHECK_FUZZ_MINUTES ?= 5
CHECK_FUZZ_SYSCALLS ?= getpid gettid getuid getgid geteuid getegid getpgrp uname getcwd sched_yield
## check-fuzz      a real CHECK_FUZZ_MINUTES (5) fuzz-kernel on a fresh workdir, harmless syscalls: exit 0,
##                 figures, the consoles' triage, no crash (needs the fuzzing kernel: not in check)
check-fuzz: syzkaller tools
	@sh $(TOP)/syzkaller/test-fuzz.sh $(BUILD_DIR)/check/fuzz \
		$(MAKE) -s -C $(TOP) fuzz-kernel FUZZ_DIR=$(BUILD_DIR)/check/fuzz/run \
		FUZZ_MINUTES=$(CHECK_FUZZ_MINUTES) FUZZ_SYSCALLS='$(CHECK_FUZZ_SYSCALLS)'
