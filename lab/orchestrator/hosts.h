/* SPDX-License-Identifier: MIT */
/*
 * The other hosts of a lab, as struct lab_ops (ops.h: host): each one's
 * domains through libvirt at its URI (the same XML), everything else
 * through its mstlab agent over SSH (remote.h). Reached on first use,
 * once; one that cannot be reached is said once and stays unreachable
 * for this process.
 */
#ifndef MSTLAB_HOSTS_H
#define MSTLAB_HOSTS_H

#include <pthread.h>
#include <stdbool.h>

#include "hv_libvirt.h"
#include "ops.h"
#include "remote.h"
#include "topo.h"

struct lab_hosts {
	const struct topo *t;
	const struct lab_ops *base;	/* this host's: clocks, chan */
	bool autodestroy;
	pthread_mutex_t lock;
	struct lab_host_rt {
		bool tried, up;
		struct errbuf why;
		struct remote rc;
		struct hv_libvirt hv;
		struct lab_ops ops;
	} h[TOPO_MAX_HOSTS];
};

/* Whether t has nodes on another host than this one. */
bool lab_hosts_needed(const struct topo *t);
void lab_hosts_init(struct lab_hosts *hs, const struct topo *t,
		    const struct lab_ops *base, bool autodestroy);
/* struct lab_ops.host, ctx a struct lab_hosts. */
const struct lab_ops *lab_hosts_get(void *ctx, const char *name,
				    struct errbuf *err);
/* Every session ended, every connection closed. */
void lab_hosts_close(struct lab_hosts *hs);

#endif
