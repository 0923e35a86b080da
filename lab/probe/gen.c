// SPDX-License-Identifier: MIT
/*
 * probe-gen: one sequence-numbered probe flow (lab/libmst/probe_wire.h)
 * out of an interface at a steady rate.
 *
 *   probe-gen -i IFACE -d DST_MAC -f FLOW[,FLOW...] [-v VID[,VID...]]
 *             [-r PPS] [-s SIZE] [-n COUNT] [-m xdp|af_packet|auto]
 *             [-t TICK_MS]
 *
 * Several flows (each its own VLAN, or untagged) go out together, at the
 * same rate, with one wake-up per tick.
 *
 * Two ways to send:
 *  xdp       BPF_PROG_RUN in live-frames mode (BPF_F_TEST_XDP_LIVE_FRAMES,
 *            see xdpgen.h): the kernel runs probe_xdp.bpf.c once per
 *            frame, which stamps it and returns XDP_TX, so a frame costs
 *            no system call of its own. Needs a driver with ndo_xdp_xmit
 *            (virtio_net: with an XDP program loaded, which probe-gen does;
 *            veth: with an XDP program or GRO on the peer). The program
 *            stays attached to the interface and serves its other flows.
 *  af_packet one send() per frame on an AF_PACKET socket, stamped here.
 *  auto      (the default) xdp when the kernel and interface can, else
 *            af_packet, saying why on stderr.
 *
 * Frames go out in ticks on absolute CLOCK_MONOTONIC deadlines (pace.h),
 * so a late wake-up does not stretch the schedule. A tick is one frame
 * interval, at least TICK_MS (default 1): longer ticks save wake-ups and
 * send frames in bursts. Runs until COUNT frames
 * or a SIGTERM/SIGINT; prints "probe-gen: flow F sent N (MODE)" per flow at the
 * end, MODE being the one actually used.
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
#include "rawsock.h"
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

/* One flow. */
struct sender {
	const struct probe_opts *o;
	uint16_t flow, vid;
	uint8_t frame[PROBE_MAX_FRAME];
	size_t hdr_at;
	int fd;			/* af_packet */
	struct xdpgen *xdp;	/* xdp; NULL for af_packet */
	uint64_t sent;
};

/* Sends n frames; 0, or -1 after saying why. */
static int send_frames(struct sender *s, uint32_t n)
{
	struct probe_hdr h = { .flow = s->flow, .vid = s->vid };
	int err;

	if (s->xdp) {
		err = xdpgen_send(s->xdp, n);
		s->sent = xdpgen_sent(s->xdp);
		if (err && err != -EINTR) {
			fprintf(stderr, "probe-gen: %s: BPF_PROG_RUN: %s\n",
				s->o->ifname, strerror(-err));
			return -1;
		}
		return 0;
	}
	for (uint32_t i = 0; i < n && !stop; i++) {
		h.seq = (uint32_t)s->sent;
		h.sent_ns = now_ns();
		probe_hdr_encode(&h, s->frame + s->hdr_at);
		if (rawsock_send(s->fd, s->frame, s->o->size) < 0 &&
		    errno != ENOBUFS) {
			fprintf(stderr, "probe-gen: %s: %s\n", s->o->ifname,
				strerror(errno));
			return -1;
		}
		s->sent++;
	}
	return 0;
}

/* Chooses the mode; for xdp the first frame has gone out already (to
 * learn whether it arrives). 0, or -1 after saying why. */
static int choose_mode(struct sender *s)
{
	const struct probe_opts *o = s->o;
	struct probe_hdr h = { .flow = s->flow, .vid = s->vid };
	char why[256] = "";

	if (o->mode == PROBE_MODE_AF_PACKET)
		return 0;
	probe_hdr_encode(&h, s->frame + s->hdr_at);
	s->xdp = xdpgen_open(o->ifname, s->flow, s->vid, s->frame, o->size,
			     why, sizeof(why));
	if (s->xdp) {
		if (send_frames(s, 1))
			return -1;
		if (!xdpgen_check_delivery(s->xdp, why, sizeof(why)))
			return 0;
		/* Frame 0 was lost on the way: start again at 0. */
		xdpgen_close(s->xdp);
		s->xdp = NULL;
		s->sent = 0;
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
static bool all_sent(const struct sender *s, unsigned n, uint64_t count)
{
	for (unsigned i = 0; i < n; i++)
		if (!count || s[i].sent < count)
			return false;
	return true;
}

int main(int argc, char **argv)
{
	static struct sender s[PROBE_MAX_FLOWS];
	struct probe_opts o;
	struct timespec next;
	uint64_t start, tick, due, t;
	uint32_t burst;
	unsigned i, nf;
	int fd, rc = 0;

	if (probe_gen_opts(argc, argv, &o))
		return 2;
	fd = rawsock_open(o.ifname, 0);
	if (fd < 0)
		return 2;
	if (rawsock_mac(fd, o.ifname, o.src)) {
		fprintf(stderr, "probe-gen: %s has no MAC address\n", o.ifname);
		return 2;
	}
	nf = o.n_flows;
	for (i = 0; i < nf; i++) {
		s[i].o = &o;
		s[i].fd = fd;
		s[i].flow = o.flows[i];
		s[i].vid = o.vids[i];
		s[i].hdr_at = probe_frame_header(&o, s[i].vid, s[i].frame);
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	for (i = 0; i < nf; i++)
		if (choose_mode(&s[i])) {
			while (i--)
				xdpgen_close(s[i].xdp);
			close(fd);
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
	while (!stop && !all_sent(s, nf, o.count)) {
		due = pace_due(now_ns() - start, o.pps);
		for (i = 0; i < nf && !rc; i++) {
			uint32_t n = pace_chunk(due, s[i].sent, o.count);

			if (n > burst)
				n = burst;

			if (n && send_frames(&s[i], n))
				rc = 1;
		}
		if (rc || all_sent(s, nf, o.count))
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
	for (i = 0; i < nf; i++) {
		printf("probe-gen: flow %u sent %llu (%s)\n", s[i].flow,
		       (unsigned long long)s[i].sent,
		       s[i].xdp ? "xdp" : "af_packet");
		xdpgen_close(s[i].xdp);
	}
	close(fd);
	return rc;
}
