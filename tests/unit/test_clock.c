// SPDX-License-Identifier: MIT
/*
 * The clock offset of another host (clock_sync.h): estimates from
 * exchanges with known true offsets and asymmetric delays stay within
 * their stated bound; far timestamps are mapped on our timeline with the
 * drift between start and end; the clock file round-trips.
 */
#include <stdlib.h>
#include <string.h>

#include "clock_sync.h"
#include "unit.h"

#define MS 1000000LL
#define S 1000000000LL

/* An exchange at our t0 with a far clock off by off: out and back take
 * d1 and d2 (ns). */
static struct clock_sample ex(int64_t t0, int64_t off, int64_t d1, int64_t d2)
{
	struct clock_sample s = { t0, t0 + d1 + off, t0 + d1 + d2 };

	return s;
}

TEST(a_symmetric_exchange_gives_the_offset_exactly)
{
	struct clock_sample s = ex(1000 * S, 250 * MS, 2 * MS, 2 * MS);
	struct clock_est e;

	CHECK_INT(clock_estimate(&s, 1, &e), 0);
	CHECK_INT(e.offset, 250 * MS);
	CHECK_INT(e.rtt, 4 * MS);
	CHECK_INT(e.bound, 2 * MS);
	CHECK_INT(e.at, 1000 * S + 2 * MS);
}

TEST(the_error_stays_within_half_the_round_trip)
{
	unsigned seed = 29;

	for (int i = 0; i < 10000; i++) {
		int64_t off = (int64_t)(rand_r(&seed) % 2000001) - 1000000;
		int64_t d1 = rand_r(&seed) % (50 * MS), d2 = rand_r(&seed) % 7;
		struct clock_sample s;
		struct clock_est e;
		int64_t err;

		off *= 1000;	/* up to +-1000 s */
		/* Most of the delay on one leg: the worst case. */
		s = i % 2 ? ex(5 * S, off, d1, d2) : ex(5 * S, off, d2, d1);
		CHECK_INT(clock_estimate(&s, 1, &e), 0);
		err = e.offset - off;
		if (err < -e.bound || err > e.bound) {
			unit_fail(__FILE__, __LINE__, "offset %lld: error %lld "
				  "beyond bound %lld", (long long)off,
				  (long long)err, (long long)e.bound);
			return;
		}
	}
}

TEST(the_shortest_round_trip_of_a_burst_is_kept)
{
	struct clock_sample s[4] = {
		ex(10 * S, 3 * MS, 9 * MS, 1 * MS),
		ex(11 * S, 3 * MS, 1 * MS, 1 * MS),
		ex(12 * S, 3 * MS, 5 * MS, 5 * MS),
		/* our clock stepped back: skipped */
		{ 13 * S, 13 * S, 12 * S },
	};
	struct clock_est e;

	CHECK_INT(clock_estimate(s, 4, &e), 0);
	CHECK_INT(e.rtt, 2 * MS);
	CHECK_INT(e.offset, 3 * MS);
	CHECK_INT(e.samples, 3);
	CHECK_INT(clock_estimate(&s[3], 1, &e), -1);
	CHECK_INT(clock_estimate(s, 0, &e), -1);
}

TEST(drift_between_start_and_end_is_interpolated)
{
	struct clock_map m = { { true, true }, {
		{ .at = 100 * S, .offset = 40 * MS, .bound = 1 * MS },
		{ .at = 200 * S, .offset = 50 * MS, .bound = 3 * MS } } };
	/* A frame the far host stamped at our 150 s: its clock said
	 * 150 s + 45 ms. */
	int64_t far = 150 * S + 45 * MS;

	CHECK_INT(clock_map_offset(&m, 150 * S), 45 * MS);
	CHECK_INT(clock_map_offset(&m, 50 * S), 40 * MS);
	CHECK_INT(clock_map_offset(&m, 250 * S), 50 * MS);
	/* Within a nanosecond or so of the truth: the offset moved by
	 * 45 us between the guess and the answer. */
	CHECK(llabs(clock_map_to_local(&m, far) - 150 * S) <= 1);
	CHECK_INT(clock_map_bound(&m), 3 * MS);
	/* Only a start: its offset everywhere. */
	m.have[1] = false;
	CHECK_INT(clock_map_to_local(&m, far), 150 * S + 5 * MS);
	CHECK_INT(clock_map_bound(&m), 1 * MS);
	/* Nothing measured: no correction, no bound. */
	m.have[0] = false;
	CHECK_INT(clock_map_to_local(&m, far), far);
	CHECK_INT(clock_map_bound(&m), 0);
}

TEST(a_large_span_does_not_overflow)
{
	struct clock_map m = { { true, true }, {
		{ .at = 0, .offset = -4 * S, .bound = 1 },
		{ .at = 9000000000LL * S / 1000, .offset = 4 * S,
		  .bound = 1 } } };

	CHECK_INT(clock_map_offset(&m, 4500000000LL * S / 1000), 0);
}

TEST(the_clock_file_round_trips)
{
	struct clock_est a = { 1765000000000000000LL, -123456789, 250000,
			       500001, 8 };
	struct clock_est b = { 1765000060000000000LL, -123400000, 300000,
			       600000, 8 };
	char text[512];
	struct clock_map m;
	size_t n;

	n = (size_t)clock_format(text, sizeof(text), "far", false, &a);
	n += (size_t)clock_format(text + n, sizeof(text) - n, "other", false,
				  &b);
	n += (size_t)clock_format(text + n, sizeof(text) - n, "far", true, &b);
	snprintf(text + n, sizeof(text) - n, "far start junk\nfar\n\n");
	CHECK_INT(clock_parse(text, "far", &m), 0);
	CHECK(m.have[0] && m.have[1]);
	CHECK_INT(m.est[0].offset, -123456789);
	CHECK_INT(m.est[0].rtt, 500001);
	CHECK_INT(m.est[1].at, 1765000060000000000LL);
	CHECK_INT(clock_parse(text, "nobody", &m), -1);
	CHECK_INT(clock_parse("", "far", &m), -1);
	{
		const char *want = "far start 1765000000000000000 -123456789 "
				   "250000 500001 8\n";

		CHECK(!strncmp(text, want, strlen(want)));
	}
}
