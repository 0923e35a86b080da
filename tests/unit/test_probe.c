// SPDX-License-Identifier: MIT
/* The probe sink's accounting, the generator's option checks, its
 * pacing and the per-run plan of its XDP program (the program's own
 * probe_xdp_pick, built here). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flows.h"
#include "pace.h"
#include "probe_opts.h"
#include "probe_xdp.h"
#include "unit.h"
#include "xdp_plan.h"

#define MS(x) ((int64_t)(x) * 1000000)

TEST(a_complete_flow_has_no_loss_and_no_gap)
{
	struct flow f = { .id = 1 };

	for (uint32_t s = 0; s < 1000; s++)
		CHECK(flow_add(&f, s, MS(s)) == 0);
	CHECK_INT(f.received, 1000);
	CHECK_INT(flow_lost(&f), 0);
	CHECK_INT(f.n_gaps, 0);
	CHECK_INT(flow_longest_gap_ns(&f), 0);
	flow_free(&f);
}

TEST(a_hole_is_a_gap_with_its_length_in_time)
{
	struct flow f = { .id = 1 };

	/* 1 ms apart; 100..399 never arrive: 301 ms between 99 and 400 */
	for (uint32_t s = 0; s < 500; s++)
		if (s < 100 || s >= 400)
			CHECK(flow_add(&f, s, MS(s)) == 0);
	CHECK_INT(flow_lost(&f), 300);
	CHECK_INT(f.n_gaps, 1);
	CHECK_INT(f.gaps[0].first, 100);
	CHECK_INT(f.gaps[0].last, 399);
	CHECK_INT(flow_longest_gap_ns(&f), MS(301));
	flow_free(&f);
}

TEST(duplicates_and_reordering_are_counted)
{
	struct flow f = { .id = 7 };
	static const uint32_t seqs[] = { 0, 1, 3, 2, 3, 4, 4, 5 };
	char *json = NULL;
	size_t len = 0;
	FILE *o;

	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++)
		CHECK(flow_add(&f, seqs[i], MS(i)) == 0);
	CHECK_INT(f.received, 6);
	CHECK_INT(f.dups, 2);
	CHECK_INT(f.reordered, 1);
	CHECK_INT(flow_lost(&f), 0);
	o = open_memstream(&json, &len);
	flow_json(&f, o);
	fclose(o);
	CHECK(strstr(json, "{\"flow\":7,\"vid\":0,\"received\":6,\"lost\":0,"
		      "\"duplicated\":2,\"reordered\":1,") == json);
	free(json);
	flow_free(&f);
}

/* Frames lost before the first one that arrives sit in no gap (no frame
 * before them dates it): first_seq tells the checks they are missing. */
TEST(the_report_bounds_the_frames_that_arrived)
{
	struct flow f = { .id = 2 };
	char *json = NULL;
	size_t len = 0;
	FILE *o;

	o = open_memstream(&json, &len);
	flow_json(&f, o);
	fclose(o);
	CHECK(strstr(json, "\"first_seq\"") == NULL);	/* nothing to bound */
	free(json);
	for (uint32_t s = 5; s < 10; s++)
		CHECK(flow_add(&f, s, MS(s)) == 0);
	CHECK(flow_add(&f, 3, MS(10)) == 0);	/* late, and the lowest */
	CHECK_INT(flow_lost(&f), 4);
	CHECK_INT(f.n_gaps, 0);
	o = open_memstream(&json, &len);
	flow_json(&f, o);
	fclose(o);
	CHECK(strstr(json, ",\"first_seq\":3,\"last_seq\":9,\"gaps\":[],") != NULL);
	free(json);
	flow_free(&f);
}

static int opts(const char *line, struct probe_opts *o)
{
	char buf[256], *argv[32];
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	return probe_gen_opts(argc, argv, o);
}

TEST(generator_options_are_checked)
{
	struct probe_opts o;
	uint8_t frame[PROBE_MAX_FRAME];

	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 3 -v 10 "
		       "-r 1000", &o), 0);
	CHECK_INT(o.n_flows, 1);
	CHECK_INT(o.vids[0], 10);
	CHECK_INT(o.pps, 1000);
	CHECK_INT(probe_frame_header(&o, o.vids[0], frame), 18); /* tagged */
	CHECK(frame[12] == 0x81 && frame[15] == 10 && frame[16] == 0x88);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 3 -v 0", &o),
		  -1);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 3 -v 4095",
		       &o), -1);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 3 -r 0", &o),
		  -1);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00 -f 3", &o), -1);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 3 -s 20",
		       &o), -1);
	CHECK_INT(opts("probe-gen -d 02:00:00:00:00:02 -f 3", &o), -1);
}

TEST(several_flows_pair_with_their_vlans)
{
	struct probe_opts o;

	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 4,5,6 "
		       "-v 10,20,30", &o), 0);
	CHECK_INT(o.n_flows, 3);
	CHECK(o.flows[2] == 6 && o.vids[2] == 30 && o.vids[0] == 10);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 4,5", &o),
		  0);
	CHECK(o.n_flows == 2 && o.vids[0] == 0 && o.vids[1] == 0);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 4,5 -v 10",
		       &o), -1);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 4,4", &o),
		  -1);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 4, -v 10",
		       &o), -1);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 4 -v 10,0",
		       &o), -1);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 "
		       "-f 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", &o), -1);
	/* "-": an untagged flow among tagged ones (0 stays refused). */
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 4,5,6 "
		       "-v 10,-,30", &o), 0);
	CHECK(o.vids[0] == 10 && o.vids[1] == 0 && o.vids[2] == 30);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 4 -v -",
		       &o), 0);
	CHECK_INT(o.vids[0], 0);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 4,5 -v 10,0",
		       &o), -1);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f -,5 -v 10,20",
		       &o), -1);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 4,5 -v 10,--",
		       &o), -1);
}

TEST(the_send_mode_is_chosen_by_name)
{
	struct probe_opts o;

	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 3", &o), 0);
	CHECK_INT(o.mode, PROBE_MODE_AUTO);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 3 -m xdp",
		       &o), 0);
	CHECK_INT(o.mode, PROBE_MODE_XDP);
	CHECK_STR(probe_mode_name(o.mode), "xdp");
	CHECK_INT(opts("probe-gen -m af_packet -i eth1 -d 02:00:00:00:00:02 "
		       "-f 3", &o), 0);
	CHECK_INT(o.mode, PROBE_MODE_AF_PACKET);
	CHECK_STR(probe_mode_name(o.mode), "af_packet");
	CHECK_INT(opts("probe-gen -m xdp -m auto -i eth1 "
		       "-d 02:00:00:00:00:02 -f 3", &o), 0);
	CHECK_INT(o.mode, PROBE_MODE_AUTO);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 3 -m XDP",
		       &o), -1);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 3 -m "
		       "af_packetx", &o), -1);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 3 -m", &o),
		  -1);
}

TEST(the_tick_is_one_millisecond_unless_asked)
{
	struct probe_opts o;

	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 3", &o), 0);
	CHECK_INT(o.tick_ms, 1);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 3 -t 5",
		       &o), 0);
	CHECK_INT(o.tick_ms, 5);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 3 -t 0",
		       &o), -1);
	CHECK_INT(opts("probe-gen -i eth1 -d 02:00:00:00:00:02 -f 3 -t 1001",
		       &o), -1);
}

TEST(a_backlog_goes_out_over_several_ticks)
{
	CHECK_INT(pace_burst(1000, 1000000), PACE_MIN_BURST);
	CHECK_INT(pace_burst(62999, 1000000), PACE_MIN_BURST);
	CHECK_INT(pace_burst(1000, 20000000), PACE_MIN_BURST);
	CHECK_INT(pace_burst(64000, 1000000), PACE_MAX_CHUNK);
	CHECK_INT(pace_burst(1000000, 1000000), PACE_MAX_CHUNK);
}

TEST(frame_k_is_due_k_intervals_after_the_start)
{
	CHECK_INT(pace_due(0, 1000), 1);
	CHECK_INT(pace_due(999999, 1000), 1);
	CHECK_INT(pace_due(1000000, 1000), 2);
	CHECK_INT(pace_due(1000000000, 100), 101);
	CHECK_INT(pace_due(1500000000, 3), 5);
	/* ten hours at 1 Mpps: no overflow on the way */
	CHECK(pace_due(36000ull * 1000000000ull, 1000000) ==
	      36000ull * 1000000ull + 1);
}

TEST(ticks_are_one_interval_but_at_least_a_millisecond)
{
	CHECK_INT(pace_tick_ns(100, PACE_MIN_TICK_NS), 10000000);
	CHECK_INT(pace_tick_ns(3, PACE_MIN_TICK_NS), 333333333);
	CHECK_INT(pace_tick_ns(1000, PACE_MIN_TICK_NS), 1000000);
	CHECK_INT(pace_tick_ns(1000000, PACE_MIN_TICK_NS), 1000000);
	CHECK_INT(pace_tick_ns(1000, 5000000), 5000000);
	CHECK_INT(pace_tick_ns(100, 5000000), 10000000);
}

TEST(a_tick_sends_what_is_due_within_the_count)
{
	CHECK_INT(pace_chunk(5, 2, 0), 3);
	CHECK_INT(pace_chunk(10, 8, 9), 1);
	CHECK_INT(pace_chunk(10, 9, 9), 0);
	CHECK_INT(pace_chunk(3, 3, 0), 0);
	CHECK_INT(pace_chunk(2, 3, 0), 0);
	CHECK_INT(pace_chunk(10000000, 0, 0), PACE_MAX_CHUNK);
	CHECK_INT(pace_batch(0), 1);
	CHECK_INT(pace_batch(1), 1);
	CHECK_INT(pace_batch(64), 64);
	CHECK_INT(pace_batch(1000), PACE_MAX_BATCH);
}

/* Wake-ups on the tick grid, each up to 0.7 ms late: every frame leaves
 * no earlier than it is due and less than a tick plus the lateness after,
 * and the count is exact. */
TEST(late_wake_ups_neither_lose_nor_stretch_the_schedule)
{
	const unsigned rates[] = { 100, 1000, 2500, 50000 };

	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
		unsigned pps = rates[r];
		uint64_t tick = pace_tick_ns(pps, PACE_MIN_TICK_NS), sent = 0;
		uint64_t count = pps * 2ull;
		uint64_t worst = 0;
		unsigned seed = 7;

		for (uint64_t k = 0; sent < count && k < 100000; k++) {
			uint64_t now;
			uint32_t n;

			seed = seed * 1103515245u + 12345u;
			now = k * tick + (seed >> 8) % 700000;
			n = pace_chunk(pace_due(now, pps), sent, count);
			for (uint32_t i = 0; i < n; i++, sent++) {
				uint64_t due_at = sent * 1000000000ull / pps;

				CHECK(now >= due_at);
				if (now - due_at > worst)
					worst = now - due_at;
			}
		}
		CHECK(sent == count);
		CHECK(worst < tick + 700000);
	}
}

/* The flows a run of @n[0..nflows) sends, in order, as digits. */
static void run_order(const uint32_t *n, unsigned nflows, char *out,
		      size_t len)
{
	struct probe_xdp_plan p;
	uint32_t total = xdp_plan_fill(&p, n, nflows), k = 0;
	int i;

	while ((i = probe_xdp_pick(&p)) >= 0 && k + 1 < len)
		out[k++] = (char)(i < 10 ? '0' + i : 'a' + i - 10);
	out[k] = 0;
	if (k != total)
		snprintf(out, len, "picked %u of %u", k, total);
}

TEST(a_run_takes_the_flows_in_turn)
{
	static const uint32_t even[] = { 2, 2, 2 }, one[] = { 1, 1, 1 };
	char got[64];

	run_order(even, 3, got, sizeof(got));
	CHECK_STR(got, "012012");
	run_order(one, 3, got, sizeof(got));
	CHECK_STR(got, "012");
	run_order(one, 1, got, sizeof(got));
	CHECK_STR(got, "0");
}

/* At the start (frame 0 already sent) or after a run a signal stopped,
 * flows have different counts due: each gets its own, the flows with
 * frames left still taking turns. */
TEST(flows_with_different_counts_share_a_run)
{
	static const uint32_t uneven[] = { 3, 1, 0, 2 }, last[] = { 0, 0, 4 };
	char got[64];

	run_order(uneven, 4, got, sizeof(got));
	CHECK_STR(got, "013030");
	run_order(last, 3, got, sizeof(got));
	CHECK_STR(got, "2222");
}

TEST(sixteen_flows_fit_one_plan)
{
	uint32_t n[PROBE_XDP_FLOWS];
	char got[64];

	for (unsigned i = 0; i < PROBE_XDP_FLOWS; i++)
		n[i] = i == 15 ? 2 : 1;
	run_order(n, PROBE_XDP_FLOWS, got, sizeof(got));
	CHECK_STR(got, "0123456789abcdeff");
}

/* The program's dry run: an empty plan drops the frame. And a refill
 * starts afresh whatever the last (interrupted) run left, beyond the
 * flows too. */
TEST(a_plan_is_filled_afresh)
{
	static const uint32_t n[] = { 5, 5, 5 }, two[] = { 1, 1 };
	struct probe_xdp_plan p;

	CHECK_INT(xdp_plan_fill(&p, NULL, 0), 0);
	CHECK_INT(probe_xdp_pick(&p), -1);
	CHECK_INT(xdp_plan_fill(&p, n, 3), 15);
	CHECK_INT(probe_xdp_pick(&p), 0);
	CHECK_INT(probe_xdp_pick(&p), 1);	/* a signal stops it here */
	CHECK_INT(xdp_plan_fill(&p, two, 2), 2);
	CHECK_INT(p.left[2], 0);
	CHECK_INT(p.cursor, 0);
	CHECK_INT(probe_xdp_pick(&p), 0);
	CHECK_INT(probe_xdp_pick(&p), 1);
	CHECK_INT(probe_xdp_pick(&p), -1);
	/* Counts beyond nflows (a stray write) are not sent. */
	p.left[5] = 3;
	CHECK_INT(probe_xdp_pick(&p), -1);
}

/* A tick of three flows at 1000 pps, one of them behind (its last run
 * stopped part way): the run's frames catch it up, and every flow ends
 * on the frames due. */
TEST(a_tick_plans_what_each_flow_has_due)
{
	uint64_t sent[3] = { 5, 3, 4 }, due = pace_due(5000000, 1000);
	uint32_t n[3];
	struct probe_xdp_plan p;
	int i;

	for (unsigned f = 0; f < 3; f++)
		n[f] = pace_chunk(due, sent[f], 0);
	CHECK_INT(xdp_plan_fill(&p, n, 3), 6);
	while ((i = probe_xdp_pick(&p)) >= 0)
		sent[i]++;
	CHECK(sent[0] == due && sent[1] == due && sent[2] == due);
}
