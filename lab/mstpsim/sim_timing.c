// SPDX-License-Identifier: MIT
/*
 * The timed campaign (sim_timing.h).  The model per seed: BPDU latency
 * 0-20 ms plus jitter 0-5 ms, each bridge's tick phase 0-1 s, and a
 * carrier skew 0-500 ms: each carrier change reaches one end of the link
 * (drawn) that long after the other; a failed bridge's neighbours each
 * see it up to that long after.  The steps, each followed by settling:
 * the master link of a region fails and comes back (the re-election
 * figures); every link fails and comes back; every link loses its BPDUs
 * one way, then the other, and heals; one bridge fails and boots; one
 * MSTP bridge moves to another region and back.
 */
#include "sim_timing.h"

#include <stdio.h>
#include <string.h>

#define STR_(x)		#x
#define STR(x)		STR_(x)
#define MAX_LATENCY_US	20000
#define MAX_JITTER_US	5000
#define MAX_SKEW_US	500000

struct timing {
	struct sim *sim;
	struct timing_result *r;
	uint64_t rng;
	bool verbose;
	char step[96];		/* what the campaign is doing */
	int oneway;		/* link losing BPDUs one way, or -1 */
	bool restored;
	uint64_t restored_us;	/* the last restore or heal */
	/* The loop episode under way. */
	unsigned long seen;	/* check.violations at the last check */
	bool looping;
	enum timing_class cls;
	uint64_t loop_from_us;
	char msg[512];		/* the last violation */
	/* Re-election: the region's bridges, the forwarding Master Ports
	 * (bit b * SIM_MAX_PORTS + p), those that started after the
	 * failure, and when the set last changed. */
	bool watching;
	unsigned int region;
	uint64_t masters, gained, since_us;
};

static const char *const class_names[TIMING_CLASSES] = {
	"a", "b", "c", "d",
};
static const char *const class_texts[TIMING_CLASSES] = {
	"no one-way loss in force",
	"one-way loss on a link to an STP bridge",
	"one-way loss between RSTP/MSTP peers",
	"within " STR(TIMING_RESTORE_WINDOW_S) " s after a restore or heal",
};

const char *timing_class_name(enum timing_class c)
{
	return class_names[c];
}

const char *timing_class_text(enum timing_class c)
{
	return class_texts[c];
}

static unsigned int rnd(struct timing *t, unsigned int n)
{
	return sim_rnd(&t->rng, n);
}

static bool is_stp(struct sim *sim, unsigned int b)
{
	return mstp_config(sim->br[b])->force_version == MSTP_FORCE_STP;
}

static enum timing_class classify(struct timing *t)
{
	struct sim *sim = t->sim;

	if (t->oneway >= 0) {
		const struct sim_link *k = &sim->links[t->oneway];

		return is_stp(sim, k->a) || is_stp(sim, k->b) ?
		       TIMING_ONEWAY_STP : TIMING_ONEWAY_PEERS;
	}
	if (t->restored && sim->model.now_us - t->restored_us <=
			   TIMING_RESTORE_WINDOW_S * 1000000ull)
		return TIMING_RESTORE;
	return TIMING_NO_ONEWAY;
}

static void loop_found(struct sim *sim, const char *msg)
{
	struct timing *t = sim->check.ctx;

	snprintf(t->msg, sizeof(t->msg), "%s", msg);
	if (t->verbose)
		printf("# LOOP (%s) %s\n", t->step, msg);
}

static void loop_ends(struct timing *t)
{
	struct timing_result *r = t->r;
	uint64_t us = t->sim->model.now_us - t->loop_from_us;

	t->looping = false;
	if (us > r->loop_us[t->cls])
		r->loop_us[t->cls] = us;
	if (t->verbose)
		printf("# loop of class %s ends after %llu us\n",
		       class_names[t->cls], (unsigned long long)us);
}

/* The forwarding Master Ports of MSTI 1 (tree 1) in the watched region,
 * on links whose medium is up. */
static uint64_t masters(struct sim *sim, unsigned int region)
{
	uint64_t m = 0;

	for (unsigned int l = 0; l < sim->nlinks; l++) {
		const struct sim_link *k = &sim->links[l];
		unsigned int ends[2][2] = { { k->a, k->pa }, { k->b, k->pb } };

		if (!k->up)
			continue;
		for (unsigned int e = 0; e < 2; e++) {
			unsigned int b = ends[e][0], p = ends[e][1];

			if (!(region & 1u << b) ||
			    sim->state[b][p][1] != MSTP_FORWARDING ||
			    sim_role(sim, b, p, 1) != MSTP_ROLE_MASTER)
				continue;
			m |= 1ull << (b * SIM_MAX_PORTS + p);
		}
	}
	return m;
}

static void watch_masters(struct timing *t)
{
	struct sim *sim = t->sim;
	struct timing_result *r = t->r;
	uint64_t m = masters(sim, t->region), now = sim->model.now_us;

	if (m == t->masters)
		return;
	if (__builtin_popcountll(t->masters) > 1)
		r->dual_master_us += now - t->since_us;
	r->master_flaps += __builtin_popcountll(t->masters & ~m & t->gained);
	t->gained |= m & ~t->masters;
	t->masters = m;
	t->since_us = now;
}

/* After every check: loop episodes begin and end, Master Ports move. */
static void observe(struct sim *sim)
{
	struct timing *t = sim->check.ctx;
	struct timing_result *r = t->r;
	bool loop = sim->check.violations != t->seen;

	t->seen = sim->check.violations;
	if (t->watching)
		watch_masters(t);
	if (t->looping && !loop)
		loop_ends(t);
	if (!loop || t->looping)
		return;
	t->looping = true;
	t->cls = classify(t);
	t->loop_from_us = sim->model.now_us;
	if (!r->loops[t->cls]++)
		snprintf(r->what[t->cls], sizeof(r->what[t->cls]),
			 "during %s: %s", t->step, t->msg);
}

static void step(struct timing *t, const char *fmt, unsigned int x,
		 unsigned int y)
{
	snprintf(t->step, sizeof(t->step), fmt, x, y);
	t->r->events++;
	if (t->verbose)
		printf("# [%llu ms] step: %s\n",
		       (unsigned long long)(t->sim->model.now_us / 1000),
		       t->step);
}

static void restored(struct timing *t)
{
	t->restored = true;
	t->restored_us = t->sim->model.now_us;
}

/* Link @l's medium fails or comes back; one end (drawn) sees it the
 * seed's skew after the other. */
static void link_skewed(struct timing *t, unsigned int l, bool up)
{
	unsigned int skew = t->r->skew_us;

	if (rnd(t, 2))
		sim_link_skewed(t->sim, l, up, 0, skew);
	else
		sim_link_skewed(t->sim, l, up, skew, 0);
	if (up)
		restored(t);
}

/* Settled after a heal, and at the latest TIMING_HEAL_S after it, every
 * VLAN must reach every bridge again (an STP bridge's ports may start
 * their forward delays late, after a quiet spell). */
static void healed(struct timing *t)
{
	struct sim *sim = t->sim;
	struct timing_result *r = t->r;
	uint64_t until = sim->model.now_us + TIMING_HEAL_S * 1000000ull;
	char msg[256];

	campaign_settle(sim);
	while (sim_check_connected(sim, NULL, 0) &&
	       sim->model.now_us < until)
		sim_advance(sim, 1);
	if (!sim_check_connected(sim, msg, sizeof(msg)))
		return;
	if (!r->partitions++)
		snprintf(r->partition, sizeof(r->partition), "after %s: %s",
			 t->step, msg);
	if (t->verbose)
		printf("# PARTITION after %s: %s\n", t->step, msg);
}

/* The bridges of @b's region: those reached over non-boundary links. */
static unsigned int region_of(struct sim *sim, unsigned int b)
{
	unsigned int m = 1u << b, before = 0;

	while (m != before) {
		before = m;
		for (unsigned int l = 0; l < sim->nlinks; l++) {
			const struct sim_link *k = &sim->links[l];

			if (sim_boundary(sim, k->a, k->b))
				continue;
			if (m & 1u << k->a)
				m |= 1u << k->b;
			if (m & 1u << k->b)
				m |= 1u << k->a;
		}
	}
	return m;
}

/* The first forwarding Master Port of MSTI 1: its link, or -1. */
static int master_link(struct sim *sim, unsigned int *region)
{
	for (unsigned int l = 0; l < sim->nlinks; l++) {
		const struct sim_link *k = &sim->links[l];
		unsigned int ends[2][2] = { { k->a, k->pa }, { k->b, k->pb } };

		for (unsigned int e = 0; e < 2; e++) {
			unsigned int b = ends[e][0], p = ends[e][1];

			if (!(masters(sim, 1u << b) &
			      1ull << (b * SIM_MAX_PORTS + p)))
				continue;
			*region = region_of(sim, b);
			return (int)l;
		}
	}
	return -1;
}

static void reelection(struct timing *t)
{
	struct sim *sim = t->sim;
	struct timing_result *r = t->r;
	int l = master_link(sim, &t->region);
	uint64_t t0;

	if (l < 0)
		return;
	step(t, "master link L%u fails", (unsigned int)l, 0);
	t->masters = masters(sim, t->region);
	t->gained = 0;
	t->watching = true;
	t0 = t->since_us = sim->model.now_us;
	link_skewed(t, (unsigned int)l, false);
	campaign_settle(sim);
	t->watching = false;
	if (t->masters) {
		r->reelected = true;
		r->reelect_us = t->since_us - t0;
	}
	step(t, "master link L%u back", (unsigned int)l, 0);
	link_skewed(t, (unsigned int)l, true);
	healed(t);
}

static void links(struct timing *t)
{
	for (unsigned int l = 0; l < t->sim->nlinks; l++) {
		step(t, "L%u fails", l, 0);
		link_skewed(t, l, false);
		campaign_settle(t->sim);
		step(t, "L%u back", l, 0);
		link_skewed(t, l, true);
		healed(t);
	}
}

static void oneway(struct timing *t)
{
	struct sim *sim = t->sim;

	for (unsigned int l = 0; l < sim->nlinks; l++) {
		struct sim_link *k = &sim->links[l];

		for (unsigned int dir = 0; dir < 2; dir++) {
			bool *drop = dir ? &k->drop_b_to_a : &k->drop_a_to_b;

			step(t, "L%u loses BPDUs from B%u", l, dir ? k->b : k->a);
			*drop = true;
			t->oneway = (int)l;
			campaign_settle(sim);
			step(t, "L%u heals (from B%u)", l, dir ? k->b : k->a);
			*drop = false;
			t->oneway = -1;
			restored(t);
			healed(t);
		}
	}
}

static void bridge(struct timing *t)
{
	unsigned int b = rnd(t, t->sim->nbridges);

	step(t, "B%u fails", b, 0);
	sim_bridge_fail(t->sim, b, t->r->skew_us);
	campaign_settle(t->sim);
	step(t, "B%u boots", b, 0);
	sim_bridge_restore(t->sim, b, t->r->skew_us);
	restored(t);
	healed(t);
}

/* Bridge @b joins region @region (its VID map, name and revision). */
static void move(struct timing *t, unsigned int b, int region)
{
	static const uint16_t mstids[] = { 1, 2 };
	struct mstp_bridge_config cfg;
	struct mst_vid_table vids;

	campaign_region_config(&cfg, &vids, b, region);
	sim_set_mstis(t->sim, b, mstids, 2, &vids, &cfg.mcid);
}

static void region_change(struct timing *t)
{
	struct sim *sim = t->sim;
	unsigned int b = rnd(t, sim->nbridges);
	int from = t->r->mesh.region[b], to;

	if (from < 0)
		return;
	to = (from + 1 + (int)rnd(t, CAMPAIGN_MAX_REGIONS - 1)) %
	     CAMPAIGN_MAX_REGIONS;
	step(t, "B%u moves to region %u", b, (unsigned int)to);
	move(t, b, to);
	campaign_settle(sim);
	step(t, "B%u back to region %u", b, (unsigned int)from);
	move(t, b, from);
	restored(t);
	healed(t);
}

static bool setup(struct timing *t, bool loop_guard)
{
	struct sim *sim = t->sim;
	struct sim_model *m = &sim->model;
	struct timing_result *r = t->r;

	r->latency_us = rnd(t, MAX_LATENCY_US + 1);
	r->jitter_us = rnd(t, MAX_JITTER_US + 1);
	r->skew_us = rnd(t, MAX_SKEW_US + 1);
	m->latency_us = r->latency_us;
	m->jitter_us = r->jitter_us;
	m->rng = t->rng ^ 0x2545f4914f6cdd1dull;
	for (unsigned int b = 0; b < sim->nbridges; b++)
		m->phase_us[b] = rnd(t, 1000000);
	sim_time_start(sim);
	for (unsigned int l = 0; loop_guard && l < sim->nlinks; l++) {
		const struct sim_link *k = &sim->links[l];

		if (mstp_set_loop_guard(sim->br[k->a], k->pa, true) ||
		    mstp_set_loop_guard(sim->br[k->b], k->pb, true))
			return false;
	}
	sim->check.report = loop_found;
	sim->check.observe = observe;
	sim->check.ctx = t;
	return true;
}

bool timing_run(struct sim *sim, uint64_t seed, bool loop_guard,
		bool verbose, struct timing_result *r)
{
	static struct timing t;
	uint64_t rng = campaign_rng(seed);
	struct campaign_result *mesh = &r->mesh;

	memset(r, 0, sizeof(*r));
	if (!campaign_build(sim, CAMPAIGN_TIMING, &rng, verbose, mesh))
		return false;
	memset(&t, 0, sizeof(t));
	t = (struct timing){ .sim = sim, .r = r, .rng = rng,
			     .verbose = verbose, .oneway = -1 };
	if (!setup(&t, loop_guard)) {
		snprintf(mesh->first, sizeof(mesh->first), "loop guard refused");
		sim_free(sim);
		return false;
	}
	if (verbose)
		printf("# mesh:%s\n# model: latency %u us, jitter %u us, "
		       "skew %u us\n", mesh->mesh, r->latency_us, r->jitter_us,
		       r->skew_us);
	step(&t, "every link up", 0, 0);
	for (unsigned int l = 0; l < sim->nlinks; l++)
		sim_link_skewed(sim, l, true, 0, 0);
	restored(&t);
	healed(&t);
	reelection(&t);
	links(&t);
	oneway(&t);
	bridge(&t);
	region_change(&t);
	if (t.looping)
		loop_ends(&t);
	mesh->bpdus = sim->delivered;
	mesh->checks = sim->check.runs;
	mesh->violations = sim->check.violations;
	memcpy(mesh->first, sim->check.first, sizeof(mesh->first));
	for (unsigned int b = 0; b < sim->nbridges; b++)
		mesh->overflows += mstp_run_overflows(sim->br[b]);
	sim_free(sim);
	return !mesh->violations && !r->partitions && !mesh->overflows;
}
