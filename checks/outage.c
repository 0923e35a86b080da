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

/* The longest run of frames in [first, last] that left the sender;
 * those that did not are counted in o. */
static unsigned long sent_run(unsigned long first, unsigned long last,
			      outage_sent_fn sent, const void *ctx,
			      struct flow_outage *o)
{
	unsigned long run = 0, best = 0;

	for (unsigned long s = first; s <= last; s++) {
		if (!sent || sent(ctx, s)) {
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

int outage_load(const char *path, unsigned flow, unsigned pps,
		outage_sent_fn sent, const void *ctx, struct flow_outage *o,
		char *err, size_t len)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *rep, *gaps, *g;
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

		if (first < 0 || last < first)
			continue;
		run = sent_run((unsigned long)first, (unsigned long)last, sent,
			       ctx, o);
		if (run > o->longest_missing)
			o->longest_missing = run;
	}
	/* At the probe interval's resolution: a gap of n frames lasted n intervals. */
	o->outage_ms = (double)o->longest_missing * 1000.0 / pps;
	json_decref(root);
	return 0;
}
