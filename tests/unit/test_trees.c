// SPDX-License-Identifier: MIT
/*
 * The tree-state engine's rules, on BPDUs encoded with the daemon's codec
 * from a triangle's ports: what a port shows, the two deductions, the
 * root vote, link failures and restores, TC; and the same inputs fed
 * live and kept as history give the same trees at every instant.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpdu.h"
#include "checks_fixture.h"
#include "events.h"
#include "plan.h"
#include "trees.h"
#include "unit.h"

/* sw1 roots every tree unless a test says otherwise. */
static const char tri_yaml[] =
	"name: tri\n"
	"mst: { region: tri, instances: { 1: [10], 2: [20] } }\n"
	"nodes:\n"
	"  sw1: { role: bridge }\n"
	"  sw2: { role: bridge }\n"
	"  sw3: { role: bridge }\n"
	"  h1: { role: host }\n"
	"links:\n"
	"  - [sw1:p1, sw2:p1]\n"
	"  - [sw2:p2, sw3:p1]\n"
	"  - [sw3:p2, sw1:p2]\n"
	"  - [h1:eth1, sw3:p3]\n";

#define S(x) ((int64_t)(x) * 1000000000LL)
enum { SW1, SW2, SW3, H1 };
enum { P1, P2, P3 };

struct fx {
	struct topo *t;
	struct plan *p;
	struct trees live, keep;
	struct fx_changes c;
	uint32_t frames[8];	/* per link, as a pcap numbers them */
};

static const struct fx_adv DF = { BPDU_ROLE_DESIGNATED, true, false };
static const struct fx_adv DF_TC = { BPDU_ROLE_DESIGNATED, true, true };
static const struct fx_adv AD = { BPDU_ROLE_ALT_BACKUP, false, false };
static const struct fx_adv RF = { BPDU_ROLE_ROOT, true, false };
static const struct fx_adv RF_TC = { BPDU_ROLE_ROOT, true, true };
static const struct fx_adv MF = { BPDU_ROLE_MASTER, true, false };

static int fx_init(struct fx *f)
{
	struct topo_error te;

	memset(f, 0, sizeof(*f));
	if (topo_parse_buffer("t.yaml", tri_yaml, strlen(tri_yaml), &f->t,
			      &te) ||
	    plan_build(f->t, &f->p) ||
	    trees_init(&f->live, f->t, f->p, TREES_LIVE) ||
	    trees_init(&f->keep, f->t, f->p, TREES_KEEP))
		return -1;
	f->live.emit = fx_record;
	f->live.emit_ctx = &f->c;
	return 0;
}

static void fx_free(struct fx *f)
{
	trees_free(&f->live);
	trees_free(&f->keep);
	plan_free(f->p);
	topo_free(f->t);
}

static void frame(struct fx *f, int64_t ns, int link, const uint8_t *buf,
		  size_t len)
{
	uint32_t no = ++f->frames[link];

	trees_frame(&f->live, ns, link, no, buf, len);
	trees_frame(&f->keep, ns, link, no, buf, len);
}

/* node:port's BPDU of a kind (NULL: MST, region tri; else another
 * region, RST, no MSTI 2) naming root for every tree. */
static void say_as(struct fx *f, int64_t ns, int node, int port, int root,
		   const struct fx_bpdu_kind *kind, struct fx_adv a0,
		   struct fx_adv a1, struct fx_adv a2)
{
	const struct fx_adv adv[3] = { a0, a1, a2 };
	uint8_t buf[BPDU_FRAME_MAX_LEN];
	size_t len = fx_bpdu(f->p, node, port, root, (const int[2]){ root, root },
			     adv, kind, buf, sizeof(buf));

	frame(f, ns, f->t->nodes[node].ports[port].link, buf, len);
}

static void say_root(struct fx *f, int64_t ns, int node, int port, int root,
		     struct fx_adv a0, struct fx_adv a1, struct fx_adv a2)
{
	say_as(f, ns, node, port, root, NULL, a0, a1, a2);
}

static void say(struct fx *f, int64_t ns, int node, int port,
		struct fx_adv a0, struct fx_adv a1, struct fx_adv a2)
{
	say_root(f, ns, node, port, SW1, a0, a1, a2);
}

static const struct fx_bpdu_kind OTHER = { .region = "other" },
				 RST = { .rst = true },
				 NO_MSTI2 = { .no_msti2 = true };

static void event(struct fx *f, const char *line)
{
	struct event e;

	if (event_parse(line, &e))
		return;
	trees_event(&f->live, &e);
	trees_event(&f->keep, &e);
}

static const struct tree_port *now(struct fx *f, int node, int port,
				   int tree)
{
	return trees_port_now(&f->live, node, port, tree);
}

static size_t count(const struct fx *f, enum trees_change_kind kind,
		    int tree)
{
	size_t n = 0;

	for (size_t i = 0; i < f->c.n; i++)
		n += f->c.ch[i].kind == kind &&
		     (tree < 0 || f->c.ch[i].tree == tree);
	return n;
}

static const struct trees_change *find(const struct fx *f,
				       enum trees_change_kind k, int tree)
{
	for (size_t i = 0; i < f->c.n; i++)
		if (f->c.ch[i].kind == k && (tree < 0 || f->c.ch[i].tree == tree))
			return &f->c.ch[i];
	return NULL;
}

TEST(a_port_shows_what_its_last_bpdu_said_per_tree)
{
	struct fx f;
	const struct trees_change *c;

	CHECK(fx_init(&f) == 0);
	say(&f, S(1), SW3, P2, AD, AD, DF);
	CHECK_INT(count(&f, TREES_PORT, -1), 3);
	CHECK_INT(now(&f, SW3, P2, 1)->role, PORT_ROLE_ALTERNATE);
	CHECK_INT(now(&f, SW3, P2, 1)->state, PORT_STATE_DISCARDING);
	CHECK_INT(now(&f, SW3, P2, 2)->state, PORT_STATE_FORWARDING);
	CHECK(!now(&f, SW3, P2, 1)->inferred);
	/* The same again changes nothing. */
	f.c.n = 0;
	say(&f, S(3), SW3, P2, AD, AD, DF);
	CHECK_INT(count(&f, TREES_PORT, -1), 0);
	say(&f, S(5), SW3, P2, AD, DF, DF);
	CHECK_INT(count(&f, TREES_PORT, -1), 1);
	c = find(&f, TREES_PORT, 1);
	CHECK(c && c->node == SW3 && c->port == P2 && c->link == 2);
	CHECK_INT(c->was.role, PORT_ROLE_ALTERNATE);
	CHECK_INT(c->now.role, PORT_ROLE_DESIGNATED);
	CHECK_INT(c->now.state, PORT_STATE_FORWARDING);
	fx_free(&f);
}

/* sw3 names p2 its root port after p1: p1 went quiet as an alternate.
 * Its peer need not have been heard. When p2's link fails, p1's own
 * word stands again: it is the root port. */
TEST(a_later_root_port_retires_the_earlier_one)
{
	struct fx f;
	const struct trees_change *c;

	CHECK(fx_init(&f) == 0);
	say(&f, S(1), SW3, P1, RF, RF, RF);
	f.c.n = 0;
	say(&f, S(2), SW3, P2, RF, AD, AD);
	c = find(&f, TREES_PORT, 0);
	CHECK(c && c->now.inferred);
	CHECK(c->node == SW3 && c->port == P1);
	CHECK_INT(c->now.role, PORT_ROLE_ALTERNATE);
	CHECK_INT(c->now.state, PORT_STATE_DISCARDING);
	/* Deductions first, then the port that spoke. */
	CHECK(f.c.ch[1].kind == TREES_PORT && f.c.ch[1].port == P2);
	CHECK_INT(now(&f, SW3, P1, 1)->role, PORT_ROLE_ROOT);
	event(&f, "3000000000 link-down link3 carrier");
	CHECK_INT(now(&f, SW3, P1, 0)->role, PORT_ROLE_ROOT);
	CHECK(!now(&f, SW3, P1, 0)->inferred);
	CHECK(now(&f, SW3, P2, 0)->down);
	fx_free(&f);
}

/* sw1 is the root, its ports designated; sw2 and sw3 say nothing. sw2's
 * only port facing a designated port is its root port; sw3 has two such
 * ports and no root port heard: it cannot be told. Once sw3 names p2 its
 * root port, p1 (facing sw2:p2, designated) is an alternate. */
TEST(silent_ports_facing_a_designated_port_are_deduced)
{
	struct fx f;

	CHECK(fx_init(&f) == 0);
	say(&f, S(1), SW1, P1, DF, DF, DF);
	say(&f, S(1), SW1, P2, DF, DF, DF);
	say(&f, S(1), SW2, P2, DF, DF, DF);
	CHECK_INT(now(&f, SW2, P1, 0)->role, PORT_ROLE_ROOT);
	CHECK_INT(now(&f, SW2, P1, 0)->state, PORT_STATE_FORWARDING);
	CHECK(now(&f, SW2, P1, 0)->inferred);
	CHECK_INT(now(&f, SW3, P1, 0)->role, PORT_ROLE_SILENT);
	CHECK_INT(now(&f, SW3, P2, 0)->role, PORT_ROLE_SILENT);
	/* The root bridge's silent ports are not deduced: sw1:p3 does not
	 * exist, and the host's port never is. */
	CHECK_INT(now(&f, H1, 0, 0)->role, PORT_ROLE_SILENT);
	say(&f, S(2), SW3, P2, RF, RF, RF);
	CHECK_INT(now(&f, SW3, P1, 2)->role, PORT_ROLE_ALTERNATE);
	CHECK_INT(now(&f, SW3, P1, 2)->state, PORT_STATE_DISCARDING);
	CHECK(now(&f, SW3, P1, 2)->inferred);
	CHECK(!port_blocked(now(&f, SW3, P2, 2)->role,
			    now(&f, SW3, P2, 2)->state, false));
	fx_free(&f);
}

/* Each bridge votes once, with its newest word: sw1 names itself; sw2's
 * quiet root port still names sw1 but its designated port, newer, names
 * sw2; sw3's newest names sw2. */
TEST(the_root_is_what_most_bridges_name_now)
{
	struct fx f;
	const struct tree_view *v;

	CHECK(fx_init(&f) == 0);
	say_root(&f, S(1), SW1, P1, SW1, DF, DF, DF);
	say_root(&f, S(1), SW2, P1, SW1, RF, RF, RF);
	say_root(&f, S(1), SW3, P1, SW1, RF, RF, RF);
	CHECK_INT(trees_now(&f.live, 0)->root_node, SW1);
	f.c.n = 0;
	say_root(&f, S(2), SW2, P2, SW2, DF, DF, DF);
	/* 1:1 (sw3 still names sw1): the better id, sw1's. */
	CHECK_INT(trees_now(&f.live, 0)->root_node, SW1);
	CHECK_INT(count(&f, TREES_ROOT, -1), 0);
	say_root(&f, S(3), SW3, P1, SW2, RF, RF, RF);
	v = trees_now(&f.live, 0);
	CHECK_INT(v->root_node, SW2);
	CHECK(v->root_by_node == SW3 && v->root_by_port == P1);
	CHECK_INT(count(&f, TREES_ROOT, 0), 1);
	CHECK_INT(find(&f, TREES_ROOT, 0)->was_root_node, SW1);
	fx_free(&f);
}

/* A failed link's ends are down and count for nothing: with sw1-sw2
 * down and sw2 alone on it, no port that is up names a root (no stale
 * root); restored, both ends are silent until they speak again. */
TEST(a_failed_link_takes_its_ends_words_with_it)
{
	struct fx f;
	const struct trees_change *c;

	CHECK(fx_init(&f) == 0);
	say(&f, S(1), SW1, P1, DF, DF, DF);
	say(&f, S(1), SW2, P1, RF, RF, RF);
	CHECK_INT(trees_now(&f.live, 0)->root_node, SW1);
	f.c.n = 0;
	event(&f, "2000000000 link-down link1 silent");
	CHECK_INT(f.c.ch[0].kind, TREES_LINK);
	CHECK(!f.c.ch[0].on && f.c.ch[0].link == 0);
	CHECK_INT(f.c.ch[0].event->mode, TOPO_FAIL_SILENT);
	CHECK(now(&f, SW1, P1, 0)->down && now(&f, SW2, P1, 1)->down);
	CHECK_INT(tree_port_state(now(&f, SW2, P1, 1)), PORT_STATE_DOWN);
	/* What they said stays, as history. */
	CHECK_INT(now(&f, SW2, P1, 1)->role, PORT_ROLE_ROOT);
	CHECK_INT(trees_now(&f.live, 0)->root_node, -1);
	c = find(&f, TREES_ROOT, 0);
	CHECK(c && c->was_root_node == SW1 && c->root_node == -1);
	/* A port that is down shows no change of its own. */
	CHECK_INT(count(&f, TREES_PORT, -1), 0);
	/* A BPDU captured after the failure is history too. */
	say(&f, S(3), SW2, P1, DF, DF, DF);
	CHECK_INT(trees_now(&f.live, 0)->root_node, -1);
	event(&f, "4000000000 link-up link1");
	CHECK_INT(now(&f, SW2, P1, 0)->role, PORT_ROLE_SILENT);
	CHECK(!now(&f, SW2, P1, 0)->down && !now(&f, SW2, P1, 0)->last_ns);
	CHECK_INT(trees_now(&f.live, 0)->root_node, -1);
	say(&f, S(5), SW1, P1, DF, DF, DF);
	CHECK_INT(trees_now(&f.live, 0)->root_node, SW1);
	/* sw2:p1 faces a designated port again: its root port, deduced. */
	CHECK_INT(now(&f, SW2, P1, 0)->role, PORT_ROLE_ROOT);
	CHECK(now(&f, SW2, P1, 0)->inferred);
	/* Other lines pass through; unknown links are lab lines. */
	f.c.n = 0;
	event(&f, "6000000000 step 2 fail sw1:p1");
	event(&f, "7000000000 link-down link99 carrier");
	CHECK_INT(f.c.n, 2);
	CHECK(f.c.ch[0].kind == TREES_LAB && f.c.ch[1].kind == TREES_LAB);
	CHECK_STR(f.c.ch[0].event->word, "step");
	fx_free(&f);
}

TEST(tc_lasts_until_the_next_bpdu_or_two_hellos_of_silence)
{
	struct fx f;
	const struct trees_change *c;

	CHECK(fx_init(&f) == 0);
	say(&f, S(1), SW2, P2, DF, DF, DF);
	f.c.n = 0;
	say(&f, S(2), SW2, P2, DF, DF, DF_TC);
	CHECK_INT(count(&f, TREES_TC, -1), 1);
	c = find(&f, TREES_TC, 2);
	CHECK(c && c->on && c->node == SW2 && c->port == P2);
	CHECK(trees_now(&f.live, 2)->tc && !trees_now(&f.live, 1)->tc);
	say(&f, S(4), SW2, P2, DF, DF, DF);
	CHECK_INT(count(&f, TREES_TC, 2), 2);
	CHECK(!trees_now(&f.live, 2)->tc);
	/* A root port says TC once and falls silent: held two hello times
	 * (4 s), then cleared by the clock. */
	f.c.n = 0;
	say(&f, S(10), SW3, P1, RF, RF_TC, RF);
	CHECK(trees_now(&f.live, 1)->tc);
	trees_tick(&f.live, S(14));
	CHECK(trees_now(&f.live, 1)->tc);
	trees_tick(&f.live, S(14) + 1);
	CHECK(!trees_now(&f.live, 1)->tc);
	CHECK(!f.c.ch[f.c.n - 1].on && f.c.ch[f.c.n - 1].ns == S(14) + 1);
	/* A port that goes down says nothing more: its TC ends with its
	 * link, told at the link's first end. */
	say(&f, S(20), SW3, P1, RF, RF, RF_TC);
	CHECK(trees_now(&f.live, 2)->tc);
	event(&f, "20500000000 link-down link2 carrier");
	CHECK(!trees_now(&f.live, 2)->tc);
	c = &f.c.ch[f.c.n - 1];
	CHECK(c->kind == TREES_TC && !c->on && c->node == SW2 && c->port == P2);
	fx_free(&f);
}

/* An STP bridge's BPDUs: a configuration BPDU carries no role and no
 * state (it is not blocked for saying nothing), a TCN sets CIST TC. */
TEST(stp_bpdus_carry_no_role_and_a_tcn_sets_cist_tc)
{
	uint8_t buf[BPDU_FRAME_MAX_LEN];
	struct bpdu b;
	struct fx f;
	size_t len = 0;

	CHECK(fx_init(&f) == 0);
	bpdu_init(&b, BPDU_TYPE_CONFIG);
	memcpy(b.root_id.mac, f.p->nodes[SW1].bridge_mac, 6);
	memcpy(b.bridge_id.mac, f.p->nodes[SW2].bridge_mac, 6);
	b.max_age = 20 * 256;
	b.hello_time = 2 * 256;
	b.forward_delay = 15 * 256;
	CHECK(bpdu_frame_encode(f.p->nodes[SW2].nic[P2].mac, &b, buf,
				sizeof(buf), &len) == BPDU_OK);
	frame(&f, S(1), 1, buf, len);
	CHECK_INT(now(&f, SW2, P2, 0)->role, PORT_ROLE_NONE);
	CHECK_INT(now(&f, SW2, P2, 0)->state, PORT_STATE_UNKNOWN);
	CHECK(!port_blocked(PORT_ROLE_NONE, PORT_STATE_UNKNOWN, false));
	CHECK(!trees_now(&f.live, 0)->tc);
	bpdu_init(&b, BPDU_TYPE_TCN);
	CHECK(bpdu_frame_encode(f.p->nodes[SW2].nic[P2].mac, &b, buf,
				sizeof(buf), &len) == BPDU_OK);
	frame(&f, S(2), 1, buf, len);
	CHECK(trees_now(&f.live, 0)->tc && now(&f, SW2, P2, 0)->tc);
	CHECK_INT(now(&f, SW2, P2, 0)->role, PORT_ROLE_NONE);
	trees_tick(&f.live, S(7));
	CHECK(!trees_now(&f.live, 0)->tc);
	fx_free(&f);
}

/* DSA user ports send with the switch's address: a BPDU from an
 * unplanned MAC is the link's end whose bridge its bridge id names;
 * one naming neither end is a stranger, said once; garbage to the group
 * address is a bad BPDU with the codec's reason. */
TEST(senders_are_placed_by_mac_or_bridge_id_and_strangers_said_once)
{
	uint8_t buf[BPDU_FRAME_MAX_LEN], bad[64] = { 0 };
	const struct fx_adv adv[3] = { DF, AD, DF };
	struct fx f;
	size_t len;

	CHECK(fx_init(&f) == 0);
	len = fx_mst_bpdu(f.p, SW3, P2, SW1, (const int[2]){ SW1, SW1 }, adv,
			  buf, sizeof(buf));
	memcpy(buf + 6, "\x4e\x06\xf8\x90\xe1\xe6", 6);
	frame(&f, S(1), 2, buf, len);
	CHECK_INT(now(&f, SW3, P2, 1)->role, PORT_ROLE_ALTERNATE);
	f.c.n = 0;
	frame(&f, S(2), 0, buf, len);	/* sw3 is no end of link1 */
	frame(&f, S(3), 0, buf, len);
	CHECK_INT(f.c.n, 1);
	CHECK_INT(f.c.ch[0].kind, TREES_UNKNOWN_SENDER);
	CHECK_INT(f.live.unknown, 2);
	memcpy(bad, bpdu_group_addr, 6);
	memcpy(bad + 6, f.p->nodes[SW2].nic[P1].mac, 6);
	memcpy(bad + 12, "\x00\x26\x42\x42\x03\x00\x01\x00\x00", 9);
	frame(&f, S(4), 0, bad, sizeof(bad));
	CHECK_INT(f.c.ch[f.c.n - 1].kind, TREES_BAD_BPDU);
	CHECK_STR(f.c.ch[f.c.n - 1].error, bpdu_strerror(BPDU_ERR_PROTOCOL_ID));
	CHECK(f.c.ch[f.c.n - 1].node == SW2 && f.c.ch[f.c.n - 1].port == P1);
	CHECK(f.live.bad == 1 && f.keep.bad == 1);
	CHECK_INT(f.keep.bpdus, 3);
	fx_free(&f);
}

/* Two ways in, one answer: after every input, the live trees equal the
 * history's view at that instant, for every tree and port. */
static bool same_view(const struct tree_view *a, const struct tree_view *b,
		      const struct topo *t, char *why, size_t len)
{
	if (a->root != b->root || a->root_node != b->root_node ||
	    a->tc != b->tc) {
		snprintf(why, len, "root %d/%d tc %d/%d", a->root_node,
			 b->root_node, a->tc, b->tc);
		return false;
	}
	for (size_t i = 0; i < t->n_nodes; i++)
		for (size_t j = 0; j < t->nodes[i].n_ports; j++) {
			const struct tree_port *x = tree_view_port(a, (int)i,
								   (int)j),
					       *y = tree_view_port(b, (int)i,
								   (int)j);

			if (memcmp(x, y, sizeof(*x))) {
				snprintf(why, len, "%s:%s role %u/%u state "
					 "%u/%u down %d/%d",
					 t->nodes[i].name,
					 t->nodes[i].ports[j].name, x->role,
					 y->role, x->state, y->state, x->down,
					 y->down);
				return false;
			}
		}
	return true;
}

static bool agree(struct fx *f, int64_t ns, char *why, size_t len)
{
	struct tree_view v;
	bool ok = true;

	if (tree_view_alloc(&f->keep, &v))
		return false;
	trees_seal(&f->keep);
	trees_tick(&f->live, ns);
	for (int s = 0; ok && s < (int)f->live.ntrees; s++) {
		trees_view_at(&f->keep, s, ns, &v);
		ok = same_view(trees_now(&f->live, s), &v, f->t, why, len);
	}
	tree_view_free(&v);
	return ok;
}

/* A test's end: live and history agree at ns (it fails if not). */
static void agree_and_free(struct fx *f, int64_t ns)
{
	char why[160] = "";

	if (!agree(f, ns, why, sizeof(why)))
		unit_fail(__FILE__, __LINE__, "live and history differ: %s", why);
	fx_free(f);
}

/* sw1 and sw2, designated, towards sw3 (at 1 s). */
static void towards_sw3(struct fx *f)
{
	say(f, S(1), SW1, P2, DF, DF, DF);
	say(f, S(1), SW2, P2, DF, DF, DF);
}

/*
 * Issue 27: sw3 sits in another region. At boot it names p1 (to sw2)
 * its root port, master in the MSTIs; 5 ms later p2 (to sw1), and p1
 * goes quiet as an alternate. The CIST retires p1's root role; at a
 * boundary port the MSTIs follow the CIST (802.1Q-2018 13.13), so p1's
 * master role does not outlive it.
 */
TEST(at_a_boundary_port_the_mstis_follow_the_cist)
{
	struct fx f;

	CHECK(fx_init(&f) == 0);
	towards_sw3(&f);
	say_as(&f, S(1) + 200000000, SW3, P1, SW1, &OTHER, RF, MF, MF);
	say_as(&f, S(1) + 205000000, SW3, P2, SW1, &OTHER, RF, MF, MF);
	CHECK_INT(now(&f, SW3, P1, 0)->role, PORT_ROLE_ALTERNATE);
	for (int tree = 1; tree <= 2; tree++) {
		const struct tree_port *p1 = now(&f, SW3, P1, tree),
				       *p2 = now(&f, SW3, P2, tree);

		CHECK_INT(p1->role, PORT_ROLE_ALTERNATE);
		CHECK_INT(p1->state, PORT_STATE_DISCARDING);
		CHECK(p1->inferred);
		CHECK(port_blocked(p1->role, p1->state, p1->down));
		CHECK_INT(p2->role, PORT_ROLE_MASTER);
		CHECK(!p2->inferred);
		/* sw2's MSTI message says what its CIST role says. */
		CHECK_INT(now(&f, SW2, P2, tree)->role, PORT_ROLE_DESIGNATED);
		CHECK(!now(&f, SW2, P2, tree)->inferred);
	}
	/* sw2 falls back to RST on p2: its MSTI messages are history, and
	 * its MSTIs show its CIST role there, deduced. */
	say_as(&f, S(2), SW2, P2, SW1, &RST, AD, DF, DF);
	CHECK_INT(now(&f, SW2, P2, 1)->role, PORT_ROLE_ALTERNATE);
	CHECK_INT(now(&f, SW2, P2, 1)->state, PORT_STATE_DISCARDING);
	CHECK(now(&f, SW2, P2, 1)->inferred);
	CHECK(!now(&f, SW2, P2, 0)->inferred);
	agree_and_free(&f, S(3));
}

/* sw3 named p2 its root port after p1 in every tree, then sent a BPDU
 * without MSTI 2's message: in MSTI 2, p2's root role is void (it has
 * not said it since), so p1's stands and p2 is the alternate. */
TEST(a_word_its_own_later_bpdu_leaves_out_is_void)
{
	struct fx f;

	CHECK(fx_init(&f) == 0);
	towards_sw3(&f);
	say(&f, S(2), SW3, P1, RF, RF, RF);
	say(&f, S(3), SW3, P2, RF, RF, RF);
	CHECK_INT(now(&f, SW3, P1, 2)->role, PORT_ROLE_ALTERNATE);
	say_as(&f, S(4), SW3, P2, SW1, &NO_MSTI2, RF, RF, AD);
	CHECK_INT(now(&f, SW3, P2, 1)->role, PORT_ROLE_ROOT);
	CHECK_INT(now(&f, SW3, P1, 1)->role, PORT_ROLE_ALTERNATE);
	CHECK_INT(now(&f, SW3, P1, 2)->role, PORT_ROLE_ROOT);
	CHECK(!now(&f, SW3, P1, 2)->inferred);
	CHECK_INT(now(&f, SW3, P2, 2)->role, PORT_ROLE_ALTERNATE);
	CHECK(now(&f, SW3, P2, 2)->inferred);
	agree_and_free(&f, S(5));
}

/*
 * sw3 at boot: p2 its root port (towards sw1, the root), then p1 on
 * what sw2 said at boot (sw2 the root). sw2 learns of sw1 and says so:
 * p1's root role stood on what sw2 no longer says, so it is void, and
 * p1, facing a designated port on a bridge whose root port is p2, is
 * the alternate. Once sw2 calls p2 its root port, sw3:p1 faces no
 * designated port: nothing can be told of it.
 */
TEST(a_role_the_peers_later_word_contradicts_is_void)
{
	struct fx f;

	CHECK(fx_init(&f) == 0);
	say(&f, S(1), SW1, P2, DF, DF, DF);
	say_root(&f, S(1), SW2, P2, SW2, DF, DF, DF);
	say(&f, S(2), SW3, P2, RF, RF, RF);
	say_root(&f, S(2) + 1000000, SW3, P1, SW2, RF, RF, RF);
	/* As far as the wire has told yet. */
	CHECK_INT(now(&f, SW3, P1, 0)->role, PORT_ROLE_ROOT);
	CHECK_INT(now(&f, SW3, P2, 0)->role, PORT_ROLE_ALTERNATE);
	say(&f, S(3), SW2, P2, DF, DF, DF);
	for (int tree = 0; tree <= 2; tree++) {
		CHECK_INT(now(&f, SW3, P1, tree)->role, PORT_ROLE_ALTERNATE);
		CHECK(now(&f, SW3, P1, tree)->inferred);
		CHECK_INT(now(&f, SW3, P2, tree)->role, PORT_ROLE_ROOT);
		CHECK(!now(&f, SW3, P2, tree)->inferred);
	}
	say(&f, S(4), SW2, P2, RF, RF, RF);
	CHECK_INT(now(&f, SW3, P1, 0)->role, PORT_ROLE_SILENT);
	CHECK(!port_blocked(now(&f, SW3, P1, 0)->role,
			    now(&f, SW3, P1, 0)->state, false));
	agree_and_free(&f, S(5));
}

TEST(live_and_history_agree_at_every_instant)
{
	static const struct fx_adv pick[] = { { BPDU_ROLE_DESIGNATED, true, false },
					      { BPDU_ROLE_DESIGNATED, false, true },
					      { BPDU_ROLE_ROOT, true, false },
					      { BPDU_ROLE_ROOT, true, true },
					      { BPDU_ROLE_ALT_BACKUP, false, false },
					      { BPDU_ROLE_MASTER, true, false } };
	/* Mostly one region; now and then another, RST, or no MSTI 2. */
	static const struct fx_bpdu_kind *const kinds[] = {
		NULL, NULL, NULL, NULL, NULL, &OTHER, &RST, &NO_MSTI2,
	};
	static const char *const links[] = {
		"link-down link1 carrier", "link-up link1",
		"link-down link3 silent", "link-up link3",
	};
	struct fx f;
	char why[160] = "", line[64];
	unsigned seed = 7;

	CHECK(fx_init(&f) == 0);
	f.live.emit = NULL;
	for (int k = 0; k < 400 && !*why; k++) {
		int64_t ns = S(1) + (int64_t)k * 300000000LL;
		unsigned r = seed = seed * 1103515245u + 12345u;

		/* A BPDU, an event, or both at one instant (the BPDU was
		 * captured first). An event takes effect just after. */
		if (r % 9) {
			say_as(&f, ns, (int)(r >> 16) % 3, (int)(r >> 8) % 2,
			       (int)(r >> 20) % 3, kinds[(r >> 24) % 8],
			       pick[(r >> 3) % 6], pick[(r >> 6) % 6],
			       pick[(r >> 9) % 6]);
			if (!agree(&f, ns, why, sizeof(why)))
				break;
		}
		if (r % 9 > 6)
			continue;
		snprintf(line, sizeof(line), "%lld %s", (long long)ns,
			 links[(r >> 12) % 4]);
		event(&f, line);
		agree(&f, ns + 1, why, sizeof(why));
	}
	if (*why)
		unit_fail(__FILE__, __LINE__, "live and history differ: %s", why);
	fx_free(&f);
}

/*
 * Recorded runs (pcap + events folders, results/<run>) named in
 * MSTLAB_RUNS, colon-separated: live and history agree over each, as
 * over every fixture run (fx_run_done).
 */
TEST(recorded_runs_agree_live_and_as_history)
{
	const char *env = getenv("MSTLAB_RUNS");
	char *list, *dir, *save = NULL, why[600];
	unsigned n = 0;

	if (!env || !*env)
		SKIP("no MSTLAB_RUNS=DIR[:DIR...] (the fixture runs are "
		     "checked where they are made)");
	list = strdup(env);
	CHECK(list != NULL);
	for (dir = strtok_r(list, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save), n++)
		if (fx_trees_agree(dir, why, sizeof(why)))
			unit_fail(__FILE__, __LINE__, "%s: %s", dir, why);
	printf("# %u recorded runs\n", n);
	free(list);
}
