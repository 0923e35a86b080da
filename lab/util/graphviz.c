// SPDX-License-Identifier: MIT
#include "graphviz.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "child.h"

/* A big lab lays out in well under a second; a hung dot must not hang
 * the verdicts. */
#define GRAPHVIZ_TIMEOUT_MS 20000

int graphviz_svg(const char *engine, const char *graph, char **svg,
		 struct errbuf *err)
{
	char k[64];
	char *argv[] = { "dot", k, "-Tsvg", NULL };
	struct spawn_result r;

	snprintf(k, sizeof(k), "-K%s", engine);
	*svg = NULL;
	if (spawn_capture(argv, graph, NULL, GRAPHVIZ_TIMEOUT_MS, &r) == 0) {
		*svg = r.out;
		return 0;
	}
	if (r.start_errno)
		return errbuf_set(err, "dot: %s (Debian package graphviz)",
				  strerror(r.start_errno));
	if (r.timed_out)
		return errbuf_set(err, "dot: no answer in %d s",
				  GRAPHVIZ_TIMEOUT_MS / 1000);
	if (r.status)
		return errbuf_set(err, "dot: failed (status %d)", r.status);
	return errbuf_set(err, "temporary file: %s", strerror(errno));
}
