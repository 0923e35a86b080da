// SPDX-License-Identifier: MIT
#include "matrix_compare.h"

#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "json_text.h"

#define PERMUTATIONS 20000
#define MIN_VALUES 3

/* One check of one family, or one figure of it (figure ""). */
struct row {
	char key[320];		/* family/scenario/id */
	char figure[48];
	double *v[2];		/* the figure's values in A, in B */
	size_t n[2], cap[2];
	unsigned pass[2], fail[2], flaky_fail;
};

struct rows {
	struct row *r;
	size_t n, cap;
	bool oom;
};

static struct row *row_of(struct rows *rs, const char *key,
			  const char *figure)
{
	for (size_t i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].key, key) &&
		    !strcmp(rs->r[i].figure, figure))
			return &rs->r[i];
	if (grow((void **)&rs->r, &rs->cap, rs->n, sizeof(*rs->r), 64)) {
		rs->oom = true;
		return NULL;
	}
	memset(&rs->r[rs->n], 0, sizeof(rs->r[0]));
	snprintf(rs->r[rs->n].key, sizeof(rs->r[0].key), "%s", key);
	snprintf(rs->r[rs->n].figure, sizeof(rs->r[0].figure), "%s", figure);
	return &rs->r[rs->n++];
}

static void add_value(struct rows *rs, struct row *r, int side, double v)
{
	if (grow((void **)&r->v[side], &r->cap[side], r->n[side],
		 sizeof(*r->v[side]), 8)) {
		rs->oom = true;
		return;
	}
	r->v[side][r->n[side]++] = v;
}

/* A cell's family: its name without ".rN". */
static void family(const char *cell, char *out, size_t len)
{
	const char *dot = strrchr(cell, '.');
	size_t n = dot && dot[1] == 'r' ? (size_t)(dot - cell) : strlen(cell);

	snprintf(out, len, "%.*s", (int)n, cell);
}

/* Every check of one finished cell's last try into rows, side A or B. */
static void add_cell(struct rows *rs, int side, const json_t *cell)
{
	char path[PATH_MAX + 16], fam[96], key[320];
	const char *status = json_text(json_object_get(cell, "status"));
	bool flaky = !strcmp(status, "flaky");
	const json_t *sc, *check, *v;
	const char *fig;
	json_t *sum;
	size_t i, j;

	snprintf(path, sizeof(path), "%s/summary.json",
		 json_text(json_object_get(cell, "run")));
	sum = json_load_file(path, 0, NULL);
	family(json_text(json_object_get(cell, "name")), fam, sizeof(fam));
	json_array_foreach(json_object_get(sum, "scenarios"), i, sc)
		json_array_foreach(json_object_get(sc, "checks"), j, check) {
			const char *id = json_text(json_object_get(check, "id"));
			const char *res = json_text(json_object_get(check, "result"));
			struct row *r;

			snprintf(key, sizeof(key), "%s/%s/%s", fam,
				 json_text(json_object_get(sc, "name")),
				 id[0] ? id : json_text(json_object_get(check,
								  "name")));
			r = row_of(rs, key, "");
			if (!r)
				break;
			r->pass[side] += !strcmp(res, "pass");
			r->fail[side] += !strcmp(res, "fail");
			r->flaky_fail += side && flaky && !strcmp(res, "fail");
			json_object_foreach(json_object_get(check, "figures"),
					    fig, v) {
				struct row *f;

				if (!json_is_number(v))
					continue;
				f = row_of(rs, key, fig);
				if (f)
					add_value(rs, f, side,
						  json_number_value(v));
			}
		}
	json_decref(sum);
}

static int load(struct rows *rs, int side, const char *dir, FILE *err)
{
	char path[PATH_MAX + 16];
	json_error_t je;
	json_t *doc, *cell;
	size_t i;

	snprintf(path, sizeof(path), "%s/matrix.json", dir);
	doc = json_load_file(path, 0, &je);
	if (!doc) {
		fprintf(err, "mstlab compare: %s: %s\n", path, je.text);
		return -1;
	}
	json_array_foreach(json_object_get(doc, "cells"), i, cell) {
		const char *st = json_text(json_object_get(cell, "status"));

		if (strcmp(st, "pending") && strcmp(st, "error"))
			add_cell(rs, side, cell);
	}
	json_decref(doc);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, size_t n)
{
	double *s = malloc(n * sizeof(*s)), m;

	if (!s || !n) {
		free(s);
		return 0;
	}
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

/* Each value's rank in pool (1..n; ties share their mean rank). */
static void ranks(const double *pool, size_t n, double *rank)
{
	for (size_t i = 0; i < n; i++) {
		size_t below = 0, same = 0;

		for (size_t j = 0; j < n; j++) {
			below += pool[j] < pool[i];
			same += pool[j] == pool[i];
		}
		rank[i] = (double)below + ((double)same + 1) / 2;
	}
}

/* How far the rank sum of the split's A side is from what no difference
 * gives (Mann-Whitney's statistic, two-sided). */
static double split_stat(const double *rank, size_t n, const bool *in_a,
			 size_t na)
{
	double sum = 0, expect = (double)na * ((double)n + 1) / 2;

	for (size_t i = 0; i < n; i++)
		if (in_a[i])
			sum += rank[i];
	return sum > expect ? sum - expect : expect - sum;
}

/* C(n, k), or SIZE_MAX past the limit. */
static size_t choose(size_t n, size_t k, size_t limit)
{
	double c = 1;

	for (size_t i = 1; i <= k; i++) {
		c = c * (double)(n - k + i) / (double)i;
		if (c > (double)limit)
			return SIZE_MAX;
	}
	return (size_t)(c + 0.5);
}

double compare_p(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb, hits = 0, total = 0;
	double *pool = malloc(n * sizeof(*pool)), *rank, obs;
	bool *in_a = calloc(n, sizeof(*in_a));
	size_t *idx = malloc(na * sizeof(*idx));
	uint64_t x = 0x9e3779b97f4a7c15ULL;	/* a fixed seed */
	bool all = choose(n, na, PERMUTATIONS) != SIZE_MAX;

	rank = malloc(n * sizeof(*rank));
	if (!pool || !in_a || !idx || !rank || !na || !nb) {
		free(pool), free(in_a), free(idx), free(rank);
		return 1;
	}
	memcpy(pool, a, na * sizeof(*a));
	memcpy(pool + na, b, nb * sizeof(*b));
	ranks(pool, n, rank);
	for (size_t i = 0; i < na; i++)
		in_a[i] = true, idx[i] = i;
	obs = split_stat(rank, n, in_a, na) - 1e-9;
	for (;;) {
		memset(in_a, 0, n * sizeof(*in_a));
		if (all) {
			for (size_t i = 0; i < na; i++)
				in_a[idx[i]] = true;
		} else {
			/* na distinct members, drawn (xorshift64) */
			for (size_t got = 0; got < na;) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				if (!in_a[x % n])
					in_a[x % n] = true, got++;
			}
		}
		hits += split_stat(rank, n, in_a, na) >= obs;
		total++;
		if (!all && total == PERMUTATIONS)
			break;
		if (all) {	/* the next combination of na out of n */
			size_t i = na;

			while (i > 0 && idx[i - 1] == n - na + i - 1)
				i--;
			if (i == 0)
				break;
			idx[i - 1]++;
			for (size_t j = i; j < na; j++)
				idx[j] = idx[j - 1] + 1;
		}
	}
	free(pool), free(in_a), free(idx), free(rank);
	return (double)hits / (double)total;
}

static bool is_time(const char *figure)
{
	size_t n = strlen(figure);

	return (n > 2 && !strcmp(figure + n - 2, "_s")) ||
	       (n > 3 && !strcmp(figure + n - 3, "_ms"));
}

/* One finding: text line, or a JSON object. */
static void finding(FILE *out, bool json, bool *first, const char *what,
		    const struct row *r, const char *detail)
{
	if (json) {
		json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "finding", what,
				      "check", r->key, "figure", r->figure,
				      "detail", detail);
		char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;

		fprintf(out, "%s\n  %s", *first ? "" : ",", s ? s : "null");
		free(s);
		json_decref(o);
	} else {
		fprintf(out, "%-11s %s%s%s  %s\n", what, r->key,
			r->figure[0] ? " " : "", r->figure, detail);
	}
	*first = false;
}

int matrix_compare(const char *dir_a, const char *dir_b,
		   const struct compare_opts *o, FILE *out, FILE *err)
{
	struct rows rs = { 0 };
	unsigned worse = 0, compared = 0, too_few = 0;
	bool first = true;
	char detail[256];

	if (load(&rs, 0, dir_a, err) || load(&rs, 1, dir_b, err) || rs.oom) {
		if (rs.oom)
			fprintf(err, "mstlab compare: out of memory\n");
		for (size_t i = 0; i < rs.n; i++)
			free(rs.r[i].v[0]), free(rs.r[i].v[1]);
		free(rs.r);
		return 2;
	}
	if (o->json)
		fprintf(out, "{\"findings\": [");
	for (size_t i = 0; i < rs.n; i++) {
		struct row *r = &rs.r[i];

		if (!r->figure[0]) {
			bool was_green = r->pass[0] && !r->fail[0];
			unsigned real_fail = r->fail[1] - r->flaky_fail;

			snprintf(detail, sizeof(detail), "passed %u of %u in "
				 "A, %u of %u in B", r->pass[0],
				 r->pass[0] + r->fail[0], r->pass[1],
				 r->pass[1] + r->fail[1]);
			/* Failing in every run of B: a regression; in
			 * some (passing in others) or in a flaky cell:
			 * flaky. */
			if (was_green && real_fail && !r->pass[1]) {
				finding(out, o->json, &first, "REGRESSION", r,
					detail);
				worse++;
			} else if (was_green && r->fail[1]) {
				finding(out, o->json, &first, "flaky", r,
					detail);
			}
			else if (r->fail[0] && !r->pass[0] && r->pass[1] &&
				 !r->fail[1])
				finding(out, o->json, &first, "fixed", r,
					detail);
			continue;
		}
		if (r->n[0] < MIN_VALUES || r->n[1] < MIN_VALUES) {
			too_few += r->n[0] && r->n[1];
			continue;
		}
		{
			double ma = median(r->v[0], r->n[0]);
			double mb = median(r->v[1], r->n[1]);
			double p = compare_p(r->v[0], r->n[0], r->v[1],
					     r->n[1]);
			bool worse_time;
			const char *what;

			compared++;
			if (p >= o->alpha || ma == mb)
				continue;
			worse_time = is_time(r->figure) && mb > ma;
			what = !is_time(r->figure) ? "changed" :
			       worse_time ? "REGRESSION" : "improved";
			snprintf(detail, sizeof(detail), "median %g -> %g "
				 "(%.2fx, p=%.3g, %zu vs %zu values)", ma, mb,
				 ma ? mb / ma : 0, p, r->n[0], r->n[1]);
			finding(out, o->json, &first, what, r, detail);
			worse += worse_time;
		}
	}
	if (o->json)
		fprintf(out, "\n], \"regressions\": %u, \"figures_compared\": "
			"%u, \"not_enough_runs\": %u, \"alpha\": %g}\n", worse,
			compared, too_few, o->alpha);
	else
		fprintf(out, "COMPARE: %u regression%s; %u figures compared "
			"(p < %g), %u with not enough runs (< %d a side)\n",
			worse, worse == 1 ? "" : "s", compared, o->alpha,
			too_few, MIN_VALUES);
	for (size_t i = 0; i < rs.n; i++)
		free(rs.r[i].v[0]), free(rs.r[i].v[1]);
	free(rs.r);
	return worse ? 1 : 0;
}
