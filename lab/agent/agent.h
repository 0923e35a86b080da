/* SPDX-License-Identifier: MIT */
/*
 * `mstlab agent`: mstlab on another host of a lab, run there by SSH,
 * answering the line protocol of remote_proto.h on stdin and stdout; it
 * listens on no socket. It does on its host what mstlab does on its own
 * for the links: records in its run folder's state file, then creates
 * (link bridges, tunnels, captures); tears down by that file; hands
 * files back; names its own guest files; builds its nodes' templates in
 * its own cache and loads and awakens their clones (agent_tpl). Every
 * word it is sent is judged against the lab's plan, which it makes
 * itself from the topology it is sent: it touches only what that plan
 * puts on its host (names "ml-<lab id>...", its nodes), only the tunnel
 * addresses the topology gives, only captures it started, and only
 * paths inside its run folder (and, for templates, its cache).
 *
 * Verbs (and their answers, after any "info TEXT" lines):
 *   hello VERSION                     ok mstlab-agent VERSION MSTLAB_VERSION
 *   topology LEN + LEN bytes          ok LAB
 *   run HOST RUN                      ok RUN_DIR   (a new run folder)
 *   attach HOST RUN                   ok RUN_DIR   (one that exists)
 *   bridge NAME                       ok created|replaced
 *   tunnel NAME                       ok VNI LOCAL REMOTE
 *   port NAME                         ok
 *   forward on|off IFNAME [IFNAME]    ok
 *   forward deaf IFNAME               ok   (one way: towards it only)
 *   remove NAME                       ok
 *   host HOST                         ok   (which host this is, no run:
 *                                     for images, mtu and udp-probe)
 *   mtu ADDRESS                       ok MTU
 *   capture BRIDGE                    ok PID START PCAP (relative)
 *   listening BRIDGE PID START        ok
 *   alive PID START                   ok 1|0
 *   stop PID START                    ok
 *   images                            ok KERNEL DEBUG_KERNEL INITRD TOOLS
 *                                     (its own files; "-": none; remote_proto.h)
 *   virt                              ok qemu|kvm  (what its guests run
 *                                     under: its own boot test)
 *   template NODE qemu|kvm            info lines, ok KEY RAM STATE
 *                                     (its node's template, built in its
 *                                     cache if missing; paths inside it)
 *   clone NODE                        ok   (its paused domain: identity
 *                                     channel connected, state loaded)
 *   awaken NODE                       ok   (resumed, told its identity)
 *   clock                             ok NS   (CLOCK_REALTIME)
 *   tools                             ok QEMU TCPDUMP CLOUD_LOCALDS (paths
 *                                     in its PATH, "-": none)
 *   udp-probe listen ADDRESS TOKEN    ok received FROM | none | busy DEVS
 *                                     (its address's port 4789 bound for
 *                                     2 s, waiting for TOKEN; busy: a
 *                                     VXLAN device holds it)
 *   udp-probe send ADDRESS TOKEN      ok sent N (to another host's)
 *   files                             info file SIZE PATH ..., ok N
 *   get PATH [OFFSET MAX]             ok LEN + LEN bytes (at most MAX
 *                                     from OFFSET: a growing file)
 *   unlink share/NODE/exec-PID.out|err  ok  (what exec left there)
 *   put seed/NODE.img LEN + LEN bytes ok   (a node of its host)
 *   put overlay/NODE.tar LEN + bytes  ok   (its overlay folder, unpacked
 *                                     into overlay/NODE there)
 *   down                              info lines, ok LEFT
 *   bye                               ok, and the agent ends
 * Anything else, or a word out of place: "err TEXT", and the session
 * goes on; a line too long or input that ends inside a request ends it.
 */
#ifndef MSTLAB_AGENT_H
#define MSTLAB_AGENT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ops.h"
#include "plan.h"
#include "remote_proto.h"
#include "state.h"
#include "template.h"
#include "topo.h"

/* A topology sent to the agent is at most this. */
#define REMOTE_TOPOLOGY_MAX (1u << 20)
#define REMOTE_AGENT_CAPTURES 256

/*
 * What the agent does with its nodes' templates (template.h) on its own
 * host: agent_main's, through this host's libvirt; tests' fakes. Each
 * returns 0, or -1 with err.
 */
struct agent_tpl {
	/* Node's template in cache, built from pp's files if missing (its
	 * progress on log): its key (tpl_ensure). */
	int (*ensure)(void *ctx, const struct plan *p,
		      const struct plan_params *pp, const char *cache, int node,
		      FILE *log, char key[TPL_KEY_LEN + 1], struct errbuf *err);
	/* The paused clone domain loads the state file (tpl_load). */
	int (*load)(void *ctx, const char *domain, const char *state,
		    struct errbuf *err);
	/* It runs and is told node's identity on chan (tpl_awaken). */
	int (*awaken)(void *ctx, const struct plan *p, int node, int chan,
		      struct errbuf *err);
	/* Clones' identity channels (ops.h). */
	const struct chan_ops *chan;
	void *ctx, *chan_ctx;
};

struct remote_agent {
	/* Given: this host's link and capture tables (hv is never used:
	 * domains go through libvirt's URI), where its run folders go. */
	const struct lab_ops *ops;
	char results[PATH_MAX / 2];
	/* This host's guest files (paths.h: agent_main finds them; "":
	 * unknown), named by images. */
	char kernel[TOPO_KERNEL_COUNT][PATH_MAX];	/* by enum topo_kernel */
	char initrd[PATH_MAX];
	/* KVM or TCG on this host, by its own boot test of its own files
	 * (services_virt; NULL: this agent cannot tell), answered by virt. */
	enum plan_virt (*virt)(const struct remote_agent *a);
	/* Its nodes' templates, built, cached and loaded on this host
	 * through its own libvirt: tpl_ops(tpl_ctx) reaches it on first
	 * use (NULL: this agent has none); tpl_cache is its cache. */
	const struct agent_tpl *(*tpl_ops)(void *ctx, struct errbuf *err);
	void *tpl_ctx;
	char tpl_cache[PATH_MAX];
	/* The UDP port udp-probe binds and sends to: the VXLAN port
	 * (tests give their own; 0: no probe, as a fuzzer wants, which
	 * must not send datagrams to the addresses it makes up). */
	unsigned probe_port;
	/* CLOCK_REALTIME in ns (tests give their own). */
	int64_t (*clock_ns)(void);
	/* The session. */
	struct topo *t;
	struct plan *p;
	unsigned host;
	bool have_run, have_host, done;
	/* The request's input, for a verb with a payload (topology, put). */
	struct remote_reader *in;
	char run_dir[PATH_MAX];
	struct state st;
	/* By node of the plan (once a run is open): the key of its
	 * template as answered ("": none asked), its clone's identity
	 * channel (-1). */
	char (*tpl)[TPL_KEY_LEN + 1];
	int *chan;
	/* The captures it started: only those may be asked about. */
	size_t n_caps;
	struct { pid_t pid; uint64_t start; } caps[REMOTE_AGENT_CAPTURES];
};

void remote_agent_init(struct remote_agent *a, const struct lab_ops *ops,
		       const char *results);
void remote_agent_fini(struct remote_agent *a);
/* One request line (no newline) and its answer on out; payload bytes
 * come from r. 0 (go on), 1 (bye: done), -1 (the stream is broken). */
int remote_agent_line(struct remote_agent *a, struct remote_reader *r,
		      const char *line, size_t len, int out);
/* Answers requests from in on out until bye or the end of in: 0, or -1
 * when in broke off mid-request or out failed. */
int remote_agent_serve(struct remote_agent *a, int in, int out,
		       int timeout_ms);

#endif
