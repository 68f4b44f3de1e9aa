# Stage 5: triage (tools/ubsan-triage), and its own tests' tools: the
# parser under libFuzzer and its throughput bench.

TRIAGE := $(BUILD_DIR)/tools/ubsan-triage
## tools           build ubsan-triage
tools: $(BUILD_DIR)/.deps-stamp
	@$(MAKE) -s -C $(TOP)/tools O=$(BUILD_DIR)/tools

# triage.tsv for sh, triage.json for machines; "new" sites do not fail here.
# Both are symbolized: an early-boot report with no reliable frame is named
# after the frame that passes through its site. Each is written whole or
# not at all (--output: a full disk leaves no triage.tsv that verdict.sh
# would read as a boot without reports); its status is 0, or 1 with the
# reason on stderr.
TRIAGE_BOOT = { $(TRIAGE) --kit $(TOP) --vmlinux $(2)/vmlinux --tsv \
		-o $(OUT)/boots/$(1)/triage.tsv $(OUT)/boots/$(1)/console.log; [ $$? -le 1 ]; } && \
	{ $(TRIAGE) --kit $(TOP) --vmlinux $(2)/vmlinux --json \
		-o $(OUT)/boots/$(1)/triage.json $(OUT)/boots/$(1)/console.log; [ $$? -le 1 ]; }

## triage          triage the fixed kernel's boot log
triage: tools
	@$(call TRIAGE_BOOT,fixed,$(TREE))
	@$(TRIAGE) --kit $(TOP) --vmlinux $(TREE)/vmlinux $(OUT)/boots/fixed/console.log || true
	@$(TRIAGE) --kit $(TOP) --vmlinux $(TREE)/vmlinux --fp-rate $(OUT)/boots/fixed/console.log || true

## fuzz-triage     ubsan-triage's parser under libFuzzer with ASan+UBSan (FUZZ_SECONDS, default 60)
FUZZ_SECONDS ?= 60
fuzz-triage: $(BUILD_DIR)/.deps-stamp
	@$(MAKE) -s -C $(TOP)/tools O=$(BUILD_DIR)/tools FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz

## bench-triage    ubsan-triage throughput against grep on a 1 GiB log
bench-triage: tools
	@$(MAKE) -s -C $(TOP)/tools O=$(BUILD_DIR)/tools bench
