# mstd: the MSTP daemon (OS side).  The protocol core (mstp*.c) is already
# in libmst via mstp.mk; only the daemon's own files are listed here.
PROGRAMS += mstd
GUEST_PROGRAMS += mstd
mstd_SRCS := lab/mstd/main.c lab/mstd/conf.c lab/mstd/daemon.c lab/mstd/log.c \
	lab/mstd/dport.c lab/mstd/kernel.c lab/mstd/ctlsock.c \
	lab/mstd/status.c
mstd_LIBS :=
$(BUILD)/obj/lab/mstd/%.o: CFLAGS_BASE += -Ilab/mstd
$(BUILD)/obj-san/lab/mstd/%.o: CFLAGS_BASE += -Ilab/mstd

UNIT_TESTS += test_mstd_conf
test_mstd_conf_SRCS := tests/unit/test_mstd_conf.c lab/mstd/conf.c
$(BUILD)/obj-san/tests/unit/test_mstd_conf.o: CFLAGS_BASE += -Ilab/mstd

# The planner's output (lab/mstlab) must parse: recursive '=' because
# mstlab.mk is included after this file.
UNIT_TESTS += test_mstd_seed
test_mstd_seed_SRCS = tests/unit/test_mstd_seed.c lab/mstd/conf.c \
	$(MSTLAB_LIB_SRCS)
test_mstd_seed_LIBS = $(MSTLAB_LIB_LIBS)
$(BUILD)/obj-san/tests/unit/test_mstd_seed.o: CFLAGS_BASE += -Ilab/mstd

UNIT_TESTS += test_mstd_ctl
test_mstd_ctl_SRCS := tests/unit/test_mstd_ctl.c lab/mstd/ctlsock.c \
	lab/mstd/status.c lab/mstd/log.c lab/mstd/conf.c
$(BUILD)/obj-san/tests/unit/test_mstd_ctl.o: CFLAGS_BASE += -Ilab/mstd
