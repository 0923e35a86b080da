// SPDX-License-Identifier: MIT
/*
 * mstlab matrix's own parts: the cells a matrix has and their names,
 * matrix.json written and read back (--resume), junit.xml from a run
 * folder's summary.json. tests/vm/matrix-test runs real cells.
 */
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "matrix.h"
#include "matrix_compare.h"
#include "unit.h"

static char dir[] = "/tmp/mstlab-matrix-XXXXXX";

static void put(const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

static char *slurp(const char *name)
{
	char path[PATH_MAX], *buf = calloc(1, 65536);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f || !buf)
		abort();
	if (fread(buf, 1, 65535, f) == 0)
		buf[0] = 0;
	fclose(f);
	return buf;
}

static void setup(void)
{
	if (!mkdtemp(dir))
		abort();
	put("a.yaml", "name: alpha\nnodes:\n  h: { role: host }\n");
	put("b.yaml", "name: beta\ndefaults: { kernel: 6.12 }\nnodes:\n"
	    "  h: { role: host }\n");
	put("a2.yaml", "name: alpha\nnodes:\n  g: { role: host }\n");
}

static void plan(struct matrix *m, char **topos, size_t nt, char **kernels,
		 size_t nk, unsigned repeats, int want, const char *why)
{
	char err[512] = "", paths[4][PATH_MAX], *p[4];

	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < nt; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s/%s", dir, topos[i]);
		p[i] = paths[i];
	}
	CHECK_INT(matrix_plan(m, p, nt, kernels, nk, repeats, err,
			      sizeof(err)), want);
	if (why && !strstr(err, why))
		unit_fail(__FILE__, __LINE__, "error \"%s\", want \"%s\"", err,
			  why);
}

/* Cells in order topology × kernel × repeat, named by what they are;
 * without --kernel each topology's own. */
TEST(cells_are_labs_by_kernels_by_repeats)
{
	char *topos[] = { "a.yaml", "b.yaml" }, *kernels[] = { "6.12",
							      "6.1" };
	struct matrix m;

	setup();
	plan(&m, topos, 2, NULL, 0, 2, 0, NULL);
	CHECK_INT(m.n_cells, 4);
	CHECK_STR(m.cells[0].name, "alpha.default.r1");
	CHECK_STR(m.cells[1].name, "alpha.default.r2");
	CHECK_STR(m.cells[2].name, "beta.6.12.r1");
	CHECK_STR(m.cells[2].kernel, "");
	matrix_free(&m);
	plan(&m, topos, 2, NULL, 0, 3, 0, NULL);
	matrix_shard(&m, 2, 4);		/* the 2nd and 6th of 6 */
	CHECK_INT(m.n_cells, 2);
	CHECK_STR(m.cells[0].name, "alpha.default.r2");
	CHECK_STR(m.cells[1].name, "beta.6.12.r3");
	matrix_free(&m);
	plan(&m, topos, 1, kernels, 2, 1, 0, NULL);
	CHECK_INT(m.n_cells, 2);
	CHECK_STR(m.cells[0].name, "alpha.6.12.r1");
	CHECK_STR(m.cells[1].name, "alpha.default.r1");	/* 6.1 is default */
	CHECK_STR(m.cells[1].kernel, "default");
	matrix_free(&m);
}

TEST(a_bad_matrix_is_refused_with_why)
{
	char *ab[] = { "a.yaml", "a2.yaml" }, *bad[] = { "6.13" };
	char *same[] = { "6.1", "default" }, *none[] = { "nope.yaml" };
	struct matrix m;

	plan(&m, ab, 2, NULL, 0, 1, -1, "two topologies name lab alpha");
	matrix_free(&m);
	plan(&m, ab, 1, bad, 1, 1, -1, "--kernel '6.13' is no kernel");
	matrix_free(&m);
	plan(&m, ab, 1, same, 2, 1, -1, "cell alpha.default.r1 twice");
	matrix_free(&m);
	plan(&m, none, 1, NULL, 0, 1, -1, "nope.yaml: No such file");
	matrix_free(&m);
	plan(&m, ab, 1, NULL, 0, 600, -1, "a matrix has 1 to 512");
	matrix_free(&m);
}

/* What one run leaves: a verdict with a failed check, by its id. */
static void fake_run(struct matrix_cell *c)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/run-alpha", dir);
	mkdir(path, 0755);
	put("run-alpha/summary.json",
	    "{\"result\": \"fail\", \"counts\": {\"checks\": 2, \"failed\": 1},"
	    " \"scenarios\": [{\"name\": \"failover\", \"checks\": ["
	    "{\"name\": \"settle-link-down\", \"id\": \"settle-link-down[link4]\","
	    " \"result\": \"fail\", \"message\": \"took <5 s> & more\"},"
	    "{\"name\": \"no-loop\", \"id\": \"no-loop\", \"result\": \"pass\"}"
	    "]}]}\n");
	snprintf(c->run_dir, sizeof(c->run_dir), "%s", path);
}

/* matrix.json holds every cell's verdict; --resume reads them back into
 * the cells of the same name; junit.xml has a testcase per check, a
 * flaky cell never green. */
TEST(verdicts_are_saved_resumed_and_reported)
{
	char *topos[] = { "a.yaml" };
	struct matrix m, again;
	char err[256], *json, *xml;

	plan(&m, topos, 1, NULL, 0, 3, 0, NULL);
	snprintf(m.dir, sizeof(m.dir), "%s", dir);
	m.cells[0] = (struct matrix_cell){ .status = MATRIX_FAIL,
					   .attempts = 2, .checks = 2,
					   .failed = 1, .seconds = 61.5 };
	memcpy(m.cells[0].name, "alpha.default.r1", 17);
	memcpy(m.cells[0].lab, "alpha", 6);
	fake_run(&m.cells[0]);
	m.cells[1].status = MATRIX_FLAKY;
	m.cells[1].attempts = 2;
	CHECK_INT(matrix_save(&m), 0);
	CHECK_INT(matrix_junit(&m), 0);
	CHECK_INT(matrix_html(&m), 0);
	json = slurp("matrix.json");
	CHECK(strstr(json, "\"fail\": 1") != NULL);
	CHECK(strstr(json, "\"pending\": 1") != NULL);
	xml = slurp("junit.xml");
	CHECK(strstr(xml, "<testcase classname=\"alpha.default.r1.failover\" "
		      "name=\"settle-link-down[link4]\">") != NULL);
	CHECK(strstr(xml, "message=\"took &lt;5 s&gt; &amp; more\"") != NULL);
	CHECK(strstr(xml, "name=\"no-loop\"/>") != NULL);
	CHECK(strstr(xml, "name=\"flaky\">") != NULL);
	CHECK(strstr(xml, "alpha.default.r3") == NULL);	/* pending */
	free(xml);
	xml = slurp("matrix.html");
	CHECK(strstr(xml, "<tr class=\"fail\"><td>alpha.default.r1</td>") !=
	      NULL);
	CHECK(strstr(xml, "<a href=\"run-alpha/report.html\">") != NULL);
	CHECK(strstr(xml, "1 pending, 0 pass, 1 fail, 1 flaky, 0 error") !=
	      NULL);
	plan(&again, topos, 1, NULL, 0, 3, 0, NULL);
	snprintf(again.dir, sizeof(again.dir), "%s", dir);
	CHECK_INT(matrix_load(&again, err, sizeof(err)), 0);
	CHECK_INT(again.cells[0].status, MATRIX_FAIL);
	CHECK_INT(again.cells[0].attempts, 2);
	CHECK_INT(again.cells[0].failed, 1);
	CHECK_STR(again.cells[0].run_dir, m.cells[0].run_dir);
	CHECK_INT(again.cells[1].status, MATRIX_FLAKY);
	CHECK_INT(again.cells[2].status, MATRIX_PENDING);
	matrix_free(&again);
	matrix_free(&m);
	free(json);
	free(xml);
	{
		static const char *const files[] = { "a.yaml", "b.yaml",
			"a2.yaml", "matrix.json", "junit.xml", "matrix.html",
			"run-alpha/summary.json", "run-alpha", NULL };

		for (int i = 0; files[i]; i++) {
			snprintf(err, sizeof(err), "%s/%s", dir, files[i]);
			CHECK_INT(remove(err), 0);
		}
		CHECK_INT(rmdir(dir), 0);
	}
}

/* The permutation test: the same samples are not different (p = 1);
 * two apart as far as they can be are, at the exact 2 / C(10, 5). */
TEST(permutation_p_of_medians)
{
	double a[] = { 1, 1.1, 0.9, 1, 1.05 }, b[] = { 3, 3.2, 2.9, 3.1, 3 };
	double big_a[40], big_b[40];
	double p;

	CHECK(compare_p(a, 5, a, 5) > 0.99);
	p = compare_p(a, 5, b, 5);
	CHECK(p > 2.0 / 252 - 1e-9 && p < 2.0 / 252 + 1e-9);
	/* Against an independent implementation, values recorded from
	 * Debian's python3-scipy 1.10.1 (no ties, where both are exact):
	 * /usr/bin/python3 -c 'from scipy.stats import mannwhitneyu;
	 *   print(mannwhitneyu(A, B, method="exact").pvalue)' */
	{
		double a2[] = { 0.5, 0.6, 0.55, 0.7 };
		double b2[] = { 0.65, 0.8, 0.75, 0.9 };
		double a3[] = { 0.61, 0.58, 0.70, 0.66, 0.59 };
		double b3[] = { 0.64, 0.72, 0.69, 0.75, 0.81 };

		p = compare_p(a2, 4, b2, 4);
		CHECK(p > 0.05714285714285 && p < 0.05714285714286);
		p = compare_p(a3, 5, b3, 5);
		CHECK(p > 0.05555555555555 && p < 0.05555555555556);
	}
	/* Past 20,000 splits: drawn with a fixed seed, the same p twice. */
	for (int i = 0; i < 40; i++)
		big_a[i] = i % 7, big_b[i] = i % 7 + 0.5;
	p = compare_p(big_a, 40, big_b, 40);
	CHECK(p == compare_p(big_a, 40, big_b, 40));
}

/* A matrix of @n cells in dir/name, each with a settle time and check
 * "steps" passing (but in cell @failing, in a cell whose status is
 * @status). */
static void fake_matrix(const char *name, int n, double settle,
			int failing, const char *status)
{
	char path[PATH_MAX], json[8192], sum[512];
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	mkdir(path, 0755);
	len += (size_t)snprintf(json + len, sizeof(json) - len,
				"{\"cells\": [");
	for (int i = 0; i < n; i++) {
		bool fails = i == failing;

		snprintf(path, sizeof(path), "%s/%s/r%d", dir, name, i);
		mkdir(path, 0755);
		snprintf(sum, sizeof(sum), "{\"scenarios\": [{\"name\": "
			 "\"f\", \"checks\": [{\"id\": \"settle[link1]\", "
			 "\"result\": \"pass\", \"figures\": {\"settle_s\": "
			 "%g}}, {\"id\": \"steps\", \"result\": \"%s\"}]}]}",
			 settle + i * 0.01, fails ? "fail" : "pass");
		snprintf(path, sizeof(path), "%s/r%d/summary.json", name, i);
		put(path, sum);
		len += (size_t)snprintf(json + len, sizeof(json) - len,
			"%s{\"name\": \"lab.default.r%d\", \"status\": \"%s\", "
			"\"run\": \"%s/%s/r%d\"}", i ? ", " : "", i + 1,
			fails ? status : "pass", dir, name, i);
	}
	snprintf(json + len, sizeof(json) - len, "]}\n");
	snprintf(path, sizeof(path), "%s/matrix.json", name);
	put(path, json);
}

static char *compare(const char *a, const char *b, int *rc)
{
	struct compare_opts o = { .alpha = 0.05 };
	char pa[PATH_MAX], pb[PATH_MAX], *out = NULL;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	snprintf(pa, sizeof(pa), "%s/%s", dir, a);
	snprintf(pb, sizeof(pb), "%s/%s", dir, b);
	*rc = matrix_compare(pa, pb, &o, f, f);
	fclose(f);
	return out;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* Slower settle and a check that now fails: regressions, exit 1; the
 * same failure in a flaky cell: flaky, not a regression; A against
 * itself: nothing. */
TEST(compare_finds_what_got_worse)
{
	char *out;
	int rc;

	snprintf(dir, sizeof(dir), "/tmp/mstlab-matrix-XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
	fake_matrix("a", 5, 0.5, -1, "pass");
	fake_matrix("b", 5, 2.0, 2, "fail");
	fake_matrix("c", 5, 0.5, 2, "flaky");
	fake_matrix("d", 5, 0.5, 0, "fail");
	fake_matrix("e", 1, 0.5, 0, "fail");
	out = compare("a", "b", &rc);
	CHECK_INT(rc, 1);
	CHECK(strstr(out, "REGRESSION  lab.default/f/settle[link1] settle_s  "
		      "median 0.52 -> 2.02 (3.88x, p=0.00794") != NULL);
	CHECK(strstr(out, "flaky       lab.default/f/steps  passed 5 of 5 in "
		      "A, 4 of 5 in B") != NULL);
	CHECK(strstr(out, "COMPARE: 1 regression;") != NULL);
	free(out);
	/* Failing in its only run: a regression; one run: no figure. */
	out = compare("a", "e", &rc);
	CHECK_INT(rc, 1);
	CHECK(strstr(out, "REGRESSION  lab.default/f/steps  passed 5 of 5 in "
		      "A, 0 of 1 in B") != NULL);
	CHECK(strstr(out, "1 with not enough runs (< 3 a side)") != NULL);
	free(out);
	out = compare("a", "c", &rc);
	CHECK_INT(rc, 0);
	CHECK(strstr(out, "flaky       lab.default/f/steps") != NULL);
	free(out);
	/* Fixed only when it failed in every run before. */
	out = compare("d", "a", &rc);
	CHECK_INT(rc, 0);
	CHECK(strstr(out, "fixed       lab.default/f/steps") == NULL);
	free(out);
	out = compare("e", "a", &rc);
	CHECK(strstr(out, "fixed       lab.default/f/steps") != NULL);
	free(out);
	out = compare("a", "a", &rc);
	CHECK_INT(rc, 0);
	CHECK(strstr(out, "COMPARE: 0 regressions; 1 figures compared") !=
	      NULL);
	free(out);
	out = compare("a", "nope", &rc);
	CHECK_INT(rc, 2);
	free(out);
	CHECK_INT(nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}
