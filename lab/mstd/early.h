/* SPDX-License-Identifier: MIT */
/*
 * A BPDU that arrives on a port before mstd hears of its link-up. Both
 * ends of a link see carrier at nearly the same moment, and the first
 * to send may reach the other before its kernel has told mstd (the
 * netlink notification comes from the link watch, after the device can
 * already receive): dropped, the peer's proposal would wait a whole
 * HelloTime to be sent again. The latest such BPDU is held and taken
 * as received when the link-up follows within EARLY_BPDU_MS; an older
 * one is stale and forgotten.
 */
#ifndef MSTD_EARLY_H
#define MSTD_EARLY_H

#include <stddef.h>
#include <stdint.h>

#define EARLY_BPDU_MS 500
#define EARLY_BPDU_MAX 1500

struct early_bpdu {
	uint8_t bpdu[EARLY_BPDU_MAX];
	size_t len;		/* 0: none held */
	uint64_t at_ms;
};

/* Holds bpdu (len bytes, at most EARLY_BPDU_MAX: a longer one is not
 * held) received at now_ms, in place of any held before. */
void early_bpdu_hold(struct early_bpdu *e, const uint8_t *bpdu, size_t len,
		     uint64_t now_ms);
/* At link-up: the held BPDU's length (its bytes in e->bpdu) if it came
 * within EARLY_BPDU_MS of now_ms, else 0; nothing is held after. */
size_t early_bpdu_take(struct early_bpdu *e, uint64_t now_ms);

#endif
