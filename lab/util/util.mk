# util: what every layer may use — a growable text buffer, growable
# arrays (grow.h), child processes without a shell (and Graphviz as one),
# argument parsing, every program's options and --help (opts), the host
# side's error buffer, folders made and removed (files).
LIBRARIES += util
util_DIR := lab/util
util_SRCS := lab/util/sbuf.c lab/util/child.c lab/util/args.c \
	lab/util/errbuf.c lab/util/files.c lab/util/graphviz.c lab/util/opts.c
util_USES :=
util_LDLIBS :=

UNIT_TESTS += test_child test_util
test_child_SRCS := tests/unit/test_child.c
test_child_USES := util
test_util_SRCS := tests/unit/test_util.c
test_util_USES := util
