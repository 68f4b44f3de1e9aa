# Stage 0: the Debian packages the kit needs, and ajv (npm) for KCIDB.
# Included by the top Makefile.

## deps            install every Debian package the kit needs (apt-get)
DEB_PACKAGES := $(addprefix linux-source-,$(KERNELS)) $(addprefix linux-config-,$(KERNELS)) clang-19 lld-19 llvm-19 libclang-rt-19-dev \
	qemu-system-x86 sparse make gcc libc6-dev flex bison bc cpio kmod \
	libelf-dev libssl-dev dwarves rsync xz-utils perl patch clang-format \
	zlib1g-dev liblzma-dev stress-ng busybox-static libcap-dev \
	parallel openssh-client openssh-server g++ binutils procps \
	libtraceevent-dev shellcheck
# and ajv from npm, into the build directory
NPM_DIR := $(BUILD_DIR)/npm
AJV := $(NPM_DIR)/node_modules/.bin/ajv
deps: $(BUILD_DIR)/.deps-stamp $(AJV)
$(BUILD_DIR)/.deps-stamp: $(TOP)/mk/deps.mk
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
	@mkdir -p $(BUILD_DIR) && touch $@

# ajv (JSON Schema validator, for the KCIDB document), from npm
$(AJV): | $(BUILD_DIR)/.deps-stamp
	@echo "  NPM     ajv-cli@5 ajv-formats@3 -> $(NPM_DIR)"
	@npm install --prefix $(NPM_DIR) --no-audit --no-fund --loglevel=error \
		ajv-cli@5 ajv-formats@3 >$(BUILD_DIR)/npm-install.log 2>&1 || \
		{ cat $(BUILD_DIR)/npm-install.log; exit 1; }
	@touch $@
