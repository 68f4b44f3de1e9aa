# KCIDB: the boot runs' results as one KCIDB v5.3 document (tools/kcidb/).
# The checkout is Debian's linux-source plus the series
# (jobs/kcidb-checkout.sh).

KCIDB_RUNS ?= boot boot-variants detect
KCIDB_DOC := $(OUT)/kcidb.json
KCIDB_CHECKOUT := $(BUILD_DIR)/kcidb-checkout$(KV_NAME).txt
$(KCIDB_CHECKOUT): $(SERIES) $(SERIES_PATCHES) FORCE | $(PRISTINE)/Makefile
	@sh $(TOP)/jobs/kcidb-checkout.sh $(TOP) $(KERNEL) $(PRISTINE) $(LLVM_BIN)/clang \
		$(SERIES) $(SERIES_PATCHES) >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

## kcidb           one KCIDB v5.3 document of the last boot runs: build/<base>/kcidb.json
kcidb: tools $(KCIDB_CHECKOUT)
	@runs=$$(for r in $(KCIDB_RUNS); do \
		f=$(JOBS_DIR)/$(HOSTS_WD)/runs/$$r/boots.tsv; [ -s $$f ] && echo $$f; done); \
	[ -n "$$runs" ] || { echo "kcidb: no run of $(KCIDB_RUNS) yet"; exit 1; }; \
	$(TRIAGE) --kit $(TOP) --kcidb $(KCIDB_CHECKOUT) $$runs >$(KCIDB_DOC).tmp && \
		mv $(KCIDB_DOC).tmp $(KCIDB_DOC) && \
	echo "kcidb: $(KCIDB_DOC) from $$(echo $$runs | wc -w) run(s):" \
		"$$(grep -c '"path": ' $(KCIDB_DOC)) tests," \
		"$$(grep -c '"report_subject": ' $(KCIDB_DOC)) issues," \
		"$$(grep -c '"issue_id": ' $(KCIDB_DOC)) incidents"
