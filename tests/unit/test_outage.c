// SPDX-License-Identifier: MIT
/*
 * A flow's outage from its sink's report and a scripted sender's wire:
 * gaps between frames that arrived, and the frames lost before the first
 * one and after the last, which the sink lists in no gap.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "outage.h"
#include "unit.h"

/* The sender's seq 0..last were the network's to lose, seq k due at
 * k ms; its link's capture holds those from seq `from` on (the ones
 * before were due while that link was down). */
struct wire {
	unsigned long last, from;
};

static bool sent(const void *ctx, unsigned long seq)
{
	return seq <= ((const struct wire *)ctx)->last;
}

static bool wire_ns(const void *ctx, unsigned long seq, int64_t *ns)
{
	*ns = (int64_t)seq * 1000000;
	return sent(ctx, seq) && seq >= ((const struct wire *)ctx)->from;
}

static bool last_sent(const void *ctx, unsigned long *seq)
{
	*seq = ((const struct wire *)ctx)->last;
	return true;
}

/* outage_load of flow 1 at 1000 frames/s from a report of @json. */
static int load_from(const char *json, unsigned long last, unsigned long from,
		     struct flow_outage *o, struct errbuf *err)
{
	char path[] = "/tmp/mstlab-outage-XXXXXX";
	struct wire w = { last, from };
	struct outage_sender snd = { sent, wire_ns, last_sent, &w };
	int fd = mkstemp(path), rc;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f)
		return -2;
	fputs(json, f);
	fclose(f);
	rc = outage_load(path, 1, 1000, &snd, o, err);
	unlink(path);
	return rc;
}

static int load(const char *json, unsigned long last, struct flow_outage *o,
		struct errbuf *err)
{
	return load_from(json, last, 0, o, err);
}

TEST(a_gap_between_arrivals_is_bounded_by_its_neighbours)
{
	struct flow_outage o;
	struct errbuf err;

	CHECK_INT(load("{\"flows\":[{\"flow\":1,\"received\":990,\"lost\":10,"
		       "\"first_seq\":0,\"last_seq\":999,\"gaps\":"
		       "[{\"first\":100,\"last\":109}]}]}", 999, &o, &err), 0);
	CHECK(!o.open && o.timed && o.worst_edge == GAP_INNER);
	CHECK(o.outage_ms > 10.99 && o.outage_ms < 11.01);	/* 99 to 110 */
	CHECK(o.min_ms > 8.99 && o.min_ms < 9.01);		/* 100 to 109 */
}

TEST(frames_lost_before_the_first_arrival_are_an_outage)
{
	struct flow_outage o;
	struct errbuf err;

	/* 0..39 never arrived: the path was down when the flow began. */
	CHECK_INT(load("{\"flows\":[{\"flow\":1,\"received\":960,\"lost\":40,"
		       "\"first_seq\":40,\"last_seq\":999,\"gaps\":[]}]}", 999,
		       &o, &err), 0);
	CHECK(!o.open && o.worst_edge == GAP_HEAD);
	CHECK_INT(o.worst_first, 0);
	CHECK_INT(o.worst_last, 39);
	CHECK_INT(o.longest_missing, 40);
	CHECK(o.outage_ms > 39.99 && o.outage_ms < 40.01);	/* 0 to 40 */
}

/* The sender's link was down for 0..38 (nothing on its capture), and 39
 * crossed it as it came back but got no further: the wire times of 39
 * and 40 say nothing of the 39 frames before. */
TEST(a_head_partly_off_the_wire_counts_its_frames)
{
	struct flow_outage o;
	struct errbuf err;

	CHECK_INT(load_from("{\"flows\":[{\"flow\":1,\"received\":960,"
			    "\"lost\":40,\"first_seq\":40,\"last_seq\":999,"
			    "\"gaps\":[]}]}", 999, 39, &o, &err), 0);
	CHECK(!o.timed && o.worst_edge == GAP_HEAD);
	CHECK(o.outage_ms > 39.99 && o.outage_ms < 40.01);	/* 40 frames */
}

TEST(frames_sent_after_the_last_arrival_leave_the_outage_open)
{
	struct flow_outage o;
	struct errbuf err;

	/* The path failed after 499 and the flow stopped at 699. */
	CHECK_INT(load("{\"flows\":[{\"flow\":1,\"received\":500,\"lost\":0,"
		       "\"first_seq\":0,\"last_seq\":499,\"gaps\":[]}]}", 699,
		       &o, &err), 0);
	CHECK(o.open && o.worst_edge == GAP_TAIL);
	CHECK_INT(o.open_first, 500);
	CHECK_INT(o.open_last, 699);
	CHECK(o.outage_ms > 199.99 && o.outage_ms < 200.01);	/* 499 to 699 */
}

TEST(a_flow_none_of_whose_frames_arrived_is_all_outage)
{
	struct flow_outage o;
	struct errbuf err;

	CHECK_INT(load("{\"flows\":[{\"flow\":1,\"received\":0,\"lost\":0,"
		       "\"gaps\":[]}]}", 299, &o, &err), 0);
	CHECK(o.open && o.worst_edge == GAP_ALL);
	CHECK_INT(o.longest_missing, 300);
	CHECK(o.outage_ms > 298.99 && o.outage_ms < 299.01);
}

TEST(a_report_without_its_bounds_is_refused)
{
	struct flow_outage o;
	struct errbuf err;

	CHECK_INT(load("{\"flows\":[{\"flow\":1,\"received\":5,\"lost\":0,"
		       "\"gaps\":[]}]}", 4, &o, &err), -1);
	CHECK(strstr(err.msg, ": flow 1 received frames but its report bounds "
			  "them with no first_seq and last_seq") != NULL);
}
