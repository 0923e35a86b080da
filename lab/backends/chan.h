/* SPDX-License-Identifier: MIT */
/* struct chan_ops over unix stream sockets (ops.h). */
#ifndef MSTLAB_CHAN_H
#define MSTLAB_CHAN_H

#include "ops.h"

extern const struct chan_ops chan_unix_ops;

#endif
