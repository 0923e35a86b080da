// SPDX-License-Identifier: MIT
#include "probe_checks.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "outage.h"

/* Frames of f captured on link while the event log has it down: in
 * flight as it failed, they reached no sink. */
static unsigned long captured_while_down(const struct analysis *a,
					 const struct flow *f, size_t link)
{
	unsigned long n = 0;
	int64_t from, to, first_ns;
	uint32_t first;
	size_t i = 0;

	while (analysis_next_down(a, link, &i, &from, &to))
		n += flows_count(f, link, from, to, &first, &first_ns);
	return n;
}

/* What a flow's checks are about, in their ids: its ends and VLAN, not
 * its number (the order the probes started in). */
static const char *flow_subject(const struct analysis *a,
				const struct flow *f, char *buf, size_t len)
{
	snprintf(buf, len, "%s->%s vlan %u", a->t->nodes[f->from].name,
		 a->t->nodes[f->to].name, f->vid);
	return buf;
}

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
	unsigned long counted = o->received + o->duplicated, seen, down, need;
	char text[240], why[200] = "", name[16], subject[64];
	struct result_check *c;
	uint32_t first;
	int64_t first_ns;
	int link;

	if (!to->n_ports || (link = to->ports[0].link) < 0)
		return;
	seen = flows_count(f, (size_t)link, INT64_MIN, INT64_MAX, &first,
			   &first_ns);
	/* Those the capture saw as the link failed may or may not have
	 * made it. */
	down = captured_while_down(a, f, (size_t)link);
	need = seen > down ? seen - down : 0;
	snprintf(text, sizeof(text), "flow %u: the sink counted %lu frames, "
		 "its link's capture %lu", f->id, counted, seen);
	if (down)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 " (%lu while the link was down)", down);
	if (counted < need)
		snprintf(why, sizeof(why), "the sink missed %lu frames seen in "
			 "the capture", need - counted);
	else if (counted > seen)
		snprintf(why, sizeof(why), "the sink counted %lu frames more "
			 "than the capture", counted - seen);
	if (counted < need && o->sink_dropped)
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 "; its receive ring had no room for %lu",
			 o->sink_dropped);
	snprintf(name, sizeof(name), "link%u", a->t->links[link].index);
	c = result_add_check_on(r, sc, "sink-vs-capture", tree, name,
				flow_subject(a, f, subject, sizeof(subject)),
				counted >= need && counted <= seen, text, why);
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

static bool last_on_sender_wire(const void *ctx, unsigned long *seq)
{
	const struct sender *s = ctx;

	return flows_last_sent(s->f, seq);
}

/*
 * How long the sender's own link had been down when its flow stopped (0
 * if it was up): the frames due meanwhile reached no capture, and the
 * path had not come back.
 */
static double sender_cut_ms(const struct analysis *a, const struct flow *f)
{
	int64_t from, to;
	size_t i = 0;

	if (f->sender_link < 0 || f->stop_ns == INT64_MAX)
		return 0;
	while (analysis_next_down(a, (size_t)f->sender_link, &i, &from, &to))
		if (from <= f->stop_ns && f->stop_ns < to) {
			from = from > f->start_ns ? from : f->start_ns;
			return (double)(f->stop_ns - from) / 1e6;
		}
	return 0;
}

/* Why the outage is what it is: the frames, and the wire times. */
static void explain(char *why, size_t len, const struct flow *f,
		    const struct flow_outage *o, double cut_ms)
{
	static const char *const where[] = {
		[GAP_INNER] = "",
		[GAP_HEAD] = " before the first frame that arrived",
		[GAP_TAIL] = " after the last frame that arrived",
		[GAP_ALL] = ", all the flow sent",
	};
	static const char *const bound[] = {
		[GAP_INNER] = "the frames either side crossed the sender's link",
		[GAP_HEAD] = "the first of them and the first frame that "
			     "arrived crossed the sender's link",
		[GAP_TAIL] = "the last frame that arrived and the last sent "
			     "crossed the sender's link",
	};
	unsigned long n = o->worst_last - o->worst_first + 1;
	size_t at;

	if (!o->gaps && !cut_ms) {
		snprintf(why, len, "the sender's link carried none of its frames");
		return;
	}
	if (!o->gaps) {
		snprintf(why, len, "the sender's link had been down %.1f ms when "
			 "the flow stopped, so no bound holds", cut_ms);
		return;
	}
	if (!o->timed)
		snprintf(why, len, "%lu frames missing in a row at %u frames/s%s",
			 o->longest_missing, f->pps, where[o->worst_edge]);
	else if (o->worst_edge == GAP_ALL)
		snprintf(why, len, "frames %lu-%lu missing (%lu at %u frames/s)%s: "
			 "they crossed the sender's link over %.1f ms",
			 o->worst_first, o->worst_last, n, f->pps,
			 where[GAP_ALL], o->outage_ms);
	else
		snprintf(why, len, "frames %lu-%lu missing (%lu at %u frames/s)%s: "
			 "%s %.1f ms apart, the missing ones over %.1f ms",
			 o->worst_first, o->worst_last, n, f->pps,
			 where[o->worst_edge], bound[o->worst_edge],
			 o->outage_ms, o->min_ms);
	at = strlen(why);
	if (cut_ms)
		snprintf(why + at, len - at, "; the sender's link had been down "
			 "%.1f ms when the flow stopped, so no bound holds", cut_ms);
	else if (o->open && (o->worst_edge == GAP_TAIL || o->worst_edge == GAP_ALL))
		snprintf(why + at, len - at, "; the flow stopped before the "
			 "path came back, so no bound holds");
	else if (o->open)
		snprintf(why + at, len - at, "; frames %lu-%lu, after the last "
			 "frame that arrived, show the flow stopped before the "
			 "path came back, so no bound holds", o->open_first,
			 o->open_last);
}

/* "flow 1 h1->h2 vlan 10: outage 40 ms (at most 50)" */
static void headline(char *text, size_t len, const struct analysis *a,
		     const struct flow *f, const struct flow_outage *o,
		     double outage, long bound)
{
	size_t at = (size_t)snprintf(text, len, "flow %u %s->%s vlan %u: ", f->id,
				     a->t->nodes[f->from].name,
				     a->t->nodes[f->to].name, f->vid);

	if (at >= len)
		return;
	if (!o->received)
		at += (size_t)snprintf(text + at, len - at, "no frame arrived");
	else
		at += (size_t)snprintf(text + at, len - at, "outage %s%.0f ms%s",
				       o->open ? "at least " : "", outage,
				       o->open ? ", still open at the flow's end" : "");
	if (at >= len)
		return;
	if (bound >= 0)
		snprintf(text + at, len - at, " (at most %ld)", bound);
	else
		snprintf(text + at, len - at, ", no budget");
}

/* The worst gap's evidence: the frames on the sender's link whose
 * times bound it (the last before it and the first after). */
static void outage_evidence(const struct analysis *a, struct result_run *r,
			    struct result_check *c, const struct flow *f,
			    const struct flow_outage *o)
{
	unsigned long seq[2];
	uint32_t frame;
	int64_t ns;

	if (!c || !o->gaps || !o->timed ||
	    !outage_bounding_seqs(o->worst_first, o->worst_last,
				  o->worst_edge, &seq[0], &seq[1]))
		return;
	for (int k = 0; k < 2; k++)
		if (flows_wire_frame(f, seq[k], &frame) &&
		    flows_wire_ns(f, seq[k], &ns))
			analysis_evidence(a, r, c, (size_t)f->sender_link, frame,
					  ns);
}

void probe_checks(struct analysis *a, struct result_run *r,
		  struct result_scenario *sc, const struct topo_scenario *tsc,
		  size_t first, int64_t end)
{
	for (size_t k = 0; k < a->flows.n; k++) {
		const struct flow *f = &a->flows.f[k];
		const char *from = a->t->nodes[f->from].name,
			   *to = a->t->nodes[f->to].name;
		char path[8192], text[256], why[600] = "", subject[64];
		uint16_t tree = analysis_tree_of_vid(&a->t->mst, f->vid);
		int slot = topo_tree_slot(&a->t->mst, tree);
		long bound = slot >= 0 ? tsc->expect.outage_max_ms[slot] : -1;
		struct sender snd = { a, f };
		struct outage_sender os = { left_sender, on_sender_wire,
					    last_on_sender_wire, &snd };
		struct flow_outage o;
		struct result_check *c;
		struct errbuf e;
		double cut_ms, outage;
		bool ok;

		if (f->start_ns < a->ev[first].ns || f->start_ns >= end)
			continue;
		snprintf(path, sizeof(path), "%s/share/%s/probe-%u.json",
			 a->run_dir, to, f->id);
		if (outage_load(path, f->id, f->pps, &os, &o, &e)) {
			snprintf(text, sizeof(text), "flow %u %s->%s vlan %u has a sink report",
				 f->id, from, to, f->vid);
			result_add_check_on(r, sc, "outage", tree, NULL,
					    flow_subject(a, f, subject,
							 sizeof(subject)),
					    false, text, e.msg);
			continue;
		}
		cut_ms = sender_cut_ms(a, f);
		o.open |= cut_ms > 0;
		outage = o.outage_ms > cut_ms ? o.outage_ms : cut_ms;
		ok = bound < 0 || (!o.open && outage <= (double)bound);
		headline(text, sizeof(text), a, f, &o, outage, bound);
		if (!ok || o.open)
			explain(why, sizeof(why), f, &o, cut_ms);
		/* Frames the sender's own link never carried: a guest that
		 * stalled, not an outage of the network. */
		if (o.unsent)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "%sthe sender never sent %lu of the missing frames "
				 "(first seq %lu-%lu)", why[0] ? "; " : "",
				 o.unsent, o.unsent_first, o.unsent_last);
		c = result_add_check_on(r, sc, "outage", tree, NULL,
					flow_subject(a, f, subject,
						     sizeof(subject)),
					ok, text, why[0] ? why : NULL);
		result_add_figure(r, c, "outage_ms", outage, tree);
		result_add_figure(r, c, "outage_min_ms", o.min_ms, tree);
		result_add_figure(r, c, "received", (double)o.received, tree);
		result_add_figure(r, c, "lost", (double)o.lost, tree);
		result_add_figure(r, c, "duplicated", (double)o.duplicated, tree);
		result_add_figure(r, c, "reordered", (double)o.reordered, tree);
		result_add_figure(r, c, "unsent", (double)o.unsent, tree);
		outage_evidence(a, r, c, f, &o);
		check_sink_vs_capture(a, r, sc, f, tree, &o);
	}
}
