# mstd: the MSTP daemon — the OS side (config, kernel MST state over
# rtnetlink, BPDU sockets, control socket) around the protocol core in
# lab/mstp.
PROGRAMS += mstd
GUEST_PROGRAMS += mstd
mstd_SRCS := lab/mstd/main.c lab/mstd/conf.c lab/mstd/daemon.c lab/mstd/log.c \
	lab/mstd/dport.c lab/mstd/kernel.c lab/mstd/ctlsock.c \
	lab/mstd/status.c
mstd_USES := mstp libmst util

UNIT_TESTS += test_mstd_conf test_mstd_ctl test_mstd_seed
test_mstd_conf_SRCS := tests/unit/test_mstd_conf.c lab/mstd/conf.c
test_mstd_conf_USES := mstp model
test_mstd_ctl_SRCS := tests/unit/test_mstd_ctl.c lab/mstd/ctlsock.c \
	lab/mstd/status.c lab/mstd/log.c lab/mstd/conf.c
test_mstd_ctl_USES := mstp
# The planner's mstd.conf (lab/model) must parse.
test_mstd_seed_SRCS := tests/unit/test_mstd_seed.c lab/mstd/conf.c
test_mstd_seed_USES := mstp model
