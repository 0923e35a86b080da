/* SPDX-License-Identifier: MIT */
/*
 * What the lab commands (up, down, run, status, exec, link, console)
 * share: their common options, the real ops tables wired to libvirt,
 * rtnetlink and tcpdump, and the signal handling that turns Ctrl-C into
 * an orderly teardown.
 */
#ifndef MSTLAB_RUNTIME_H
#define MSTLAB_RUNTIME_H

#include <limits.h>
#include <stdio.h>

#include "hosts.h"
#include "hv_libvirt.h"
#include "lab.h"
#include "plan.h"
#include "topo.h"

struct runtime {
	/* Options. */
	const char *topo_path;
	char topo_copy[PATH_MAX];	/* a lab named: its run's topology */
	const char *uri;
	const char *uri_given;		/* --uri, or NULL */
	char hint[PATH_MAX];		/* options a later command needs */
	int guardian;			/* guardian.h's socket, or -1 */
	char results[PATH_MAX / 2];
	char kernel[TOPO_KERNEL_COUNT][PATH_MAX];	/* by enum topo_kernel */
	char initrd[PATH_MAX], tools[PATH_MAX];
	char cache[PATH_MAX];		/* paths.h */
	int virt;			/* -1 auto, else enum plan_virt */
	enum lab_boot boot;		/* up, run --boot */
	bool keep, json;
	bool no_stdin;			/* exec -n */
	unsigned timeout_ms;		/* exec --timeout; 0: its default */
	const char *scenario;
	int nargs;			/* positional words after TOPO */
	char **args;
	/* Live. */
	struct topo *t;
	struct hv_libvirt hv;
	struct lab_ops ops;
	struct lab_hosts hosts;		/* a lab across hosts: the others */
	FILE *out, *err;
};

/* For a command with options of its own that acts on a lab that is up
 * (serve): rt empty but for its streams and the libvirt URI (NULL: the
 * default), ready for runtime_connect(). */
void runtime_for(struct runtime *rt, const char *uri, FILE *out, FILE *err);
/*
 * 0 when the kernels this host's nodes boot and the initramfs are there
 * (another host's are its own: lab_hosts.h); else says which file is
 * missing and how to build it.
 */
int runtime_check_images(const struct runtime *rt);
/* The ops' clock (struct lab_ops now_ms, sleep_ms): CLOCK_MONOTONIC in
 * ms; a sleep a signal cuts short. */
long long runtime_now_ms(void *ctx);
void runtime_sleep_ms(void *ctx, unsigned ms);

/*
 * Connects to libvirt (starting it if needed, without KVM unless virt
 * says KVM works) and wires rt->ops.
 */
int runtime_connect(struct runtime *rt, bool autodestroy, enum plan_virt virt);
/*
 * What up, run and templates build do first: the host can run the
 * topology (its files, the images), Ctrl-C is caught, the accelerator is
 * chosen, libvirt connected (runtime_connect); pp gets the images and the
 * accelerator (run_dir: NULL). 0, or -1 (said on rt->err).
 */
int runtime_start(struct runtime *rt, bool autodestroy,
		  struct plan_params *pp);
/* The options a later command on this lab needs, as "--uri URI " (the
 * lab itself is found by its name, from anywhere), or "". */
const char *runtime_hint(const struct runtime *rt);
void runtime_free(struct runtime *rt);
/* The template cache (template.h): rt->cache's templates/. */
void runtime_template_cache(const struct runtime *rt, char *out, size_t len);
/* --results' default (paths.h); "" when it cannot be worked out. */
void runtime_default_results(char *out, size_t len);
/* SIGINT, SIGTERM and SIGHUP set lab_interrupted. */
void runtime_signals(void);

#endif
