# libFuzzer targets, one per parser: `make fuzz` builds them, tests/fuzz/run
# runs each for a bounded time (seeds in tests/fuzz/corpus/<name>/). Each
# is tests/fuzz/fuzz_NAME.c built by clang with every source of the
# libraries it USES.
FUZZ_CC    ?= clang
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Werror \
	-Ilab/include/uapi -Ilab/include -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all

# BPDU decoding, and the protocol core fed arbitrary BPDUs.
FUZZERS := bpdu mstp decode mstnl topo frames ctl remote events http
fuzz_bpdu_USES := libmst
fuzz_mstp_USES := mstp
# mstlab decode's line formatter.
fuzz_decode_USES := checks
# The mstnl netlink parsers.
fuzz_mstnl_USES := libmst
# The topology parser and planner; the checks' frame analysis.
fuzz_topo_USES := model
fuzz_frames_USES := checks
# mstd's control socket requests: mstd's own sources (but main.c) too.
fuzz_ctl_USES := mstp libmst util
fuzz_ctl_SRCS = $(MSTD_LIB_SRCS)
fuzz_ctl_INC := -Ilab/mstd
# mstlab agent's line protocol (fakes under it): the agent and the few
# orchestrator files it needs, not the whole library (libvirt).
fuzz_remote_USES := model util
fuzz_remote_SRCS := lab/agent/agent.c lab/orchestrator/remote_proto.c \
	lab/orchestrator/host_probe.c \
	lab/orchestrator/state.c
fuzz_remote_INC := -Ilab/agent -Ilab/orchestrator -Ilab/backends
# The event log's reader.
fuzz_events_USES := model
# mstlab serve's own checks of a request (routes, query, Host, token,
# --listen); libmicrohttpd parses HTTP itself.
fuzz_http_USES := util
fuzz_http_SRCS := lab/serve/serve_http.c lab/serve/serve_conns.c \
	lab/serve/serve_assets.c
fuzz_http_INC := -Ilab/serve
fuzz_http_LDLIBS := -lmicrohttpd -lpthread

define fuzz_rules
$(BUILD)/fuzz/fuzz_$(1): tests/fuzz/fuzz_$(1).c $(call uses_srcs,$(fuzz_$(1)_USES)) \
		$$(fuzz_$(1)_SRCS) \
		$(foreach l,$(call uses_closure,$(fuzz_$(1)_USES)),$(wildcard $($(l)_DIR)/*.h))
	@mkdir -p $$(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(fuzz_$(1)_INC) $(call uses_inc,$(fuzz_$(1)_USES)) -o $$@ \
		tests/fuzz/fuzz_$(1).c $(call uses_srcs,$(fuzz_$(1)_USES)) \
		$$(fuzz_$(1)_SRCS) \
		$(call uses_ldlibs,$(fuzz_$(1)_USES)) $(fuzz_$(1)_LDLIBS)
endef
$(foreach f,$(FUZZERS),$(eval $(call fuzz_rules,$(f))))

.PHONY: fuzz
fuzz: $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZERS))
# serve_assets.c takes the page in with .incbin.
$(BUILD)/fuzz/fuzz_http: $(wildcard lab/serve/page/*)

# make fuzz-long: every target until FUZZ_RUNS executions (10 M), but the
# ones that run the protocol core per input (a bridge copied from a
# settled start, then every BPDU, tick and control until it settles)
# until FUZZ_SIM_RUNS (1 M): an input there costs a simulation (150 and
# 260 a second in bench/results/2026-12-07-fuzz.md, where the parsers
# but remote ran 900 to 37,000). Niced, one process a target; what it
# finds is merged into tests/fuzz/corpus/ (tests/fuzz/long).
FUZZ_RUNS ?= 10000000
FUZZ_SIM_RUNS ?= 1000000
FUZZ_SIM := mstp ctl
.PHONY: fuzz-long
fuzz-long: fuzz
	FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_SIM_RUNS=$(FUZZ_SIM_RUNS) \
		FUZZ_SIM="$(FUZZ_SIM)" BUILD=$(BUILD) tests/fuzz/long
