# mstlab: the host orchestrator. Its body is a library (CLI dispatch,
# lab bring-up and teardown through the ops tables and their libvirt,
# rtnetlink and tcpdump backends, scenarios, watch) the unit tests link;
# the program is main.c.
LIBRARIES += mstlabcore
mstlabcore_DIR := lab/mstlab
mstlabcore_SRCS := lab/mstlab/agent.c lab/mstlab/capture.c lab/mstlab/chan.c \
	lab/mstlab/cli.c lab/mstlab/cmd_agent.c \
	lab/mstlab/cmd_lab.c lab/mstlab/cmd_node.c lab/mstlab/cmd_templates.c \
	lab/mstlab/cmd_watch.c \
	lab/mstlab/console.c \
	lab/mstlab/guardian.c \
	lab/mstlab/hostnet.c lab/mstlab/hosts.c lab/mstlab/hv_libvirt.c lab/mstlab/lab.c \
	lab/mstlab/lab_hosts.c lab/mstlab/mirror.c \
	lab/mstlab/reaper.c lab/mstlab/registry.c lab/mstlab/remote.c lab/mstlab/remote_agent.c \
	lab/mstlab/remote_proto.c lab/mstlab/run_ref.c lab/mstlab/runtime.c lab/mstlab/scenario.c \
	lab/mstlab/seed.c lab/mstlab/services.c lab/mstlab/state.c \
	lab/mstlab/template.c lab/mstlab/test_hook.c \
	lab/mstlab/version.c lab/mstlab/watch_render.c \
	lab/mstlab/cmd_serve.c lab/mstlab/serve_conns.c lab/mstlab/serve_http.c \
	lab/mstlab/serve_assets.c lab/mstlab/serve_model.c \
	lab/mstlab/serve_flows.c
mstlabcore_USES := checks model libmst util
mstlabcore_LDLIBS := -lvirt -lvirt-qemu -ljansson -lmicrohttpd -lpthread

PROGRAMS += mstlab
mstlab_SRCS := lab/mstlab/main.c
mstlab_USES := mstlabcore

UNIT_TESTS += test_topo test_plan test_lab test_watch
test_topo_SRCS := tests/unit/test_topo.c
test_topo_USES := mstlabcore
test_plan_SRCS := tests/unit/test_plan.c
test_plan_USES := mstlabcore
test_lab_SRCS := tests/unit/test_lab.c
test_lab_USES := mstlabcore
test_watch_SRCS := tests/unit/test_watch.c tests/unit/checks_fixture.c tests/unit/fixture_agree.c
test_watch_USES := mstlabcore
# mstlab serve: routes, tokens, hostile clients against a real server,
# the page's data from run folders, live flows.
UNIT_TESTS += test_serve
test_serve_SRCS := tests/unit/test_serve.c tests/unit/serve_fixture.c \
	tests/unit/checks_fixture.c tests/unit/fixture_agree.c
test_serve_USES := mstlabcore
test_serve_LDLIBS := -lpthread
# mstlab serve's security model: tokens, origins, caps, deadlines.
UNIT_TESTS += test_serve_auth
test_serve_auth_SRCS := tests/unit/test_serve_auth.c tests/unit/serve_fixture.c
test_serve_auth_USES := mstlabcore
test_serve_auth_LDLIBS := -lpthread
UNIT_TESTS += test_version
test_version_SRCS := tests/unit/test_version.c
test_version_USES := mstlabcore

# The page of mstlab serve is assembled into serve_assets.o (.incbin):
# it is rebuilt when a file of the page changes.
SERVE_PAGE := $(wildcard lab/mstlab/serve/*)
$(call obj,lab/mstlab/serve_assets.c) $(call obj_san,lab/mstlab/serve_assets.c): $(SERVE_PAGE)
# The agent protocol and `mstlab agent` over pipes, hostile input too.
UNIT_TESTS += test_remote
test_remote_SRCS := tests/unit/test_remote.c
test_remote_USES := mstlabcore
