# libFuzzer target for the mstnl netlink parsers (owner: mstctl helper).
# Follows tests/fuzz/fuzz.mk; seeds in tests/fuzz/corpus/mstnl/.
$(BUILD)/fuzz/fuzz_mstnl: tests/fuzz/fuzz_mstnl.c lab/libmst/mstnl_parse.c \
		lab/libmst/mstnl.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Ilab/include/uapi -o $@ \
		$(filter %.c,$^) -lmnl

FUZZ_TARGETS += $(BUILD)/fuzz/fuzz_mstnl
fuzz: $(BUILD)/fuzz/fuzz_mstnl
