/* SPDX-License-Identifier: MIT */
/* mstlab list [--json]: the labs of this host (lab_list.h). */
#ifndef MSTLAB_CMD_LIST_H
#define MSTLAB_CMD_LIST_H

#include <stdio.h>

#define LIST_USAGE "list [--json]           the labs that are up on this host"

int cmd_list(int argc, char **argv, FILE *out, FILE *err);

#endif
