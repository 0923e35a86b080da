/* SPDX-License-Identifier: MIT */
/*
 * A running lab: its run folder, host links, captures, domains, and the
 * operations scenarios use (link failures, commands in guests, waits).
 * All side effects go through struct lab_ops.
 */
#ifndef MSTLAB_LAB_H
#define MSTLAB_LAB_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "guest_agent.h"
#include "events.h"
#include "ops.h"
#include "plan.h"
#include "state.h"
#include "template.h"
#include "topo.h"

/* Set by the SIGINT/SIGTERM handler: every wait gives up at once. */
extern volatile sig_atomic_t lab_interrupted;

struct lab_link_rt {
	pid_t cap_pid;
	uint64_t cap_start;
	/* A link between hosts is captured at its far end too. */
	pid_t far_pid;
	uint64_t far_start;
	bool carrier_down, silent;
};

#define LAB_MAX_PROBES 64

/* Where the lab's nodes come from (template.h). */
enum lab_boot {
	/* From the template of their shape where it has one (built if
	 * the cache has none), cold if it cannot be built. */
	LAB_BOOT_AUTO,
	LAB_BOOT_COLD,
	/* From templates, and a template that cannot be built fails. */
	LAB_BOOT_TEMPLATE,
};

struct lab_node_rt {
	char tpl[TPL_KEY_LEN + 1];	/* its template's key; "": cold */
	int chan;			/* a clone's identity channel, or -1 */
	/* A node of another host: its template's RAM file there (its
	 * agent's cache); this host's nodes': l->tpl_cache's. */
	char tpl_ram[PATH_MAX];
};

/* A probe flow running between two guests (scenario.c). */
struct lab_probe {
	int from, to;
	uint16_t flow, vid;
	bool gen;	/* first of its probe-gen's flows (names its pid file) */
};

struct lab {
	const struct topo *t;
	struct plan *p;
	struct plan_params pp;
	const struct lab_ops *ops;
	struct state st;
	struct events ev;
	char run_dir[PATH_MAX];
	char results[PATH_MAX / 2];
	struct lab_link_rt *links;	/* by link position */
	struct lab_node_rt *nodes;	/* by node index */
	enum lab_boot boot;
	/* No --virt: each other host's guests run under what its own boot
	 * test finds there (lab_hosts_up), this host's under pp.virt. */
	bool virt_auto;
	char tpl_cache[PATH_MAX];	/* the templates' folder */
	FILE *log;			/* progress for people */
	/* Told the new run folder before it is registered (cmd_lab arms
	 * its guardian there); NULL for none. */
	void (*on_run_dir)(void *ctx, const char *run_dir);
	void *on_run_dir_ctx;
	/* A lab across hosts (lab_hosts.h): each other host's tables, its
	 * run folder there in its plan_params; NULL until reached. */
	const struct lab_ops *hops[TOPO_MAX_HOSTS];
	struct plan_params hpp[TOPO_MAX_HOSTS];
	/* Its nodes' overlays there: RUN_DIR/overlay (hpp's overlay_root). */
	char hoverlay[TOPO_MAX_HOSTS][PATH_MAX + 16];
	size_t n_probes;
	struct lab_probe probes[LAB_MAX_PROBES];
	uint16_t next_flow;
};

/*
 * Prepares l for topology t: a new run folder results/<lab>-<time>/
 * (with topology.yaml, pcap/, console/, seed/, qga/, share/<node>/),
 * claimed as the lab's current run in the host's registry (registry.h).
 * Refuses when the lab already runs (`mstlab down` it first).
 */
int lab_init(struct lab *l, const struct topo *t, const struct lab_ops *ops,
	     const char *results, FILE *log, struct errbuf *err);
/*
 * The lab's current run folder: the registry's (registry.h), else, should
 * the registry have lost it, the one a running domain of the lab names in
 * its description (plan_domain_xml). 0, or -1 when the lab is not up.
 */
int lab_find_run(const struct topo *t, const struct plan *p,
		 const struct lab_ops *ops, char *run_dir, size_t len);
/* Attaches to the lab's current run (lab_find_run), for commands on a
 * lab that is up. */
int lab_attach(struct lab *l, const struct topo *t, const struct lab_ops *ops,
	       FILE *log, struct errbuf *err);
void lab_fini(struct lab *l);

/*
 * Seeds, link bridges with their captures, the templates the nodes come
 * from (l->boot: any missing is built into l->tpl_cache), then every
 * domain: cold, or from its template, paused until its links are set
 * up, then told its identity.
 */
int lab_up(struct lab *l, struct errbuf *err);
/* Waits until every node's agent answers and its seed ran (exit 0). */
int lab_wait_ready(struct lab *l, unsigned timeout_ms, struct errbuf *err);
/* Dead captures and stopped domains, reported on l->log; 0 if none. */
int lab_health(struct lab *l);

/* Tears down what run_dir's state lists, then forgets the run. */
int lab_down(const char *lab, const char *run_dir, const struct lab_ops *ops,
	     FILE *log);

/* The link (position) whose end "NODE:PORT" of t names: its position,
 * or -1 with why (for mstlab link and the page of mstlab serve). */
int lab_link_at(const struct topo *t, const char *end, struct errbuf *why);
/* "fail [carrier|silent]" or "restore" (mode NULL: none given) into
 * *fail and *mode: 0, or -1 with why. */
int lab_link_words(const char *action, const char *mode, bool *fail,
		   enum topo_fail_mode *m, struct errbuf *why);
int lab_link_fail(struct lab *l, int link, enum topo_fail_mode mode,
		  struct errbuf *err);
/* A silent failure one way: the link's end deaf (0, 1) stops hearing the
 * other, which still hears it; both keep carrier. lab_link_restore
 * undoes it. */
int lab_link_fail_oneway(struct lab *l, int link, int deaf,
			 struct errbuf *err);
int lab_link_restore(struct lab *l, int link, struct errbuf *err);
int lab_exec(struct lab *l, int node, char *const argv[], unsigned timeout_ms,
	     struct exec_result *res, struct errbuf *err);
/* Waits until no bridge port changes state for `quiet_ms`. */
int lab_wait_converged(struct lab *l, unsigned timeout_ms, struct errbuf *err);

#endif
