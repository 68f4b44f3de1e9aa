# Stages 1 and 2: the main tree (patches/, kconfig/, sanitizer-ignorelist/)
# and its kernel build; the variants (a corpus bug put back into a copy of
# the main tree); the checks on the patched tree and its vmlinux.

IGNORELISTS := $(sort $(wildcard $(TOP)/sanitizer-ignorelist/*.scl)) $(BUDGET_SCL)
# The patch that adds <linux/wrapping.h>: its wrap_ types become type:
# entries of the list when the compiler takes them (Clang 20 and later).
WRAPPING_PATCH := $(wildcard $(PATCHES)/0008-include-linux-Add-wrapping-types-*.patch)
# The lists are concatenated into one file, rewritten only when it changes
# (and only when it was written whole: a list cut short by a full disk
# would leave sites unignored).
# Kbuild cannot track its content (fixdep takes Clang's first dependency,
# the list, for the source file), so CONFIG_UBSAN_INTEGER_IGNORELIST names a
# copy whose file name carries the content's hash: an edit changes the
# config, hence every instrumented object's command line, and they rebuild.
IGNORELIST := $(BUILD_DIR)/integer-ignorelist$(BUDGET_NAME).scl
# the fragment that names it
IGNORELIST_CONFIG := $(BUILD_DIR)/ignorelist$(BUDGET_NAME).config
# Each list is checked first (ubsan-triage --check-lists): a line Clang
# would refuse, or an entry type it would ignore, stops the build naming
# the list's file and line, not the concatenation's, and the kernel's
# ignorelist stays as it was.
CHECK_SCL = $(TRIAGE) --check-lists $(addprefix --ignorelist ,$(1))
# The fragments every kernel of the kit starts from: the guest, UBSAN as a
# distribution enables it, and what the kernel version needs of its own.
GUEST_FRAGMENTS := $(TOP)/kconfig/guest.config $(TOP)/kconfig/ubsan.config \
	$(TOP)/kconfig/kernel-$(KERNEL).config
FRAGMENTS := $(GUEST_FRAGMENTS) \
	$(if $(filter integer,$(SANITIZERS)),$(TOP)/kconfig/integer-sanitizers.config \
		$(IGNORELIST_CONFIG)) \
	$(if $(filter 1,$(TRAP)),$(TOP)/kconfig/trap.config) \
	$(if $(UNSIGNED_WRAP),$(OUT)/unsigned-wrap.config) \
	$(if $(filter 1,$(SYZ)),$(TOP)/kconfig/syzkaller.config)

$(IGNORELIST): $(IGNORELISTS) FORCE | tools
	@mkdir -p $(BUILD_DIR)
	@$(call CHECK_SCL,$(IGNORELISTS))
	@{ cat /dev/null $(IGNORELISTS) && \
		sh $(TOP)/sanitizer-ignorelist/gen-type-entries.sh $(LLVM_BIN)/clang \
			$(WRAPPING_PATCH); } >$@.tmp || { $(SPACE) full $@ 1; rm -f $@.tmp; exit 1; }
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; echo "  LIST    $@"; fi

# TRAP and SANITIZERS pick the fragments: a change of either reconfigures.
$(OUT)/.flavor: FORCE
	@mkdir -p $(OUT); echo "TRAP=$(TRAP) SANITIZERS=$(SANITIZERS)" >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

# The fragment of UNSIGNED_WRAP, rewritten only when the setting changes.
# An 8 MiB log buffer: the kernel-wide modes report hundreds of sites
# before the console is up, more than defconfig's 256 KiB buffer keeps
# (only kernel/printk/printk.c reads the option, so the change costs one
# object and a link).
$(OUT)/unsigned-wrap.config: FORCE
	@mkdir -p $(@D); { echo CONFIG_UBSAN_UNSIGNED_WRAP=y; \
	echo CONFIG_LOG_BUF_SHIFT=23; \
	case '$(UNSIGNED_WRAP)' in \
	all) echo CONFIG_UBSAN_UNSIGNED_WRAP_ALL=y ;; \
	size_t) echo CONFIG_UBSAN_UNSIGNED_WRAP_ALL=y; \
		echo CONFIG_UBSAN_UNSIGNED_WRAP_SIZE_T=y ;; \
	*) echo 'CONFIG_UBSAN_UNSIGNED_WRAP_DIRS="$(subst $(comma), ,$(UNSIGNED_WRAP))"' ;; \
	esac; } >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(IGNORELIST_CONFIG): $(IGNORELIST)
	@h=$$(sha256sum <$< | cut -c1-12); mkdir -p $(BUILD_DIR)/ignorelist && \
	cp $< $(BUILD_DIR)/ignorelist/integer-$$h.scl.tmp && \
	mv $(BUILD_DIR)/ignorelist/integer-$$h.scl.tmp $(BUILD_DIR)/ignorelist/integer-$$h.scl || \
		{ $(SPACE) full $@ 1; rm -f $(BUILD_DIR)/ignorelist/integer-$$h.scl.tmp; exit 1; }; \
	echo "CONFIG_UBSAN_INTEGER_IGNORELIST=\"$(BUILD_DIR)/ignorelist/integer-$$h.scl\"" >$@.tmp; \
	if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

# all and size_t instrument the same objects; only lib/ubsan.c reads
# CONFIG_UBSAN_UNSIGNED_WRAP_SIZE_T. The second of the two to be built
# starts as a copy of the other, objects included (patches/copy-tree.sh),
# and Kbuild rebuilds that one file and relinks.
UW_TWIN := $(if $(filter all,$(UNSIGNED_WRAP)),size_t,$(if $(filter size_t,$(UNSIGNED_WRAP)),all))
TWIN_TREE := $(if $(UW_TWIN),$(BUILD_DIR)/$(BASE_NAME)$(KV_NAME)$(call uw_suffix,$(UW_TWIN))$(SYZ_NAME)/linux)

# The main tree (with SYZ=1, the fuzzing tree).
$(eval $(call tree_rules,$(TREE),$(SERIES),$(SERIES_PATCHES),$(FRAGMENTS), \
	$(OUT)/.flavor,$(BUILD_DIR)/.series.log, \
	$(TOP)/kconfig/configure.sh --check $(BASE_ARG),$(TWIN_TREE)))

## kernel          unpack, patch, configure and build bzImage, vmlinux, modules
kernel: $(TREE)/.kit-config-stamp $(IGNORELIST)
	@start=$$(date +%s); \
	before=$$(stat -c %Y $(TREE)/vmlinux 2>/dev/null || echo 0); \
	mods=$$(sh $(KMODS_SH) $(TREE)) || exit 1; \
	$(call KMAKE_MODS,$(TREE),$(KBUILD_TARGETS),$$mods) || exit 1; \
	after=$$(stat -c %Y $(TREE)/vmlinux); \
	if [ "$$before" = "$$after" ]; then echo "kernel: up to date ($$(( $$(date +%s) - start )) s)"; \
	else echo "kernel: built $(TREE)/arch/x86/boot/bzImage in $$(( $$(date +%s) - start )) s"; fi

## variants        build the kernels with a perf bug re-introduced (incremental)
REGRESSIONS := cve-2023-6931 perf-u16-2015
VARIANT_IMAGES := $(foreach v,$(REGRESSIONS),$(OUT)/variants/$(v)/arch/x86/boot/bzImage)
variants: $(VARIANT_IMAGES)

# A variant is a copy of the main tree, objects included, with one more
# patch (corpus/BUG/KERNEL.patch): Kbuild then rebuilds only what that
# patch touches. The files that the patch touches are kept out of the copy
# and managed by apply-series.sh. The sources still the tarball's are hard
# links to the unpacked tarball's (a variant of tiny 6.1 takes 375 MiB, not
# 1.8 GiB); after the build, copy-tree.sh -c makes sure that Kbuild wrote
# none of them. The room is checked first (what the copy writes, plus the
# main tree's relink); if the copy or the build fails, make removes the
# variant's bzImage (.DELETE_ON_ERROR), which rsync may have brought from
# the main tree.
$(OUT)/variants/%/arch/x86/boot/bzImage: $(TOP)/corpus/%/$(KERNEL).patch \
		$(TREE)/vmlinux
	@echo "  VARIANT $*"
	@mkdir -p $(OUT)/variants/$*
	@sed -n 's|^+++ b/\([^[:space:]]*\).*|/\1|p' $< >$(OUT)/variants/.$*.exclude
	@copy=$$($(COPY_TREE) -n $(TREE) $(OUT)/variants/$* $(OUT)/variants/.$*.exclude $(PRISTINE)) && \
	need=$$((copy + $$($(SPACE) kbuild $(TREE) 0))) && \
	$(SPACE) run -q $(OUT)/variants/$* $$need $(COPY_TREE) $(TREE) $(OUT)/variants/$* \
		$(OUT)/variants/$* $(OUT)/variants/.$*.exclude $(PRISTINE)
	@# The copy is the kit's, never edited by hand: its series files come
	@# from the main tree, so the hand-edit manifest does not apply.
	@rm -f $(OUT)/variants/$*/.kit-patches/manifest
	@# rsync brought the main tree's objects of the files the patch touches:
	@# make the sources newer so that Kbuild rebuilds them.
	@sed "s|^|$(OUT)/variants/$*|" $(OUT)/variants/.$*.exclude | xargs -r touch
	@$(TOP)/patches/apply-series.sh $(PRISTINE) $(OUT)/variants/$* $(SERIES) $<
	@start=$$(date +%s); $(call KMAKE_MODS,$(OUT)/variants/$*,$(KBUILD_TARGETS)) || exit 1; \
	echo "variant $*: built in $$(( $$(date +%s) - start )) s"
	@$(COPY_TREE) -c $(OUT)/variants/$*

## check-vmlinux   count the calls to each integer sanitizer handler in vmlinux
HANDLERS := add_overflow sub_overflow mul_overflow negate_overflow implicit_conversion
check-vmlinux: kernel
	@llvm-objdump -d --no-show-raw-insn $(TREE)/vmlinux | \
		grep -oE '(call|jmp)q?[[:space:]]+(0x)?[0-9a-f]+ <__ubsan_handle_[a-z_0-9]+>' | \
		sed 's/.*<\(.*\)>/\1/' | sort | uniq -c >$(OUT)/handler-calls.txt
	@cat $(OUT)/handler-calls.txt
	@for h in $(HANDLERS); do \
		grep -q "__ubsan_handle_$$h$$" $(OUT)/handler-calls.txt || \
		{ echo "check-vmlinux: no call to __ubsan_handle_$$h in vmlinux"; exit 1; }; \
	done; echo "check-vmlinux: every integer handler is called from vmlinux"

## checkpatch      run the tree's scripts/checkpatch.pl over every patch and corpus revert
checkpatch: | $(PRISTINE)/Makefile
	@fail=0; for p in $(SERIES_PATCHES) $(wildcard $(TOP)/corpus/*/$(KERNEL).patch \
		$(TOP)/patches/findings/*/$(KERNEL).patch); do \
		out=$$(cd $(PRISTINE) && perl scripts/checkpatch.pl -q --no-tree $$p); \
		printf '%s: %s\n' "$$(realpath --relative-to=$(TOP) $$p)" \
			"$$(echo "$$out" | grep -E '^total:' || echo clean)"; \
		echo "$$out" | grep -A3 -E '^(ERROR|WARNING)' | sed 's/^/    /'; \
		echo "$$out" | grep -q '^ERROR' && fail=1; \
	done; exit $$fail

## check-ignorelist every ignorelist entry still matches the patched tree, with a reason
check-ignorelist: | $(TREE)/.kit-patches/stamp
	@sh $(TOP)/sanitizer-ignorelist/gen-type-entries.sh $(LLVM_BIN)/clang \
		$(WRAPPING_PATCH) >$(BUILD_DIR)/type-entries.scl
	@sh $(TOP)/sanitizer-ignorelist/check-ignorelist.sh $(TREE) $(IGNORELISTS) \
		$$([ -s $(BUILD_DIR)/type-entries.scl ] && echo $(BUILD_DIR)/type-entries.scl)

## sparse          sparse (C=2) on every file the patches touch: no new warning
sparse: kernel
	@flock $(KBUILD_LOCK) sh $(TOP)/patches/sparse-compare.sh $(PRISTINE) $(TREE) \
		$(BUILD_DIR)/sparse-base $(SERIES)
