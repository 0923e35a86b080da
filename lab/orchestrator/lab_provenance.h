/* SPDX-License-Identifier: MIT */
/*
 * The provenance of a run (provenance.h), filled from the lab as it comes
 * up: the version compiled in (version.h), each node's machine and its
 * accelerator, and the kernel and image files this host boots it from.
 */
#ifndef MSTLAB_LAB_PROVENANCE_H
#define MSTLAB_LAB_PROVENANCE_H

#include "errbuf.h"
#include "lab.h"
#include "provenance.h"

void lab_provenance(const struct lab *l, struct provenance *pv);
/* Fills it and writes it into the run folder: 0, or -1 with err. */
int lab_provenance_save(const struct lab *l, struct errbuf *err);

#endif
