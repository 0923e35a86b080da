# The checks: pcap readers and verdicts, linked into mstlab (decode,
# verdicts after run) and the unit tests.
CHECKS_SRCS := checks/pcapread.c checks/bpdu_print.c checks/analyze.c
CHECKS_LIBS := -lpcap
$(BUILD)/obj/checks/%.o $(BUILD)/obj-san/checks/%.o: CFLAGS_BASE += -Ilab/mstlab
$(BUILD)/obj/lab/mstlab/cmd_checks.o $(BUILD)/obj-san/lab/mstlab/cmd_checks.o \
$(BUILD)/obj/lab/mstlab/cmd_lab.o $(BUILD)/obj-san/lab/mstlab/cmd_lab.o: \
	CFLAGS_BASE += -Ichecks -Ilab/mstlab

UNIT_TESTS += test_checks
test_checks_SRCS = tests/unit/test_checks.c $(MSTLAB_LIB_SRCS)
test_checks_LIBS = $(MSTLAB_LIB_LIBS)
$(BUILD)/obj-san/tests/unit/test_checks.o: CFLAGS_BASE += -Ichecks -Ilab/mstlab
