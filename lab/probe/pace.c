// SPDX-License-Identifier: MIT
#include "pace.h"

#define NS 1000000000ull

uint64_t pace_due(uint64_t elapsed_ns, unsigned pps)
{
	/* Split so elapsed * pps cannot overflow (hours at 1 Mpps). */
	uint64_t s = elapsed_ns / NS, rem = elapsed_ns % NS;

	return s * pps + rem * pps / NS + 1;
}

uint64_t pace_tick_ns(unsigned pps, uint64_t min_ns)
{
	uint64_t interval = pps ? NS / pps : NS;

	return interval > min_ns ? interval : min_ns;
}

uint32_t pace_chunk(uint64_t due, uint64_t sent, uint64_t count)
{
	uint64_t n;

	if (count && due > count)
		due = count;
	if (due <= sent)
		return 0;
	n = due - sent;
	return n > PACE_MAX_CHUNK ? PACE_MAX_CHUNK : (uint32_t)n;
}

uint32_t pace_batch(uint32_t n)
{
	if (!n)
		return 1;
	return n > PACE_MAX_BATCH ? PACE_MAX_BATCH : n;
}

uint32_t pace_burst(unsigned pps, uint64_t tick_ns)
{
	uint64_t per_tick = (uint64_t)pps * tick_ns / NS + 1;

	if (per_tick >= PACE_MIN_BURST / 2)
		return PACE_MAX_CHUNK;
	return PACE_MIN_BURST;
}
