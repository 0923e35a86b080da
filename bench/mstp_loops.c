// SPDX-License-Identifier: MIT
/*
 * mstp-loop-bench: the loop campaigns of the MSTP simulator at scale.
 * Each seed draws a mesh (lab/mstpsim/sim_campaign.c), fails and
 * restores every link in turn, and the simulator checks after every
 * BPDU, tick and link change that no tree and no VLAN has a forwarding
 * loop.  Prints per campaign: seeds, link events, BPDUs (each checked),
 * checks, seeds with a loop; and for each such seed the command that
 * replays it.  `--campaign timing` runs the timed model instead
 * (bench/loops_timing.c).  Exit 1 if any loop was found.
 */
#include "loops_timing.h"
#include "sim_campaign.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct totals {
	unsigned long seeds, link_events, bpdus, checks, violations;
	unsigned long loop_seeds, loop_secs, overflows;
	unsigned int worst_run;
};

/* Prints the usage to @f and returns @rc, main()'s exit status. */
static int usage(FILE *f, int rc)
{
	fprintf(f,
		"usage: mstp-loop-bench [--campaign region|regions|timing|all]"
		" [--seeds N] [--first S]\n"
		"                       [--loop-guard off|on|both] "
		"[--progress N]\n"
		"                       [--fail-on CLASSES] [--list]\n"
		"       mstp-loop-bench --campaign NAME --seed S [--verbose]\n"
		"  --campaign   which meshes: one region, or 2-3 regions with "
		"RSTP/STP bridges\n"
		"               (all: both, the default); timing: 1-5 regions "
		"in the timed model\n"
		"  --seeds      seeds per campaign (default 10000)\n"
		"  --first      the first seed (default 1)\n"
		"  --loop-guard timing: without loop_guard, with it on every "
		"connected port,\n"
		"               or each seed both ways (default both)\n"
		"  --progress   timing: the figures so far every N seeds\n"
		"  --list       timing: a line of figures per seed (loops by "
		"class, re-election)\n"
		"  --fail-on    timing: the loop classes that fail the run, "
		"of a b c d\n"
		"               (default abcd; '-': none); a VLAN split after "
		"a heal always does\n"
		"  --seed       replay one seed; --verbose prints the bridges' "
		"logs and each loop\n");
	return rc;
}

static bool lg_mode(const char *s, enum lg_mode *lg)
{
	static const char *const names[] = { "off", "on", "both" };

	for (unsigned int i = 0; i < 3; i++)
		if (!strcmp(s, names[i])) {
			*lg = (enum lg_mode)(i + 1);
			return true;
		}
	return false;
}

/* "ad" -> bits 0 and 3; "-" -> none. */
static bool classes(const char *s, unsigned int *mask)
{
	*mask = 0;
	if (!strcmp(s, "-"))
		return true;
	for (; *s; s++) {
		if (*s < 'a' || *s > 'd')
			return false;
		*mask |= 1u << (*s - 'a');
	}
	return true;
}

static void add(struct totals *t, const struct campaign_result *r)
{
	t->seeds++;
	t->link_events += r->link_events;
	t->bpdus += r->bpdus;
	t->checks += r->checks;
	t->violations += r->violations;
	t->loop_seeds += r->violations > 0;
	t->loop_secs += r->loop_secs;
	t->overflows += r->overflows;
	if (r->loop_run_secs > t->worst_run)
		t->worst_run = r->loop_run_secs;
}

static void replay_hint(enum campaign_kind k, uint64_t seed,
			const struct campaign_result *r)
{
	printf("loop %s seed %llu: %lu violations over %u s (longest %u s), "
	       "%u overflows\n  mesh:%s\n  first: %s\n"
	       "  replay: build/bin/mstp-loop-bench --campaign %s --seed %llu "
	       "--verbose\n",
	       campaign_name(k), (unsigned long long)seed, r->violations,
	       r->loop_secs, r->loop_run_secs, (unsigned int)r->overflows,
	       r->mesh, r->first, campaign_name(k), (unsigned long long)seed);
}

static bool campaign(struct sim *sim, enum campaign_kind k, uint64_t first,
		     unsigned long seeds, bool verbose)
{
	struct totals t = { 0 };
	struct campaign_result r;
	clock_t t0 = clock();

	for (uint64_t s = first; s < first + seeds; s++) {
		if (!campaign_run(sim, k, s, verbose, &r))
			replay_hint(k, s, &r);
		add(&t, &r);
	}
	printf("campaign %s seeds %lu first %llu link_events %lu bpdus %lu "
	       "checks %lu loop_seeds %lu violations %lu loop_secs %lu "
	       "longest_loop_s %u overflows %lu cpu_s %.1f\n",
	       campaign_name(k), t.seeds, (unsigned long long)first,
	       t.link_events, t.bpdus, t.checks, t.loop_seeds, t.violations,
	       t.loop_secs, t.worst_run, t.overflows,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	fflush(stdout);
	return t.loop_seeds == 0 && t.overflows == 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "campaign", required_argument, NULL, 'c' },
		{ "seeds", required_argument, NULL, 'n' },
		{ "first", required_argument, NULL, 'f' },
		{ "seed", required_argument, NULL, 's' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "loop-guard", required_argument, NULL, 'g' },
		{ "progress", required_argument, NULL, 'p' },
		{ "fail-on", required_argument, NULL, 'F' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	static struct sim sim;
	unsigned long seeds = 10000;
	uint64_t first = 1;
	int kind = -1, opt;
	struct timing_options to = { .lg = LG_BOTH, .fail_on = 0xf };
	bool one = false, verbose = false, ok = true;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			kind = strcmp(optarg, "all") ? campaign_kind(optarg) : -1;
			if (strcmp(optarg, "all") && kind < 0)
				return usage(stderr, 2);
			break;
		case 'n':
			seeds = strtoul(optarg, NULL, 0);
			break;
		case 'f':
			first = strtoull(optarg, NULL, 0);
			break;
		case 's':
			first = strtoull(optarg, NULL, 0);
			seeds = 1;
			one = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'g':
			if (!lg_mode(optarg, &to.lg)) {
				fprintf(stderr, "mstp-loop-bench: --loop-guard "
					"%s: off, on or both\n", optarg);
				return 2;
			}
			break;
		case 'l':
			to.list = true;
			break;
		case 'p':
			to.progress = strtoul(optarg, NULL, 0);
			break;
		case 'F':
			if (!classes(optarg, &to.fail_on)) {
				fprintf(stderr, "mstp-loop-bench: --fail-on "
					"%s: classes are a, b, c, d or -\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			return usage(stdout, 0);
		default:
			return usage(stderr, 2);
		}
	}
	if (optind < argc || (one && kind < 0))
		return usage(stderr, 2);
	to.verbose = verbose;
	if (kind == CAMPAIGN_TIMING)
		return timing_campaign(&sim, first, seeds, &to) ? 0 : 1;
	for (int k = CAMPAIGN_REGION; k <= CAMPAIGN_REGIONS; k++)
		if (kind < 0 || kind == k)
			ok &= campaign(&sim, (enum campaign_kind)k, first, seeds,
				       verbose);
	return ok ? 0 : 1;
}
