/* SPDX-License-Identifier: MIT */
/*
 * What produced a run's verdicts: this mstlab's version, and per node the
 * machine it ran on, the accelerator there (TCG or KVM), the kernel it
 * booted (its name in the topology, and the release and patch-series id
 * the bzImage carries: build_id.h) and the image by content. Filled once
 * when the lab comes up (lab_provenance.h), kept in the run folder as
 * provenance.json, and written by every verdict file (docs/results.md).
 * An empty string is what is not known (a node on another host: its
 * files are that host's).
 */
#ifndef MSTLAB_PROVENANCE_H
#define MSTLAB_PROVENANCE_H

#include <jansson.h>
#include <stddef.h>

#include "build_id.h"
#include "errbuf.h"
#include "topo.h"

#define PROVENANCE_FILE "provenance.json"

struct provenance_node {
	char name[TOPO_NODE_NAME_MAX + 1];
	char host[256];		/* the machine's name */
	char virt[8];		/* "tcg" or "kvm" */
	char kernel[32];	/* topo_kernel_name() */
	char release[64];	/* uname -r: "6.1.158" */
	char series[32];	/* the patch series: "#1a2b3c4d" */
	char image[BUILD_ID_LEN];	/* "sha256:…" of the initramfs */
};

struct provenance {
	char mstlab[64];	/* mstlab's version */
	size_t n_nodes;
	struct provenance_node nodes[TOPO_MAX_NODES];
};

/* Release and series from the bzImage at path; both "" when unreadable. */
void provenance_kernel(struct provenance_node *n, const char *bzimage);

/* As summary.json has it ("" as null); NULL when out of memory. */
json_t *provenance_json(const struct provenance *pv);

/* run_dir/provenance.json, written whole or not at all. 0, or -1. */
int provenance_save(const struct provenance *pv, const char *run_dir,
		    struct errbuf *err);
/* Reads it back: 0; -1 with err (absent: a run of an older mstlab). */
int provenance_load(struct provenance *pv, const char *run_dir,
		    struct errbuf *err);

#endif
