# mstlab's version, compiled into lab/orchestrator/version.c alone as
# MSTLAB_VERSION: scripts/version (`git describe --always --dirty`), or
# what the caller passes (debian/rules: the package's version). The stamp
# is rewritten only when the version changes, so a new commit recompiles
# one file and relinks what links the orchestrator.
ifeq ($(origin MSTLAB_VERSION),undefined)
MSTLAB_VERSION := $(shell scripts/version)
endif
VERSION_STAMP := $(BUILD)/gen/version
VERSION_OBJS := $(call obj,lab/orchestrator/version.c) \
	$(call obj_san,lab/orchestrator/version.c)

.PHONY: version-stamp
$(VERSION_STAMP): version-stamp
	@mkdir -p $(@D)
	@echo '$(MSTLAB_VERSION)' | cmp -s - $@ || echo '$(MSTLAB_VERSION)' >$@
$(VERSION_OBJS): $(VERSION_STAMP)
$(VERSION_OBJS): CFLAGS_BASE += -DMSTLAB_VERSION='"$(MSTLAB_VERSION)"'
