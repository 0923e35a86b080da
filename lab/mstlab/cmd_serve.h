/* SPDX-License-Identifier: MIT */
/* mstlab serve: the lab's trees on a web page, live or replayed, links
 * failed from it (docs/cli.md). */
#ifndef MSTLAB_CMD_SERVE_H
#define MSTLAB_CMD_SERVE_H

#include <stdio.h>

int cmd_serve(int argc, char **argv, FILE *out, FILE *err);

#endif
