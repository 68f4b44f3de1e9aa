# The tests. make check: everything that needs no kernel (under 2 minutes
# on 2 cores), each test printing KTAP, run side by side, with one KTAP
# summary (tools/check-run.sh). make test: what CI runs, make check first,
# then the kernel stages, for KERNEL and every other kernel (TEST_KERNELS).

CHECK_DIR := $(BUILD_DIR)/check
CHECK_RUN = sh $(TOP)/tools/check-run.sh run $(CHECK_DIR) $(1)
# the longest first: make -j starts them in this order
CHECKS := tools runner disk ignores shell format lock inputs docs corpus series verdict
# the kernel tree's .clang-format: the unpacked 6.1 tarball's, if any
CLANG_FORMAT_STYLE ?= $(BUILD_DIR)/src/linux-source-6.1/.clang-format
PEER_LOGS ?= $(abspath $(TOP)/../shared/peer-logs)
.PHONY: $(addprefix check-,$(CHECKS)) check-run test-runner chaos

## check           the tests that need no kernel, KTAP: tools, runner selftest, shellcheck,
##                 clang-format, a full disk, the lock, bad inputs, docs, corpus,
##                 series and the trap verdict (build/check/NAME.log)
check: tools
	@$(MAKE) -s -j$(JOBS) check-run
	@sh $(TOP)/tools/check-run.sh summary $(CHECK_DIR) $(CHECKS)

check-run: $(addprefix check-,$(CHECKS))

## check-tools     ubsan-triage's unit and corpus tests (make -C tools test)
check-tools: tools
	@$(call CHECK_RUN,tools) $(MAKE) -s -C $(TOP)/tools O=$(BUILD_DIR)/tools \
		PEER_LOGS=$(PEER_LOGS) test

## check-disk      a full disk: each stage that needs no kernel, on a 64 MiB tmpfs it mounts
##                 (root; else a SKIP), fails with one line and leaves nothing half written
check-disk: tools
	@$(call CHECK_RUN,disk) env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
		sh $(TOP)/tools/tests/disk-test.sh $(TOP) $(CHECK_DIR)/disk $(TRIAGE)

## check-ignores   syzkaller/test-ignores.sh: the syz-manager ignores of the triage's logs
check-ignores: tools
	@$(call CHECK_RUN,ignores) sh $(TOP)/syzkaller/test-ignores.sh $(TOP) $(TRIAGE) \
		$(TOP)/tools/testdata/*.log $$(find $(PEER_LOGS) -type f 2>/dev/null)

## check-runner    the runner's selftest with its fake kernel (boot-tests/tests/selftest.sh)
check-runner:
	@$(call CHECK_RUN,runner) env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS KERNEL=none \
		sh $(TOP)/boot-tests/tests/selftest.sh

## check-shell     shellcheck on every shell script (tools/check-shell.sh)
check-shell:
	@$(call CHECK_RUN,shell) sh $(TOP)/tools/check-shell.sh $(TOP)

## check-format    clang-format on the tools' and the guest's C, kernel style (tools/check-format.sh)
check-format:
	@$(call CHECK_RUN,format) sh $(TOP)/tools/check-format.sh $(TOP) $(CLANG_FORMAT_STYLE)

## check-lock      two makes in one build directory: the second refuses, or waits with LOCK_WAIT
check-lock:
	@$(call CHECK_RUN,lock) sh $(TOP)/tools/tests/lock-test.sh $(TOP) $(CHECK_DIR)/lock

## check-inputs    bad kit lists, logs, WORKLOADS, HOSTS, KERNEL: one error naming file:line
check-inputs: tools
	@$(call CHECK_RUN,inputs) sh $(TOP)/tools/tests/inputs-test.sh $(TOP) $(TRIAGE) \
		$(CHECK_DIR)/inputs

## check-docs      every make target and repo path the README and docs/ name exists
check-docs:
	@$(call CHECK_RUN,docs) sh $(TOP)/tools/check-docs.sh $(TOP)

## check-corpus    every corpus/BUG/ folder is complete (corpus/check-corpus.sh)
check-corpus:
	@$(call CHECK_RUN,corpus) sh $(TOP)/corpus/check-corpus.sh $(TOP)

## check-series    every series names existing patches, every patch is in a series
check-series:
	@$(call CHECK_RUN,series) sh $(TOP)/patches/check-series.sh $(TOP)

## check-verdict   report/verdict.sh on the trap kernels' real boots (6.12, 6.1) and on eight ways they go wrong
check-verdict: tools
	@$(call CHECK_RUN,verdict) sh $(TOP)/tools/tests/verdict-test.sh $(TOP) $(TRIAGE) \
		$(CHECK_DIR)/verdict

## test            what CI runs: make check, then patches, kernel, handler calls, ignorelist,
##                 runner on the kernel, parser fuzzing, boots, fan-out, KCIDB, verdicts;
##                 then test-kernel for every other kernel (TEST_KERNELS: 6.12)
TEST_KERNELS ?= $(filter-out $(KERNEL),$(KERNELS))
test: check deps test-patches checkpatch kernel check-vmlinux check-ignorelist \
		test-ignorelist test-configure test-runner fuzz-triage boot boot-variants \
		test-fanout test-kcidb
	@$(MAKE) -s verdict
	@for k in $(TEST_KERNELS); do echo "test: KERNEL=$$k"; \
		$(MAKE) -s test-kernel KERNEL=$$k || exit 1; done

# The ignorelist, the tools, the runner, fan-out and KCIDB are the same for
# every kernel: test checks them once, on KERNEL (6.1).
## test-kernel     one kernel's part of test (KERNEL=): patches, checkpatch, build, handler calls, boots, verdicts
test-kernel: deps test-patches checkpatch kernel check-vmlinux boot boot-variants
	@$(MAKE) -s verdict

## test-patches    apply-series.sh: applies, skips the perf fixes, stops on hand edits;
##                 copy-tree.sh: shares the tarball's files, names one written in place
test-patches: | $(PRISTINE)/Makefile
	@$(TOP)/patches/test-apply-series.sh $(PRISTINE) $(SERIES)
	@sh $(TOP)/patches/test-copy-tree.sh $(PRISTINE)

## test-configure  a bad BASE stops configure.sh with its reason and leaves .config as it was
test-configure: kernel
	@flock $(KBUILD_LOCK) sh $(TOP)/kconfig/test-configure.sh $(TREE) $(FRAGMENTS)

## test-ignorelist check-ignorelist.sh catches stale, unexplained and broad entries
test-ignorelist: | $(TREE)/.kit-patches/stamp
	@sh $(TOP)/sanitizer-ignorelist/test-check-ignorelist.sh $(TREE)

## test-runner     the runner's selftest with the kit's kernel too (real boots; KTAP)
test-runner: kernel
	@KERNEL=$(TREE)/arch/x86/boot/bzImage sh $(TOP)/boot-tests/tests/selftest.sh

## test-tools      check-tools, check-ignores and test-runner
test-tools: check-tools check-ignores test-runner
	@sh $(TOP)/tools/check-run.sh summary $(CHECK_DIR) tools ignores

## test-fanout     the fixed and variant boots over a throw-away sshd on 127.0.0.1 and here
test-fanout: boot boot-variants
	@sh $(TOP)/jobs/test-fanout.sh $(TOP) $(TRIAGE) $(BUILD_DIR)/fanout-test \
		$(JOBS_DIR)/boot.jobs $(JOBS_DIR)/boot-variants.jobs

## test-kcidb      build/kcidb.json validates (ajv, tools/kcidb/schema.json); broken copies do not
test-kcidb: kcidb $(AJV)
	@sh $(TOP)/tools/kcidb/test-kcidb.sh $(AJV) $(NPM_DIR)/node_modules/ajv-formats \
		$(TOP)/tools/kcidb/schema.json $(KCIDB_DOC) \
		$(TRIAGE) $(TOP) $(KCIDB_CHECKOUT) $(PEER_LOGS)

# make chaos (issue 30): the tiny 6.1 pipeline (kernel, boots, verdicts)
# killed 22 times over its twelve stages, with SIGINT, SIGTERM and SIGKILL
# in turn, each kill followed by an undisturbed rerun that must end with
# what an undisturbed run ended with (tools/tests/chaos-test.sh,
# docs/chaos.md). Its own build directory, emptied first; its Kbuild
# runs take KBUILD_LOCK like every other.
CHAOS_DIR ?= $(BUILD_DIR)/chaos
CHAOS_SEED ?= 1
## chaos           kill the tiny 6.1 pipeline 22 times over every stage, rerun, compare with an
##                 undisturbed run (CHAOS_DIR, CHAOS_SEED; 65-103 min on 2 cores; docs/chaos.md)
chaos:
	@[ '$(abspath $(CHAOS_DIR))' != '$(BUILD_DIR)' ] || \
		{ echo "chaos: CHAOS_DIR must not be the build directory"; exit 2; }
	@CHAOS_SEED='$(CHAOS_SEED)' JOBS='$(JOBS)' LLVM_NM=$(LLVM_BIN)/llvm-nm \
		sh $(TOP)/tools/tests/chaos-test.sh $(TOP) $(abspath $(CHAOS_DIR)) $(abspath $(KBUILD_LOCK))
