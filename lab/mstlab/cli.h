/* SPDX-License-Identifier: MIT */
/*
 * mstlab's command line, as a function tests can call: output goes to
 * out, diagnostics to err. Returns the exit status: 0 ok, 1 the topology
 * (or the lab) failed, 2 usage error or not implemented.
 */
#ifndef MSTLAB_CLI_H
#define MSTLAB_CLI_H

#include <stdio.h>

int mstlab_cli(int argc, char **argv, FILE *out, FILE *err);

#endif
