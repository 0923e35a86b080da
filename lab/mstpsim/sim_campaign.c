// SPDX-License-Identifier: MIT
/*
 * Random meshes for the loop campaigns: 3..8 bridges on a ring plus
 * random extra (even parallel) links, random bridge and port priorities
 * and path costs per tree.  CAMPAIGN_REGIONS puts the MSTP bridges in two
 * or three regions that map VLANs differently (or only differ in
 * revision) and makes about one bridge in four an RSTP or STP bridge.
 */
#include "sim_campaign.h"

#include <stdio.h>
#include <string.h>

#define MAX_SECS	8192	/* a run's seconds, for the loop figures */

struct campaign {
	struct sim *sim;
	uint64_t rng;
	unsigned int nports[SIM_MAX_BRIDGES];
	bool verbose;
	uint8_t loop_sec[MAX_SECS];
	struct campaign_result *r;
};

static unsigned int rnd(struct campaign *c, unsigned int n)
{
	return sim_rnd(&c->rng, n);
}

static const char *const names[] = {
	[CAMPAIGN_REGION] = "region",
	[CAMPAIGN_REGIONS] = "regions",
	[CAMPAIGN_TIMING] = "timing",
};

const char *campaign_name(enum campaign_kind kind)
{
	return names[kind];
}

int campaign_kind(const char *name)
{
	for (unsigned int k = 0; k < sizeof(names) / sizeof(*names); k++)
		if (!strcmp(name, names[k]))
			return (int)k;
	return -1;
}

/*
 * The regions: 0 maps VLAN 10 to MSTI 1 and 20 to MSTI 2; 1 the other
 * way round (and 30 to MSTI 2); 2 as 0 but revision 2, 3 as 1 but
 * revision 2, 4 as 0 but revision 3.  A bridge of region -1 is not MSTP
 * (its force version says which).
 */
static void region_config(struct mstp_bridge_config *cfg,
			  struct mst_vid_table *vids, unsigned int b,
			  int region)
{
	static const uint16_t mstids[] = { 1, 2 };

	memset(vids, 0, sizeof(*vids));
	if (region < 0) {
		sim_config(cfg, b, SIM_MAX_PORTS, NULL, 0, vids);
		return;
	}
	vids->mstid[10] = region % 2 ? 2 : 1;
	vids->mstid[20] = region % 2 ? 1 : 2;
	if (region % 2)
		vids->mstid[30] = 2;
	sim_config(cfg, b, SIM_MAX_PORTS, mstids, 2, vids);
	if (region >= 2)
		mst_config_id_init(&cfg->mcid, "lab", (uint16_t)(1 + region / 2),
				   vids);
}

static bool randomise(struct campaign *c, unsigned int b)
{
	struct mstp_bridge *br = c->sim->br[b];

	for (unsigned int t = 0; t < mstp_ntrees(br); t++) {
		if (mstp_set_bridge_priority(br, t,
					     (uint16_t)(4096 * (4 + rnd(c, 8)))))
			return false;
		for (unsigned int p = 0; p < SIM_MAX_PORTS; p++)
			if (mstp_set_port_priority(br, p, t,
						   (uint8_t)(64 * (1 + rnd(c, 3)))) ||
			    mstp_set_port_path_cost(br, p, t,
						    10000 * (1 + rnd(c, 3))))
				return false;
	}
	for (unsigned int p = 0; p < SIM_MAX_PORTS; p++)
		if (mstp_set_port_ext_path_cost(br, p, 10000 * (1 + rnd(c, 3))))
			return false;
	return true;
}

static void describe(struct campaign *c, unsigned int b, int region,
		     enum mstp_force_version v)
{
	struct campaign_result *r = c->r;
	size_t n = strlen(r->mesh);

	if (region >= 0)
		snprintf(r->mesh + n, sizeof(r->mesh) - n, " B%u:r%d", b, region);
	else
		snprintf(r->mesh + n, sizeof(r->mesh) - n, " B%u:%s", b,
			 v == MSTP_FORCE_STP ? "stp" : "rstp");
}

static bool add_bridges(struct campaign *c, enum campaign_kind kind,
			unsigned int n)
{
	unsigned int nregions = kind == CAMPAIGN_REGION ? 1 :
				kind == CAMPAIGN_REGIONS ? 2 + rnd(c, 2) :
				1 + rnd(c, CAMPAIGN_MAX_REGIONS);
	bool used[CAMPAIGN_MAX_REGIONS] = { false };

	for (unsigned int b = 0; b < n; b++) {
		struct mstp_bridge_config cfg;
		struct mst_vid_table vids;
		enum mstp_force_version v = MSTP_FORCE_MSTP;
		int region = (int)rnd(c, nregions);
		unsigned int kindof = kind == CAMPAIGN_REGION ? 7 : rnd(c, 8);

		/* Bridges 0 and 1 make sure of two regions. */
		if (kind == CAMPAIGN_REGIONS && b < 2)
			region = (int)b, kindof = 7;
		if (kindof < 2) {
			region = -1;
			v = kindof ? MSTP_FORCE_RSTP : MSTP_FORCE_STP;
		}
		region_config(&cfg, &vids, b, region);
		cfg.force_version = v;
		cfg.log_level = c->verbose ? MSTP_LOG_DEBUG : MSTP_LOG_ERR;
		if (!sim_add_bridge(c->sim, &cfg, &vids) || !randomise(c, b))
			return false;
		if (region >= 0 && !used[region]) {
			used[region] = true;
			c->r->regions++;
		}
		c->r->rstp += v == MSTP_FORCE_RSTP;
		c->r->stp += v == MSTP_FORCE_STP;
		c->r->region[b] = region;
		describe(c, b, region, v);
	}
	return true;
}

static void connect(struct campaign *c, unsigned int a, unsigned int b)
{
	struct campaign_result *r = c->r;
	size_t n = strlen(r->mesh);

	snprintf(r->mesh + n, sizeof(r->mesh) - n, " B%u.p%u-B%u.p%u", a,
		 c->nports[a], b, c->nports[b]);
	sim_connect(c->sim, a, c->nports[a]++, b, c->nports[b]++);
}

/* A ring for connectivity plus up to n random extra links. */
static void add_links(struct campaign *c, unsigned int n)
{
	strncat(c->r->mesh, ";", sizeof(c->r->mesh) - strlen(c->r->mesh) - 1);
	for (unsigned int b = 0; b < n; b++)
		connect(c, b, (b + 1) % n);
	for (unsigned int k = rnd(c, n + 1); k > 0; k--) {
		unsigned int a = rnd(c, n), b = rnd(c, n);

		if (a == b || c->nports[a] >= SIM_MAX_PORTS ||
		    c->nports[b] >= SIM_MAX_PORTS ||
		    c->sim->nlinks >= SIM_MAX_LINKS)
			continue;
		connect(c, a, b);
	}
}

static void found_loop(struct sim *sim, const char *msg)
{
	struct campaign *c = sim->check.ctx;
	unsigned long s = sim->now_ms / 1000;

	if (s < MAX_SECS)
		c->loop_sec[s] = 1;
	if (c->verbose)
		printf("# LOOP %s\n", msg);
}

/*
 * Advances until no port state changed for a forward delay and two
 * seconds (timers that run out later, rrWhile or fdWhile, move ports
 * within that), at most 200 s.
 */
void campaign_settle(struct sim *sim)
{
	unsigned int quiet = 0, secs = 0;

	sim_deliver(sim, ~0ul);
	while (quiet < MSTP_DEF_FWD_DELAY + 2 && secs < 200) {
		unsigned long before = sim->state_changes;

		sim_advance(sim, 1);
		secs++;
		quiet = sim->state_changes == before ? quiet + 1 : 0;
	}
}

static void figures(struct campaign *c)
{
	struct campaign_result *r = c->r;
	struct sim *sim = c->sim;
	unsigned int run = 0;

	r->bpdus = sim->delivered;
	r->checks = sim->check.runs;
	r->violations = sim->check.violations;
	memcpy(r->first, sim->check.first, sizeof(r->first));
	for (unsigned int s = 0; s < MAX_SECS; s++) {
		run = c->loop_sec[s] ? run + 1 : 0;
		r->loop_secs += c->loop_sec[s];
		if (run > r->loop_run_secs)
			r->loop_run_secs = run;
	}
	for (unsigned int b = 0; b < sim->nbridges; b++)
		r->overflows += mstp_run_overflows(sim->br[b]);
}

bool campaign_region_config(struct mstp_bridge_config *cfg,
			    struct mst_vid_table *vids, unsigned int b,
			    int region)
{
	if (region < 0 || region >= CAMPAIGN_MAX_REGIONS)
		return false;
	region_config(cfg, vids, b, region);
	return true;
}

uint64_t campaign_rng(uint64_t seed)
{
	return seed * 0x9e3779b97f4a7c15ull + 1;
}

bool campaign_build(struct sim *sim, enum campaign_kind kind, uint64_t *rng,
		    bool verbose, struct campaign_result *r)
{
	static struct campaign c;
	unsigned int n;

	memset(&c, 0, sizeof(c));
	c = (struct campaign){ .sim = sim, .verbose = verbose, .r = r,
			       .rng = *rng };
	sim_reset(sim);
	sim->verbose = verbose;
	n = 3 + rnd(&c, 6);
	snprintf(r->mesh, sizeof(r->mesh), "%u bridges:", n);
	if (!add_bridges(&c, kind, n)) {
		snprintf(r->first, sizeof(r->first), "cannot build the mesh");
		sim_free(sim);
		return false;
	}
	add_links(&c, n);
	r->bridges = n;
	r->links = sim->nlinks;
	*rng = c.rng;
	return true;
}

bool campaign_run(struct sim *sim, enum campaign_kind kind, uint64_t seed,
		  bool verbose, struct campaign_result *r)
{
	static struct campaign c;
	uint64_t rng = campaign_rng(seed);

	memset(r, 0, sizeof(*r));
	if (!campaign_build(sim, kind, &rng, verbose, r))
		return false;
	memset(&c, 0, sizeof(c));
	c = (struct campaign){ .sim = sim, .verbose = verbose, .r = r,
			       .rng = rng };
	sim->check.report = found_loop;
	sim->check.ctx = &c;
	sim_all_up(sim);
	campaign_settle(sim);
	for (unsigned int l = 0; l < sim->nlinks; l++) {
		sim_link_set(sim, l, false);
		campaign_settle(sim);
		sim_link_set(sim, l, true);
		campaign_settle(sim);
		r->link_events += 2;
	}
	figures(&c);
	sim_free(sim);
	return r->violations == 0 && r->overflows == 0;
}
