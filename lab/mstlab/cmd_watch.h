/* SPDX-License-Identifier: MIT */
/* mstlab watch: a running lab's spanning trees, live (docs/cli.md). */
#ifndef MSTLAB_CMD_WATCH_H
#define MSTLAB_CMD_WATCH_H

#include <stdio.h>

int cmd_watch(int argc, char **argv, FILE *out, FILE *err);

#endif
