// SPDX-License-Identifier: MIT
/*
 * probe-gen: one sequence-numbered probe flow (lab/libmst/probe_wire.h)
 * out of an interface at a steady rate, through an AF_PACKET socket.
 *
 *   probe-gen -i IFACE -d DST_MAC -f FLOW [-v VID] [-r PPS] [-s SIZE]
 *             [-n COUNT]
 *
 * Frames are paced on absolute CLOCK_MONOTONIC deadlines, so a late
 * wake-up does not stretch the schedule. Runs until COUNT frames or a
 * SIGTERM/SIGINT; prints "probe-gen: flow F sent N (af_packet)" at the end.
 */
#include <errno.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "probe_opts.h"
#include "probe_wire.h"
#include "rawsock.h"

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

int main(int argc, char **argv)
{
	struct probe_opts o;
	uint8_t frame[PROBE_MAX_FRAME] = { 0 };
	struct probe_hdr h = { 0 };
	struct timespec next;
	uint64_t interval, sent = 0;
	size_t hdr_at;
	int fd;

	if (probe_gen_opts(argc, argv, &o))
		return 2;
	fd = rawsock_open(o.ifname, 0);
	if (fd < 0)
		return 2;
	if (rawsock_mac(fd, o.ifname, o.src)) {
		fprintf(stderr, "probe-gen: %s has no MAC address\n", o.ifname);
		return 2;
	}
	hdr_at = probe_frame_header(&o, frame);
	h.flow = o.flow;
	h.vid = o.vid;
	interval = 1000000000ull / o.pps;
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!stop && (!o.count || sent < o.count)) {
		h.seq = (uint32_t)sent;
		h.sent_ns = now_ns();
		probe_hdr_encode(&h, frame + hdr_at);
		if (rawsock_send(fd, frame, o.size) < 0 && errno != ENOBUFS) {
			fprintf(stderr, "probe-gen: %s: %s\n", o.ifname,
				strerror(errno));
			return 1;
		}
		sent++;
		next.tv_nsec += (long)interval;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		while (!stop && clock_nanosleep(CLOCK_MONOTONIC,
						TIMER_ABSTIME, &next, NULL) ==
					EINTR)
			;
	}
	printf("probe-gen: flow %u sent %llu (af_packet)\n", o.flow,
	       (unsigned long long)sent);
	close(fd);
	return 0;
}
