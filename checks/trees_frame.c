// SPDX-License-Identifier: MIT
/* A decoded BPDU into the engine's terms: its port, and what it says
 * for each tree. */
#include "trees_priv.h"

#include <string.h>

#include "fnv.h"

bool trees_place(const struct trees *tr, int link, const struct bpdu_frame *f,
		 const struct bpdu *b, int *node, int *port)
{
	const struct topo_link *l;

	if (plan_port_of_mac(tr->p, f->src, node, port))
		return true;
	if (link < 0 || (size_t)link >= tr->t->n_links)
		return false;
	l = &tr->t->links[link];
	for (int e = 0; e < 2; e++)
		if (!memcmp(tr->p->nodes[l->end[e].node].bridge_mac,
			    b->bridge_id.mac, 6)) {
			*node = l->end[e].node;
			*port = l->end[e].port;
			return true;
		}
	return false;
}

/* Two bridges are in one MST region when their configuration ids match:
 * the hash of one, to compare. */
static uint32_t mcid_hash(const struct mst_config_id *id)
{
	uint8_t rev[2] = { (uint8_t)(id->revision >> 8), (uint8_t)id->revision };
	uint32_t h = fnv1a(&id->format_selector, 1, FNV_SEED);

	h = fnv1a(id->name, sizeof(id->name), h);
	h = fnv1a(rev, 2, h);
	return fnv1a(id->digest, sizeof(id->digest), h);
}

static uint8_t state_of(const struct bpdu_flags *f)
{
	return f->forwarding ? PORT_STATE_FORWARDING :
	       f->learning ? PORT_STATE_LEARNING : PORT_STATE_DISCARDING;
}

size_t trees_adverts(const struct trees *tr, int64_t ns, int link,
		     uint32_t frame_no, const struct bpdu *b,
		     struct tree_adv *a, int *tree)
{
	bool stp = b->type == BPDU_TYPE_CONFIG;
	size_t n = 1;

	a[0] = (struct tree_adv){
		.ns = ns, .frame = frame_no, .link = (uint16_t)link,
		.role = stp ? PORT_ROLE_NONE : (uint8_t)b->flags.role,
		.state = stp ? PORT_STATE_UNKNOWN : state_of(&b->flags),
		.tc = b->flags.tc, .root = bridge_id_u64(&b->root_id),
		.mst = b->type == BPDU_TYPE_MST,
	};
	tree[0] = 0;
	if (b->type == BPDU_TYPE_TCN) {
		a[0].tc = true;
		return 0;
	}
	if (a[0].mst)
		a[0].mcid = mcid_hash(&b->mcid);
	for (unsigned i = 0; i < b->msti_count; i++) {
		const struct bpdu_msti *m = &b->msti[i];
		int s = topo_tree_slot(&tr->t->mst, bpdu_msti_mstid(m));

		if (s <= 0 || (size_t)s >= tr->ntrees)
			continue;
		a[n] = a[0];
		a[n].role = (uint8_t)m->flags.role;
		a[n].state = state_of(&m->flags);
		a[n].tc = m->flags.tc;
		a[n].root = bridge_id_u64(&m->regional_root);
		tree[n++] = s;
	}
	return n;
}
