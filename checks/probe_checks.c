// SPDX-License-Identifier: MIT
#include "probe_checks.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "outage.h"

/*
 * The sink and the wire should agree: every copy of the flow's frames
 * that the capture saw on the sink's link, the sink counted (as received
 * or duplicated). A sink that missed frames the wire carried measured an
 * outage that was not the network's.
 */
static void check_sink_vs_capture(const struct analysis *a,
				  struct result_run *r,
				  struct result_scenario *sc,
				  const struct flow *f, uint16_t tree,
				  const struct flow_outage *o)
{
	const struct topo_node *to = &a->t->nodes[f->to];
	unsigned long counted = o->received + o->duplicated, seen;
	char text[200], why[200] = "", name[16];
	struct result_check *c;
	uint32_t first;
	int64_t first_ns;
	int link;

	if (!to->n_ports || (link = to->ports[0].link) < 0)
		return;
	seen = flows_count(f, (size_t)link, INT64_MIN, INT64_MAX, &first,
			   &first_ns);
	snprintf(text, sizeof(text), "flow %u: the sink counted %lu frames, "
		 "its link's capture %lu", f->id, counted, seen);
	if (counted != seen)
		snprintf(why, sizeof(why), "the sink %s %lu frames %s the capture",
			 counted < seen ? "missed" : "counted", counted < seen ?
			 seen - counted : counted - seen,
			 counted < seen ? "seen in" : "more than");
	if (counted < seen && o->sink_dropped)
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 "; its receive ring had no room for %lu",
			 o->sink_dropped);
	snprintf(name, sizeof(name), "link%u", a->t->links[link].index);
	c = result_add_check(r, sc, "sink-vs-capture", tree, name,
			     counted == seen, text, why);
	/* A capture that lost frames cannot vouch for the sink. */
	if (counted > seen && a->drops && a->drops[link] > 0) {
		snprintf(why, sizeof(why), "the capture of %s lost %ld frames",
			 name, a->drops[link]);
		result_skip(r, c, why);
	}
	result_add_figure(r, c, "captured", (double)seen, tree);
	result_add_figure(r, c, "counted", (double)counted, tree);
	if (first && c)
		result_add_evidence(r, c, a->p->links[link].pcap, first, first_ns);
}

struct sender {
	const struct analysis *a;
	const struct flow *f;
};

/*
 * Whether frame seq is the network's to lose: it crossed the sender's
 * link, or was due while that link was down (a failed access link is an
 * outage too, though nothing reaches its capture).
 */
static bool left_sender(const void *ctx, unsigned long seq)
{
	const struct sender *s = ctx;
	int64_t due = s->f->start_ns +
		      (int64_t)((double)seq * 1e9 / s->f->pps);

	return flows_sent(s->f, seq) ||
	       (s->f->sender_link >= 0 &&
		!analysis_link_up(s->a, (size_t)s->f->sender_link, due));
}

static bool on_sender_wire(const void *ctx, unsigned long seq, int64_t *ns)
{
	const struct sender *s = ctx;

	return flows_wire_ns(s->f, seq, ns);
}

/* Why the outage is what it is: the frames, and the wire times. */
static void explain(char *why, size_t len, const struct flow *f,
		    const struct flow_outage *o)
{
	unsigned long n = o->worst_last - o->worst_first + 1;

	if (!o->timed) {
		snprintf(why, len, "%lu frames missing in a row at %u frames/s",
			 o->longest_missing, f->pps);
		return;
	}
	snprintf(why, len, "frames %lu-%lu missing (%lu at %u frames/s): "
		 "the frames either side crossed the sender's link %.1f ms "
		 "apart, the missing ones over %.1f ms", o->worst_first,
		 o->worst_last, n, f->pps, o->outage_ms, o->min_ms);
}

void probe_checks(struct analysis *a, struct result_run *r,
		  struct result_scenario *sc, const struct topo_scenario *tsc,
		  size_t first, int64_t end)
{
	for (size_t k = 0; k < a->flows.n; k++) {
		const struct flow *f = &a->flows.f[k];
		const char *from = a->t->nodes[f->from].name,
			   *to = a->t->nodes[f->to].name;
		char path[8192], text[256], why[300] = "";
		uint16_t tree = analysis_tree_of_vid(&a->t->mst, f->vid);
		int slot = topo_tree_slot(&a->t->mst, tree);
		long bound = slot >= 0 ? tsc->expect.outage_max_ms[slot] : -1;
		struct sender snd = { a, f };
		struct outage_sender os = { left_sender, on_sender_wire, &snd };
		struct flow_outage o;
		struct result_check *c;
		bool ok;

		if (f->start_ns < a->ev[first].ns || f->start_ns >= end)
			continue;
		snprintf(path, sizeof(path), "%s/share/%s/probe-%u.json",
			 a->run_dir, to, f->id);
		if (outage_load(path, f->id, f->pps, &os, &o, why,
				sizeof(why))) {
			snprintf(text, sizeof(text), "flow %u %s->%s vlan %u has a sink report",
				 f->id, from, to, f->vid);
			result_add_check(r, sc, "outage", tree, NULL, false, text, why);
			continue;
		}
		ok = bound < 0 || o.outage_ms <= (double)bound;
		if (bound >= 0)
			snprintf(text, sizeof(text), "flow %u %s->%s vlan %u: outage %.0f ms (at most %ld)",
				 f->id, from, to, f->vid, o.outage_ms, bound);
		else
			snprintf(text, sizeof(text), "flow %u %s->%s vlan %u: outage %.0f ms, no budget",
				 f->id, from, to, f->vid, o.outage_ms);
		if (!ok)
			explain(why, sizeof(why), f, &o);
		/* Frames the sender's own link never carried: a guest that
		 * stalled, not an outage of the network. */
		if (o.unsent)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "%sthe sender never sent %lu of the missing frames "
				 "(first seq %lu-%lu)", why[0] ? "; " : "",
				 o.unsent, o.unsent_first, o.unsent_last);
		c = result_add_check(r, sc, "outage", tree, NULL, ok, text,
				     why[0] ? why : NULL);
		result_add_figure(r, c, "outage_ms", o.outage_ms, tree);
		result_add_figure(r, c, "outage_min_ms", o.min_ms, tree);
		result_add_figure(r, c, "received", (double)o.received, tree);
		result_add_figure(r, c, "lost", (double)o.lost, tree);
		result_add_figure(r, c, "duplicated", (double)o.duplicated, tree);
		result_add_figure(r, c, "reordered", (double)o.reordered, tree);
		result_add_figure(r, c, "unsent", (double)o.unsent, tree);
		check_sink_vs_capture(a, r, sc, f, tree, &o);
	}
}
