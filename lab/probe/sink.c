// SPDX-License-Identifier: MIT
/*
 * probe-sink: counts the probe flows arriving on an interface and writes
 * them as JSON to FILE at the end (SIGTERM/SIGINT) and whenever it gets
 * SIGUSR1.
 *
 *   probe-sink -i IFACE -o FILE [-f FLOW]
 *
 * With -f only that flow is counted (one sink per flow). Frames of the
 * probe EtherType that are not probe frames (too short, another magic or
 * version) are counted as "malformed" and otherwise ignored.
 */
#include <errno.h>
#include <linux/if_packet.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "flows.h"
#include "probe_wire.h"
#include "rawsock.h"

#define MAX_FLOWS 64

static volatile sig_atomic_t stop, dump;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static void on_dump(int sig)
{
	(void)sig;
	dump = 1;
}

static int64_t ns_of(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * recv() with the time the kernel took the frame in (SO_TIMESTAMPNS), on
 * CLOCK_MONOTONIC: gap times then do not include the sink's own wake-up
 * latency (tens of ms under TCG). The stamp is CLOCK_REALTIME; its age
 * now is the same on either clock. Without a stamp: the time now.
 */
static ssize_t recv_stamped(int fd, uint8_t *buf, size_t size, int64_t *ns)
{
	union {
		char raw[CMSG_SPACE(sizeof(struct timespec))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { buf, size };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = ctl.raw,
			      .msg_controllen = sizeof(ctl.raw) };
	struct cmsghdr *c;
	ssize_t len = recvmsg(fd, &msg, 0);
	int64_t age = 0;

	for (c = CMSG_FIRSTHDR(&msg); len >= 0 && c; c = CMSG_NXTHDR(&msg, c)) {
		struct timespec ts;

		if (c->cmsg_level != SOL_SOCKET ||
		    c->cmsg_type != SCM_TIMESTAMPNS)
			continue;
		memcpy(&ts, CMSG_DATA(c), sizeof(ts));
		if (ts.tv_sec)
			age = ns_of(CLOCK_REALTIME) -
			      ((int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	}
	*ns = ns_of(CLOCK_MONOTONIC) - (age > 0 ? age : 0);
	return len;
}

static int write_json(const char *path, struct flow *flows, size_t n,
		      uint64_t malformed)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fputs("{\"flows\":[", f);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		flow_json(&flows[i], f);
	}
	fprintf(f, "],\"malformed\":%llu}\n", (unsigned long long)malformed);
	/* Renamed whole: a reader never sees half a file. */
	if (fclose(f) || rename(tmp, path))
		return -1;
	return 0;
}

static struct flow *find(struct flow *flows, size_t *n, uint16_t id,
			 uint16_t vid)
{
	for (size_t i = 0; i < *n; i++)
		if (flows[i].id == id)
			return &flows[i];
	if (*n == MAX_FLOWS)
		return NULL;
	flows[*n] = (struct flow){ .id = id, .vid = vid };
	return &flows[(*n)++];
}

int main(int argc, char **argv)
{
	static struct flow flows[MAX_FLOWS];
	const char *ifname = NULL, *out = NULL;
	long only = -1;
	uint64_t malformed = 0;
	size_t n = 0;
	int opt, fd, one = 1;
	char *end;

	while ((opt = getopt(argc, argv, "i:o:f:")) != -1) {
		if (opt == 'i') {
			ifname = optarg;
		} else if (opt == 'o') {
			out = optarg;
		} else if (opt == 'f') {
			only = strtol(optarg, &end, 10);
			if (*end || !*optarg || only < 0 || only > 65535) {
				fprintf(stderr, "probe-sink: flow '%s' is not "
					"in 0..65535\n", optarg);
				return 2;
			}
		} else {
			ifname = NULL;
			break;
		}
	}
	if (!ifname || !out || optind != argc) {
		fprintf(stderr, "usage: probe-sink -i IFACE -o FILE [-f FLOW]\n");
		return 2;
	}
	fd = rawsock_open(ifname, PROBE_ETHERTYPE);
	if (fd < 0)
		return 2;
	setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	signal(SIGUSR1, on_dump);
	while (!stop) {
		uint8_t buf[2048];
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct probe_hdr h;
		struct flow *f;
		int64_t ns;
		ssize_t len;

		if (dump) {
			dump = 0;
			write_json(out, flows, n, malformed);
		}
		if (poll(&p, 1, 200) <= 0)
			continue;
		len = recv_stamped(fd, buf, sizeof(buf), &ns);
		/* SOCK_RAW on one EtherType: the tag is gone (auxdata),
		 * the payload starts at 14. */
		if (len < 0)
			continue;
		if (len < 14 ||
		    probe_hdr_decode(buf + 14, (size_t)len - 14, &h)) {
			malformed++;
			continue;
		}
		if (only >= 0 && h.flow != only)
			continue;
		f = find(flows, &n, h.flow, h.vid);
		if (f && flow_add(f, h.seq, ns)) {
			fprintf(stderr, "probe-sink: out of memory\n");
			break;
		}
	}
	if (write_json(out, flows, n, malformed)) {
		fprintf(stderr, "probe-sink: cannot write %s: %s\n", out,
			strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		flow_free(&flows[i]);
	close(fd);
	return 0;
}
