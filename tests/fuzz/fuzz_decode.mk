# libFuzzer target for mstlab decode's line formatter (checks/bpdu_print.c).
# Follows tests/fuzz/fuzz.mk; seeds in tests/fuzz/corpus/decode/.
$(BUILD)/fuzz/fuzz_decode: tests/fuzz/fuzz_decode.c checks/bpdu_print.c \
		lab/libmst/bpdu.c lab/libmst/mst_config.c checks/bpdu_print.h \
		lab/libmst/bpdu.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Ichecks -o $@ $(filter %.c,$^) -lnettle

FUZZ_TARGETS += $(BUILD)/fuzz/fuzz_decode
fuzz: $(BUILD)/fuzz/fuzz_decode
