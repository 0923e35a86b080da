// SPDX-License-Identifier: MIT
#include "early.h"

#include <string.h>

void early_bpdu_hold(struct early_bpdu *e, const uint8_t *bpdu, size_t len,
		     uint64_t now_ms)
{
	if (len > sizeof(e->bpdu)) {
		e->len = 0;
		return;
	}
	memcpy(e->bpdu, bpdu, len);
	e->len = len;
	e->at_ms = now_ms;
}

size_t early_bpdu_take(struct early_bpdu *e, uint64_t now_ms)
{
	size_t len = e->len;

	e->len = 0;
	if (!len || now_ms < e->at_ms || now_ms - e->at_ms > EARLY_BPDU_MS)
		return 0;
	return len;
}
