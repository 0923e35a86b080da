// SPDX-License-Identifier: MIT
/*
 * DIR/junit.xml of a matrix: a <testsuite> per cell, a <testcase> per
 * check of its last attempt's summary.json. The classname is
 * CELL.SCENARIO and the test name the check's id, both made of what
 * they are about, so CI history follows one check of one cell across
 * runs. A flaky cell's suite says so in its properties; a cell without
 * a verdict is one failed testcase that says why.
 */
#include "matrix.h"

#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "json_text.h"
#include "sbuf.h"

static void attr(struct sbuf *x, const char *name, const char *value)
{
	sbuf_printf(x, " %s=\"", name);
	sbuf_xml(x, value);
	sbuf_puts(x, "\"");
}

static void property(struct sbuf *x, const char *name, const char *value)
{
	sbuf_puts(x, "   <property");
	attr(x, "name", name);
	attr(x, "value", value);
	sbuf_puts(x, "/>\n");
}

/* A check's test name: its id (results.md, test names), or for a run
 * folder older than ids its name. */
static const char *check_id(const json_t *check)
{
	const char *id = json_text(json_object_get(check, "id"));

	return id[0] ? id : json_text(json_object_get(check, "name"));
}

static void testcases(struct sbuf *x, const struct matrix_cell *c,
		      const json_t *summary)
{
	const json_t *sc, *check;
	size_t i, j;

	json_array_foreach(json_object_get(summary, "scenarios"), i, sc) {
		char cls[MATRIX_NAME_MAX + 80];

		snprintf(cls, sizeof(cls), "%s.%s", c->name,
			 json_text(json_object_get(sc, "name")));
		json_array_foreach(json_object_get(sc, "checks"), j, check) {
			const char *result = json_text(json_object_get(check,
								  "result"));

			sbuf_puts(x, "  <testcase");
			attr(x, "classname", cls);
			attr(x, "name", check_id(check));
			if (!strcmp(result, "pass")) {
				sbuf_puts(x, "/>\n");
				continue;
			}
			sbuf_puts(x, ">\n   <");
			sbuf_puts(x, strcmp(result, "skip") ? "failure" :
				  "skipped");
			attr(x, "message",
			     json_text(json_object_get(check, "message")));
			sbuf_puts(x, "/>\n  </testcase>\n");
		}
	}
}

static void suite(struct sbuf *x, const struct matrix_cell *c)
{
	char path[PATH_MAX + 16], n[16];
	json_t *summary = NULL;
	bool flaky = c->status == MATRIX_FLAKY;

	if (c->run_dir[0]) {
		snprintf(path, sizeof(path), "%s/summary.json", c->run_dir);
		summary = json_load_file(path, 0, NULL);
	}
	sbuf_puts(x, " <testsuite");
	attr(x, "name", c->name);
	snprintf(n, sizeof(n), "%u", c->checks + flaky);
	attr(x, "tests", summary ? n : "1");
	snprintf(n, sizeof(n), "%u", c->failed + flaky);
	attr(x, "failures", summary ? n : "1");
	sbuf_printf(x, " time=\"%.1f\">\n  <properties>\n", c->seconds);
	property(x, "lab", c->lab);
	property(x, "kernel", c->kernel[0] ? c->kernel : "(topology's)");
	snprintf(n, sizeof(n), "%u", c->repeat);
	property(x, "repeat", n);
	property(x, "status", matrix_status_name(c->status));
	snprintf(n, sizeof(n), "%u", c->attempts);
	property(x, "attempts", n);
	property(x, "run", c->run_dir);
	sbuf_puts(x, "  </properties>\n");
	/* Never green: it failed before it passed. */
	if (flaky) {
		sbuf_puts(x, "  <testcase");
		attr(x, "classname", c->name);
		sbuf_printf(x, " name=\"flaky\">\n   <failure message=\"failed,"
			    " then passed on try %u: flaky\"/>\n  </testcase>\n",
			    c->attempts);
	}
	if (summary)
		testcases(x, c, summary);
	else {
		sbuf_puts(x, "  <testcase");
		attr(x, "classname", c->name);
		sbuf_puts(x, " name=\"verdict\">\n   <failure message=\"no "
			  "verdict: the lab did not come up or mstlab ended "
			  "early (run.log of each try)\"/>\n  </testcase>\n");
	}
	sbuf_puts(x, " </testsuite>\n");
	json_decref(summary);
}

int matrix_junit(const struct matrix *m)
{
	struct sbuf x;

	sbuf_init(&x);
	sbuf_puts(&x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		  "<testsuites>\n");
	for (size_t i = 0; i < m->n_cells; i++)
		if (m->cells[i].status != MATRIX_PENDING)
			suite(&x, &m->cells[i]);
	sbuf_puts(&x, "</testsuites>\n");
	return matrix_write(m, "junit.xml", &x);
}
