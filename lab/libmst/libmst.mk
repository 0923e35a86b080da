# libmst: the shared protocol library — BPDU codec, MST configuration
# identifier and digest, the rtnetlink module (mstnl), the text/JSON
# printer, the probe frame format, MAC text.
LIBRARIES += libmst
libmst_DIR := lab/libmst
libmst_SRCS := lab/libmst/bpdu.c lab/libmst/mst_config.c \
	lab/libmst/probe_wire.c lab/libmst/mac.c \
	lab/libmst/mstnl_build.c lab/libmst/mstnl_parse.c \
	lab/libmst/mstnl_sock.c lab/libmst/print.c
libmst_USES :=
# HMAC-MD5 of the MST configuration digest; netlink.
libmst_LDLIBS := -lnettle -lmnl

UNIT_TESTS += test_bpdu test_mst_config test_probe_wire test_mstnl test_print
test_bpdu_SRCS := tests/unit/test_bpdu.c
test_bpdu_USES := libmst
test_mst_config_SRCS := tests/unit/test_mst_config.c
test_mst_config_USES := libmst
test_probe_wire_SRCS := tests/unit/test_probe_wire.c
test_probe_wire_USES := libmst
test_mstnl_SRCS := tests/unit/test_mstnl.c
test_mstnl_USES := libmst
test_print_SRCS := tests/unit/test_print.c
test_print_USES := libmst
