// SPDX-License-Identifier: MIT
#include "clock_sync.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int clock_estimate(const struct clock_sample *s, size_t n,
		   struct clock_est *e)
{
	const struct clock_sample *best = NULL;
	unsigned used = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i].t3 < s[i].t0)
			continue;	/* our clock stepped back: unusable */
		used++;
		if (!best || s[i].t3 - s[i].t0 < best->t3 - best->t0)
			best = &s[i];
	}
	if (!best)
		return -1;
	e->rtt = best->t3 - best->t0;
	/* The midpoint without overflow: t0 + rtt / 2. */
	e->at = best->t0 + e->rtt / 2;
	e->offset = best->t1 - e->at;
	/* Rounded up: the midpoint lost at most half a nanosecond. */
	e->bound = (e->rtt + 1) / 2;
	e->samples = used;
	return 0;
}

int64_t clock_map_offset(const struct clock_map *m, int64_t t)
{
	const struct clock_est *a = &m->est[0], *b = &m->est[1];

	if (!m->have[0] && !m->have[1])
		return 0;
	if (!m->have[0] || !m->have[1] || b->at <= a->at)
		return m->have[0] ? a->offset : b->offset;
	if (t <= a->at)
		return a->offset;
	if (t >= b->at)
		return b->offset;
	/* a + (b - a) * (t - a.at) / (b.at - a.at), in long double: the
	 * product of two spans of ns does not fit 64 bits. */
	return a->offset + (int64_t)((long double)(b->offset - a->offset) *
				     (long double)(t - a->at) /
				     (long double)(b->at - a->at));
}

int64_t clock_map_to_local(const struct clock_map *m, int64_t far)
{
	/* The offset is a function of our time: one step of refinement
	 * (drift is parts per million; a second step changes nothing). */
	int64_t guess = far - clock_map_offset(m, far);

	return far - clock_map_offset(m, guess);
}

int64_t clock_map_bound(const struct clock_map *m)
{
	int64_t b = 0;

	for (int i = 0; i < 2; i++)
		if (m->have[i] && m->est[i].bound > b)
			b = m->est[i].bound;
	return b;
}

int clock_format(char *buf, size_t len, const char *host, bool end,
		 const struct clock_est *e)
{
	return snprintf(buf, len, "%s %s %" PRId64 " %" PRId64 " %" PRId64
			" %" PRId64 " %u\n", host, end ? "end" : "start", e->at,
			e->offset, e->bound, e->rtt, e->samples);
}

int clock_parse(const char *text, const char *host, struct clock_map *m)
{
	char name[TOPO_HOST_NAME_MAX + 2], when[8];
	int found = -1;

	memset(m, 0, sizeof(*m));
	while (text && *text) {
		struct clock_est e;
		size_t n = strcspn(text, "\n");
		char line[256];

		snprintf(line, sizeof(line), "%.*s",
			 (int)(n < sizeof(line) ? n : sizeof(line) - 1), text);
		text += n + (text[n] == '\n');
		if (sscanf(line, "%16s %7s %" SCNd64 " %" SCNd64 " %" SCNd64
			   " %" SCNd64 " %u", name, when, &e.at, &e.offset,
			   &e.bound, &e.rtt, &e.samples) != 7 ||
		    strcmp(name, host) || e.bound < 0 || e.rtt < 0)
			continue;
		if (!strcmp(when, "start") || !strcmp(when, "end")) {
			int i = when[0] == 'e';

			m->est[i] = e;
			m->have[i] = true;
			found = 0;
		}
	}
	return found;
}
