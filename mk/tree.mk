# Stage 1: "a kernel tree", the one template of the kit: a copy of the
# unpacked tarball (or of another tree, objects included), brought to a
# patch series by patches/apply-series.sh, configured by
# kconfig/configure.sh from a base and fragments, and built by Kbuild under
# the kit's lock. The main tree (mk/kernel.mk; with SYZ=1 the fuzzing tree),
# the raw tree (mk/report.mk), the bench trees (mk/bench.mk) and the detect
# tree (mk/corpus.mk) are instances of tree_rules; the variants
# (mk/kernel.mk) and the detect builds use its steps one by one.

PRISTINE := $(BUILD_DIR)/src/linux-source-$(KERNEL)
PATCHES := $(TOP)/patches/$(KERNEL)
SERIES := $(PATCHES)/series
# the patch files a series names (paths relative to the series' folder)
series_patches = $(addprefix $(dir $(1)),$(shell sed -e 's/\#.*//' $(1)))
SERIES_PATCHES := $(call series_patches,$(SERIES))
# a corpus bug's revert for this kernel
bug_patch = $(TOP)/corpus/$(1)/$(KERNEL).patch

# Unpacked under a scratch name and renamed when whole: a full disk (or
# an interrupt) leaves no tree with a Makefile that later stages would take
# for the tarball's. The room is checked first (its tar size in xz's index,
# plus an eighth for the blocks), and a disk that fills anyway is named in
# one line instead of tar's error for every file it could not write.
$(PRISTINE)/Makefile: | $(BUILD_DIR)/.deps-stamp
	@echo "  UNPACK  $(TARBALL)"
	@rm -rf $(PRISTINE) $(PRISTINE).tmp && need=$$($(SPACE) unpacked $(TARBALL)) && \
	$(SPACE) run -q $(PRISTINE) $$need sh -c 'mkdir -p "$$1" && \
		exec tar -C "$$1" --strip-components=1 -xf "$$2"' - $(PRISTINE).tmp $(TARBALL) || \
		{ rm -rf $(PRISTINE).tmp; exit 1; }
	@mv $(PRISTINE).tmp $(PRISTINE)
	@v=$$(make -s -C $(PRISTINE) kernelversion); echo "  VERSION $$v"; \
	[ "$$v" = $(KERNEL_VERSION_$(KERNEL)) ] || \
		echo "warning: the series was made for $(KERNEL_VERSION_$(KERNEL)), not $$v"

# The steps, as shell for recipes:
# $(call TREE_COPY,DIR[,TWIN]) copies the unpacked tarball to DIR, or TWIN,
# objects included, when TWIN has a vmlinux (patches/copy-tree.sh), into
# DIR.tmp renamed when whole, after checking the room for it (the size of
# what is copied); a copy cut short by a full disk is removed.
COPY_TREE := sh $(TOP)/patches/copy-tree.sh
TREE_COPY = rm -rf $(1).tmp; \
	if [ -n '$(strip $(2))' ] && [ -s '$(strip $(2))/vmlinux' ]; then \
		echo "  COPY    $(1), objects included, from $(strip $(2))"; \
		need=$$($(SPACE) size $(strip $(2))) && $(SPACE) run -q $(1) $$need \
			$(COPY_TREE) $(strip $(2)) $(1).tmp $(1); \
	else echo "  COPY    $(1)"; need=$$($(SPACE) size $(PRISTINE)) && \
		$(SPACE) run -q $(1) $$need cp -a $(PRISTINE) $(1).tmp; fi && \
	mv $(1).tmp $(1) || { rm -rf $(1).tmp; exit 1; }
# $(call TREE_SERIES,DIR,SERIES,LOG[,EXTRA_PATCH...]): DIR = series (+ patches)
TREE_SERIES = $(TOP)/patches/apply-series.sh $(PRISTINE) $(1) $(2) $(4) >$(3) || \
	{ cat $(3); exit 1; }
# $(call TREE_CONFIG,DIR,FRAGMENTS)
TREE_CONFIG = $(TOP)/kconfig/configure.sh $(1) $(BASE_ARG) $(2)
# $(call KMAKE,DIR) TARGETS...: Kbuild under the lock, once the room for
# it is there (KBUILD_MIB, or a relink's for a built tree: tools/space.sh
# kbuild); a disk that fills during the build is named after Kbuild's error
KMAKE = mkdir -p $(BUILD_DIR) && flock $(KBUILD_LOCK) $(SPACE) run $(1) \
	$$($(SPACE) kbuild $(1) $(KBUILD_MIB)) $(MAKE) -C $(1) ARCH=x86_64 LLVM=1 -j$(JOBS)
# $(call KMAKE_MODS,DIR,TARGETS,MODULES): Kbuild's TARGETS, then the single
# modules among them and MODULES (words, or a shell expansion) in a run of
# their own: a .ko beside other targets makes Kbuild build every target
# alone, and modpost then misses the exports of the other modules of the
# list (af_alg's for algif_hash).
KMAKE_MODS = $(call KMAKE,$(1)) $(filter-out %.ko,$(2)) && \
	kos="$(filter %.ko,$(2)) $(3)" && \
	{ [ -z "$$(echo $$kos)" ] || $(call KMAKE,$(1)) $$kos; }

# $(call tree_rules,DIR,SERIES,SERIES_DEPS,FRAGMENTS,CONFIG_DEPS,LOG,BEFORE_COPY,TWIN)
# DIR/Makefile        the copy (BEFORE_COPY: a shell command run first)
# DIR/.kit-patches/stamp  the series applied; checked every time (cheap), so
#                     that a hand-edited tree stops the build; rewritten,
#                     with the series log shown, only when the series changed
# DIR/.kit-config-stamp   the configuration of BASE and FRAGMENTS
define tree_rules
$(1)/Makefile: | $(PRISTINE)/Makefile
	@$(if $(7),$(7),:)
	@mkdir -p $(dir $(1)); $$(call TREE_COPY,$(1),$(8))

$(1)/.kit-patches/stamp: $(2) $(3) $(TOP)/patches/apply-series.sh FORCE | $(1)/Makefile
	@$$(call TREE_SERIES,$(1),$(2),$(6))
	@if ! cmp -s $(1)/.kit-patches/manifest $$@; then cat $(6); \
		cp $(1)/.kit-patches/manifest $$@; fi

$(1)/.kit-config-stamp: $(4) $(5) $(TOP)/kconfig/configure.sh $(1)/.kit-patches/stamp $(BASE_FILE)
	@$$(call TREE_CONFIG,$(1),$(4))
	@touch $$@
endef
