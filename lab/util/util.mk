# util: what every layer may use — a growable text buffer, growable
# arrays (grow.h), child processes without a shell, argument parsing, the
# --help option.
LIBRARIES += util
util_DIR := lab/util
util_SRCS := lab/util/sbuf.c lab/util/child.c lab/util/args.c \
	lab/util/help_opt.c
util_USES :=
util_LDLIBS :=
