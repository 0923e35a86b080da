/* SPDX-License-Identifier: MIT */
/* mstlab kernels [--json]: the guest kernels mstlab knows (kernels.h),
 * whether each is built here, and what it was built from. */
#ifndef MSTLAB_CMD_KERNELS_H
#define MSTLAB_CMD_KERNELS_H

#include <stdio.h>

#define KERNELS_USAGE "kernels [--json]        the guest kernels: version, source, built or not"

int cmd_kernels(int argc, char **argv, FILE *out, FILE *err);

#endif
