# mstlab — the one entry point. `make help` lists the targets.
SHELL := /bin/bash
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:

BUILD   ?= build
export BUILD
FLAVOR  ?= default
CC      ?= gcc
# Objects for programs and the image; tests get a sanitized copy of each.
CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g \
	-Ilab/include/uapi -Ilab/include -Ilab/libmst -Itests/unit -MMD -MP
CFLAGS  ?= -O2
SANFLAGS := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all

# Filled in by the build.mk of each component.
LIBMST_SRCS :=
LIBMST_LIBS :=
PROGRAMS :=
GUEST_PROGRAMS :=
UNIT_TESTS :=
include $(sort $(wildcard lab/*/*.mk images/*/*.mk checks/*.mk tests/*/*.mk bench/*.mk))

LIBMST     := $(BUILD)/lib/libmst.a
LIBMST_SAN := $(BUILD)/lib/libmst-san.a
obj     = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
obj_san = $(patsubst %.c,$(BUILD)/obj-san/%.o,$(1))

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -c -o $@ $<

$(BUILD)/obj-san/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(SANFLAGS) -c -o $@ $<

$(LIBMST): $(call obj,$(LIBMST_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(LIBMST_SAN): $(call obj_san,$(LIBMST_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

define program_rules
$(BUILD)/bin/$(1): $(call obj,$($(1)_SRCS)) $(LIBMST)
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -o $$@ $$^ $($(1)_LIBS) $(LIBMST_LIBS)
endef
$(foreach p,$(PROGRAMS),$(eval $(call program_rules,$(p))))

define unit_test_rules
$(BUILD)/tests/$(1): $(call obj_san,$($(1)_SRCS) tests/unit/unit.c) $(LIBMST_SAN)
	@mkdir -p $$(@D)
	$$(CC) $(SANFLAGS) -o $$@ $$^ $($(1)_LIBS) $(LIBMST_LIBS)
endef
$(foreach t,$(UNIT_TESTS),$(eval $(call unit_test_rules,$(t))))

-include $(shell find $(BUILD)/obj $(BUILD)/obj-san -name '*.d' 2>/dev/null)

# ---- set-up ---------------------------------------------------------------
DEPS_STAMP := $(BUILD)/.deps-ok
$(DEPS_STAMP): deps.txt scripts/deps
	scripts/deps
	@mkdir -p $(@D) && touch $@

.PHONY: deps
deps:
	scripts/deps
	@mkdir -p $(BUILD) && touch $(DEPS_STAMP)

# ---- userspace --------------------------------------------------------------
.PHONY: all progs unit
progs: $(addprefix $(BUILD)/bin/,$(PROGRAMS))
unit: $(addprefix $(BUILD)/tests/,$(UNIT_TESTS))
all: progs

# ---- guest kernel and image -------------------------------------------------
KERNEL_TARBALL := /usr/src/linux-source-6.1.tar.xz
KERNEL_INPUTS  := $(shell find kernel -type f 2>/dev/null) scripts/build-kernel
BZIMAGE        := $(BUILD)/kernel-$(FLAVOR)/arch/x86/boot/bzImage
INITRAMFS      := $(BUILD)/initramfs.cpio.lz4
OVERLAY        ?=
export OVERLAY
IMAGE_INPUTS   := $(shell find images $(OVERLAY) -type f 2>/dev/null)

$(BZIMAGE): $(KERNEL_INPUTS) | $(DEPS_STAMP)
	scripts/build-kernel $(FLAVOR)

$(INITRAMFS): $(IMAGE_INPUTS) $(addprefix $(BUILD)/bin/,$(GUEST_PROGRAMS)) \
		deps.txt | $(DEPS_STAMP)
	images/build-initramfs $@ $(addprefix $(BUILD)/bin/,$(GUEST_PROGRAMS))

.PHONY: kernel image
kernel: $(BZIMAGE)
image: $(INITRAMFS)

# ---- the main job and the tests ---------------------------------------------
.PHONY: run test vmtest bench
# The main job: every scenario of the default lab, up to down.
DEFAULT_TOPO := topologies/ring4.yaml
run: $(DEPS_STAMP) $(BZIMAGE) $(INITRAMFS) progs
	$(BUILD)/bin/mstlab run $(DEFAULT_TOPO)


test: $(DEPS_STAMP) $(BZIMAGE) $(INITRAMFS) progs unit fuzz
	BZIMAGE=$(BZIMAGE) INITRAMFS=$(INITRAMFS) tests/run

bench: $(DEPS_STAMP) $(BZIMAGE) $(INITRAMFS) progs
	bench/build && BZIMAGE=$(BZIMAGE) INITRAMFS=$(INITRAMFS) bench/boot && \
		bench/up && bench/hsmp && bench/dsa && bench/decode && \
		KERNEL=$(BZIMAGE) INITRD=$(INITRAMFS) bench/mstp

.PHONY: clean distclean help
clean:
	rm -rf $(BUILD)/obj $(BUILD)/obj-san $(BUILD)/lib $(BUILD)/bin \
		$(BUILD)/tests $(INITRAMFS)
distclean:
	rm -rf $(BUILD)

help:
	@echo 'make deps        install the Debian packages listed in deps.txt'
	@echo 'make run         build everything and run the main job'
	@echo 'make test        unit tests and guest tests (booted in QEMU)'
	@echo 'make kernel      guest kernel (FLAVOR=default|debug)'
	@echo 'make image       guest initramfs'
	@echo 'make progs       host and guest programs'
	@echo 'make bench       benchmarks (bench/)'
