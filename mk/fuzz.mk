# Fuzzing (not part of test): syzkaller drives QEMU VMs of the kit's kernel
# with KCOV (SYZ=1: the main tree of mk/kernel.mk, kconfig/syzkaller.config
# added, over FUZZ_BASE), then ubsan-triage reads every crash directory that
# syz-manager saved (syzkaller/fuzz.sh). The run's files: $(BUILD_DIR)/<base>-syz/fuzz/.

.PHONY: syzkaller fuzz-kernel fuzz-run
# A tarball made by git archive --prefix=syzkaller/, or a checkout; the
# commit must have a complete vendor/ (475a4c203 is the last one).
SYZKALLER_SRC ?= $(abspath $(TOP)/../shared/syzkaller/syzkaller-475a4c203.tar.xz)
SYZKALLER_REV ?= 475a4c203afb8b7d3af51c4fd32bb170ff32a45e
SYZ_OUT := $(BUILD_DIR)/syzkaller
## syzkaller       Go 1.22 (bookworm-backports, unpacked here) and syzkaller (SYZKALLER_SRC), built once
syzkaller: $(BUILD_DIR)/.deps-stamp
	@sh $(TOP)/syzkaller/build.sh $(SYZ_OUT) $(SYZKALLER_SRC) $(SYZKALLER_REV)

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
		sh $(TOP)/syzkaller/fuzz.sh $(TOP) $(SYZ_OUT)/src/syzkaller $(TREE) $(OUT)/fuzz \
		$(FUZZ_MINUTES) $(FUZZ_VMS) $(TRIAGE) \
		$(wildcard $(BUILD_DIR)/$(BASE_NAME)$(KV_NAME)/boots/*/triage.tsv)

