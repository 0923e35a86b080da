/* SPDX-License-Identifier: MIT */
/* mstlab hosts check TOPO.yaml [HOST...]: what a lab across hosts needs,
 * on each host (hosts_check.h). */
#ifndef MSTLAB_CMD_HOSTS_H
#define MSTLAB_CMD_HOSTS_H

#include <stdio.h>

#define HOSTS_USAGE "hosts check TOPO.yaml [HOST...] [--uri URI] [--json]\n" \
	"                    what a lab across hosts needs, on each host"

int cmd_hosts(int argc, char **argv, FILE *out, FILE *err);

#endif
