// SPDX-License-Identifier: MIT
#include "xdpgen.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <ifaddrs.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "pace.h"
#include "probe_opts.h"
#include "probe_xdp.h"
#include "xdp_attach.h"
#include "xdp_obj.h"
#include "xdp_plan.h"

struct xdpgen {
	struct bpf_object *obj;
	int stamp_fd;
	unsigned ifindex, nflows;
	char ifname[IF_NAMESIZE];
	/* The maps, mmap()ed: a run's plan and its flows' sequence
	 * numbers, with no system call. */
	struct probe_xdp_plan *plan;
	struct probe_xdp_state *state;
	uint64_t sent[PROBE_XDP_FLOWS];
	/* probe_xdp_meta, then the frame template */
	uint8_t data[sizeof(struct probe_xdp_meta) + PROBE_MAX_FRAME];
	size_t len;			/* of data */
	bool veth, virtio;
	bool attached;		/* probe_stamp is the interface's */
	uint64_t tx_base;		/* veth: tx_packets before sending */
};

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/* libbpf's own lines would break probe-gen's one-line errors;
	 * PROBE_GEN_DEBUG=1 shows them. */
	if (level == LIBBPF_DEBUG || !getenv("PROBE_GEN_DEBUG"))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* PROBE_GEN_DEBUG=1: how the program was settled, on stderr. */
static void debug(const char *fmt, ...)
{
	va_list ap;

	if (!getenv("PROBE_GEN_DEBUG"))
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static int driver_name(const char *ifname, char *drv, size_t len)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	struct ifreq ifr = { 0 };
	int fd, rc;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (char *)&info;
	rc = ioctl(fd, SIOCETHTOOL, &ifr);
	close(fd);
	if (rc < 0)
		return -1;
	snprintf(drv, len, "%s", info.driver);
	return 0;
}

/* tx_packets of the interface in this network namespace (getifaddrs
 * asks rtnetlink, so it works where /sys belongs to another one). */
static int tx_packets(const char *ifname, uint64_t *out)
{
	struct ifaddrs *ifa, *i;
	int rc = -1;

	if (getifaddrs(&ifa))
		return -1;
	for (i = ifa; i; i = i->ifa_next) {
		if (i->ifa_addr && i->ifa_addr->sa_family == AF_PACKET &&
		    i->ifa_data && !strcmp(i->ifa_name, ifname)) {
			*out = ((struct rtnl_link_stats *)i->ifa_data)->tx_packets;
			rc = 0;
			break;
		}
	}
	freeifaddrs(ifa);
	return rc;
}

static int run(struct xdpgen *g, uint32_t n)
{
	/* The kernel wants the context to describe data_in exactly: the
	 * metadata, then the frame. */
	struct xdp_md md = { .data = sizeof(struct probe_xdp_meta),
			     .data_end = (uint32_t)g->len,
			     .ingress_ifindex = g->ifindex };
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		    .data_in = g->data,
		    .data_size_in = (uint32_t)g->len,
		    .ctx_in = &md,
		    .ctx_size_in = sizeof(md),
		    .repeat = n,
		    .batch_size = pace_batch(n),
		    .flags = BPF_F_TEST_XDP_LIVE_FRAMES);

	return bpf_prog_test_run_opts(g->stamp_fd, &opts);
}

/* The driver's side: can it transmit what XDP_TX hands it? */
static int check_driver(struct xdpgen *g, char *why, size_t whylen)
{
	char drv[32];

	if (driver_name(g->ifname, drv, sizeof(drv))) {
		snprintf(why, whylen, "cannot tell the driver of %s: %s",
			 g->ifname, strerror(errno));
		return -1;
	}
	g->veth = !strcmp(drv, "veth");
	g->virtio = !strcmp(drv, "virtio_net");
	if (g->veth || g->virtio || !strcmp(drv, "tun"))
		return 0;
	snprintf(why, whylen, "driver %s of %s has no XDP transmit "
		 "(ndo_xdp_xmit)", drv, g->ifname);
	return -1;
}

/*
 * Attaches our probe_stamp to the interface unless a running probe-gen's
 * or another program is there (xdp_attach.h); unattached, it works (on
 * virtio_net too, which needs some program there), at a cost: see
 * xdpgen_send. 0, or -1 after saying why.
 */
static int settle_program(struct xdpgen *g, char *why, size_t whylen)
{
	const char *how = "";
	int rc = xdp_attach_stamp(g->ifindex, g->stamp_fd, &how);

	g->attached = rc > 0;
	debug("probe-gen: %s: probe_stamp %s\n", g->ifname, how);
	/* veth and tun transmit without a program there. */
	if (rc >= 0 || !g->virtio)
		return 0;
	snprintf(why, whylen, "virtio_net %s sends XDP frames only with an "
		 "XDP program loaded, and loading one failed: %s", g->ifname,
		 strerror(-rc));
	return -1;
}

/* The map's values, mapped into this process. */
static void *map_values(struct bpf_object *obj, const char *name, size_t len)
{
	struct bpf_map *m = bpf_object__find_map_by_name(obj, name);
	void *p;

	if (!m)
		return NULL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
		 bpf_map__fd(m), 0);
	return p == MAP_FAILED ? NULL : p;
}

/* Loads the programs and maps. 0, or -1 after saying why. */
static int load(struct xdpgen *g, char *why, size_t whylen)
{
	struct bpf_program *stamp;
	int err;

	g->obj = bpf_object__open_mem(probe_xdp_obj,
				      (size_t)(probe_xdp_obj_end - probe_xdp_obj),
				      NULL);
	if (!g->obj) {
		snprintf(why, whylen, "bad embedded BPF object: %s",
			 strerror(errno));
		return -1;
	}
	err = bpf_object__load(g->obj);
	if (err) {
		snprintf(why, whylen, "loading the XDP program failed: %s",
			 strerror(-err));
		return -1;
	}
	stamp = bpf_object__find_program_by_name(g->obj, "probe_stamp");
	g->plan = map_values(g->obj, "probe_plan", sizeof(*g->plan));
	g->state = map_values(g->obj, "probe_state",
			      sizeof(*g->state) * PROBE_XDP_FLOWS);
	if (!stamp || !g->plan || !g->state) {
		snprintf(why, whylen, "the BPF object lacks its program or "
			 "maps: %s", strerror(errno));
		return -1;
	}
	g->stamp_fd = bpf_program__fd(stamp);
	g->plan->owner = (uint32_t)getpid();
	return 0;
}

struct xdpgen *xdpgen_open(const char *ifname, const uint16_t *flows,
			   const uint16_t *vids, unsigned nflows,
			   const uint8_t *frame, size_t len, char *why,
			   size_t whylen)
{
	const struct probe_xdp_meta meta = { PROBE_XDP_META_MAGIC };
	struct xdpgen *g;
	int err;

	libbpf_set_print(quiet);
	g = calloc(1, sizeof(*g));
	if (!g || len > PROBE_MAX_FRAME || nflows > PROBE_XDP_FLOWS) {
		snprintf(why, whylen, "out of memory");
		free(g);
		return NULL;
	}
	snprintf(g->ifname, sizeof(g->ifname), "%s", ifname);
	g->ifindex = if_nametoindex(ifname);
	g->nflows = nflows;
	memcpy(g->data, &meta, sizeof(meta));
	memcpy(g->data + sizeof(meta), frame, len);
	g->len = sizeof(meta) + len;
	if (!g->ifindex) {
		snprintf(why, whylen, "no interface '%s'", ifname);
		goto fail;
	}
	if (load(g, why, whylen))
		goto fail;
	for (unsigned i = 0; i < nflows; i++)
		g->state[i] = (struct probe_xdp_state){ .flow = flows[i],
							.vid = vids[i] };
	/* A dry run (an empty plan: the frame is dropped) tells whether
	 * the kernel knows the flag: older ones reject it with EINVAL. */
	xdp_plan_fill(g->plan, NULL, 0);
	err = run(g, 1);
	if (err == -EINVAL) {
		snprintf(why, whylen, "the kernel has no BPF_PROG_RUN live "
			 "frames (BPF_F_TEST_XDP_LIVE_FRAMES)");
		goto fail;
	}
	if (err) {
		snprintf(why, whylen, "BPF_PROG_RUN on %s: %s", g->ifname,
			 strerror(-err));
		goto fail;
	}
	if (check_driver(g, why, whylen) || settle_program(g, why, whylen))
		goto fail;
	if (g->veth && tx_packets(g->ifname, &g->tx_base)) {
		snprintf(why, whylen, "no statistics for %s", g->ifname);
		goto fail;
	}
	return g;
fail:
	xdpgen_close(g);
	return NULL;
}

int xdpgen_send(struct xdpgen *g, const uint32_t *n)
{
	uint32_t total = xdp_plan_fill(g->plan, n, g->nflows);
	int err = 0;

	/* Unattached, a run of more than one frame patches the kernel's
	 * XDP dispatcher twice (probe_xdp.bpf.c): a tick's few frames go
	 * one run each, a backlog in one run. */
	if (!g->attached && total <= PROBE_XDP_FLOWS) {
		for (uint32_t k = 0; k < total && !err; k++)
			err = run(g, 1);
	} else if (total) {
		err = run(g, total);
	}

	/* The map knows how far each flow got, in a run a signal stopped
	 * too. Sequence numbers wrap at 2^32, counts do not. */
	for (unsigned i = 0; i < g->nflows; i++)
		g->sent[i] += (uint32_t)(g->state[i].next_seq -
					 (uint32_t)g->sent[i]);
	return err;
}

int xdpgen_check_delivery(struct xdpgen *g, char *why, size_t whylen)
{
	struct timespec ms = { 0, 10000000 };
	uint64_t tx;

	if (!g->veth)
		return 0;
	/* The peer's NAPI counts the frame (as our tx_packets) when the
	 * run's bottom halves are done; allow it a moment. */
	for (int i = 0; i < 20; i++) {
		if (!tx_packets(g->ifname, &tx) && tx > g->tx_base)
			return 0;
		nanosleep(&ms, NULL);
	}
	snprintf(why, whylen, "XDP frames from veth %s do not reach its peer: "
		 "the peer needs an XDP program or GRO (ethtool -K PEER gro "
		 "on)", g->ifname);
	return -1;
}

uint64_t xdpgen_sent(const struct xdpgen *g, unsigned i)
{
	return g->sent[i];
}

void xdpgen_close(struct xdpgen *g)
{
	if (!g)
		return;
	if (g->plan)
		munmap(g->plan, sizeof(*g->plan));
	if (g->state)
		munmap(g->state, sizeof(*g->state) * PROBE_XDP_FLOWS);
	bpf_object__close(g->obj);
	free(g);
}
