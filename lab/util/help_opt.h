/* SPDX-License-Identifier: MIT */
/* The long options of a program whose only long one is --help. */
#ifndef MSTLAB_HELP_OPT_H
#define MSTLAB_HELP_OPT_H

#include <getopt.h>

/* For getopt_long: --help returns 'h', as -h does. */
extern const struct option help_longopts[];

#endif
