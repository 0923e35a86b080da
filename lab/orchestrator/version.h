/* SPDX-License-Identifier: MIT */
/*
 * mstlab --version: this mstlab's version (compiled in as MSTLAB_VERSION
 * by lab/orchestrator/version.mk: `git describe`, or the Debian package's
 * version), and the build ids of the kernels and the image it would
 * boot, from the files paths.h resolves.
 */
#ifndef MSTLAB_VERSION_H
#define MSTLAB_VERSION_H

#include <stdio.h>

extern const char mstlab_version[];

/* Prints it; 0, or 1 when the files' folder cannot be worked out. */
int mstlab_version_print(FILE *out, FILE *err);

#endif
