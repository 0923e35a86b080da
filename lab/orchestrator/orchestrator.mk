# orchestrator: a topology made a running lab and taken down again,
# through the ops tables (lab/backends; on another host the agent client,
# remote.c, over the protocol in remote_proto.c): the runner (lab.c,
# scenarios, labs across hosts), what outlives a command (state file,
# registry, guardian), guest templates and seeds, mstlab's version and
# what a run records of what produced it (lab_provenance.c).
LIBRARIES += orchestrator
orchestrator_DIR := lab/orchestrator
orchestrator_SRCS := lab/orchestrator/guardian.c lab/orchestrator/host_probe.c \
	lab/orchestrator/hosts.c lab/orchestrator/hosts_check.c \
	lab/orchestrator/lab.c lab/orchestrator/lab_hosts.c \
	lab/orchestrator/lab_provenance.c \
	lab/orchestrator/lab_list.c \
	lab/orchestrator/mirror.c lab/orchestrator/registry.c \
	lab/orchestrator/remote.c lab/orchestrator/remote_proto.c \
	lab/orchestrator/run_ref.c lab/orchestrator/runtime.c \
	lab/orchestrator/scenario.c lab/orchestrator/seed.c \
	lab/orchestrator/state.c lab/orchestrator/template.c \
	lab/orchestrator/test_hook.c lab/orchestrator/version.c
orchestrator_USES := backends model libmst util
orchestrator_LDLIBS := -ljansson -lpthread

# The lab runner over fake ops that record every call.
UNIT_TESTS += test_lab
test_lab_SRCS := tests/unit/test_lab.c
test_lab_USES := orchestrator

# mstlab hosts check's verdicts and fixes, the probe's own parts.
UNIT_TESTS += test_hosts_check
test_hosts_check_SRCS := tests/unit/test_hosts_check.c
test_hosts_check_USES := orchestrator
