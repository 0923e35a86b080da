# BPDU codec and MST Configuration Identifier (owner: MSTP protocol helper)
LIBMST_SRCS += lab/libmst/bpdu.c lab/libmst/mst_config.c
LIBMST_LIBS += -lnettle

UNIT_TESTS += test_bpdu test_mst_config
test_bpdu_SRCS := tests/unit/test_bpdu.c
test_mst_config_SRCS := tests/unit/test_mst_config.c

# Probe frame header, shared by the probe generator/sink and the checks.
LIBMST_SRCS += lab/libmst/probe_wire.c lab/libmst/mac.c
# --help for the programs' getopt_long.
LIBMST_SRCS += lab/libmst/help_opt.c
UNIT_TESTS += test_probe_wire
test_probe_wire_SRCS := tests/unit/test_probe_wire.c
