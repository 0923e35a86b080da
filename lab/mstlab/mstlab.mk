# mstlab: the host orchestrator. The pure half (model, planner, CLI
# dispatch) is a set of library files the unit tests link directly.
MSTLAB_LIB_SRCS := \
	lab/mstlab/topo_model.c \
	lab/mstlab/topo_yaml.c \
	lab/mstlab/topo_parse.c \
	lab/mstlab/topo_scenario.c \
	lab/mstlab/sbuf.c \
	lab/mstlab/plan.c \
	lab/mstlab/plan_xml.c \
	lab/mstlab/plan_seed.c \
	lab/mstlab/plan_print.c \
	lab/mstlab/plan_dot.c \
	lab/mstlab/tools_share.c \
	lab/mstlab/cli.c \
	lab/mstlab/ops.c \
	lab/mstlab/child.c \
	lab/mstlab/state.c \
	lab/mstlab/events.c \
	lab/mstlab/agent.c \
	lab/mstlab/seed.c \
	lab/mstlab/hv_libvirt.c \
	lab/mstlab/hostnet.c \
	lab/mstlab/capture.c \
	lab/mstlab/services.c \
	lab/mstlab/lab.c \
	lab/mstlab/scenario.c \
	lab/mstlab/runtime.c \
	lab/mstlab/cmd_lab.c \
	lab/mstlab/cmd_node.c \
	lab/mstlab/cmd_checks.c \
	lab/mstlab/watch_model.c \
	lab/mstlab/watch_render.c \
	lab/mstlab/watch_follow.c \
	lab/mstlab/cmd_watch.c \
	$(CHECKS_SRCS)
MSTLAB_LIB_LIBS := -lyaml -lcrypto -lvirt -lvirt-qemu -lmnl -ljansson \
	$(CHECKS_LIBS)

PROGRAMS += mstlab
mstlab_SRCS := lab/mstlab/main.c $(MSTLAB_LIB_SRCS)
mstlab_LIBS := $(MSTLAB_LIB_LIBS)

UNIT_TESTS += test_topo test_plan
test_topo_SRCS := tests/unit/test_topo.c $(MSTLAB_LIB_SRCS)
test_topo_LIBS := $(MSTLAB_LIB_LIBS)
test_plan_SRCS := tests/unit/test_plan.c $(MSTLAB_LIB_SRCS)
test_plan_LIBS := $(MSTLAB_LIB_LIBS)

UNIT_TESTS += test_lab
test_lab_SRCS := tests/unit/test_lab.c $(MSTLAB_LIB_SRCS)
test_lab_LIBS := $(MSTLAB_LIB_LIBS)
$(BUILD)/obj-san/tests/unit/test_lab.o: CFLAGS_BASE += -Ilab/mstlab

UNIT_TESTS += test_watch
test_watch_SRCS := tests/unit/test_watch.c tests/unit/checks_fixture.c $(MSTLAB_LIB_SRCS)
test_watch_LIBS := $(MSTLAB_LIB_LIBS)
$(BUILD)/obj-san/tests/unit/test_watch.o: CFLAGS_BASE += -Ilab/mstlab
