/* SPDX-License-Identifier: MIT */
/* The checks' commands, and the verdicts `mstlab run` prints. */
#ifndef MSTLAB_CMD_CHECKS_H
#define MSTLAB_CMD_CHECKS_H

#include <stdio.h>

#include "result.h"
#include "topo.h"

int cmd_decode(int argc, char **argv, FILE *out, FILE *err);
int cmd_verdict(int argc, char **argv, FILE *out, FILE *err);

/*
 * TAP lines for a finished run folder, and its report files (summary.json,
 * junit.xml, report.md, report.html; results/README.md). Returns the
 * failures; a report that cannot be written is one. counts (may be
 * NULL): the checks as every report counts them, that failure included.
 */
int run_verdicts(const struct topo *t, const char *run_dir, FILE *out,
		 int *tap, struct result_counts *counts);

/* What a run's steps did (mstlab run's TAP lines before the checks). */
struct step_counts {
	unsigned ok, failed;
};

/*
 * A run's last line: "RESULT: PASS|FAIL n checks, n failed, n skipped;
 * steps: n ok, n failed — where" (steps: mstlab run's, NULL for
 * verdict), where is RUN_DIR/report.html if it exists, else RUN_DIR. The
 * check counts are summary.json's, junit.xml's and the reports'.
 */
void cmd_checks_result_line(FILE *out, const struct result_counts *checks,
			    const struct step_counts *steps,
			    const char *run_dir);

#endif
