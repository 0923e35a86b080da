# The checks: pcap readers, verdicts into one result model, and the
# renderers of that model (TAP, summary.json, junit.xml, report.md,
# report.html). Linked into mstlab (decode, verdicts after run) and the
# unit tests.
CHECKS_SRCS := checks/pcapread.c checks/bpdu_print.c checks/analyze.c \
	checks/result.c checks/report_util.c checks/report_tap.c \
	checks/report_json.c checks/report_junit.c checks/report_md.c \
	checks/report_svg.c checks/report_html.c checks/report_files.c \
	checks/outage.c checks/steps.c checks/flows.c checks/flush.c \
	checks/probe_checks.c checks/fdb_dumps.c checks/boundary.c checks/snapshot.c checks/report_topo.c \
	checks/dot_run.c
CHECKS_LIBS := -lpcap -ljansson -lm
$(BUILD)/obj/checks/%.o $(BUILD)/obj-san/checks/%.o: CFLAGS_BASE += -Ilab/mstlab
$(BUILD)/obj/lab/mstlab/cmd_checks.o $(BUILD)/obj-san/lab/mstlab/cmd_checks.o \
$(BUILD)/obj/lab/mstlab/cmd_lab.o $(BUILD)/obj-san/lab/mstlab/cmd_lab.o: \
	CFLAGS_BASE += -Ichecks -Ilab/mstlab

UNIT_TESTS += test_checks test_report
test_checks_SRCS = tests/unit/test_checks.c tests/unit/checks_fixture.c $(MSTLAB_LIB_SRCS)
test_checks_LIBS = $(MSTLAB_LIB_LIBS) -lpng
$(BUILD)/obj-san/tests/unit/test_checks.o: CFLAGS_BASE += -Ichecks -Ilab/mstlab
test_report_SRCS = tests/unit/test_report.c $(MSTLAB_LIB_SRCS)
test_report_LIBS = $(MSTLAB_LIB_LIBS)
$(BUILD)/obj-san/tests/unit/test_report.o: CFLAGS_BASE += -Ichecks -Ilab/mstlab

UNIT_TESTS += test_flush
test_flush_SRCS = tests/unit/test_flush.c tests/unit/checks_fixture.c $(MSTLAB_LIB_SRCS)
test_flush_LIBS = $(MSTLAB_LIB_LIBS)
$(BUILD)/obj-san/tests/unit/test_flush.o: CFLAGS_BASE += -Ichecks -Ilab/mstlab

# The decode line formatter on its own (Wireshark's values, the bound).
UNIT_TESTS += test_bpdu_print
test_bpdu_print_SRCS = tests/unit/test_bpdu_print.c checks/bpdu_print.c
test_bpdu_print_LIBS = -ljansson
$(BUILD)/obj-san/tests/unit/test_bpdu_print.o: CFLAGS_BASE += -Ichecks
$(BUILD)/obj-san/tests/unit/checks_fixture.o: CFLAGS_BASE += -Ilab/mstlab

# A flow's outage from a sink report and a scripted sender.
UNIT_TESTS += test_outage
test_outage_SRCS = tests/unit/test_outage.c checks/outage.c
test_outage_LIBS = -ljansson
$(BUILD)/obj-san/tests/unit/test_outage.o: CFLAGS_BASE += -Ichecks
