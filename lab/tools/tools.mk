# Small in-guest tools for tests.
PROGRAMS += ethsend
GUEST_PROGRAMS += ethsend
ethsend_SRCS := lab/tools/ethsend.c
ethsend_LIBS :=
