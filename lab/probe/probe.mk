# Probe traffic: a paced sequence-numbered flow generator and a sink that
# counts what arrives. probe-gen sends through BPF_PROG_RUN live frames
# (an XDP program built here by clang -target bpf and embedded in the
# binary) or an AF_PACKET socket.
PROGRAMS += probe-gen probe-sink
GUEST_PROGRAMS += probe-gen probe-sink
probe-gen_SRCS := lab/probe/gen.c lab/probe/probe_opts.c lab/probe/rawsock.c \
	lab/probe/pace.c lab/probe/xdpgen.c lab/probe/xdp_plan.c \
	lab/probe/xdp_attach.c lab/probe/xdp_obj.c
probe-gen_USES := libmst util
probe-gen_LDLIBS := -lbpf
probe-sink_SRCS := lab/probe/sink.c lab/probe/flows.c lab/probe/rxring.c \
	lab/probe/flow_filter.c
probe-sink_USES := libmst util

# The XDP program. -g gives the BTF that libbpf wants for the map; the
# host's asm/ headers come from the multiarch include directory.
BPF_CC     ?= clang
PROBE_XDP_OBJ := $(BUILD)/bpf/lab/probe/probe_xdp.bpf.o
$(PROBE_XDP_OBJ): lab/probe/probe_xdp.bpf.c lab/probe/probe_xdp.h
	@mkdir -p $(@D)
	$(BPF_CC) -target bpf -O2 -g -Wall -Wextra -Werror \
		-I/usr/include/$(shell $(CC) -dumpmachine) -Ilab/probe \
		-c -o $@ $<
# xdp_obj.c .incbin's the object: -MMD cannot see that.
$(BUILD)/obj/lab/probe/xdp_obj.o: $(PROBE_XDP_OBJ)
$(BUILD)/obj/lab/probe/xdp_obj.o: \
	CFLAGS_BASE += -DPROBE_XDP_OBJ='"$(PROBE_XDP_OBJ)"'

UNIT_TESTS += test_probe
test_probe_SRCS := tests/unit/test_probe.c lab/probe/flows.c \
	lab/probe/probe_opts.c lab/probe/pace.c lab/probe/xdp_plan.c
test_probe_USES := libmst util
