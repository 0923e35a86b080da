# mstd: the MSTP daemon — the OS side (config, kernel MST state over
# rtnetlink, BPDU sockets, control socket) around the protocol core in
# lab/mstp.
PROGRAMS += mstd
GUEST_PROGRAMS += mstd
mstd_SRCS := lab/mstd/main.c lab/mstd/conf.c lab/mstd/daemon.c lab/mstd/log.c \
	lab/mstd/dport.c lab/mstd/kernel.c lab/mstd/ctlsock.c \
	lab/mstd/status.c lab/mstd/ctlset.c lab/mstd/region.c lab/mstd/ageing.c \
	lab/mstd/early.c
mstd_USES := mstp libmst util

UNIT_TESTS += test_mstd_conf test_mstd_ctl test_mstd_seed test_mstd_early
test_mstd_conf_SRCS := tests/unit/test_mstd_conf.c lab/mstd/conf.c
test_mstd_conf_USES := mstp model
# Every source but main.c: run-time changes reach kernel.c, which does
# nothing without a netlink socket (d->nl NULL, d->live false).
MSTD_LIB_SRCS := $(filter-out lab/mstd/main.c,$(mstd_SRCS))
test_mstd_ctl_SRCS := tests/unit/test_mstd_ctl.c $(MSTD_LIB_SRCS)
test_mstd_ctl_USES := mstp libmst util
test_mstd_early_SRCS := tests/unit/test_mstd_early.c lab/mstd/early.c
test_mstd_early_USES := util
# The planner's mstd.conf (lab/model) must parse.
test_mstd_seed_SRCS := tests/unit/test_mstd_seed.c lab/mstd/conf.c
test_mstd_seed_USES := mstp model
