// SPDX-License-Identifier: MIT
#include "flows.h"

#include <stdlib.h>
#include <string.h>

int flow_add(struct flow *f, uint32_t seq, int64_t ns)
{
	size_t byte = seq / 8;
	uint8_t bit = (uint8_t)(1u << (seq % 8));

	if (byte >= f->seen_bytes) {
		size_t n = (byte + 1) * 2;
		uint8_t *m = realloc(f->seen, n);

		if (!m)
			return -1;
		memset(m + f->seen_bytes, 0, n - f->seen_bytes);
		f->seen = m;
		f->seen_bytes = n;
	}
	if (f->seen[byte] & bit) {
		f->dups++;
		return 0;
	}
	f->seen[byte] |= bit;
	if (!f->received++ || seq < f->low)
		f->low = seq;
	if (seq < f->next) {
		f->reordered++;
	} else {
		if (seq > f->next && f->received > 1) {
			if (f->n_gaps < FLOW_MAX_GAPS)
				f->gaps[f->n_gaps++] = (struct flow_gap){
					f->next, seq - 1, f->last_ns, ns };
			else
				f->gaps_dropped++;
		}
		f->next = seq + 1;
	}
	f->last_ns = ns;
	return 0;
}

uint64_t flow_lost(const struct flow *f)
{
	uint64_t unique = f->received;

	return f->next > unique ? f->next - unique : 0;
}

int64_t flow_longest_gap_ns(const struct flow *f)
{
	int64_t worst = 0;

	for (size_t i = 0; i < f->n_gaps; i++)
		if (f->gaps[i].after_ns - f->gaps[i].before_ns > worst)
			worst = f->gaps[i].after_ns - f->gaps[i].before_ns;
	return worst;
}

void flow_free(struct flow *f)
{
	free(f->seen);
	f->seen = NULL;
	f->seen_bytes = 0;
}

void flow_json(const struct flow *f, FILE *out)
{
	fprintf(out, "{\"flow\":%u,\"vid\":%u,\"received\":%llu,\"lost\":%llu,"
		"\"duplicated\":%llu,\"reordered\":%llu,"
		"\"longest_gap_ms\":%.3f,", f->id, f->vid,
		(unsigned long long)f->received,
		(unsigned long long)flow_lost(f),
		(unsigned long long)f->dups, (unsigned long long)f->reordered,
		(double)flow_longest_gap_ns(f) / 1e6);
	if (f->received)
		fprintf(out, "\"first_seq\":%u,\"last_seq\":%u,", f->low,
			f->next - 1);
	fputs("\"gaps\":[", out);
	for (size_t i = 0; i < f->n_gaps; i++)
		fprintf(out, "%s{\"first\":%u,\"last\":%u,\"ms\":%.3f}",
			i ? "," : "", f->gaps[i].first, f->gaps[i].last,
			(double)(f->gaps[i].after_ns - f->gaps[i].before_ns) /
				1e6);
	fprintf(out, "],\"gaps_not_listed\":%llu}",
		(unsigned long long)f->gaps_dropped);
}
