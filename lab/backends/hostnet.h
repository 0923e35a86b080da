/* SPDX-License-Identifier: MIT */
/* The rtnetlink implementation of struct link_ops (host link bridges). */
#ifndef MSTLAB_HOSTNET_H
#define MSTLAB_HOSTNET_H

#include "ops.h"

extern const struct link_ops hostnet_ops;

#endif
