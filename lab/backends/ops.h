/* SPDX-License-Identifier: MIT */
/*
 * The side effects of running a lab, behind small ops tables so that the
 * runner (lab.c, scenario.c, template.c) can be driven in unit tests by
 * fakes that record calls. The real tables: hv_libvirt.c (domains, the
 * guest agent and QEMU's monitor, libvirt C API), hostnet.c (link
 * bridges, rtnetlink), capture.c (tcpdump per link) and chan.c (unix
 * sockets). On another host of a lab, link and cap are remote.c's: they
 * speak to an mstlab agent there (agent.h).
 *
 * Every call returns 0 or -1; on -1 it has written one line of why into
 * err (errbuf.h).
 */
#ifndef MSTLAB_OPS_H
#define MSTLAB_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "errbuf.h"

/* How hv_ops.start starts a domain. */
enum {
	HV_START_PAUSED = 1 << 0,	/* its vCPUs wait for resume */
	/* It dies with this process's connection whatever the lab's
	 * setting (a template being built: never left behind). */
	HV_START_AUTODESTROY = 1 << 1,
};

struct hv_ops {
	/* Starts a transient domain (it vanishes when destroyed); flags
	 * HV_START_*. */
	int (*start)(void *ctx, const char *xml, unsigned flags,
		     struct errbuf *err);
	/* Destroys the domain if it exists; absent is not an error. */
	int (*destroy)(void *ctx, const char *name, struct errbuf *err);
	/* 1 running, 0 absent or shut off, -1 error. */
	int (*running)(void *ctx, const char *name, struct errbuf *err);
	/* What the domain is doing, a word or two for people ("running",
	 * "paused", "shut off", ...), into out: 1 running, 0 not, -1
	 * error (absent: 0, "absent"). NULL in tables that cannot tell
	 * more than running(). */
	int (*state)(void *ctx, const char *name, char *out, size_t len,
		     struct errbuf *err);
	/* A running domain's <description> (plan_domain_xml: its run
	 * folder), into out. */
	int (*description)(void *ctx, const char *name, char *out,
			   size_t len, struct errbuf *err);
	/* The guest sees carrier up/down on the NIC with this MAC. */
	int (*set_link)(void *ctx, const char *name, const char *nic_xml,
			struct errbuf *err);
	/*
	 * One guest-agent command (JSON text); *reply is malloc'd JSON.
	 * timeout_s < 0 waits for ever.
	 */
	int (*agent)(void *ctx, const char *name, const char *cmd,
		     int timeout_s, char **reply, struct errbuf *err);
	/* Stops a running domain's vCPUs; lets them go on. */
	int (*pause)(void *ctx, const char *name, struct errbuf *err);
	int (*resume)(void *ctx, const char *name, struct errbuf *err);
	/*
	 * One QMP command to the domain's QEMU (JSON text), with the file
	 * descriptor fd when it is >= 0 (for getfd); *reply is malloc'd
	 * JSON. Templates save and load guest state this way
	 * (template.h).
	 */
	int (*monitor)(void *ctx, const char *name, const char *cmd, int fd,
		       char **reply, struct errbuf *err);
};

/*
 * A domain's identity channel (plan.h: PLAN_IDENTITY_PORT), a unix
 * socket its QEMU listens on: a guest from a template reads its identity
 * there (template.h).
 */
struct chan_ops {
	/* Connects: a descriptor, or -1. */
	int (*connect)(void *ctx, const char *path, struct errbuf *err);
	int (*send)(void *ctx, int fd, const char *text, struct errbuf *err);
	void (*close)(void *ctx, int fd);
};

struct link_ops {
	/*
	 * A host bridge that behaves like a wire
	 * (docs/design/orchestrator.md), labelled with owner.
	 * A bridge of that name and label left by a run that
	 * died is replaced: returns 1 then, 0 when created afresh.
	 */
	int (*create)(void *ctx, const char *bridge, const char *owner,
		      struct errbuf *err);
	/* Sets the two ports (taps) of a link bridge up: learning off,
	 * group_fwd_mask. Called once both taps exist. */
	int (*setup_port)(void *ctx, const char *tap, struct errbuf *err);
	/*
	 * A link's n ports (taps: two, or this host's one of a link
	 * between hosts) forwarding (true) or disabled (false): silent
	 * drop. Off with deaf an index of tap[]: only the frames towards
	 * that tap are dropped, the other direction and the carriers stay
	 * (a one-way failure); deaf -1: both ways. On restores either kind.
	 */
	int (*port_forward)(void *ctx, const char *const tap[], size_t n,
			    bool on, int deaf, struct errbuf *err);
	/* Deletes the interface if it exists; absent is not an error. */
	int (*remove)(void *ctx, const char *ifname, struct errbuf *err);
	/*
	 * A link's tunnel to another host: a VXLAN device name of that
	 * VNI from this host's address local to remote's, a port of
	 * bridge set up as setup_port sets a tap.
	 */
	int (*tunnel)(void *ctx, const char *name, const char *bridge,
		      uint32_t vni, const char *local, const char *remote,
		      struct errbuf *err);
	/* The MTU of the interface this host reaches address by. */
	int (*path_mtu)(void *ctx, const char *address, unsigned *mtu,
			struct errbuf *err);
};

struct capture_ops {
	/*
	 * Starts capturing on ifname into path (its messages go to
	 * path.log). (pid, start_time) name the process for ever
	 * (child.h).
	 */
	int (*start)(void *ctx, const char *ifname, const char *path,
		     pid_t *pid, uint64_t *start_time, struct errbuf *err);
	/* Returns once that capture is listening, or -1 (it died or took
	 * more than 5 s: then it is stopped). */
	int (*listening)(void *ctx, const char *ifname, const char *path,
			 pid_t pid, uint64_t start_time, struct errbuf *err);
	/* Stops it, flushing the file. Not running is not an error. */
	int (*stop)(void *ctx, pid_t pid, uint64_t start_time,
		    struct errbuf *err);
	/* 1 still running, 0 gone. */
	int (*alive)(void *ctx, pid_t pid, uint64_t start_time);
};

struct remote;

struct lab_ops {
	const struct hv_ops *hv;
	void *hv_ctx;
	const struct link_ops *link;
	void *link_ctx;
	const struct capture_ops *cap;
	void *cap_ctx;
	/* Monotonic ms and a sleep, so tests run in virtual time. */
	long long (*now_ms)(void *ctx);
	void (*sleep_ms)(void *ctx, unsigned ms);
	void *clock_ctx;
	const struct chan_ops *chan;
	void *chan_ctx;
	/*
	 * A lab across hosts (hosts.h): the tables of another host, by
	 * its name (topo_host), reached on first use; NULL with err when
	 * it cannot be. host is NULL for a lab of one host.
	 */
	const struct lab_ops *(*host)(void *ctx, const char *name,
				      struct errbuf *err);
	void *host_ctx;
	/* On another host's tables: the session with its agent. */
	struct remote *remote;
};

#endif
