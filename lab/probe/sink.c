// SPDX-License-Identifier: MIT
/*
 * probe-sink: counts the probe flows arriving on an interface and writes
 * them as JSON to FILE at the end (SIGTERM/SIGINT) and whenever it gets
 * SIGUSR1.
 *
 *   probe-sink -i IFACE -o FILE [-f FLOW]
 *
 * With -f only that flow is counted (one sink per flow), and a socket
 * filter keeps the other flows' frames from waking it. Frames of the
 * probe EtherType that are not probe frames (too short, another magic or
 * version) are counted as "malformed" and otherwise ignored; "dropped"
 * counts those the receive ring had no room for (rxring.h).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "flow_filter.h"
#include "flows.h"
#include "opts.h"
#include "probe_wire.h"
#include "rxring.h"

#define MAX_FLOWS 64
#define SETTLE_MS 1000

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

/* The flows the sink counts, and the frames it could not take for one. */
struct sink {
	long only;		/* the one flow to count, or -1 */
	struct flow flows[MAX_FLOWS];
	size_t n;
	uint64_t malformed;
	bool out_of_memory;
};

static struct flow *find(struct sink *k, uint16_t id, uint16_t vid)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->flows[i].id == id)
			return &k->flows[i];
	if (k->n == MAX_FLOWS)
		return NULL;
	k->flows[k->n] = (struct flow){ .id = id, .vid = vid };
	return &k->flows[k->n++];
}

/*
 * Counts the frames of one block. Each carries the time the kernel took
 * it in (CLOCK_REALTIME), which goes onto CLOCK_MONOTONIC: gap times then
 * do not include the sink's own wake-up latency (tens of ms under TCG).
 */
static void count_block(struct sink *k, struct tpacket_block_desc *b)
{
	int64_t to_mono = ns_of(CLOCK_MONOTONIC) - ns_of(CLOCK_REALTIME);
	struct tpacket3_hdr *h = NULL;
	unsigned left;

	while ((h = rxring_frame(b, h, &left))) {
		const uint8_t *frame = (const uint8_t *)h + h->tp_mac;
		int64_t ns = (int64_t)h->tp_sec * 1000000000LL + h->tp_nsec;
		struct probe_hdr ph;
		struct flow *f;

		if (h->tp_snaplen < FLOW_FILTER_PAYLOAD ||
		    probe_hdr_decode(frame + FLOW_FILTER_PAYLOAD,
				     h->tp_snaplen - FLOW_FILTER_PAYLOAD, &ph)) {
			k->malformed++;
			continue;
		}
		if (k->only >= 0 && ph.flow != k->only)
			continue;
		f = find(k, ph.flow, ph.vid);
		if (f && flow_add(f, ph.seq, ns + to_mono))
			k->out_of_memory = true;
	}
}

/* Counts every block the kernel has handed over; how many. */
static unsigned drain(struct sink *k, struct rxring *r)
{
	struct tpacket_block_desc *b;
	unsigned n = 0;

	while (!k->out_of_memory && (b = rxring_block(r))) {
		count_block(k, b);
		rxring_release(r, b);
		n++;
	}
	return n;
}

/* Waits up to ms for a block; false when none came. */
static bool wait_block(struct rxring *r, int ms)
{
	struct pollfd p = { .fd = r->fd, .events = POLLIN };

	return rxring_block(r) || poll(&p, 1, ms) > 0;
}

/*
 * Counts every frame taken in so far: waits, draining, for at least
 * min_ms (frames still on their way) and until the block being filled
 * now is handed over, which the kernel does within RXRING_BLOCK_MS (not
 * for the blocks after it: a flow may still be running); SETTLE_MS
 * bounds it should the guest's timers be late.
 */
static void settle(struct sink *k, struct rxring *r, int min_ms)
{
	int64_t now = ns_of(CLOCK_MONOTONIC);
	int64_t until = now + min_ms * 1000000LL;
	int64_t limit = now + SETTLE_MS * 1000000LL;
	bool filling;

	drain(k, r);
	filling = rxring_filling(r);
	while (!k->out_of_memory && now < limit && (now < until || filling)) {
		if (wait_block(r, RXRING_BLOCK_MS) && drain(k, r))
			filling = false;
		now = ns_of(CLOCK_MONOTONIC);
	}
}

static int write_json(const char *path, const struct sink *k,
		      uint64_t dropped)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return -1;
	fputs("{\"flows\":[", f);
	for (size_t i = 0; i < k->n; i++) {
		if (i)
			fputc(',', f);
		flow_json(&k->flows[i], f);
	}
	fprintf(f, "],\"malformed\":%llu,\"dropped\":%llu}\n",
		(unsigned long long)k->malformed, (unsigned long long)dropped);
	/* Renamed whole: a reader never sees half a file. */
	if (fclose(f) || rename(tmp, path))
		return -1;
	return 0;
}

static const struct opt_spec sink_spec = {
	.usage = "usage: probe-sink -i IFACE -o FILE [-f FLOW]\n",
	.shorts = "i:o:f:",
};

int main(int argc, char **argv)
{
	static struct sink k = { .only = -1 };
	const char *ifname = NULL, *out = NULL;
	struct flow_filter filter;
	struct rxring ring;
	struct opts o;
	int opt, rc = 0;
	char *end;

	opts_start(&o, &sink_spec, argc, argv);
	while ((opt = opts_next(&o)) > 0) {
		if (opt == 'i') {
			ifname = o.arg;
		} else if (opt == 'o') {
			out = o.arg;
		} else if (opt == 'f') {
			k.only = strtol(o.arg, &end, 10);
			if (*end || !*o.arg || k.only < 0 || k.only > 65535) {
				fprintf(stderr, "probe-sink: flow '%s' is not "
					"in 0..65535\n", o.arg);
				return 2;
			}
		}
	}
	if (opt != OPT_END)
		return opt == OPT_HELP ? 0 : 2;
	if (!ifname || !out) {
		opts_help(&sink_spec, stderr);
		return 2;
	}
	if (k.only >= 0)
		flow_filter_build(&filter, (uint16_t)k.only);
	if (rxring_open(&ring, ifname, PROBE_ETHERTYPE,
			k.only >= 0 ? &filter.prog : NULL))
		return 2;
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	signal(SIGUSR1, on_dump);
	while (!stop && !k.out_of_memory) {
		if (dump) {
			dump = 0;
			settle(&k, &ring, 0);
			write_json(out, &k, rxring_drops(&ring));
		}
		if (wait_block(&ring, 200))
			drain(&k, &ring);
	}
	settle(&k, &ring, 3 * RXRING_BLOCK_MS);
	if (k.out_of_memory) {
		fprintf(stderr, "probe-sink: out of memory\n");
		rc = 1;
	}
	if (rxring_drops(&ring))
		fprintf(stderr, "probe-sink: %s: %llu frames found the receive "
			"ring full\n", ifname, (unsigned long long)ring.drops);
	if (write_json(out, &k, ring.drops)) {
		fprintf(stderr, "probe-sink: cannot write %s: %s\n", out,
			strerror(errno));
		rc = 1;
	}
	for (size_t i = 0; i < k.n; i++)
		flow_free(&k.flows[i]);
	rxring_close(&ring);
	return rc;
}
