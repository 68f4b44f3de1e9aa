# Stage 4: boots. Each writes $(OUT)/boots/NAME/{console.log,verdict,boot.txt}.
# Boots are jobs (jobs/README.md): a target writes a job list, and
# jobs/run-jobs.sh runs it here (BOOT_JOBS at once), or, with HOSTS=FILE
# (GNU parallel's --sshloginfile), on those machines over ssh. Each job's
# results land in its directory complete, or not at all. The knobs
# (BOOT_TIMEOUT, ACCEL, HOSTS, ...) are in the top Makefile.

QEMU_OPTS = -s $(QEMU_CPUS) -m $(QEMU_MEM) -D $(QEMU_DEVICES)
RUN_QEMU := $(TOP)/boot-tests/host/run-qemu.sh
REPRODUCERS := perf-cve-2023-6931,perf-u16-2015
JOBS_DIR := $(OUT)/fanout
# One line of a job list: name, result directory, bzImage, initramfs,
# vmlinux, build, expectation, workloads, run-qemu.sh options.
JOB_LINE = printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(strip $(1))" "$(strip $(2))" \
	"$(strip $(3))" "$(strip $(4))" "$(strip $(5))" "$(strip $(6))" "$(strip $(7))" \
	"$(strip $(8))" "$(strip $(9))"
# $(call RUN_JOBS,RUN,JOBLIST[,more run-jobs.sh options])
RUN_JOBS = sh $(TOP)/jobs/run-jobs.sh -n $(1) -d $(JOBS_DIR) -K $(TOP) -T $(TRIAGE) \
	-W $(HOSTS_WD) -j $(BOOT_JOBS) -R $(BOOT_TRIES) \
	$(if $(HOSTS),-H $(abspath $(HOSTS)) -S '$(HOSTS_SSH)') $(3) $(2)
# the kit's main kernel, as KCIDB's build config_name
MAIN_BUILD := kit-$(BASE_NAME)-$(SANITIZERS)$(if $(filter 1,$(TRAP)),-trap)

## boot            boot the kit's kernel with every workload (a job; HOSTS=FILE: over ssh)
boot: initramfs tools
	@mkdir -p $(JOBS_DIR)
	@$(call JOB_LINE,fixed,$(OUT)/boots/fixed,$(TREE)/arch/x86/boot/bzImage,$(INITRAMFS), \
		$(TREE)/vmlinux,$(MAIN_BUILD),fixed,all,-a $(ACCEL) -t $(BOOT_TIMEOUT) $(QEMU_OPTS)) \
		>$(JOBS_DIR)/boot.jobs
	@$(call RUN_JOBS,boot,$(JOBS_DIR)/boot.jobs)

## boot-variants   boot each perf-bug kernel with the two reproducers (jobs)
boot-variants: initramfs variants tools
	@mkdir -p $(JOBS_DIR)
	@for v in $(REGRESSIONS); do \
		$(call JOB_LINE,$$v,$(OUT)/boots/$$v,$(OUT)/variants/$$v/arch/x86/boot/bzImage, \
			$(INITRAMFS),$(OUT)/variants/$$v/vmlinux,variant-$$v,caught,$(REPRODUCERS), \
			-a $(ACCEL) -t $(BOOT_TIMEOUT) $(QEMU_OPTS)); \
	done >$(JOBS_DIR)/boot-variants.jobs
	@$(call RUN_JOBS,boot-variants,$(JOBS_DIR)/boot-variants.jobs)


SOAK_BOOTS ?= 100
SOAK_JOBS ?= 2
# make soak's exit status is report/soak.sh's (the runner's is left to it: a job
# that never finished is a lost log); QEMUs of this run still alive are
# found by the run's folder on their command line (the console's path).
## soak            boot the kit's kernel SOAK_BOOTS (100) times, SOAK_JOBS (2) at a time: lost logs, QEMU left, flaky verdicts, boot times
soak: BOOT_JOBS = $(SOAK_JOBS)
soak: initramfs tools
	@rm -rf $(OUT)/soak && mkdir -p $(JOBS_DIR)
	@for i in $$(seq -w $(SOAK_BOOTS)); do \
		$(call JOB_LINE,soak-$$i,$(OUT)/soak/soak-$$i,$(TREE)/arch/x86/boot/bzImage, \
			$(INITRAMFS),$(TREE)/vmlinux,$(MAIN_BUILD),fixed,all, \
			-a $(ACCEL) -t $(BOOT_TIMEOUT) $(QEMU_OPTS)); \
	done >$(JOBS_DIR)/soak.jobs
	@$(call RUN_JOBS,soak,$(JOBS_DIR)/soak.jobs,-F) | tee $(OUT)/soak.log; \
	sh $(TOP)/report/soak.sh $(JOBS_DIR)/soak.jobs $(JOBS_DIR)/$(HOSTS_WD)/runs/soak/joblog \
		$(JOBS_DIR)/$(HOSTS_WD)/runs/soak/ >$(OUT)/soak.tap; st=$$?; \
	tee -a $(OUT)/soak.log <$(OUT)/soak.tap; exit $$st
