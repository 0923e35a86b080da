# mstctl: the CLI for the bridge's MST mode (over libmst's mstnl).
PROGRAMS += mstctl
GUEST_PROGRAMS += mstctl
mstctl_SRCS := lab/mstctl/main.c lab/mstctl/ctl.c lab/mstctl/args.c \
	lab/mstctl/cmd_bridge.c lab/mstctl/cmd_port.c lab/mstctl/cmd_monitor.c \
	lab/mstctl/cmd_stp.c
mstctl_LIBS :=

UNIT_TESTS += test_mstctl_args
test_mstctl_args_SRCS := tests/unit/test_mstctl_args.c lab/mstctl/args.c
