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
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "pace.h"
#include "probe_opts.h"
#include "probe_xdp.h"
#include "xdp_obj.h"

struct xdpgen {
	struct bpf_object *obj;
	int stamp_fd, state_fd;		/* ours, or the attached program's */
	int shared_prog_fd, shared_map_fd;	/* -1 unless shared */
	unsigned ifindex;
	uint16_t flow;
	char ifname[IF_NAMESIZE];
	/* probe_xdp_meta, then the frame template */
	uint8_t data[sizeof(struct probe_xdp_meta) + PROBE_MAX_FRAME];
	size_t len;			/* of data */
	uint64_t sent;
	bool veth, virtio;
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

static int set_state(struct xdpgen *g, const struct probe_xdp_state *st)
{
	uint32_t key = probe_xdp_slot(g->flow);

	return bpf_map_update_elem(g->state_fd, &key, st, BPF_ANY) ? -errno : 0;
}

static int read_state_fd(int fd, uint16_t flow, struct probe_xdp_state *st)
{
	uint32_t key = probe_xdp_slot(flow);

	return bpf_map_lookup_elem(fd, &key, st) ? -errno : 0;
}

static int read_state(struct xdpgen *g, struct probe_xdp_state *st)
{
	return read_state_fd(g->state_fd, g->flow, st);
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

/* The program this process attached, if any (its flows share it). */
static uint32_t attached_here;

/* Whether @fd is a probe_stamp of the same code as ours: then it is
 * used, with its state map. */
static bool share(struct xdpgen *g, int fd)
{
	struct bpf_prog_info ours = { 0 }, info = { 0 };
	uint32_t len = sizeof(ours), map_id = 0;
	struct probe_xdp_state st;
	int map_fd;

	if (bpf_obj_get_info_by_fd(g->stamp_fd, &ours, &len))
		return false;
	len = sizeof(info);
	info.nr_map_ids = 1;
	info.map_ids = (uint64_t)(uintptr_t)&map_id;
	if (bpf_obj_get_info_by_fd(fd, &info, &len) ||
	    strcmp(info.name, ours.name) || info.nr_map_ids != 1 ||
	    memcmp(info.tag, ours.tag, sizeof(ours.tag)))
		return false;
	map_fd = bpf_map_get_fd_by_id(map_id);
	if (map_fd < 0)
		return false;
	/* Another flow in our slot (flow ids 1024 apart): keep ours. */
	if (read_state_fd(map_fd, g->flow, &st) || (st.active &&
						     st.flow != g->flow)) {
		close(map_fd);
		return false;
	}
	g->shared_prog_fd = g->stamp_fd = fd;
	g->shared_map_fd = g->state_fd = map_fd;
	return true;
}

/*
 * The interface's XDP program (see probe_xdp.bpf.c). virtio_net: any,
 * else probe_pass, attached and left there; probe_stamp runs unattached.
 * Others: none yet -> probe_stamp, attached, left there and shared by
 * this process's other flows; any other program -> ours runs unattached
 * (it works, but a run of more than one frame patches the kernel's XDP
 * dispatcher). 0, or -1 after saying why.
 */
static int settle_program(struct xdpgen *g, char *why, size_t whylen)
{
	struct bpf_program *pass;
	int err = 0;

	if (g->virtio) {
		uint32_t id = 0;

		if (!bpf_xdp_query_id((int)g->ifindex, XDP_FLAGS_DRV_MODE,
				      &id) && id)
			return 0;
		pass = bpf_object__find_program_by_name(g->obj, "probe_pass");
		err = pass ? bpf_xdp_attach((int)g->ifindex,
					    bpf_program__fd(pass),
					    XDP_FLAGS_DRV_MODE |
					    XDP_FLAGS_UPDATE_IF_NOEXIST, NULL)
			   : -ENOENT;
		/* EBUSY: another probe-gen got there first, as good. */
		if (err == -EBUSY)
			err = 0;
	}

	for (int tries = 0; !g->virtio && tries < 3; tries++) {
		uint32_t id = 0;
		int fd;

		if (bpf_xdp_query_id((int)g->ifindex, XDP_FLAGS_DRV_MODE, &id))
			id = 0;
		if (!id) {
			err = bpf_xdp_attach((int)g->ifindex, g->stamp_fd,
					     XDP_FLAGS_DRV_MODE |
					     XDP_FLAGS_UPDATE_IF_NOEXIST, NULL);
			if (err == -EBUSY)
				continue;	/* another probe-gen won */
			if (!err)
				bpf_xdp_query_id((int)g->ifindex,
						 XDP_FLAGS_DRV_MODE,
						 &attached_here);
			debug("probe-gen: flow %u: attaching: %s\n", g->flow,
			      strerror(-err));
			break;
		}
		/* Only this process's: in a TCG guest, three probe-gens
		 * running one program took 2.5 times the CPU of each
		 * running its own, for reasons not found. */
		fd = id == attached_here ? bpf_prog_get_fd_by_id(id) : -1;
		if (fd >= 0 && !share(g, fd))
			close(fd);
		debug("probe-gen: flow %u: %s program %u\n", g->flow,
		      g->shared_prog_fd >= 0 ? "sharing" : "not sharing", id);
		return 0;
	}
	/* veth and tun transmit without one; virtio_net does not. */
	if (err && g->virtio) {
		snprintf(why, whylen, "virtio_net %s sends XDP frames only "
			 "with an XDP program loaded, and loading one failed: "
			 "%s", g->ifname, strerror(-err));
		return -1;
	}
	return 0;
}

struct xdpgen *xdpgen_open(const char *ifname, uint16_t flow, uint16_t vid,
			   const uint8_t *frame, size_t len, char *why,
			   size_t whylen)
{
	struct probe_xdp_state st = { .flow = flow, .vid = vid, .dry = 1,
				      .active = 1 };
	struct bpf_program *stamp;
	struct bpf_map *state;
	struct xdpgen *g;
	int err;

	libbpf_set_print(quiet);
	g = calloc(1, sizeof(*g));
	if (!g || len > PROBE_MAX_FRAME) {
		snprintf(why, whylen, "out of memory");
		free(g);
		return NULL;
	}
	g->stamp_fd = g->state_fd = -1;
	g->shared_prog_fd = g->shared_map_fd = -1;
	snprintf(g->ifname, sizeof(g->ifname), "%s", ifname);
	g->ifindex = if_nametoindex(ifname);
	g->flow = flow;
	memcpy(g->data, &(struct probe_xdp_meta){ PROBE_XDP_META_MAGIC,
						   probe_xdp_slot(flow) },
	       sizeof(struct probe_xdp_meta));
	memcpy(g->data + sizeof(struct probe_xdp_meta), frame, len);
	g->len = sizeof(struct probe_xdp_meta) + len;
	if (!g->ifindex) {
		snprintf(why, whylen, "no interface '%s'", ifname);
		goto fail;
	}
	g->obj = bpf_object__open_mem(probe_xdp_obj,
				      (size_t)(probe_xdp_obj_end - probe_xdp_obj),
				      NULL);
	if (!g->obj) {
		snprintf(why, whylen, "bad embedded BPF object: %s",
			 strerror(errno));
		goto fail;
	}
	err = bpf_object__load(g->obj);
	if (err) {
		snprintf(why, whylen, "loading the XDP program failed: %s",
			 strerror(-err));
		goto fail;
	}
	stamp = bpf_object__find_program_by_name(g->obj, "probe_stamp");
	state = bpf_object__find_map_by_name(g->obj, "probe_state");
	if (!stamp || !state) {
		snprintf(why, whylen, "the BPF object lacks its program");
		goto fail;
	}
	g->stamp_fd = bpf_program__fd(stamp);
	g->state_fd = bpf_map__fd(state);
	/* A dry run (every frame dropped) tells whether the kernel knows
	 * the flag: older ones reject it with EINVAL. */
	err = set_state(g, &st);
	if (!err)
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
	if (check_driver(g, why, whylen) ||
	    settle_program(g, why, whylen))
		goto fail;
	st.dry = 0;
	err = set_state(g, &st);
	if (err) {
		snprintf(why, whylen, "cannot set the XDP program's state: %s",
			 strerror(-err));
		goto fail;
	}
	if (g->veth && tx_packets(g->ifname, &g->tx_base)) {
		snprintf(why, whylen, "no statistics for %s", g->ifname);
		goto fail;
	}
	return g;
fail:
	xdpgen_close(g);
	return NULL;
}

int xdpgen_send(struct xdpgen *g, uint32_t n)
{
	struct probe_xdp_state st;
	int err = run(g, n);

	if (!err) {
		g->sent += n;
		return 0;
	}
	/* A signal stops the run part way: the map knows how far. */
	if (!read_state(g, &st))
		g->sent = st.next_seq;
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

uint64_t xdpgen_sent(struct xdpgen *g)
{
	return g->sent;
}

void xdpgen_close(struct xdpgen *g)
{
	struct probe_xdp_state idle = { .flow = 0 };

	if (!g)
		return;
	/* Our slot is free again; a shared map lives on with the attached
	 * program. */
	if (g->state_fd >= 0)
		set_state(g, &idle);
	if (g->shared_prog_fd >= 0)
		close(g->shared_prog_fd);
	if (g->shared_map_fd >= 0)
		close(g->shared_map_fd);
	bpf_object__close(g->obj);
	free(g);
}
