# mstlab's command line: one table of commands (cli.c), one file per
# command group (cmd_lab: up, run, down, status; cmd_node: exec, link,
# console, shell; cmd_watch; cmd_templates), the other front ends (serve,
# agent) called through their one entry each. A library so that the unit
# tests drive commands as a user types them; the program is main.c.
LIBRARIES += mstlabcli
mstlabcli_DIR := lab/mstlab
mstlabcli_SRCS := lab/mstlab/cli.c lab/mstlab/cmd_hosts.c lab/mstlab/cmd_kernels.c lab/mstlab/cmd_lab.c lab/mstlab/cmd_list.c lab/mstlab/lab_args.c \
	lab/mstlab/cmd_node.c lab/mstlab/cmd_templates.c \
	lab/mstlab/cmd_watch.c
mstlabcli_USES := serve agent orchestrator backends checks model libmst util
mstlabcli_LDLIBS :=

PROGRAMS += mstlab
mstlab_SRCS := lab/mstlab/main.c
mstlab_USES := mstlabcli

UNIT_TESTS += test_topo test_plan test_watch test_version
test_topo_SRCS := tests/unit/test_topo.c
test_topo_USES := mstlabcli
test_plan_SRCS := tests/unit/test_plan.c
test_plan_USES := mstlabcli
test_watch_SRCS := tests/unit/test_watch.c tests/unit/checks_fixture.c tests/unit/fixture_agree.c
test_watch_USES := mstlabcli
test_version_SRCS := tests/unit/test_version.c
test_version_USES := mstlabcli
# mstlab list over a registry of its own.
UNIT_TESTS += test_list
test_list_SRCS := tests/unit/test_list.c
test_list_USES := mstlabcli
