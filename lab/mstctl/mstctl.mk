# mstctl: the CLI for the bridge's MST mode (over libmst's mstnl) and
# mstd's control socket.
PROGRAMS += mstctl
GUEST_PROGRAMS += mstctl
mstctl_SRCS := lab/mstctl/main.c lab/mstctl/ctl.c \
	lab/mstctl/cmd_bridge.c lab/mstctl/cmd_port.c lab/mstctl/cmd_monitor.c \
	lab/mstctl/cmd_stp.c
mstctl_USES := libmst util

UNIT_TESTS += test_mstctl_args
test_mstctl_args_SRCS := tests/unit/test_mstctl_args.c
test_mstctl_args_USES := util
