// SPDX-License-Identifier: MIT
/*
 * probe-gen: sequence-numbered probe flows (lab/libmst/probe_wire.h)
 * out of an interface at a steady rate.
 *
 *   probe-gen -i IFACE -d DST_MAC -f FLOW[,FLOW...] [-v VID[,VID...]]
 *             [-r PPS] [-s SIZE] [-n COUNT] [-m xdp|af_packet|auto]
 *             [-t TICK_MS]
 *
 * Several flows (each its own VLAN, or untagged: "-" in the VLAN list)
 * go out together, at the same rate, with one wake-up per tick, taking
 * turns within the tick.
 *
 * Two ways to send:
 *  xdp       BPF_PROG_RUN in live-frames mode (BPF_F_TEST_XDP_LIVE_FRAMES,
 *            see xdpgen.h), one run per tick for all flows: the kernel
 *            runs probe_xdp.bpf.c once per frame, which stamps it and
 *            returns XDP_TX, so a frame costs no system call of its own
 *            and a tick one run (a page pool set up and torn down, ~60 us
 *            under TCG) and one driver kick. Needs a driver with
 *            ndo_xdp_xmit (virtio_net: with an XDP program loaded, which
 *            probe-gen does; veth: with an XDP program or GRO on the
 *            peer). The program stays attached to the interface.
 *  af_packet the tick's frames stamped here and handed to an AF_PACKET
 *            socket with one sendmmsg() per RAWSOCK_BATCH of them.
 *  auto      (the default) xdp when the kernel and interface can, else
 *            af_packet, saying why on stderr.
 *
 * Frames go out in ticks on absolute CLOCK_MONOTONIC deadlines (pace.h),
 * so a late wake-up does not stretch the schedule. A tick is one frame
 * interval, at least TICK_MS (default 1): longer ticks save wake-ups and
 * send frames in bursts. Runs until COUNT frames per flow or a
 * SIGTERM/SIGINT; prints "probe-gen: flow F sent N (MODE)" per flow at
 * the end, MODE being the one actually used.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pace.h"
#include "probe_opts.h"
#include "probe_wire.h"
#include "probe_xdp.h"
#include "rawsock.h"
#include "xdp_plan.h"
#include "xdpgen.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The process's flows. */
struct gen {
	const struct probe_opts *o;
	unsigned nf;
	uint64_t sent[PROBE_MAX_FLOWS];
	struct xdpgen *xdp;	/* xdp; NULL for af_packet */
	int fd;			/* af_packet */
	uint8_t frame[PROBE_MAX_FLOWS][PROBE_MAX_FRAME];
	size_t hdr_at[PROBE_MAX_FLOWS];
};

/* af_packet: hands n stamped frames to the socket. 0, or -1 after
 * saying why. */
static int send_batch(struct gen *g, uint8_t (*batch)[PROBE_MAX_FRAME],
		      unsigned n)
{
	if (!n || !rawsock_send_many(g->fd, batch[0], sizeof(batch[0]),
				     g->o->size, n))
		return 0;
	fprintf(stderr, "probe-gen: %s: %s\n", g->o->ifname, strerror(errno));
	return -1;
}

/* af_packet: stamps the planned frames here, in the order the XDP
 * program would (probe_xdp_pick), and sends them RAWSOCK_BATCH at a
 * time. 0, or -1 after saying why. */
static int send_packets(struct gen *g, struct probe_xdp_plan *plan)
{
	static uint8_t batch[RAWSOCK_BATCH][PROBE_MAX_FRAME];
	const struct probe_opts *o = g->o;
	unsigned n = 0;
	int i;

	while (!stop && (i = probe_xdp_pick(plan)) >= 0) {
		struct probe_hdr h = { .flow = o->flows[i], .vid = o->vids[i],
				       .seq = (uint32_t)g->sent[i],
				       .sent_ns = now_ns() };

		memcpy(batch[n], g->frame[i], o->size);
		probe_hdr_encode(&h, batch[n] + g->hdr_at[i]);
		g->sent[i]++;
		if (++n == RAWSOCK_BATCH) {
			if (send_batch(g, batch, n))
				return -1;
			n = 0;
		}
	}
	return send_batch(g, batch, n);
}

/* Sends n[i] frames of flow i, the flows taking turns; 0, or -1 after
 * saying why. */
static int send_frames(struct gen *g, const uint32_t *n)
{
	struct probe_xdp_plan plan;
	int err;

	if (!g->xdp) {
		xdp_plan_fill(&plan, n, g->nf);
		return send_packets(g, &plan);
	}
	/* One BPF_PROG_RUN for all: its fixed cost (a page pool set up
	 * and torn down) and the driver's kick are paid once a tick. */
	err = xdpgen_send(g->xdp, n);
	for (unsigned i = 0; i < g->nf; i++)
		g->sent[i] = xdpgen_sent(g->xdp, i);
	if (err && err != -EINTR) {
		fprintf(stderr, "probe-gen: %s: BPF_PROG_RUN: %s\n",
			g->o->ifname, strerror(-err));
		return -1;
	}
	return 0;
}

/* Chooses the mode; for xdp frame 0 of each flow has gone out already
 * (to learn whether they arrive). 0, or -1 after saying why. */
static int choose_mode(struct gen *g)
{
	const struct probe_opts *o = g->o;
	uint32_t first[PROBE_MAX_FLOWS];
	uint8_t tmpl[PROBE_MAX_FRAME] = { 0 };
	char why[256] = "";

	if (o->mode == PROBE_MODE_AF_PACKET)
		return 0;
	/* The MAC addresses; the program writes the rest. */
	probe_frame_header(o, 0, tmpl);
	g->xdp = xdpgen_open(o->ifname, o->flows, o->vids, g->nf, tmpl,
			     o->size, why, sizeof(why));
	if (g->xdp) {
		for (unsigned i = 0; i < g->nf; i++)
			first[i] = 1;
		if (send_frames(g, first))
			return -1;
		if (!xdpgen_check_delivery(g->xdp, why, sizeof(why)))
			return 0;
		/* Frame 0 was lost on the way: start again at 0. */
		xdpgen_close(g->xdp);
		g->xdp = NULL;
		memset(g->sent, 0, sizeof(g->sent));
	}
	if (o->mode == PROBE_MODE_XDP) {
		fprintf(stderr, "probe-gen: no live frames on %s: %s\n",
			o->ifname, why);
		return -1;
	}
	fprintf(stderr, "probe-gen: no live frames on %s (%s): using "
		"af_packet\n", o->ifname, why);
	return 0;
}

/* Whether every flow has sent its count (never, without one). */
static bool all_sent(const struct gen *g, uint64_t count)
{
	for (unsigned i = 0; i < g->nf; i++)
		if (!count || g->sent[i] < count)
			return false;
	return true;
}

int main(int argc, char **argv)
{
	static struct gen g;
	struct probe_opts o;
	struct timespec next;
	uint64_t start, tick, due, t;
	uint32_t burst, n[PROBE_MAX_FLOWS];
	unsigned i;
	int rc = 0;

	rc = probe_gen_opts(argc, argv, &o);
	if (rc)
		return rc > 0 ? 0 : 2;
	g.o = &o;
	g.nf = o.n_flows;
	g.fd = rawsock_open(o.ifname);
	if (g.fd < 0)
		return 2;
	if (rawsock_mac(g.fd, o.ifname, o.src)) {
		fprintf(stderr, "probe-gen: %s has no MAC address\n", o.ifname);
		return 2;
	}
	for (i = 0; i < g.nf; i++)
		g.hdr_at[i] = probe_frame_header(&o, o.vids[i], g.frame[i]);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if (choose_mode(&g)) {
		close(g.fd);
		return 1;
	}
	/* The schedule starts now, frame 0 of each flow sent: getting
	 * ready (loading programs, waiting for frame 0 on a veth) takes
	 * up to hundreds of ms under TCG, and catching that up at once
	 * would overflow a veth's 256-frame ring. */
	start = now_ns();
	tick = pace_tick_ns(o.pps, o.tick_ms * 1000000ull);
	burst = pace_burst(o.pps, tick);
	t = start;
	/* One wake-up per tick for all flows. */
	while (!stop && !all_sent(&g, o.count)) {
		bool any = false;

		due = pace_due(now_ns() - start, o.pps);
		for (i = 0; i < g.nf; i++) {
			n[i] = pace_chunk(due, g.sent[i], o.count);
			if (n[i] > burst)
				n[i] = burst;
			any |= n[i] > 0;
		}
		if (any && send_frames(&g, n)) {
			rc = 1;
			break;
		}
		if (all_sent(&g, o.count))
			break;
		/* The next tick on the grid start + k * tick, past now. */
		t += tick;
		if (t < now_ns())
			t += (now_ns() - t) / tick * tick + tick;
		next.tv_sec = (time_t)(t / 1000000000ull);
		next.tv_nsec = (long)(t % 1000000000ull);
		while (!stop && clock_nanosleep(CLOCK_MONOTONIC,
						TIMER_ABSTIME, &next, NULL) ==
					EINTR)
			;
	}
	for (i = 0; i < g.nf; i++)
		printf("probe-gen: flow %u sent %llu (%s)\n", o.flows[i],
		       (unsigned long long)g.sent[i],
		       g.xdp ? "xdp" : "af_packet");
	xdpgen_close(g.xdp);
	close(g.fd);
	return rc;
}
