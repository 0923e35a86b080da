# checks: captures -> verdicts -> reports. pcap reading, the tree state
# the captures show, the verdicts into one result model, and the renderers
# of that model (TAP, summary.json, junit.xml, report.md, report.html)
# and of the live tree state (watch_render: `watch` and the page);
# `mstlab decode` and `mstlab verdict`.
LIBRARIES += checks
checks_DIR := checks
checks_SRCS := checks/pcapread.c checks/bpdu_print.c checks/analyze.c \
	checks/result.c checks/report_util.c checks/report_tap.c \
	checks/report_json.c checks/report_junit.c checks/report_md.c \
	checks/report_svg.c checks/report_html.c checks/report_files.c \
	checks/outage.c checks/steps.c checks/flows.c checks/flush.c \
	checks/probe_checks.c checks/fdb_dumps.c checks/boundary.c \
	checks/snapshot.c checks/report_topo.c \
	checks/cmd_checks.c checks/follow.c checks/roles.c \
	checks/trees.c checks/trees_frame.c checks/trees_rules.c \
	checks/trees_history.c checks/tree_checks.c checks/expect_cover.c \
	checks/tree_path.c checks/watch_render.c
checks_USES := model libmst util
checks_LDLIBS := -lpcap -ljansson -lm

UNIT_TESTS += test_checks test_report test_flush test_bpdu_print test_outage
test_checks_SRCS := tests/unit/test_checks.c tests/unit/checks_fixture.c tests/unit/fixture_agree.c
test_checks_USES := checks
test_checks_LDLIBS := -lpng
test_report_SRCS := tests/unit/test_report.c
test_report_USES := checks
test_flush_SRCS := tests/unit/test_flush.c tests/unit/checks_fixture.c tests/unit/fixture_agree.c
test_flush_USES := checks
# The decode line formatter on its own (Wireshark's values, the bound).
test_bpdu_print_SRCS := tests/unit/test_bpdu_print.c
test_bpdu_print_USES := checks
# A flow's outage from a sink report and a scripted sender.
test_outage_SRCS := tests/unit/test_outage.c
test_outage_USES := checks
# The tree-state engine's rules, live and as history.
UNIT_TESTS += test_trees
test_trees_SRCS := tests/unit/test_trees.c tests/unit/checks_fixture.c tests/unit/fixture_agree.c
test_trees_USES := checks
