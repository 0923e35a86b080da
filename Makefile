# mstlab — the one entry point. `make help` lists the targets.
SHELL := /bin/bash
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:

BUILD   ?= build
export BUILD
# The guest kernel: KERNEL=default|debug|6.12|6.12-debug (scripts/kernel-name);
# FLAVOR=debug, the older spelling, picks the debug build of that version.
KERNEL  ?= default
ifeq ($(FLAVOR),debug)
override KERNEL := $(if $(filter 6.12,$(KERNEL)),6.12-debug,debug)
endif
CC      ?= gcc
# Objects for programs and the image; tests get a sanitized copy of each.
# Include paths are not global: each component's objects see its own
# folder and those of the libraries it declares it uses (lab/build.mk).
CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g \
	-Ilab/include/uapi -Ilab/include -MMD -MP
CFLAGS  ?= -O2
SANFLAGS := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all

# Filled in by the .mk of each component: libraries (LIBRARIES), programs
# (PROGRAMS), unit tests (UNIT_TESTS); lab/build.mk says how.
LIBRARIES :=
PROGRAMS :=
GUEST_PROGRAMS :=
UNIT_TESTS :=
include lab/build.mk
include $(sort $(wildcard lab/*/*.mk images/*/*.mk checks/*.mk tests/*/*.mk bench/*.mk docs/*/*.mk))
$(foreach l,$(LIBRARIES),$(eval $(call library_rules,$(l))))
$(foreach p,$(PROGRAMS),$(eval $(call program_rules,$(p))))
$(foreach t,$(UNIT_TESTS),$(eval $(call unit_test_rules,$(t))))
$(foreach l,$(LIBRARIES),$(eval $(call library_unit_rules,$(l))))

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
# An unknown KERNEL keeps its own name here: build-kernel then says which
# names it knows.
KERNEL_DIR     := $(or $(firstword $(shell scripts/kernel-name '$(KERNEL)' 2>/dev/null)),$(KERNEL))
KERNEL_INPUTS  := $(shell find kernel -type f 2>/dev/null) scripts/build-kernel \
	scripts/kernel-name
BZIMAGE        := $(BUILD)/kernel-$(KERNEL_DIR)/arch/x86/boot/bzImage
INITRAMFS      := $(BUILD)/initramfs.cpio.lz4
OVERLAY        ?=
export OVERLAY
IMAGE_INPUTS   := $(shell find images $(OVERLAY) -type f 2>/dev/null)

$(BZIMAGE): $(KERNEL_INPUTS) | $(DEPS_STAMP)
	scripts/build-kernel $(KERNEL)

$(INITRAMFS): $(IMAGE_INPUTS) $(addprefix $(BUILD)/bin/,$(GUEST_PROGRAMS)) \
		deps.txt | $(DEPS_STAMP)
	images/build-initramfs $@ $(addprefix $(BUILD)/bin/,$(GUEST_PROGRAMS))

.PHONY: kernel image
kernel: $(BZIMAGE)
image: $(INITRAMFS)

# ---- install and package -----------------------------------------------------
# make install [PREFIX=/usr/local] [DESTDIR=], make uninstall, make deb
include lab/install.mk

# ---- the main job and the tests ---------------------------------------------
.PHONY: run test vmtest bench conformance
# The main job: every scenario of the default lab, up to down.
DEFAULT_TOPO := topologies/ring4.yaml
run: $(DEPS_STAMP) $(BZIMAGE) $(INITRAMFS) progs
	$(BUILD)/bin/mstlab run $(DEFAULT_TOPO)


test: $(DEPS_STAMP) $(BZIMAGE) $(INITRAMFS) progs unit fuzz man
	BZIMAGE=$(BZIMAGE) INITRAMFS=$(INITRAMFS) tests/run

# The guest suites on Debian's 6.12 and labs on 6.12 and on both
# kernels at once (docs/kernels.md). Not in make test: a cold 6.12 build
# alone took 20-35 min on this 2-core host under load.
.PHONY: matrix-test
matrix-test: $(DEPS_STAMP) $(INITRAMFS) progs
	$(MAKE) kernel KERNEL=default
	$(MAKE) kernel KERNEL=6.12
	KERNEL=6.12 tests/run boot guest hsmp dsa kernels

# The conformance library (topologies/conformance/), one lab at a time,
# into one report (docs/conformance.md); then the simulator's timed
# campaign, 20,000 seeds without and with loop_guard (about an hour of
# CPU; SEEDS=N for fewer), which fails on any loop that is not a
# one-way link's without the guard, on any loop with it, on a split VLAN.
conformance: $(DEPS_STAMP) $(BZIMAGE) $(INITRAMFS) progs
	tests/conformance/run
	bench/mstp timing

bench: $(DEPS_STAMP) $(BZIMAGE) $(INITRAMFS) progs
	bench/build && BZIMAGE=$(BZIMAGE) INITRAMFS=$(INITRAMFS) bench/boot && \
		bench/up && bench/down && bench/hsmp && bench/dsa && bench/decode && \
		KERNEL=$(BZIMAGE) INITRD=$(INITRAMFS) bench/mstp && bench/multihost

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
	@echo 'make matrix-test the guest suites and labs on 6.12, and a lab of 6.1 and 6.12'
	@echo 'make kernel      guest kernel (KERNEL=default|debug|6.12|6.12-debug;'
	@echo '                 6.1 and 6.1-debug are default and debug; FLAVOR=debug'
	@echo '                 picks the debug one)'
	@echo 'make image       guest initramfs'
	@echo 'make progs       host and guest programs'
	@echo 'make man         man pages in $(BUILD)/man (sources: docs/man/*.scd)'
	@echo 'make install     mstlab, the guest kernel and image, man pages under PREFIX (/usr/local)'
	@echo 'make uninstall   remove what make install put there'
	@echo 'make deb         the Debian package, in $(BUILD)/deb'
	@echo 'make conformance the 802.1Q conformance library in VMs, one report'
	@echo 'make bench       benchmarks (bench/)'
