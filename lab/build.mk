# How components declare themselves, and the one set of rules that builds
# them. Each library, program and unit test names the project libraries it
# USES; include paths and link lines are derived from those declarations
# alone, so an #include of a library not declared fails to compile, and
# `make layering` (scripts/layering) checks the declared graph itself.
#
#   LIBRARIES += foo          a library: lib/libfoo.a and lib/libfoo-san.a
#   foo_DIR    := lab/foo      its folder (its headers live there)
#   foo_SRCS   := ...          its sources, all in foo_DIR
#   foo_USES   := bar baz      project libraries it includes and links
#   foo_LDLIBS := -lyaml       system libraries it needs
#
#   PROGRAMS += prog          prog_SRCS, prog_USES, prog_LDLIBS likewise;
#                             its sources' folders are on its include path
#   UNIT_TESTS += test_x      test_x_SRCS (beside tests/unit/unit.c),
#                             test_x_USES, test_x_LDLIBS; sanitized

# uniq_last: each word once, at its last place. After a depth-first walk
# every library then comes after all the ones that use it: link order.
uniq_last = $(if $(strip $(1)),$(call uniq_last,$(filter-out \
	$(lastword $(1)),$(1))) $(lastword $(1)))
# The path walked so far ($(2)) stops a cycle from recursing for ever:
# scripts/layering reports it.
uses_walk = $(foreach l,$(filter-out $(2),$(1)),$(l) $(call \
	uses_walk,$($(l)_USES),$(2) $(l)))
# The libraries $(1) use, directly or not, in link order.
uses_closure = $(strip $(call uniq_last,$(call uses_walk,$(1))))
uses_inc = $(foreach l,$(call uses_closure,$(1)),-I$($(l)_DIR))
uses_ldlibs = $(foreach l,$(call uses_closure,$(1)),$($(l)_LDLIBS))
uses_libs = $(foreach l,$(call uses_closure,$(1)),$(BUILD)/lib/lib$(l).a)
uses_libs_san = $(foreach l,$(call uses_closure,$(1)),$(BUILD)/lib/lib$(l)-san.a)
# Every source of the libraries $(1) use (the fuzzers build them whole).
uses_srcs = $(foreach l,$(call uses_closure,$(1)),$($(l)_SRCS))
# The folders of the files in $(1), as -I flags.
src_dirs_inc = $(foreach d,$(sort $(patsubst %/,%,$(dir $(1)))),-I$(d))

obj     = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
obj_san = $(patsubst %.c,$(BUILD)/obj-san/%.o,$(1))

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(COMPONENT_INC) $(CFLAGS) -c -o $@ $<

$(BUILD)/obj-san/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(COMPONENT_INC) $(SANFLAGS) -c -o $@ $<

# A folder's objects see the folder and what its component uses.
define component_inc
$(BUILD)/obj/$(1)/%.o $(BUILD)/obj-san/$(1)/%.o: \
	COMPONENT_INC += -I$(1) $(2)
endef

define library_rules
$(call component_inc,$($(1)_DIR),$(call uses_inc,$($(1)_USES)))
$(BUILD)/lib/lib$(1).a: $(call obj,$($(1)_SRCS))
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
$(BUILD)/lib/lib$(1)-san.a: $(call obj_san,$($(1)_SRCS))
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
endef

define program_rules
$(foreach d,$(sort $(patsubst %/,%,$(dir $($(1)_SRCS)))),$(call \
	component_inc,$(d),$(call uses_inc,$($(1)_USES)))
)
$(BUILD)/bin/$(1): $(call obj,$($(1)_SRCS)) $(call uses_libs,$($(1)_USES))
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -o $$@ $(call obj,$($(1)_SRCS)) \
		$(call uses_libs,$($(1)_USES)) $($(1)_LDLIBS) \
		$(call uses_ldlibs,$($(1)_USES))
endef

# A test's own files see tests/unit, the folders of the program files it
# tests, and what it USES.
define unit_test_rules
$(call obj_san,$(filter tests/%,$($(1)_SRCS))): COMPONENT_INC += \
	-Itests/unit $(call src_dirs_inc,$(filter-out tests/%,$($(1)_SRCS))) \
	$(call uses_inc,$($(1)_USES))
$(BUILD)/tests/$(1): $(call obj_san,$($(1)_SRCS) tests/unit/unit.c) \
		$(call uses_libs_san,$($(1)_USES))
	@mkdir -p $$(@D)
	$$(CC) $(SANFLAGS) -o $$@ $(call obj_san,$($(1)_SRCS) tests/unit/unit.c) \
		$(call uses_libs_san,$($(1)_USES)) $($(1)_LDLIBS) \
		$(call uses_ldlibs,$($(1)_USES))
endef

# `make unit-LIB`: one library built alone and the unit tests whose first
# USES it is, run.
tests_of = $(foreach t,$(UNIT_TESTS),$(if $(filter $(1),$(firstword \
	$($(t)_USES))),$(t)))
define library_unit_rules
.PHONY: unit-$(1)
unit-$(1): $(BUILD)/lib/lib$(1).a $(addprefix $(BUILD)/tests/,$(call tests_of,$(1)))
	@set -e; for t in $(addprefix $(BUILD)/tests/,$(call tests_of,$(1))); do \
		$$$$t; done
endef

# The declared graph, one line per component, "kind name dir: uses...":
# what scripts/layering checks the sources against and draws.
.PHONY: layers component-srcs layering cloexec
layers:
	@$(foreach l,$(LIBRARIES),echo 'library $(l) $($(l)_DIR):$($(l)_USES)';)
	@$(foreach p,$(PROGRAMS),echo 'program $(p) $(patsubst %/,%,$(dir \
		$(firstword $($(p)_SRCS)))):$($(p)_USES)';)
component-srcs:
	@echo $(foreach c,$(LIBRARIES) $(PROGRAMS),$($(c)_SRCS))
layering:
	@scripts/layering
# Every descriptor close-on-exec, every process started by child.c.
cloexec:
	@scripts/cloexec
