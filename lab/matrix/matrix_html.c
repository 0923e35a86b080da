// SPDX-License-Identifier: MIT
/*
 * DIR/matrix.html: one self-contained page (inline CSS, no script,
 * nothing fetched) with a row per cell — its status, tries, checks and
 * time — linking to that cell's own report.html, and the counts.
 */
#include "matrix.h"

#include <stdio.h>
#include <string.h>

#include "sbuf.h"

static const char style[] =
	"body{font:14px sans-serif;margin:2em}"
	"table{border-collapse:collapse}"
	"td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}"
	".pass{background:#dfd}.fail,.error{background:#fdd}"
	".flaky{background:#ffd}.pending{color:#888}";

/* @path relative to @dir when it is below it (the tree can move). */
static const char *below(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && path[n] == '/' ? path + n + 1 : path;
}

int matrix_html(const struct matrix *m)
{
	unsigned count[MATRIX_ERROR + 1] = { 0 };
	struct sbuf x;

	sbuf_init(&x);
	sbuf_printf(&x, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
		    "<title>mstlab matrix</title><style>%s</style></head>"
		    "<body>\n<h1>mstlab matrix</h1>\n<p>mstlab ", style);
	sbuf_xml(&x, m->version ? m->version : "");
	sbuf_puts(&x, " on ");
	sbuf_xml(&x, m->host);
	sbuf_printf(&x, ", %u retr%s a failed cell</p>\n<table>\n<tr><th>cell"
		    "</th><th>kernel</th><th>status</th><th>tries</th><th>"
		    "checks</th><th>failed</th><th>seconds</th><th>report"
		    "</th></tr>\n", m->retries, m->retries == 1 ? "y" : "ies");
	for (size_t i = 0; i < m->n_cells; i++) {
		const struct matrix_cell *c = &m->cells[i];
		const char *st = matrix_status_name(c->status);

		count[c->status]++;
		sbuf_printf(&x, "<tr class=\"%s\"><td>", st);
		sbuf_xml(&x, c->name);
		sbuf_puts(&x, "</td><td>");
		sbuf_xml(&x, c->kernel[0] ? c->kernel : "(topology's)");
		sbuf_printf(&x, "</td><td>%s</td><td>%u</td><td>%u</td><td>%u"
			    "</td><td>%.0f</td><td>", st, c->attempts,
			    c->checks, c->failed, c->seconds);
		if (c->run_dir[0]) {
			sbuf_puts(&x, "<a href=\"");
			sbuf_xml(&x, below(m->dir, c->run_dir));
			sbuf_puts(&x, "/report.html\">report</a>");
		}
		sbuf_puts(&x, "</td></tr>\n");
	}
	sbuf_puts(&x, "</table>\n<p>");
	for (int s = 0; s <= MATRIX_ERROR; s++)
		sbuf_printf(&x, "%s%u %s", s ? ", " : "", count[s],
			    matrix_status_name((enum matrix_status)s));
	sbuf_puts(&x, "</p>\n</body></html>\n");
	return matrix_write(m, "matrix.html", &x);
}
