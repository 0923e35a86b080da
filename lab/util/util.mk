# util: what every layer may use — a growable text buffer, child processes
# without a shell (and Graphviz as one), argument parsing, the --help
# option, the host side's error buffer.
LIBRARIES += util
util_DIR := lab/util
util_SRCS := lab/util/sbuf.c lab/util/child.c lab/util/args.c \
	lab/util/errbuf.c lab/util/graphviz.c lab/util/help_opt.c
util_USES :=
util_LDLIBS :=
