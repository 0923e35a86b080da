/* SPDX-License-Identifier: MIT */
/*
 * Guest templates (docs/design/templates.md). Every guest of one shape
 * boots the same kernel and image to the same point before it becomes a
 * node of its lab; a template is that point, booted once and saved, from
 * which the lab's nodes of that shape are started:
 *
 *  - build: a domain of the shape (plan.h: PLAN_BOOT_TEMPLATE) boots
 *    until its /init waits for an identity, its RAM a file it writes
 *    through; then it is paused and its device state saved with QEMU's
 *    x-ignore-shared (the RAM stays in the file, the state is ~1 MB).
 *  - clone: a node's domain (PLAN_BOOT_CLONE) starts paused, waiting for
 *    an incoming migration, with the template's RAM file mapped
 *    copy-on-write; it is fed the saved state (tpl_load), resumed and
 *    told the node's identity (tpl_awaken); its /init then reads the
 *    node's seed as a cold boot would.
 *
 * Templates live in a cache folder, one folder each named by its key: a
 * hash of the shape (plan_template_shape), the kernel and image files'
 * contents and the QEMU binary, so a changed input is a new key, and a
 * template whose inputs changed is never found again. A template is
 * built in a folder of its own (.build-KEY-PID) and renamed into place
 * complete; it is never written again, so a clone's RAM mapping can
 * never change under it (clear unlinks: running clones keep theirs).
 * Side effects go through struct lab_ops, but for the cache's files.
 */
#ifndef MSTLAB_TEMPLATE_H
#define MSTLAB_TEMPLATE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "build_id.h"
#include "ops.h"
#include "plan.h"
#include "state.h"

#define TPL_KEY_LEN 16
/* The domain a template boots in: this, its key and the building
 * process's id. */
#define TPL_DOMAIN_PREFIX "mstlab-tpl-"

/* What a template depends on besides its shape. */
struct tpl_inputs {
	char kernel[TOPO_KERNEL_COUNT][BUILD_ID_LEN]; /* each kernel, by content */
	char initrd[BUILD_ID_LEN];	/* the image, by content */
	char qemu[96];		/* the emulator: its size and time */
};

/* Reads them for the files of @pp (a kernel that is not there: ""). */
int tpl_inputs_read(const struct plan_params *pp, struct tpl_inputs *in,
		    struct errbuf *err);
/* The key of the template a node comes from (the node must be
 * plan_node_templated). */
int tpl_key(const struct plan *p, const struct plan_params *pp, int node,
	    const struct tpl_inputs *in, char key[TPL_KEY_LEN + 1]);

/* cache/KEY, cache/KEY/ram, cache/KEY/state. */
void tpl_path(const char *cache, const char *key, const char *file,
	      char *out, size_t len);
/* Whether the cache holds the template of that key, complete. */
bool tpl_ready(const char *cache, const char *key);

/*
 * Builds node's template into the cache under key (tpl_key). Its domain
 * is written to @st first when st is not NULL (a lab's state file), and
 * forgotten there once destroyed. A template the cache got meanwhile
 * from another process's build is kept, and this one dropped.
 */
int tpl_build(const struct lab_ops *ops, const struct plan *p,
	      const struct plan_params *pp, int node,
	      const struct tpl_inputs *in, const char *cache, const char *key,
	      struct state *st, struct errbuf *err);

/*
 * The template of each of the plan's nodes on host (a topo host index;
 * < 0: every node) that can have one, in keys[node] ("" for the others),
 * the missing ones built at once, one a shape, each build said on log.
 * Returns 0, or the number of templates that could not be built (their
 * nodes' keys are then "") with the first one's reason in err; -1 when
 * not even their inputs can be read.
 */
int tpl_prepare(const struct lab_ops *ops, const struct plan *p,
		const struct plan_params *pp, const char *cache, int host,
		struct state *st, FILE *log, char (*keys)[TPL_KEY_LEN + 1],
		struct errbuf *err);
/*
 * One node's template (another host's agent builds those of its nodes
 * one at a time): its key, built into the cache if missing, the build
 * said on log. 0, or -1 with err.
 */
int tpl_ensure(const struct lab_ops *ops, const struct plan *p,
	       const struct plan_params *pp, const char *cache, int node,
	       FILE *log, char key[TPL_KEY_LEN + 1], struct errbuf *err);

/* Feeds a clone, started paused (HV_START_PAUSED), its template's saved
 * state (the file @state), and waits until it is loaded. */
int tpl_load(const struct lab_ops *ops, const char *domain,
	     const char *state, struct errbuf *err);
/* Lets the loaded clone of node run, and sends it the node's identity
 * on its identity channel (chan_fd, connected before the load). */
int tpl_awaken(const struct lab_ops *ops, const struct plan *p, int node,
	       int chan_fd, struct errbuf *err);

/* The templates in the cache, one line each (mstlab templates list). */
int tpl_list(const char *cache, FILE *out);
/* Removes every template of the cache, and builds left by a process
 * that is gone: their count, or -1 (said on log). */
int tpl_clear(const char *cache, FILE *log);

#endif
