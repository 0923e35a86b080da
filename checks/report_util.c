// SPDX-License-Identifier: MIT
/* What the renderers share: escaping, times, the provenance table. */
#include "report.h"

#include <math.h>
#include <string.h>

void report_put_xml(FILE *out, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out);
		}
}

void report_put_md(FILE *out, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '|': fputs("\\|", out); break;
		case '\\': fputs("\\\\", out); break;
		case '`': fputs("\\`", out); break;
		case '*': fputs("\\*", out); break;
		case '_': fputs("\\_", out); break;
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		default: fputc(*s, out);
		}
}

const char *const report_prov_cols[REPORT_PROV_COLS] = {
	"node", "host", "virt", "kernel", "release", "series", "image",
};

const char *report_prov_cell(const struct provenance_node *n, size_t col)
{
	const char *const cells[REPORT_PROV_COLS] = {
		n->name, n->host, n->virt, n->kernel, n->release, n->series,
		n->image,
	};

	return col < REPORT_PROV_COLS ? cells[col] : "";
}

const char report_prov_none[] =
	"not recorded (the run folder has no provenance.json)";

double report_seconds(int64_t ns)
{
	return (double)ns / 1e9;
}

void report_put_time(FILE *out, int64_t ns)
{
	fprintf(out, "%s%lld.%09lld", ns < 0 ? "-" : "",
		(long long)(ns < 0 ? -(ns / 1000000000) : ns / 1000000000),
		(long long)(ns < 0 ? -(ns % 1000000000) : ns % 1000000000));
}

void report_put_rel_time(FILE *out, const struct result_scenario *sc,
			 int64_t ns)
{
	if (sc->run_wide || !sc->start_ns) {
		report_put_time(out, ns);
		return;
	}
	fprintf(out, "%+.3f s", report_seconds(ns - sc->start_ns));
}

bool report_has_timeline(const struct result_scenario *sc)
{
	if (sc->run_wide)
		return false;
	for (size_t i = 0; i < sc->n_events; i++)
		if (!strcmp(sc->events[i].kind, "link-down") ||
		    !strcmp(sc->events[i].kind, "link-up"))
			return true;
	return false;
}

void report_put_number(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%g", v);
	else
		fputs("none", out);
}
