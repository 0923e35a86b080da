/* SPDX-License-Identifier: MIT */
/* hsmpctl: shared between its command files. */
#ifndef MSTLAB_HSMPCTL_H
#define MSTLAB_HSMPCTL_H

#include <stdio.h>

#include "hsmp_dev.h"
#include "print.h"

struct hsmpctl {
	const char *path;
	struct printer pr;
	FILE *err;
	struct hsmp_cpu cpus[HSMP_MAX_CPUS];
	int ncpus;
};

/* Each returns the exit status: 0 ok, 1 the SMU or device failed, 2 usage. */
int hsmpctl_show(struct hsmpctl *c, int argc, char **argv);
int hsmpctl_set(struct hsmpctl *c, int argc, char **argv);
int hsmpctl_test(struct hsmpctl *c, int argc, char **argv);
int hsmpctl_dimm(struct hsmpctl *c, int argc, char **argv);
int hsmpctl_cpu(struct hsmpctl *c, int argc, char **argv);

/* Opens the device for reading or writing; -1 after saying why. */
int hsmpctl_open(struct hsmpctl *c, int flags);
/* A number in min..max (decimal or 0x hex), or 2 after naming it. */
int hsmpctl_number(struct hsmpctl *c, const char *what, const char *s,
		   unsigned int min, unsigned int max, unsigned int *out);
/* Reports a failed message; returns 1. */
int hsmpctl_failed(struct hsmpctl *c, const char *what, unsigned int sock,
		   int err);

#endif
