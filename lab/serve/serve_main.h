/* SPDX-License-Identifier: MIT */
/* mstlab serve: the lab's trees on a web page, live or replayed, links
 * failed from it (docs/cli.md). */
#ifndef MSTLAB_SERVE_MAIN_H
#define MSTLAB_SERVE_MAIN_H

#include <stdio.h>

int serve_main(int argc, char **argv, FILE *out, FILE *err);

#endif
