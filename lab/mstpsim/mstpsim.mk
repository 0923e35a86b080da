# mstpsim: a network of MSTP cores in memory, in virtual time — links,
# failures, delivered BPDUs. The unit tests and bench/mstp drive it.
LIBRARIES += mstpsim
mstpsim_DIR := lab/mstpsim
mstpsim_SRCS := lab/mstpsim/mstp_sim.c lab/mstpsim/sim_check.c \
	lab/mstpsim/sim_campaign.c lab/mstpsim/sim_time.c \
	lab/mstpsim/sim_timing.c
mstpsim_USES := mstp
mstpsim_LDLIBS :=

UNIT_TESTS += test_mstp_basic test_mstp_ring test_mstp_region test_mstp_mesh \
	test_mstp_features test_mstp_loops test_mstp_controls test_mstp_restart \
	test_mstp_timing
test_mstp_basic_SRCS := tests/unit/test_mstp_basic.c
test_mstp_basic_USES := mstpsim
test_mstp_ring_SRCS := tests/unit/test_mstp_ring.c
test_mstp_ring_USES := mstpsim
test_mstp_region_SRCS := tests/unit/test_mstp_region.c
test_mstp_region_USES := mstpsim
test_mstp_mesh_SRCS := tests/unit/test_mstp_mesh.c
test_mstp_mesh_USES := mstpsim
test_mstp_features_SRCS := tests/unit/test_mstp_features.c
test_mstp_features_USES := mstpsim
test_mstp_loops_SRCS := tests/unit/test_mstp_loops.c
test_mstp_loops_USES := mstpsim
test_mstp_controls_SRCS := tests/unit/test_mstp_controls.c
test_mstp_controls_USES := mstpsim
test_mstp_restart_SRCS := tests/unit/test_mstp_restart.c
test_mstp_restart_USES := mstpsim
test_mstp_timing_SRCS := tests/unit/test_mstp_timing.c
test_mstp_timing_USES := mstpsim
