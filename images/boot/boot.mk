# The guest's boot programs: /init and the user-data runner. Static, so
# no dynamic loader runs in a boot's critical path (under TCG every
# process costs a booting guest ~20 ms, a dynamic one more).
BOOT_PROGRAMS := mstlab-init mstlab-run-user-data
GUEST_PROGRAMS += $(BOOT_PROGRAMS)
mstlab-init_SRCS := images/boot/init.c images/boot/identity.c \
	images/boot/boot_log.c
mstlab-run-user-data_SRCS := images/boot/run_user_data.c \
	images/boot/boot_log.c

define boot_program_rules
$(BUILD)/bin/$(1): $(patsubst %.c,$(BUILD)/obj/%.o,$($(1)_SRCS))
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -static -s -o $$@ $$^
endef
$(foreach p,$(BOOT_PROGRAMS),$(eval $(call boot_program_rules,$(p))))
progs: $(addprefix $(BUILD)/bin/,$(BOOT_PROGRAMS))
