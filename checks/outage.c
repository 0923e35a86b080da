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

/* The wire times of the earliest and latest frames of [first, last]
 * the sender's link carried; false if it carried none. */
static bool lost_span(unsigned long first, unsigned long last,
		      const struct outage_sender *snd, int64_t *from,
		      int64_t *to)
{
	bool any = false;
	int64_t t;

	for (unsigned long s = first; s <= last && last - first < GAP_SCAN_MAX; s++)
		if (snd->wire_ns(snd->ctx, s, &t)) {
			*from = !any || t < *from ? t : *from;
			*to = !any || t > *to ? t : *to;
			any = true;
		}
	return any;
}

bool outage_bounding_seqs(unsigned long first, unsigned long last,
			  enum outage_edge edge, unsigned long *before,
			  unsigned long *after)
{
	/* At an end, the lost frame there must be on the wire: the ones a
	 * failed access link kept off it went out before (or after) any
	 * that got there. */
	bool head = edge == GAP_HEAD || edge == GAP_ALL,
	     tail = edge == GAP_TAIL || edge == GAP_ALL;

	if (!head && !first)
		return false;
	*before = head ? first : first - 1;
	*after = tail ? last : last + 1;
	return true;
}

/*
 * Bounds gap [first, last] by wire times: the frames either side got
 * through, so the path failed after the one before left and worked again
 * by the time the one after did; the lost ones it did not carry. A gap
 * at an end of the flow has the flow's end on that side: its own lost
 * frame there bounds it. False when the capture lacks those frames.
 */
static bool wire_bounds(unsigned long first, unsigned long last,
			enum outage_edge edge, const struct outage_sender *snd,
			double *lo, double *hi)
{
	int64_t before = 0, after = 0, from = 0, to = 0;
	unsigned long b, a;
	bool spanned, ok;

	if (!snd || !snd->wire_ns)
		return false;
	spanned = lost_span(first, last, snd, &from, &to);
	ok = outage_bounding_seqs(first, last, edge, &b, &a) &&
	     snd->wire_ns(snd->ctx, b, &before) &&
	     snd->wire_ns(snd->ctx, a, &after);
	if (!ok || after < before)
		return false;
	*hi = (double)(after - before) / 1e6;
	*lo = spanned && to > from ? (double)(to - from) / 1e6 : 0;
	if (*lo > *hi)
		*lo = *hi;
	return true;
}

/* Takes missing frames [first, last] into o: the worst gap is the one
 * the longest outage bounds. */
static void take_gap(unsigned long first, unsigned long last,
		     enum outage_edge edge, unsigned pps,
		     const struct outage_sender *snd, struct flow_outage *o)
{
	unsigned long run = sent_run(first, last, snd, o);
	double lo, hi;
	bool timed;

	if (!run)	/* none of it left the sender */
		return;
	if (run > o->longest_missing)
		o->longest_missing = run;
	if (edge == GAP_TAIL || edge == GAP_ALL) {
		o->open = true;
		o->open_first = first;
		o->open_last = last;
	}
	timed = wire_bounds(first, last, edge, snd, &lo, &hi);
	if (!timed)	/* the probe interval's resolution */
		lo = hi = (double)run * 1000.0 / pps;
	if (!o->gaps++ || hi > o->outage_ms) {
		o->outage_ms = hi;
		o->min_ms = lo;
		o->worst_first = first;
		o->worst_last = last;
		o->worst_edge = edge;
		o->timed = timed;
	}
}

/* The frames lost before the first that arrived and after the last: in
 * no gap of the sink's, yet as lost as any. */
static int take_edges(json_t *rep, unsigned pps,
		      const struct outage_sender *snd, struct flow_outage *o)
{
	json_t *lo = json_object_get(rep, "first_seq"),
	       *hi = json_object_get(rep, "last_seq");
	unsigned long first = count(rep, "first_seq"),
		      last = count(rep, "last_seq"), end;
	bool known = snd && snd->last_sent && snd->last_sent(snd->ctx, &end);

	if (!o->received) {	/* no frame shows the path working */
		o->open = true;
		if (known)
			take_gap(0, end, GAP_ALL, pps, snd, o);
		return 0;
	}
	if (!json_is_integer(lo) || !json_is_integer(hi) || first > last)
		return -1;
	if (first)
		take_gap(0, first - 1, GAP_HEAD, pps, snd, o);
	if (known && end > last)
		take_gap(last + 1, end, GAP_TAIL, pps, snd, o);
	return 0;
}

int outage_load(const char *path, unsigned flow, unsigned pps,
		const struct outage_sender *snd, struct flow_outage *o,
		struct errbuf *err)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *rep, *gaps, *g;
	size_t i;

	*o = (struct flow_outage){ 0 };
	if (!root) {
		if (je.line > 0)
			errbuf_set(err, "%s:%d:%d: %s", path, je.line,
				   je.column, je.text);
		else	/* jansson's text names the file and the reason */
			errbuf_set(err, "%s", je.text);
		return -1;
	}
	rep = find_flow(root, flow);
	gaps = json_object_get(rep, "gaps");
	if (!json_is_array(gaps) || !pps) {
		errbuf_set(err, "%s: no report of flow %u", path, flow);
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

		if (first < 0 || last < first)
			continue;
		take_gap((unsigned long)first, (unsigned long)last, GAP_INNER,
			 pps, snd, o);
	}
	if (take_edges(rep, pps, snd, o)) {
		errbuf_set(err, "%s: flow %u received frames but its report "
			   "bounds them with no first_seq and last_seq", path,
			   flow);
		json_decref(root);
		return -1;
	}
	json_decref(root);
	return 0;
}
