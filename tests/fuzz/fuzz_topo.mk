# libFuzzer target for the mstlab topology parser and planner (owner:
# mstlab). Follows tests/fuzz/fuzz.mk; seeds in tests/fuzz/corpus/topo/.
MSTLAB_FUZZ_SRCS := tests/fuzz/fuzz_topo.c $(MSTLAB_LIB_SRCS) lab/libmst/print.c

$(BUILD)/fuzz/fuzz_topo: $(MSTLAB_FUZZ_SRCS) $(wildcard lab/mstlab/*.h) \
		lab/libmst/print.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(MSTLAB_FUZZ_SRCS) $(MSTLAB_LIB_LIBS)

FUZZ_TARGETS += $(BUILD)/fuzz/fuzz_topo
fuzz: $(BUILD)/fuzz/fuzz_topo
