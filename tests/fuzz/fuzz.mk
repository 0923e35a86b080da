# libFuzzer targets (owner: MSTP protocol helper).  `make fuzz` builds
# them; tests/fuzz/run runs each for a bounded time.
FUZZ_CC    ?= clang
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Werror \
	-Ilab/include -Ilab/libmst -Ilab/mstd -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all
FUZZ_TARGETS += $(BUILD)/fuzz/fuzz_bpdu $(BUILD)/fuzz/fuzz_mstp

$(BUILD)/fuzz/fuzz_bpdu: tests/fuzz/fuzz_bpdu.c lab/libmst/bpdu.c \
		lab/libmst/mst_config.c lab/libmst/bpdu.h lab/libmst/mst_config.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(filter %.c,$^) -lnettle

$(BUILD)/fuzz/fuzz_mstp: tests/fuzz/fuzz_mstp.c lab/libmst/bpdu.c \
		lab/libmst/mst_config.c $(MSTP_CORE_SRCS) \
		$(wildcard lab/libmst/*.h lab/mstd/mstp*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(filter %.c,$^) -lnettle

.PHONY: fuzz
fuzz: $(FUZZ_TARGETS)
