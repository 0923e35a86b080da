// SPDX-License-Identifier: MIT
/*
 * probe-sink: counts the probe flows arriving on an interface and writes
 * them as JSON to FILE at the end (SIGTERM/SIGINT) and whenever it gets
 * SIGUSR1.
 *
 *   probe-sink -i IFACE -o FILE [-f FLOW]
 *
 * With -f only that flow is counted (one sink per flow).
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

static int write_json(const char *path, struct flow *flows, size_t n)
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
	fputs("]}\n", f);
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
	size_t n = 0;
	int opt, fd;
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
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	signal(SIGUSR1, on_dump);
	while (!stop) {
		uint8_t buf[2048];
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct probe_hdr h;
		struct timespec ts;
		struct flow *f;
		ssize_t len;

		if (dump) {
			dump = 0;
			write_json(out, flows, n);
		}
		if (poll(&p, 1, 200) <= 0)
			continue;
		len = recv(fd, buf, sizeof(buf), 0);
		/* SOCK_RAW on one EtherType: the tag is gone (auxdata),
		 * the payload starts at 14. */
		if (len < 14 || probe_hdr_decode(buf + 14, (size_t)len - 14, &h) ||
		    (only >= 0 && h.flow != only))
			continue;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		f = find(flows, &n, h.flow, h.vid);
		if (f && flow_add(f, h.seq, (int64_t)ts.tv_sec * 1000000000LL +
						    ts.tv_nsec)) {
			fprintf(stderr, "probe-sink: out of memory\n");
			break;
		}
	}
	if (write_json(out, flows, n)) {
		fprintf(stderr, "probe-sink: cannot write %s: %s\n", out,
			strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		flow_free(&flows[i]);
	close(fd);
	return 0;
}
