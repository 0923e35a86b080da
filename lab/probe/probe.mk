# Probe traffic: a paced sequence-numbered flow generator and a sink that
# counts what arrives (AF_PACKET; the XDP live-frames mode is to come).
PROGRAMS += probe-gen probe-sink
GUEST_PROGRAMS += probe-gen probe-sink
probe-gen_SRCS := lab/probe/gen.c lab/probe/probe_opts.c lab/probe/rawsock.c
probe-gen_LIBS :=
probe-sink_SRCS := lab/probe/sink.c lab/probe/flows.c lab/probe/rawsock.c
probe-sink_LIBS :=
$(BUILD)/obj/lab/probe/%.o $(BUILD)/obj-san/lab/probe/%.o: \
	CFLAGS_BASE += -Ilab/probe

UNIT_TESTS += test_probe
test_probe_SRCS := tests/unit/test_probe.c lab/probe/flows.c \
	lab/probe/probe_opts.c
$(BUILD)/obj-san/tests/unit/test_probe.o: CFLAGS_BASE += -Ilab/probe
