// SPDX-License-Identifier: MIT
#include "outage.h"

#include <jansson.h>
#include <stdio.h>

static unsigned long count(json_t *root, const char *key)
{
	json_t *v = json_object_get(root, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ?
		       (unsigned long)json_integer_value(v) : 0;
}

/* The report is {"flows":[{"flow":N,...},...]}: the one for @flow. */
static json_t *find_flow(json_t *root, unsigned flow)
{
	json_t *flows = json_object_get(root, "flows"), *f;
	size_t i;

	json_array_foreach(flows, i, f)
		if (json_integer_value(json_object_get(f, "flow")) == (json_int_t)flow)
			return f;
	return NULL;
}

/* Longer gaps are taken whole: a report that claims more frames than
 * any capture keeps is not walked frame by frame. */
#define GAP_SCAN_MAX (1UL << 24)

/* The longest run of frames in [first, last] that left the sender;
 * those that did not are counted in o. */
static unsigned long sent_run(unsigned long first, unsigned long last,
			      const struct outage_sender *snd,
			      struct flow_outage *o)
{
	unsigned long run = 0, best = 0;

	if (last - first >= GAP_SCAN_MAX)	/* no capture follows that far */
		return last - first + 1;
	for (unsigned long s = first; s <= last; s++) {
		if (!snd || !snd->sent || snd->sent(snd->ctx, s)) {
			if (++run > best)
				best = run;
			continue;
		}
		run = 0;
		if (!o->unsent++)
			o->unsent_first = s;
		if (o->unsent_first + o->unsent - 1 == s)
			o->unsent_last = s;
	}
	return best;
}

/*
 * Bounds gap [first, last] by wire times: the frames either side got
 * through, so the path failed after the one before left and worked again
 * by the time the one after did; the lost ones it did not carry. False
 * when the capture lacks the frames either side.
 */
static bool wire_bounds(unsigned long first, unsigned long last,
			const struct outage_sender *snd, double *lo, double *hi)
{
	int64_t before, after, t, lost_first = INT64_MAX, lost_last = INT64_MIN;

	if (!snd || !snd->wire_ns || !first ||
	    !snd->wire_ns(snd->ctx, first - 1, &before) ||
	    !snd->wire_ns(snd->ctx, last + 1, &after) || after < before)
		return false;
	for (unsigned long s = first; s <= last && last - first < GAP_SCAN_MAX; s++)
		if (snd->wire_ns(snd->ctx, s, &t)) {
			lost_first = t < lost_first ? t : lost_first;
			lost_last = t > lost_last ? t : lost_last;
		}
	*hi = (double)(after - before) / 1e6;
	*lo = lost_last > lost_first ? (double)(lost_last - lost_first) / 1e6 : 0;
	if (*lo > *hi)
		*lo = *hi;
	return true;
}

int outage_load(const char *path, unsigned flow, unsigned pps,
		const struct outage_sender *snd, struct flow_outage *o,
		char *err, size_t len)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *rep, *gaps, *g;
	unsigned long any = 0;	/* gaps of the network's */
	size_t i;

	*o = (struct flow_outage){ 0 };
	if (!root) {
		if (je.line > 0)
			snprintf(err, len, "%s:%d:%d: %s", path, je.line,
				 je.column, je.text);
		else	/* jansson's text names the file and the reason */
			snprintf(err, len, "%s", je.text);
		return -1;
	}
	rep = find_flow(root, flow);
	gaps = json_object_get(rep, "gaps");
	if (!json_is_array(gaps) || !pps) {
		snprintf(err, len, "%s: no report of flow %u", path, flow);
		json_decref(root);
		return -1;
	}
	o->received = count(rep, "received");
	o->lost = count(rep, "lost");
	o->duplicated = count(rep, "duplicated");
	o->reordered = count(rep, "reordered");
	o->sink_dropped = count(root, "dropped");
	json_array_foreach(gaps, i, g) {
		json_int_t first = json_integer_value(json_object_get(g, "first"));
		json_int_t last = json_integer_value(json_object_get(g, "last"));

		unsigned long run;
		double lo, hi;
		bool timed;

		if (first < 0 || last < first)
			continue;
		run = sent_run((unsigned long)first, (unsigned long)last, snd, o);
		if (!run)	/* none of it left the sender */
			continue;
		if (run > o->longest_missing)
			o->longest_missing = run;
		timed = wire_bounds((unsigned long)first, (unsigned long)last,
				    snd, &lo, &hi);
		if (!timed)	/* the probe interval's resolution */
			lo = hi = (double)run * 1000.0 / pps;
		if (!any++ || hi > o->outage_ms) {
			o->outage_ms = hi;
			o->min_ms = lo;
			o->worst_first = (unsigned long)first;
			o->worst_last = (unsigned long)last;
			o->timed = timed;
		}
	}
	json_decref(root);
	return 0;
}
