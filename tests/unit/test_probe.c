// SPDX-License-Identifier: MIT
/* The probe sink's accounting and the generator's option checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flows.h"
#include "probe_opts.h"
#include "unit.h"

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
	CHECK_INT(o.vid, 10);
	CHECK_INT(o.pps, 1000);
	CHECK_INT(probe_frame_header(&o, frame), 18);	/* tagged */
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
