# mstnl: the rtnetlink module for the bridge's MST mode, and the shared
# text/JSON printer.
LIBMST_SRCS += lab/libmst/mstnl_build.c lab/libmst/mstnl_parse.c \
	lab/libmst/mstnl_sock.c lab/libmst/print.c
LIBMST_LIBS += -lmnl

UNIT_TESTS += test_mstnl test_print
test_mstnl_SRCS := tests/unit/test_mstnl.c
test_print_SRCS := tests/unit/test_print.c
