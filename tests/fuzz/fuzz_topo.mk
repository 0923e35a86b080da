# libFuzzer targets for the mstlab topology parser and planner, and for
# the checks' frame analysis. Follows tests/fuzz/fuzz.mk; seeds in
# tests/fuzz/corpus/<target>/.
MSTLAB_FUZZ_LIB := $(MSTLAB_LIB_SRCS) $(LIBMST_SRCS)
MSTLAB_FUZZ_DEPS := $(MSTLAB_FUZZ_LIB) $(wildcard lab/mstlab/*.h \
	lab/libmst/*.h checks/*.h)
MSTLAB_FUZZ_FLAGS := $(FUZZ_FLAGS) -Ilab/mstlab -Ichecks -Ilab/include/uapi

$(BUILD)/fuzz/fuzz_topo: tests/fuzz/fuzz_topo.c $(MSTLAB_FUZZ_DEPS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(MSTLAB_FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_topo.c \
		$(MSTLAB_FUZZ_LIB) $(MSTLAB_LIB_LIBS) $(LIBMST_LIBS)

$(BUILD)/fuzz/fuzz_frames: tests/fuzz/fuzz_frames.c $(MSTLAB_FUZZ_DEPS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(MSTLAB_FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_frames.c \
		$(MSTLAB_FUZZ_LIB) $(MSTLAB_LIB_LIBS) $(LIBMST_LIBS)

FUZZ_TARGETS += $(BUILD)/fuzz/fuzz_topo $(BUILD)/fuzz/fuzz_frames
fuzz: $(BUILD)/fuzz/fuzz_topo $(BUILD)/fuzz/fuzz_frames
