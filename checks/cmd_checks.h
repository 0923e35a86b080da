/* SPDX-License-Identifier: MIT */
/* The checks' commands, and the verdicts `mstlab run` prints. */
#ifndef MSTLAB_CMD_CHECKS_H
#define MSTLAB_CMD_CHECKS_H

#include <stdio.h>

#include "topo.h"

int cmd_decode(int argc, char **argv, FILE *out, FILE *err);
int cmd_verdict(int argc, char **argv, FILE *out, FILE *err);

/*
 * TAP lines for a finished run folder, and its report files (summary.json,
 * junit.xml, report.md, report.html; results/README.md). Returns the
 * failures; a report that cannot be written is one.
 */
int run_verdicts(const struct topo *t, const char *run_dir, FILE *out,
		 int *tap);

/* A run's last line: "RESULT: PASS|FAIL n checks, n failed — where",
 * where is RUN_DIR/report.html if it exists, else RUN_DIR. */
void cmd_checks_result_line(FILE *out, int checks, int failed,
			    const char *run_dir);

#endif
