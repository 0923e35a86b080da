// SPDX-License-Identifier: MIT
/* A BPDU before its port's link-up (lab/mstd/early.h). */
#include <string.h>

#include "early.h"
#include "unit.h"

TEST(a_bpdu_just_before_the_link_up_is_taken_once)
{
	static struct early_bpdu e;
	const uint8_t a[] = { 0, 0, 3, 3, 0x7c }, b[] = { 0, 0, 3, 3, 0x7e };

	CHECK_INT(early_bpdu_take(&e, 1000), 0);
	early_bpdu_hold(&e, a, sizeof(a), 1000);
	early_bpdu_hold(&e, b, sizeof(b), 1100);	/* the latest counts */
	CHECK_INT(early_bpdu_take(&e, 1100 + EARLY_BPDU_MS), sizeof(b));
	CHECK(memcmp(e.bpdu, b, sizeof(b)) == 0);
	CHECK_INT(early_bpdu_take(&e, 1100 + EARLY_BPDU_MS), 0);
}

TEST(a_stale_or_oversized_bpdu_is_forgotten)
{
	static struct early_bpdu e;
	static uint8_t big[EARLY_BPDU_MAX + 1];
	const uint8_t a[] = { 0, 0, 3, 3, 0x7c };

	early_bpdu_hold(&e, a, sizeof(a), 1000);
	CHECK_INT(early_bpdu_take(&e, 1001 + EARLY_BPDU_MS), 0);
	/* Gone, not taken at a later link-up either. */
	CHECK_INT(early_bpdu_take(&e, 1002), 0);
	early_bpdu_hold(&e, a, sizeof(a), 1000);
	early_bpdu_hold(&e, big, sizeof(big), 1000);
	CHECK_INT(early_bpdu_take(&e, 1000), 0);
	/* A clock that went back: not "just before". */
	early_bpdu_hold(&e, a, sizeof(a), 5000);
	CHECK_INT(early_bpdu_take(&e, 4000), 0);
}
