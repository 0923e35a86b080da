// SPDX-License-Identifier: MIT
#include "loops_timing.h"
#include "sim_timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct totals {
	unsigned long seeds, failing, events, bpdus, checks, overflows;
	unsigned long loop_seeds[TIMING_CLASSES], episodes[TIMING_CLASSES];
	uint64_t longest_us[TIMING_CLASSES];
	unsigned long partitions, partition_seeds;
	/* Re-election: one time per seed that measured it. */
	uint64_t *reelect_us;
	unsigned long nreelect, flap_seeds, flaps_max, dual_seeds;
	uint64_t dual_max_us;
	clock_t t0;
};

static void add(struct totals *t, const struct timing_result *r, bool ok)
{
	t->seeds++;
	t->failing += !ok;
	t->events += r->events;
	t->bpdus += r->mesh.bpdus;
	t->checks += r->mesh.checks;
	t->overflows += r->mesh.overflows;
	for (unsigned int c = 0; c < TIMING_CLASSES; c++) {
		t->loop_seeds[c] += r->loops[c] > 0;
		t->episodes[c] += r->loops[c];
		if (r->loop_us[c] > t->longest_us[c])
			t->longest_us[c] = r->loop_us[c];
	}
	t->partitions += r->partitions;
	t->partition_seeds += r->partitions > 0;
	if (r->reelected)
		t->reelect_us[t->nreelect++] = r->reelect_us;
	t->flap_seeds += r->master_flaps > 0;
	if (r->master_flaps > t->flaps_max)
		t->flaps_max = r->master_flaps;
	t->dual_seeds += r->dual_master_us > 0;
	if (r->dual_master_us > t->dual_max_us)
		t->dual_max_us = r->dual_master_us;
}

static const char *lg_name(bool on)
{
	return on ? "on" : "off";
}

static void failing(uint64_t seed, bool lg, const struct timing_result *r)
{
	printf("fail timing seed %llu loop_guard %s:",
	       (unsigned long long)seed, lg_name(lg));
	for (unsigned int c = 0; c < TIMING_CLASSES; c++)
		if (r->loops[c])
			printf(" class %s: %u loops (longest %.3f ms);",
			       timing_class_name(c), r->loops[c],
			       r->loop_us[c] / 1000.0);
	printf(" %u partitions, %lu overflows\n  mesh:%s\n"
	       "  model: latency %u us, jitter %u us, skew %u us\n",
	       r->partitions, r->mesh.overflows, r->mesh.mesh, r->latency_us,
	       r->jitter_us, r->skew_us);
	for (unsigned int c = 0; c < TIMING_CLASSES; c++)
		if (r->loops[c])
			printf("  first of class %s %s\n", timing_class_name(c),
			       r->what[c]);
	if (r->partitions)
		printf("  first partition %s\n", r->partition);
	printf("  replay: build/bin/mstp-loop-bench --campaign timing "
	       "--seed %llu --loop-guard %s --verbose\n",
	       (unsigned long long)seed, lg_name(lg));
}

/* --list: every seed's figures on one line. */
static void one_line(uint64_t seed, bool lg, const struct timing_result *r)
{
	printf("seed %llu loop_guard %s loops", (unsigned long long)seed,
	       lg_name(lg));
	for (unsigned int c = 0; c < TIMING_CLASSES; c++)
		printf(" %s:%u", timing_class_name(c), r->loops[c]);
	printf(" partitions %u reelect_ms ", r->partitions);
	if (r->reelected)
		printf("%.1f", r->reelect_us / 1000.0);
	else
		printf("-");
	printf(" master_flaps %u dual_master_ms %.1f\n", r->master_flaps,
	       r->dual_master_us / 1000.0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The @q-th quantile (nearest rank) of sorted @v, in ms. */
static double quantile_ms(const uint64_t *v, unsigned long n, double q)
{
	unsigned long i = (unsigned long)(q * (double)n + 0.999999);

	if (!n)
		return 0;
	if (i < 1)
		i = 1;
	if (i > n)
		i = n;
	return v[i - 1] / 1000.0;
}

static void summary(struct totals *t, uint64_t first, bool lg)
{
	printf("campaign timing loop_guard %s seeds %lu first %llu events %lu "
	       "bpdus %lu checks %lu failing_seeds %lu partitions %lu "
	       "partition_seeds %lu overflows %lu cpu_s %.1f\n",
	       lg_name(lg), t->seeds, (unsigned long long)first, t->events,
	       t->bpdus, t->checks, t->failing, t->partitions,
	       t->partition_seeds, t->overflows,
	       (double)(clock() - t->t0) / CLOCKS_PER_SEC);
	printf("| loop_guard %s | class | seeds with a loop | loops | "
	       "longest (ms) |\n|---|---|---|---|---|\n", lg_name(lg));
	for (unsigned int c = 0; c < TIMING_CLASSES; c++)
		printf("| | (%s) %s | %lu | %lu | %.3f |\n",
		       timing_class_name(c), timing_class_text(c),
		       t->loop_seeds[c], t->episodes[c],
		       t->longest_us[c] / 1000.0);
	qsort(t->reelect_us, t->nreelect, sizeof(*t->reelect_us), cmp_u64);
	printf("reelection loop_guard %s measured %lu median_ms %.1f "
	       "p90_ms %.1f p99_ms %.1f max_ms %.1f master_flap_seeds %lu "
	       "max_flaps %lu dual_master_seeds %lu dual_master_max_ms %.1f\n",
	       lg_name(lg), t->nreelect,
	       quantile_ms(t->reelect_us, t->nreelect, 0.5),
	       quantile_ms(t->reelect_us, t->nreelect, 0.9),
	       quantile_ms(t->reelect_us, t->nreelect, 0.99),
	       quantile_ms(t->reelect_us, t->nreelect, 1.0), t->flap_seeds,
	       t->flaps_max, t->dual_seeds, t->dual_max_us / 1000.0);
	fflush(stdout);
}

/* A partition, an overflow, or a loop of a class in @fail_on. */
static bool fails(const struct timing_result *r, unsigned int fail_on)
{
	if (r->partitions || r->mesh.overflows)
		return true;
	for (unsigned int c = 0; c < TIMING_CLASSES; c++)
		if (r->loops[c] && fail_on & 1u << c)
			return true;
	return false;
}

static bool run(struct sim *sim, uint64_t first, unsigned long seeds,
		bool lg, const struct timing_options *o)
{
	static struct timing_result r;
	struct totals t = { .reelect_us = calloc(seeds + 1, sizeof(uint64_t)),
			    .t0 = clock() };
	bool gate = true;

	if (!t.reelect_us)
		return false;
	for (uint64_t s = first; s < first + seeds; s++) {
		bool ok = timing_run(sim, s, lg, o->verbose, &r);

		if (!ok)
			failing(s, lg, &r);
		if (o->list)
			one_line(s, lg, &r);
		add(&t, &r, ok);
		gate &= !fails(&r, o->fail_on);
		if (o->progress && t.seeds % o->progress == 0 &&
		    t.seeds < seeds)
			summary(&t, first, lg);
	}
	summary(&t, first, lg);
	free(t.reelect_us);
	return gate;
}

bool timing_campaign(struct sim *sim, uint64_t first, unsigned long seeds,
		     const struct timing_options *o)
{
	bool ok = true;

	if (o->lg & LG_OFF)
		ok &= run(sim, first, seeds, false, o);
	if (o->lg & LG_ON)
		ok &= run(sim, first, seeds, true, o);
	return ok;
}
