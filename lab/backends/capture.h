/* SPDX-License-Identifier: MIT */
/* The tcpdump implementation of struct capture_ops. */
#ifndef MSTLAB_CAPTURE_H
#define MSTLAB_CAPTURE_H

#include "ops.h"

extern const struct capture_ops capture_tcpdump_ops;

#endif
