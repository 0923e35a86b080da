// SPDX-License-Identifier: MIT
/*
 * mstp-core-bench: what the MSTP core (lab/mstp) costs in CPU,
 * without VMs. Two figures and a baseline measured in the same run:
 *
 *  - rx: a ring of four simulated bridges with two MSTIs (tests/unit's
 *    mstp_sim) converges; the MST BPDU a designated port last sent is fed
 *    N times to its neighbour's root port through mstp_rx_bpdu(). That is
 *    the steady-state work of a hello BPDU (repeated designated
 *    information: decode, validation, message vectors of every tree,
 *    rcvdInfoWhile restart, every state machine run to completion).
 *    Baseline: bpdu_decode() alone of the same octets, N times.
 *  - tick: mstp_tick() of one bridge with P ports (all up, no peers, so
 *    every port is designated and sends a BPDU each hello time) and the
 *    same two MSTIs.
 *
 * Figures are CPU time of this process (CLOCK_PROCESS_CPUTIME_ID), the
 * median of REPS runs: the build machine's cores are shared, wall time
 * would measure the neighbours. Output: "key value" lines for bench/mstp.
 */
#include "mstp.h"
#include "mstp_sim.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPS 5

static const uint16_t mstids[] = { 1, 2 };

static double cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

static void vid_table(struct mst_vid_table *t)
{
	memset(t, 0, sizeof(*t));
	t->mstid[10] = 1;
	t->mstid[20] = 1;
	t->mstid[30] = 2;
}

/*
 * The ring of bench/mstp-ring.yaml in memory: B0..B3 = sw1..sw4, port 0
 * of Bi to port 1 of Bi+1. CIST and MSTI 1 rooted at B0, MSTI 2 at B3.
 * The daemon's default log level (info), not the tests' debug.
 */
static bool ring_up(struct sim *sim)
{
	static const uint16_t prio[4][3] = {
		{ 4096, 4096, 8192 }, { 8192, 8192, 32768 },
		{ 32768, 32768, 32768 }, { 32768, 32768, 4096 },
	};
	struct mst_vid_table table;
	struct mstp_bridge_config cfg;

	vid_table(&table);
	for (unsigned int i = 0; i < 4; i++) {
		sim_config(&cfg, i, 2, mstids, 2, &table);
		cfg.log_level = MSTP_LOG_INFO;
		if (!sim_add_bridge(sim, &cfg, &table))
			return false;
		for (unsigned int t = 0; t < 3; t++)
			if (mstp_set_bridge_priority(sim->br[i], t, prio[i][t]))
				return false;
	}
	for (unsigned int i = 0; i < 4; i++)
		sim_connect(sim, i, 0, (i + 1) % 4, 1);
	sim_all_up(sim);
	sim_deliver(sim, 100000);
	sim_advance(sim, 40);	/* past every forward delay and TC timer */
	return true;
}

/* sink for results the compiler must not drop */
static volatile unsigned long sink;

static double time_decode(const uint8_t *bpdu, size_t len, unsigned long n)
{
	struct bpdu b;
	double t0 = cpu_ns();

	for (unsigned long i = 0; i < n; i++) {
		sink += bpdu_decode(bpdu, len, &b);
		sink += b.msti_count;
	}
	return (cpu_ns() - t0) / (double)n;
}

static double time_rx(struct mstp_bridge *br, unsigned int port,
		      const uint8_t *bpdu, size_t len, unsigned long n)
{
	double t0 = cpu_ns();

	for (unsigned long i = 0; i < n; i++)
		sink += mstp_rx_bpdu(br, port, bpdu, len);
	return (cpu_ns() - t0) / (double)n;
}

/* ---- a lone bridge for the tick figure ---- */

struct lone {
	unsigned long tx, tx_octets;
	uint64_t now;
};

static void lone_tx(void *ctx, unsigned int port, const uint8_t *bpdu,
		    size_t len)
{
	struct lone *l = ctx;

	(void)port;
	(void)bpdu;
	l->tx++;
	l->tx_octets += len;
}

static void lone_state(void *ctx, unsigned int port, uint16_t mstid,
		       enum mstp_port_state state)
{
	(void)ctx, (void)port, (void)mstid, (void)state;
}

static void lone_flush(void *ctx, unsigned int port, int mstid)
{
	(void)ctx, (void)port, (void)mstid;
}

static uint64_t lone_now(void *ctx)
{
	return ((struct lone *)ctx)->now;
}

static const struct mstp_ops lone_ops = {
	.tx_bpdu = lone_tx,
	.set_state = lone_state,
	.flush = lone_flush,
	.now_ms = lone_now,
};

/* ns of CPU per mstp_tick() of a bridge with @nports ports; *bpdus gets
 * the BPDUs sent per tick. */
static double time_tick(unsigned int nports, unsigned long ticks,
			double *bpdus)
{
	uint8_t mac[6] = { 0x02, 0, 0, 0, 0x10, 0x01 };
	struct mst_vid_table table;
	struct mstp_bridge_config cfg;
	struct mstp_bridge *br;
	struct lone l = { 0 };
	double t0, ns;

	vid_table(&table);
	mstp_bridge_config_default(&cfg, mac);
	cfg.nports = nports;
	cfg.nmstis = 2;
	memcpy(cfg.mstids, mstids, sizeof(mstids));
	cfg.log_level = MSTP_LOG_INFO;
	if (mst_config_id_init(&cfg.mcid, "mstpbench", 1, &table))
		return -1;
	br = mstp_bridge_new(&cfg, &lone_ops, &l);
	if (!br)
		return -1;
	for (unsigned int p = 0; p < nports; p++)
		mstp_port_set_link(br, p, true, true);
	/* Past forward delays and the edge delay: steady state. */
	for (unsigned int s = 0; s < 60; s++, l.now += 1000)
		mstp_tick(br);
	l.tx = 0;
	t0 = cpu_ns();
	for (unsigned long s = 0; s < ticks; s++, l.now += 1000)
		mstp_tick(br);
	ns = (cpu_ns() - t0) / (double)ticks;
	*bpdus = (double)l.tx / (double)ticks;
	mstp_bridge_free(br);
	return ns;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
	static struct sim sim;
	struct mstp_port_status before, after;
	struct bpdu b;
	double dec[REPS], rx[REPS];
	unsigned long replies;
	uint8_t bpdu[BPDU_MST_MAX_LEN];
	size_t len;

	if (!n || !ring_up(&sim)) {
		fprintf(stderr, "mstp-core-bench: %s\n",
			n ? "the ring did not come up" : "usage: mstp-core-bench [N]");
		return 1;
	}
	/* B0 (root of the CIST and MSTI 1) port 0 is designated towards
	 * B1 port 1, B1's root port in both. */
	if (sim_role(&sim, 0, 0, 0) != MSTP_ROLE_DESIGNATED ||
	    sim_role(&sim, 1, 1, 0) != MSTP_ROLE_ROOT ||
	    sim_role(&sim, 1, 1, 1) != MSTP_ROLE_ROOT ||
	    !sim_last_bpdu(&sim, 0, 0, &b) || b.type != BPDU_TYPE_MST ||
	    b.msti_count != 2) {
		fprintf(stderr, "mstp-core-bench: the ring did not converge as "
			"designed (B0.p0 designated, B1.p1 root, an MST BPDU "
			"with 2 MSTIs)\n");
		return 1;
	}
	len = sim.last_tx_len[0][0];
	memcpy(bpdu, sim.last_tx[0][0], len);
	mstp_get_port_status(sim.br[1], 1, 0, &before);

	for (unsigned int r = 0; r < REPS; r++) {
		dec[r] = time_decode(bpdu, len, n);
		rx[r] = time_rx(sim.br[1], 1, bpdu, len, n);
	}
	mstp_get_port_status(sim.br[1], 1, 0, &after);
	/* What B1 sent in answer stays queued in the simulator: count it
	 * (a repeated hello should draw no reply). */
	replies = sim_deliver(&sim, ~0ul);
	if (after.counters.rx_mst - before.counters.rx_mst != REPS * n ||
	    after.role != MSTP_ROLE_ROOT || mstp_run_overflows(sim.br[1])) {
		fprintf(stderr, "mstp-core-bench: B1.p1 counted %lu of %lu "
			"MST BPDUs, role %s, %lu overflows\n",
			after.counters.rx_mst - before.counters.rx_mst,
			REPS * n, mstp_role_name(after.role),
			mstp_run_overflows(sim.br[1]));
		return 1;
	}
	printf("bpdu_octets %zu\n", len);
	printf("bpdus %lu\n", n);
	printf("reps %u\n", REPS);
	printf("decode_ns %.1f\n", median(dec, REPS));
	printf("rx_ns %.1f\n", median(rx, REPS));
	printf("rx_replies %lu\n", replies);

	for (unsigned int i = 0; i < 4; i++) {
		static const unsigned int ports[] = { 2, 8, 24, 64 };
		double t[REPS], sent = 0;
		unsigned long ticks = 200000ul / ports[i];

		for (unsigned int r = 0; r < REPS; r++) {
			t[r] = time_tick(ports[i], ticks, &sent);
			if (t[r] < 0) {
				fprintf(stderr, "mstp-core-bench: %u-port "
					"bridge: %s\n", ports[i], strerror(errno));
				return 1;
			}
		}
		printf("tick_ns %u %.1f %.2f\n", ports[i], median(t, REPS), sent);
	}
	sim_free(&sim);
	return 0;
}
