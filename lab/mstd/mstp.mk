# MSTP protocol core of mstd (owner: MSTP protocol helper).  Pure C, no OS
# calls: it goes into libmst so mstd and the unit tests link it from there.
MSTP_CORE_SRCS := lab/mstd/mstp_bridge.c lab/mstd/mstp_rx.c \
	lab/mstd/mstp_roles.c lab/mstd/mstp_prt.c lab/mstd/mstp_tc.c \
	lab/mstd/mstp_tx.c
LIBMST_SRCS += $(MSTP_CORE_SRCS)

# The tests include "mstp.h" and the in-memory network simulator.
$(BUILD)/obj-san/tests/unit/test_mstp_%.o: CFLAGS_BASE += -Ilab/mstd
$(BUILD)/obj-san/tests/unit/mstp_sim.o: CFLAGS_BASE += -Ilab/mstd

UNIT_TESTS += test_mstp_basic test_mstp_ring test_mstp_region test_mstp_mesh \
	test_mstp_features
test_mstp_basic_SRCS := tests/unit/test_mstp_basic.c tests/unit/mstp_sim.c
test_mstp_ring_SRCS := tests/unit/test_mstp_ring.c tests/unit/mstp_sim.c
test_mstp_region_SRCS := tests/unit/test_mstp_region.c tests/unit/mstp_sim.c
test_mstp_mesh_SRCS := tests/unit/test_mstp_mesh.c tests/unit/mstp_sim.c
test_mstp_features_SRCS := tests/unit/test_mstp_features.c tests/unit/mstp_sim.c
