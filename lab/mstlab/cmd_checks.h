/* SPDX-License-Identifier: MIT */
/* The checks' commands, and the verdicts `mstlab run` prints. */
#ifndef MSTLAB_CMD_CHECKS_H
#define MSTLAB_CMD_CHECKS_H

#include <stdio.h>

#include "topo.h"

int cmd_decode(int argc, char **argv, FILE *out, FILE *err);
int cmd_verdict(int argc, char **argv, FILE *out, FILE *err);

/* TAP lines for a finished run folder; returns the failures. */
int run_verdicts(const struct topo *t, const char *run_dir, FILE *out,
		 int *tap);

#endif
