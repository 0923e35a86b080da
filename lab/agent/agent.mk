# agent: `mstlab agent`, another host's side of a lab: run by SSH, it
# answers the orchestrator's client (remote.c) over stdin and stdout with
# this host's links, captures, templates and files (agent.h), and wires
# its real backends (agent_main.c).
LIBRARIES += agent
agent_DIR := lab/agent
agent_SRCS := lab/agent/agent.c lab/agent/agent_main.c
agent_USES := orchestrator backends model libmst util
agent_LDLIBS :=

# The agent protocol and `mstlab agent` over pipes, hostile input too.
UNIT_TESTS += test_remote
test_remote_SRCS := tests/unit/test_remote.c
test_remote_USES := agent
