// SPDX-License-Identifier: MIT
#include "serve_flows.h"

#include <string.h>

#include "analyze.h"
#include "print.h"
#include "probe_wire.h"
#include "tree_path.h"

#define SLOT_NS 100000000LL
/* A gap of this many intervals between a flow's frames is an outage (a
 * lost frame or two is not), as the verdicts' flow runs have it. */
#define GAP_INTERVALS 3

static void rate_add(struct serve_rate *r, int64_t ns)
{
	int64_t slot = ns / SLOT_NS;

	if (slot > r->slot) {
		for (int64_t s = r->slot + 1; s <= slot &&
		     s <= r->slot + SERVE_RATE_SLOTS; s++)
			r->n[s % SERVE_RATE_SLOTS] = 0;
		r->slot = slot;
	}
	if (slot > r->slot - SERVE_RATE_SLOTS)
		r->n[slot % SERVE_RATE_SLOTS]++;
}

/* Frames within the second before now. */
static unsigned long rate_sum(const struct serve_rate *r, int64_t now)
{
	int64_t slot = now / SLOT_NS;
	unsigned long sum = 0;

	for (int64_t s = slot - SERVE_RATE_SLOTS + 1; s <= slot; s++)
		if (s <= r->slot && s > r->slot - SERVE_RATE_SLOTS)
			sum += r->n[s % SERVE_RATE_SLOTS];
	return sum;
}

void serve_flows_init(struct serve_flows *fl, const struct topo *t,
		      const struct trees *tr)
{
	memset(fl, 0, sizeof(*fl));
	fl->t = t;
	fl->tr = tr;
}

static struct serve_flow *flow_find(struct serve_flows *fl, unsigned id)
{
	for (size_t i = 0; i < fl->n; i++)
		if (fl->f[i].id == id)
			return &fl->f[i];
	return NULL;
}

static int nic_link(const struct topo *t, int node)
{
	return t->nodes[node].n_ports ? t->nodes[node].ports[0].link : -1;
}

void serve_flows_event(struct serve_flows *fl, const struct event *e)
{
	struct serve_flow *f;
	int from, to;

	if (!e->args_ok)
		return;
	if (e->kind == EVENT_PROBE_STOP) {
		f = flow_find(fl, e->n);
		if (f && f->stop_ns == INT64_MAX)
			f->stop_ns = e->ns;
		fl->version++;
		return;
	}
	from = topo_node_find(fl->t, e->from);
	to = topo_node_find(fl->t, e->to);
	if (e->kind != EVENT_PROBE_START || from < 0 || to < 0 ||
	    fl->n == SERVE_FLOWS_MAX || flow_find(fl, e->n) || !e->pps)
		return;
	f = &fl->f[fl->n++];
	*f = (struct serve_flow){
		.id = e->n, .vid = e->vid, .pps = e->pps, .from = from,
		.to = to, .rx_link = nic_link(fl->t, to),
		.tree = topo_tree_slot(&fl->t->mst, analysis_tree_of_vid(
					       &fl->t->mst, e->vid)),
		.start_ns = e->ns, .stop_ns = INT64_MAX,
		.path_at = (unsigned long)-1,
	};
	fl->version++;
}

/* Where a probe frame's header starts (after its EtherType, behind a
 * VLAN tag or not); 0 if it is none. */
static size_t probe_off(const uint8_t *frame, size_t len)
{
	size_t off = len >= 18 && frame[12] == 0x81 && frame[13] == 0x00 ?
			     16 : 12;

	return len >= off + 2 && ((unsigned)frame[off] << 8 |
				  frame[off + 1]) == PROBE_ETHERTYPE ?
		       off + 2 : 0;
}

bool serve_flows_keep(const uint8_t *frame, size_t len)
{
	return probe_off(frame, len) != 0;
}

static bool link_up(const void *ctx, size_t link)
{
	const struct trees *tr = ctx;

	return !tr->down[link];
}

/* The flow's path in its tree as the engine has it now: kept until the
 * engine's state changes. */
static bool flow_path(struct serve_flows *fl, struct serve_flow *f)
{
	struct tree_topo tt = { .t = fl->t, .link_up = link_up,
				.ctx = fl->tr };
	int toward[TOPO_MAX_NODES];

	if (f->path_at == fl->tr->changes)
		return f->has_path;
	f->path_at = fl->tr->changes;
	tt.v = trees_now(fl->tr, f->tree);
	tree_toward(&tt, f->to, toward);
	f->has_path = tree_path(fl->t, toward, f->from, f->on_path);
	return f->has_path;
}

static struct serve_flood *flood_of(struct serve_flows *fl, unsigned vid,
				    int tree)
{
	for (size_t i = 0; i < fl->n_flood; i++)
		if (fl->flood[i].vid == vid)
			return &fl->flood[i];
	if (fl->n_flood == SERVE_FLOWS_MAX)
		return NULL;
	fl->flood[fl->n_flood] = (struct serve_flood){ .vid = vid,
						       .tree = tree };
	return &fl->flood[fl->n_flood++];
}

void serve_flows_frame(struct serve_flows *fl, int64_t ns, int link,
		       const uint8_t *frame, size_t len)
{
	size_t off = probe_off(frame, len);
	struct serve_flow *f;
	struct serve_flood *fd;
	struct probe_hdr h;

	if (!off || probe_hdr_decode(frame + off, len - off, &h))
		return;
	f = flow_find(fl, h.flow);
	if (!f || f->tree < 0 || link < 0 || (size_t)link >= fl->t->n_links)
		return;
	fl->version++;
	if (link == f->rx_link) {
		int64_t gap = f->last_rx_ns ? ns - f->last_rx_ns : 0;

		if (gap * f->pps > GAP_INTERVALS * 1000000000LL &&
		    gap > f->longest_ns)
			f->longest_ns = gap;
		f->last_rx_ns = ns;
		f->rx++;
		rate_add(&f->rate, ns);
	}
	if (fl->tr->down[link] || !flow_path(fl, f) || f->on_path[link])
		return;
	fd = flood_of(fl, f->vid, f->tree);
	if (!fd)
		return;
	fd->total++;
	fd->last_ns = ns;
	rate_add(&fd->rate, ns);
}

/* The gap running now at the flow's receiver: its outage, or 0. */
static int64_t outage_now(const struct serve_flow *f, int64_t now)
{
	int64_t since = f->last_rx_ns ? f->last_rx_ns : f->start_ns;

	if (f->stop_ns != INT64_MAX || now <= since)
		return 0;
	return (now - since) * f->pps > GAP_INTERVALS * 1000000000LL ?
		       now - since : 0;
}

/* What a flow and a flood both say: their VLAN's tree, and a rate over
 * the last second. */
static void tree_rate(struct printer *pr, const struct serve_flows *fl,
		      int tree, const char *key, const struct serve_rate *r,
		      int64_t now)
{
	char name[16];

	print_string(pr, PRINT_JSON, "tree", NULL,
		     trees_tree_name(fl->tr, tree, name, sizeof(name)));
	print_uint(pr, PRINT_JSON, key, NULL, (unsigned)rate_sum(r, now));
}

void serve_flows_json(const struct serve_flows *fl, int64_t now, FILE *out)
{
	const struct topo *t = fl->t;
	struct printer pr;

	print_init(&pr, out, true);
	print_open_object(&pr, NULL);
	print_u64(&pr, PRINT_JSON, "ns", NULL, (uint64_t)now);
	print_open_array(&pr, "flows");
	for (size_t i = 0; i < fl->n; i++) {
		const struct serve_flow *f = &fl->f[i];
		int64_t cur = outage_now(f, now);

		print_open_object(&pr, NULL);
		print_uint(&pr, PRINT_JSON, "flow", NULL, f->id);
		print_string(&pr, PRINT_JSON, "from", NULL,
			     t->nodes[f->from].name);
		print_string(&pr, PRINT_JSON, "to", NULL, t->nodes[f->to].name);
		print_uint(&pr, PRINT_JSON, "vid", NULL, f->vid);
		tree_rate(&pr, fl, f->tree, "rx_per_s", &f->rate, now);
		print_uint(&pr, PRINT_JSON, "pps", NULL, f->pps);
		print_bool(&pr, PRINT_JSON, "running", NULL,
			   f->stop_ns == INT64_MAX);
		print_u64(&pr, PRINT_JSON, "rx", NULL, f->rx);
		print_uint(&pr, PRINT_JSON, "outage_ms", NULL,
			   (unsigned)(cur / 1000000));
		print_uint(&pr, PRINT_JSON, "longest_ms", NULL,
			   (unsigned)((cur > f->longest_ns ? cur :
				       f->longest_ns) / 1000000));
		print_close_object(&pr);
	}
	print_close_array(&pr);
	print_open_array(&pr, "floods");
	for (size_t i = 0; i < fl->n_flood; i++) {
		const struct serve_flood *fd = &fl->flood[i];

		print_open_object(&pr, NULL);
		print_uint(&pr, PRINT_JSON, "vid", NULL, fd->vid);
		tree_rate(&pr, fl, fd->tree, "per_s", &fd->rate, now);
		print_u64(&pr, PRINT_JSON, "total", NULL, fd->total);
		print_u64(&pr, PRINT_JSON, "last_ns", NULL,
			  (uint64_t)fd->last_ns);
		print_close_object(&pr);
	}
	print_close_array(&pr);
	print_close_object(&pr);
}
