// SPDX-License-Identifier: MIT
#include "graphviz.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"

/* A big lab lays out in well under a second; a hung dot must not hang
 * the verdicts. */
#define GRAPHVIZ_TIMEOUT_MS 20000

/* Runs dot with its output options; 0 and r filled, or -1 with err. */
static int run_dot(const char *engine, const char *format, const char *out,
		   const char *graph, struct spawn_result *r,
		   struct errbuf *err)
{
	char k[64], t[16];
	char *argv[] = { "dot", k, t, out ? "-o" : NULL, (char *)out, NULL };

	snprintf(k, sizeof(k), "-K%s", engine);
	snprintf(t, sizeof(t), "-T%s", format);
	if (spawn_capture(argv, graph, NULL, GRAPHVIZ_TIMEOUT_MS, r) == 0)
		return 0;
	if (r->start_errno)
		return errbuf_set(err, "dot: %s (Debian package graphviz)",
				  strerror(r->start_errno));
	if (r->timed_out)
		return errbuf_set(err, "dot: no answer in %d s",
				  GRAPHVIZ_TIMEOUT_MS / 1000);
	if (r->status)
		return errbuf_set(err, "dot: failed (status %d)", r->status);
	return errbuf_set(err, "temporary file: %s", strerror(errno));
}

int graphviz_svg(const char *engine, const char *graph, char **svg,
		 struct errbuf *err)
{
	struct spawn_result r;

	*svg = NULL;
	if (run_dot(engine, "svg", NULL, graph, &r, err))
		return -1;
	*svg = r.out;
	return 0;
}

int graphviz_file(const char *engine, const char *format, const char *graph,
		  const char *path, struct errbuf *err)
{
	struct spawn_result r;

	if (run_dot(engine, format, path, graph, &r, err))
		return -1;
	free(r.out);
	return 0;
}
