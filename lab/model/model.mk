# model: what a lab is, on paper — the topology model and its YAML parser,
# the plan (names, MACs, port maps, and the files a lab's guests boot
# with, and where they are built: paths.c), the run's event log. Pure:
# nothing here touches the host but reading a topology file and the
# user's host settings, writing the event log and looking for the built
# files.
LIBRARIES += model
model_DIR := lab/model
model_SRCS := lab/model/topo_model.c lab/model/topo_yaml.c \
	lab/model/topo_parse.c lab/model/topo_scenario.c lab/model/topo_send.c \
	lab/model/topo_hosts.c lab/model/topo_encoding.c \
	lab/model/host_settings.c lab/model/clock_sync.c \
	lab/model/plan.c lab/model/plan_xml.c lab/model/plan_seed.c \
	lab/model/plan_print.c lab/model/plan_scenarios.c lab/model/plan_dot.c lab/model/events.c \
	lab/model/paths.c lab/model/kernels.c lab/model/build_id.c lab/model/event_parse.c
model_USES := libmst util
# libyaml; SHA-256 of the lab name (libcrypto).
model_LDLIBS := -lyaml -lcrypto

UNIT_TESTS += test_paths
test_paths_SRCS := tests/unit/test_paths.c
test_paths_USES := model
# The event log codec on its own: writers, the reader, bad lines.
UNIT_TESTS += test_events
test_events_SRCS := tests/unit/test_events.c
test_events_USES := model
# hosts: and host: of a topology, and the planner's placement on hosts.
UNIT_TESTS += test_hosts
test_hosts_SRCS := tests/unit/test_hosts.c
test_hosts_USES := model
# Another host's clock: the offset from timestamped exchanges, its bound,
# the correction of far timestamps, the run folder's clock file.
UNIT_TESTS += test_clock
test_clock_SRCS := tests/unit/test_clock.c
test_clock_USES := model
