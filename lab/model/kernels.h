/* SPDX-License-Identifier: MIT */
/*
 * The guest kernels mstlab builds and knows by name: a Debian kernel
 * source version and a flavour. The name is what a topology's `kernel:`,
 * `mstlab --kernel`, `make kernel KERNEL=` and tests/run's KERNEL= take,
 * and what the build folder is called (BUILD/kernel-NAME/). A bare
 * flavour keeps meaning 6.1, the default, so topologies written before
 * 6.12 mean what they meant; "6.1" and "6.1-debug" say the same.
 */
#ifndef MSTLAB_KERNELS_H
#define MSTLAB_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

#include "topo.h"

struct kernel_known {
	const char *name;	/* canonical: "default", "6.12-debug" */
	const char *alias;	/* another spelling, or NULL */
	const char *version;	/* "6.1": the Debian source it is built from */
	const char *flavour;	/* "default" or "debug" */
	const char *package;	/* "linux-source-6.1" */
};

const struct kernel_known *kernel_known(enum topo_kernel k);
/* 0 and @k for a name or alias; -1 for anything else. */
int kernel_by_name(const char *s, enum topo_kernel *k);
/* Every spelling kernel_by_name() takes, NULL-terminated, canonical
 * names first: for an error message's list. */
const char *const *kernel_spellings(void);
/* "default, debug, 6.12, ...": the spellings, for messages. */
const char *kernel_spellings_text(void);

/*
 * What `--kernel K` gives: 1 and @k for a kernel name; 0 for a file (a
 * bzImage: a word with a '/', or a file of that name here); -1 for
 * neither (an unknown name: kernel_spellings_text() lists the known).
 */
int kernel_arg(const char *s, enum topo_kernel *k);
/* Every node of @t, and its defaults, boot @k: --kernel NAME. */
void kernel_override(struct topo *t, enum topo_kernel k);

/* The names of the kernels in @set, by a space ("default 6.12"). */
void kernel_set_text(const bool set[TOPO_KERNEL_COUNT], char *buf,
		     size_t len);
/* Which kernels the nodes on @host boot. */
void kernel_needed(const struct topo *t, unsigned host,
		   bool need[TOPO_KERNEL_COUNT]);
/* The kernel a host tests KVM with: its first node's (the default when
 * it has none), so a lab of 6.12 nodes needs no 6.1 built. */
enum topo_kernel kernel_probe(const struct topo *t, unsigned host);

#endif
