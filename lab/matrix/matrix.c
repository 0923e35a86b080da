// SPDX-License-Identifier: MIT
#include "matrix.h"

#include <errno.h>
#include <glob.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "json_text.h"
#include "kernels.h"

static const char *const status_names[] = {
	[MATRIX_PENDING] = "pending", [MATRIX_PASS] = "pass",
	[MATRIX_FAIL] = "fail", [MATRIX_FLAKY] = "flaky",
	[MATRIX_ERROR] = "error",
};

const char *matrix_status_name(enum matrix_status s)
{
	return status_names[s];
}

static int __attribute__((format(printf, 3, 4)))
say(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* One topology: its lab name and default kernel, its path absolute. */
static int topo_facts(const char *path, char abs[PATH_MAX], char *lab,
		      const char **kernel, char *err, size_t len)
{
	struct topo_error te;
	struct errbuf msg;
	struct topo *t;

	if (!realpath(path, abs))
		return say(err, len, "%s: %s", path, strerror(errno));
	if (topo_parse_file(abs, &t, &te))
		return say(err, len, "%s", topo_error_format(&te, &msg));
	snprintf(lab, TOPO_LAB_NAME_MAX + 1, "%s", t->name);
	*kernel = topo_kernel_name(t->defaults.kernel);
	topo_free(t);
	return 0;
}

int matrix_plan(struct matrix *m, char *const topos[], size_t n_topos,
		char *const kernels[], size_t n_kernels, unsigned repeats,
		char *err, size_t len)
{
	size_t per = (n_kernels ? n_kernels : 1) * repeats;
	enum topo_kernel k;

	if (!n_topos || !repeats || n_topos * per > MATRIX_MAX_CELLS) {
		snprintf(err, len, "%zu cells: a matrix has 1 to %d",
			 n_topos * per, MATRIX_MAX_CELLS);
		return -1;
	}
	for (size_t i = 0; i < n_kernels; i++)
		if (kernel_by_name(kernels[i], &k))
			return say(err, len, "--kernel '%s' is no kernel "
				   "(%s; mstlab kernels)", kernels[i],
				   kernel_spellings_text());
	m->cells = calloc(n_topos * per, sizeof(*m->cells));
	if (!m->cells)
		return say(err, len, "out of memory");
	for (size_t t = 0; t < n_topos; t++) {
		char abs[PATH_MAX], lab[TOPO_LAB_NAME_MAX + 1];
		const char *own = "";

		if (topo_facts(topos[t], abs, lab, &own, err, len))
			return -1;
		for (size_t i = 0; i < m->n_cells; i++)
			if (!strcmp(m->cells[i].lab, lab) &&
			    strcmp(m->cells[i].topo, abs))
				return say(err, len, "two topologies name lab "
					   "%s (%s)", lab, abs);
		for (size_t kk = 0; kk < (n_kernels ? n_kernels : 1); kk++)
			for (unsigned r = 1; r <= repeats; r++) {
				struct matrix_cell *c = &m->cells[m->n_cells++];
				const char *kname = n_kernels ? kernels[kk] :
						    "";

				if (n_kernels && !kernel_by_name(kname, &k))
					kname = topo_kernel_name(k);
				snprintf(c->topo, sizeof(c->topo), "%s", abs);
				snprintf(c->lab, sizeof(c->lab), "%s", lab);
				snprintf(c->kernel, sizeof(c->kernel), "%s",
					 kname);
				c->repeat = r;
				c->index = (unsigned)(m->n_cells - 1);
				snprintf(c->name, sizeof(c->name), "%s.%s.r%u",
					 lab, kname[0] ? kname : own, r);
			}
	}
	for (size_t i = 0; i < m->n_cells; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(m->cells[i].name, m->cells[j].name))
				return say(err, len, "cell %s twice: a kernel "
					   "named twice?", m->cells[i].name);
	return 0;
}

void matrix_shard(struct matrix *m, unsigned i, unsigned n)
{
	size_t kept = 0;

	for (size_t c = 0; c < m->n_cells; c++)
		if (c % n == i - 1)
			m->cells[kept++] = m->cells[c];
	m->n_cells = kept;
}

void matrix_free(struct matrix *m)
{
	free(m->cells);
	m->cells = NULL;
	m->n_cells = 0;
}

/* A cell's record; with what produced its last try (its run folder's
 * provenance.json: mstlab, and per node its host, accelerator, kernel
 * release and series), null without one. */
static json_t *cell_json(const struct matrix_cell *c)
{
	char path[PATH_MAX + 32];
	json_t *prov = NULL;

	if (c->run_dir[0]) {
		snprintf(path, sizeof(path), "%s/provenance.json", c->run_dir);
		prov = json_load_file(path, 0, NULL);
	}
	return json_pack("{s:s, s:i, s:s, s:s, s:s, s:i, s:s, s:i, s:i, s:i, "
			 "s:f, s:s, s:o}", "name", c->name, "index",
			 (int)c->index, "lab", c->lab,
			 "topology", c->topo, "kernel", c->kernel,
			 "repeat", (int)c->repeat,
			 "status", matrix_status_name(c->status),
			 "attempts", (int)c->attempts, "checks",
			 (int)c->checks, "failed", (int)c->failed,
			 "seconds", c->seconds, "run", c->run_dir,
			 "provenance", prov ? prov : json_null());
}

int matrix_save(const struct matrix *m)
{
	char path[PATH_MAX + 16], tmp[PATH_MAX + 32];
	unsigned count[MATRIX_ERROR + 1] = { 0 };
	json_t *cells = json_array(), *doc, *counts = json_object();
	int r;

	for (size_t i = 0; i < m->n_cells; i++) {
		json_array_append_new(cells, cell_json(&m->cells[i]));
		count[m->cells[i].status]++;
	}
	for (int s = 0; s <= MATRIX_ERROR; s++)
		json_object_set_new(counts, status_names[s],
				    json_integer(count[s]));
	doc = json_pack("{s:i, s:s, s:s, s:i, s:o, s:o}", "version", 1,
			"mstlab", m->version ? m->version : "", "host",
			m->host, "retries", (int)m->retries, "counts", counts,
			"cells", cells);
	snprintf(path, sizeof(path), "%s/matrix.json", m->dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	r = doc ? json_dump_file(doc, tmp, JSON_INDENT(1) | JSON_SORT_KEYS) :
		  -1;
	json_decref(doc);
	return r || rename(tmp, path) ? -1 : 0;
}

/* A cell's verdict (and, all: what it is) from its matrix.json record. */
static void cell_from(struct matrix_cell *mc, const json_t *c, bool all)
{
	const char *st = json_text(json_object_get(c, "status"));

	for (int s = 0; s <= MATRIX_ERROR; s++)
		if (!strcmp(st, status_names[s]))
			mc->status = (enum matrix_status)s;
	mc->attempts = (unsigned)json_integer_value(json_object_get(c,
							"attempts"));
	mc->checks = (unsigned)json_integer_value(json_object_get(c, "checks"));
	mc->failed = (unsigned)json_integer_value(json_object_get(c, "failed"));
	mc->seconds = json_number_value(json_object_get(c, "seconds"));
	snprintf(mc->run_dir, sizeof(mc->run_dir), "%s",
		 json_text(json_object_get(c, "run")));
	if (!all)
		return;
	snprintf(mc->name, sizeof(mc->name), "%s",
		 json_text(json_object_get(c, "name")));
	mc->index = (unsigned)json_integer_value(json_object_get(c, "index"));
	snprintf(mc->lab, sizeof(mc->lab), "%s",
		 json_text(json_object_get(c, "lab")));
	snprintf(mc->topo, sizeof(mc->topo), "%s",
		 json_text(json_object_get(c, "topology")));
	snprintf(mc->kernel, sizeof(mc->kernel), "%s",
		 json_text(json_object_get(c, "kernel")));
	mc->repeat = (unsigned)json_integer_value(json_object_get(c,
							"repeat"));
}

static int by_index(const void *a, const void *b)
{
	const struct matrix_cell *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

int matrix_append(struct matrix *m, const char *dir, char *err, size_t len)
{
	char path[PATH_MAX + 16];
	json_error_t je;
	json_t *doc, *cells, *c;
	struct matrix_cell *more;
	size_t i;

	snprintf(path, sizeof(path), "%s/matrix.json", dir);
	doc = json_load_file(path, 0, &je);
	if (!doc)
		return say(err, len, "%s: %s", path, je.text);
	cells = json_object_get(doc, "cells");
	more = realloc(m->cells, (m->n_cells + json_array_size(cells) + 1) *
			       sizeof(*m->cells));
	if (!more) {
		json_decref(doc);
		return say(err, len, "out of memory");
	}
	m->cells = more;
	if (!m->version_buf[0])
		snprintf(m->version_buf, sizeof(m->version_buf), "%s",
			 json_text(json_object_get(doc, "mstlab")));
	m->version = m->version_buf;
	snprintf(m->host, sizeof(m->host), "%s",
		 json_text(json_object_get(doc, "host")));
	json_array_foreach(cells, i, c) {
		struct matrix_cell *mc = &m->cells[m->n_cells];

		memset(mc, 0, sizeof(*mc));
		cell_from(mc, c, true);
		for (size_t k = 0; k < m->n_cells; k++)
			if (!strcmp(m->cells[k].name, mc->name)) {
				json_decref(doc);
				return say(err, len, "cell %s is in two shards "
					   "(the second: %s)", mc->name, dir);
			}
		m->n_cells++;
	}
	json_decref(doc);
	qsort(m->cells, m->n_cells, sizeof(*m->cells), by_index);
	return 0;
}

int matrix_load(struct matrix *m, char *err, size_t len)
{
	char path[PATH_MAX + 16];
	json_error_t je;
	json_t *doc, *cells, *c;
	size_t i;

	snprintf(path, sizeof(path), "%s/matrix.json", m->dir);
	doc = json_load_file(path, 0, &je);
	if (!doc)
		return say(err, len, "%s: %s", path, je.text);
	cells = json_object_get(doc, "cells");
	json_array_foreach(cells, i, c) {
		const char *name = json_text(json_object_get(c, "name"));

		for (size_t k = 0; k < m->n_cells; k++)
			if (!strcmp(m->cells[k].name, name))
				cell_from(&m->cells[k], c, false);
	}
	json_decref(doc);
	return 0;
}

int matrix_write(const struct matrix *m, const char *name, struct sbuf *x)
{
	char path[PATH_MAX + 64];
	FILE *f;
	int r;

	snprintf(path, sizeof(path), "%s/%s", m->dir, name);
	f = sbuf_failed(x) ? NULL : fopen(path, "we");
	r = f && fputs(sbuf_str(x), f) >= 0 ? 0 : -1;
	if (f && fclose(f))
		r = -1;
	sbuf_free(x);
	return r;
}

/* mkdir -p @path. */
static int make_dirs(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(buf, 0755) && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

/* The verdict of an attempt: its run folder's summary.json; 0 with the
 * counts and whether it passed, -1 when there is none. */
static int verdict(const char *try_dir, const char *lab,
		   struct matrix_cell *c, bool *pass)
{
	char pattern[PATH_MAX + 64], path[PATH_MAX];
	json_t *doc, *counts;
	glob_t g;
	size_t n;
	int r = -1;

	snprintf(pattern, sizeof(pattern), "%s/%s-*/summary.json", try_dir,
		 lab);
	if (glob(pattern, 0, NULL, &g))
		return -1;
	n = (size_t)snprintf(path, sizeof(path), "%s",
			     g.gl_pathv[g.gl_pathc - 1]);
	globfree(&g);
	if (n >= sizeof(path))
		return -1;
	doc = json_load_file(path, 0, NULL);
	counts = json_object_get(doc, "counts");
	if (doc && counts) {
		*pass = !strcmp(json_text(json_object_get(doc, "result")), "pass");
		c->checks = (unsigned)json_integer_value(
			json_object_get(counts, "checks"));
		c->failed = (unsigned)json_integer_value(
			json_object_get(counts, "failed"));
		*strrchr(path, '/') = 0;
		snprintf(c->run_dir, sizeof(c->run_dir), "%s", path);
		r = 0;
	}
	json_decref(doc);
	return r;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One attempt of a cell: 1 passed, 0 failed, -1 no verdict, -2 stopped. */
static int attempt(struct matrix *m, struct matrix_cell *c, FILE *log,
		   volatile int *stop)
{
	char try_dir[PATH_MAX], run_log[PATH_MAX + 16];
	char *argv[] = { m->mstlab, "run", c->topo, "--results", try_dir,
			 c->kernel[0] ? "--kernel" : NULL, c->kernel, NULL };
	bool pass = false, asked = false;
	int status = -1;
	pid_t pid;

	snprintf(try_dir, sizeof(try_dir), "%s/cells/%s/try-%u", m->dir,
		 c->name, c->attempts + 1);
	snprintf(run_log, sizeof(run_log), "%s/run.log", try_dir);
	if (make_dirs(try_dir)) {
		fprintf(log, "matrix: %s: %s\n", try_dir, strerror(errno));
		return -1;
	}
	pid = spawn_bg(argv, run_log);
	if (pid < 0) {
		fprintf(log, "matrix: cannot start %s: %s\n", m->mstlab,
			strerror(errno));
		return -1;
	}
	while (spawn_wait(pid, 200, &status) == 0)
		if (*stop && !asked) {
			/* Its own teardown, as after a Ctrl-C. */
			kill(pid, SIGTERM);
			asked = true;
		}
	if (asked)
		return -2;
	c->attempts++;
	if (verdict(try_dir, c->lab, c, &pass))
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 && pass;
}

int matrix_run(struct matrix *m, FILE *out, FILE *log, volatile int *stop)
{
	size_t todo = 0, done = 0, tap = 0;
	double spent = 0;
	int rc = 0;

	for (size_t i = 0; i < m->n_cells; i++)
		todo += m->cells[i].status == MATRIX_PENDING;
	fprintf(out, "TAP version 14\n1..%zu\n", m->n_cells);
	for (size_t i = 0; i < m->n_cells && !*stop; i++) {
		struct matrix_cell *c = &m->cells[i];
		double start = now_s();
		int got = -1;

		tap++;
		if (c->status != MATRIX_PENDING) {
			/* Its verdict stands: a fail is still a fail. */
			fprintf(out, "%s %zu - %s: %s (done before)\n",
				c->status == MATRIX_PASS ? "ok" : "not ok",
				tap, c->name, matrix_status_name(c->status));
			rc |= c->status != MATRIX_PASS;
			continue;
		}
		fprintf(log, "matrix: cell %zu/%zu %s", done + 1, todo,
			c->name);
		if (done)
			fprintf(log, " (ETA %.0f min)",
				spent / (double)done *
				(double)(todo - done) / 60);
		fprintf(log, "\n");
		fflush(log);
		c->attempts = 0;
		for (unsigned a = 0; a <= m->retries && got != 1; a++) {
			got = attempt(m, c, log, stop);
			if (got == -2)
				break;
		}
		if (got == -2) {
			fprintf(out, "not ok %zu - %s: stopped # SKIP\n", tap,
				c->name);
			break;
		}
		c->seconds = now_s() - start;
		c->status = got == 1 ? (c->attempts > 1 ? MATRIX_FLAKY :
					MATRIX_PASS) :
			    got == 0 ? MATRIX_FAIL : MATRIX_ERROR;
		spent += c->seconds;
		done++;
		rc |= c->status != MATRIX_PASS;
		fprintf(out, "%s %zu - %s: %s (%u checks, %u failed, %u "
			"attempt%s, %.0f s)\n", c->status == MATRIX_PASS ?
			"ok" : "not ok", tap, c->name,
			matrix_status_name(c->status), c->checks, c->failed,
			c->attempts, c->attempts == 1 ? "" : "s", c->seconds);
		fflush(out);
		if (matrix_save(m))
			fprintf(log, "matrix: cannot write %s/matrix.json: "
				"%s\n", m->dir, strerror(errno));
	}
	return rc || *stop ? 1 : 0;
}
