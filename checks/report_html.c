// SPDX-License-Identifier: MIT
/*
 * report.html: one self-contained page (inline CSS and SVG, no scripts,
 * nothing fetched) a release engineer can open or attach anywhere.
 */
#include <ctype.h>
#include <string.h>

#include "report.h"
#include "report_svg.h"

static const char css[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}"
	"h1 .pass,h2 .pass{color:#1e7e34}h1 .fail,h2 .fail{color:#b02a37}"
	"table{border-collapse:collapse;margin:.5em 0 1em}"
	"th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;"
	"vertical-align:top}th{background:#f2f2f2}"
	"tr.fail td{background:#fde8e8}tr.skip td{color:#777}"
	"td.res{font-weight:bold}tr.pass td.res{color:#1e7e34}"
	"tr.fail td.res{color:#b02a37}code{font-size:12px}"
	"svg.timeline{display:block;margin:2px 0}"
	".tree{font-size:12px;font-weight:bold}.tick{font-size:9px;"
	"text-anchor:middle;fill:#555}.ev{font-size:9px;fill:#333}"
	".bar{fill:#3b7dd8}.bar-fail{fill:#b02a37}"
	".budget{stroke:#b02a37;stroke-dasharray:3 2}"
	".legend span{display:inline-block;margin-right:1em}"
	".topos{display:flex;flex-wrap:wrap;gap:10px;margin:.3em 0 1em}"
	"figure.topo{margin:0;padding:4px;border:1px solid #ddd}"
	"figure.topo figcaption{font-size:12px;font-weight:bold}"
	"svg.topology{display:block;max-width:420px;height:auto}";

static const char legend[] =
	"<p class=\"legend\"><span style=\"color:#c0392b\">| link down</span>"
	"<span style=\"color:#27ae60\">| link up</span>"
	"<span style=\"color:#e67e22\">| impairment</span>"
	"<span style=\"color:#7f8c8d\">| mark</span>"
	"<span style=\"color:#3b7dd8\">&#9646; settle time</span>"
	"<span style=\"color:#b02a37\">&#9646; over budget, "
	"&#166; budget</span></p>\n";

static const char topo_legend[] =
	"<p class=\"legend\"><span style=\"background:#ffd54f\">root "
	"bridge</span><span style=\"color:#1e7e34\">&#10148; root port, "
	"toward the root</span><span style=\"color:#b02a37\">- - blocked "
	"port (alternate, backup, discarding)</span><span style=\"color:"
	"#999\">&#183;&#183;&#183; link down</span><span>R D A M: root, "
	"designated, alternate, master; ?: the port was silent, its role "
	"deduced</span></p>\n";

/* An anchor (report.html#scenario-check) has no spaces or markup. */
static void put_id(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(isalnum((unsigned char)*s) || *s == '-' || *s == '.' ?
			      *s : '_', out);
}

static void cell(FILE *out, const char *cls, const char *s)
{
	fprintf(out, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "",
		cls ? "\"" : "");
	report_put_xml(out, s);
	fputs("</td>", out);
}

static void figures(FILE *out, const struct result_check *c)
{
	fputs("<td>", out);
	for (size_t i = 0, n = 0; i < c->n_figures; i++) {
		if (c->figures[i].msti != RESULT_NO_TREE)
			continue;
		fputs(n++ ? "<br/>" : "", out);
		report_put_xml(out, c->figures[i].name);
		fputc(' ', out);
		report_put_number(out, c->figures[i].value);
	}
	fputs("</td>", out);
}

/* Times from the scenario's start; the capture's own (Wireshark's
 * frame.time_epoch) on hover. */
static void evidence(FILE *out, const struct result_scenario *sc,
		     const struct result_check *c)
{
	fputs("<td>", out);
	for (size_t i = 0; i < c->n_evidence; i++) {
		fputs(i ? "<br/><code>" : "<code>", out);
		report_put_xml(out, c->evidence[i].pcap);
		fprintf(out, "</code> frame %lu at <span title=\"",
			c->evidence[i].frame);
		report_put_time(out, c->evidence[i].ns);
		fputs("\">", out);
		report_put_rel_time(out, sc, c->evidence[i].ns);
		fputs("</span>", out);
	}
	fputs("</td>", out);
}

static void table(FILE *out, const struct result_scenario *sc)
{
	fputs("<table>\n<tr><th>#</th><th>check</th><th>tree</th><th>link"
	      "</th><th>result</th><th>detail</th><th>figures</th>"
	      "<th>evidence</th></tr>\n", out);
	for (size_t i = 0; i < sc->n_checks; i++) {
		const struct result_check *c = &sc->checks[i];
		char tree[16];
		const char *st = result_status_name(c->status);

		fprintf(out, "<tr class=\"%s\" id=\"", st);
		put_id(out, sc->name);
		fputc('-', out);
		put_id(out, c->id);
		fprintf(out, "\"><td>%zu</td>", i + 1);
		cell(out, NULL, c->text);
		cell(out, NULL, result_tree_name(c->msti, tree, sizeof(tree)));
		cell(out, NULL, c->link ? c->link : "");
		cell(out, "res", st);
		cell(out, NULL, c->message ? c->message : "");
		figures(out, c);
		evidence(out, sc, c);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void instant(FILE *out, const struct result_scenario *sc,
		    const struct result_snapshot *s)
{
	fputs("<p class=\"instant\">", out);
	if (!strcmp(s->at, "before-failure"))
		fputs("Before the first failure", out);
	else if (!strcmp(s->at, "after-event"))
		fputs("After ", out);
	else
		fputs("At the end", out);
	if (!strcmp(s->at, "end") && s->event)
		fputs(", after ", out);
	if (s->event && strcmp(s->at, "before-failure"))
		report_put_xml(out, s->event);
	fprintf(out, " (%.3f s into the scenario)</p>\n<div class=\"topos\">\n",
		report_seconds(s->ns - sc->start_ns));
}

/* The snapshots, one row of trees per instant. */
static void topologies(FILE *out, const struct result_run *r,
		       const struct result_scenario *sc)
{
	fputs("<h3>Topology per tree</h3>\n", out);
	for (size_t i = 0; i < sc->n_snapshots; i++) {
		const struct result_snapshot *s = &sc->snapshots[i];
		bool first = !i || s->ns != sc->snapshots[i - 1].ns ||
			     strcmp(s->at, sc->snapshots[i - 1].at);
		char tree[16];

		if (first && i)
			fputs("</div>\n", out);
		if (first)
			instant(out, sc, s);
		fprintf(out, "<figure class=\"topo\" data-tree=\"%d\" "
			"data-at=\"", s->msti);
		report_put_xml(out, s->at);
		fputs("\"><figcaption>", out);
		report_put_xml(out, result_tree_name(s->msti, tree, sizeof(tree)));
		fputs(": root ", out);
		report_put_xml(out, s->root >= 0 && (size_t)s->root < r->n_nodes ?
				    r->nodes[s->root].name : "unknown");
		fputs("</figcaption>\n", out);
		report_svg_topology(out, r, s);
		fputs("</figure>\n", out);
	}
	fputs("</div>\n", out);
	fputs(topo_legend, out);
}

static void scenario(FILE *out, const struct result_run *r,
		     const struct result_scenario *sc)
{
	struct result_counts n = result_count(r, sc);

	fputs("<section>\n<h2>", out);
	report_put_xml(out, sc->name);
	fprintf(out, ": <span class=\"%s\">%s</span></h2>\n<p>%u checks, "
		"%u failed, %.3f s.</p>\n", n.failed ? "fail" : "pass",
		n.failed ? "FAIL" : "PASS", n.checks, n.failed,
		sc->end_ns > sc->start_ns ?
			report_seconds(sc->end_ns - sc->start_ns) : 0.0);
	table(out, sc);
	if (r->n_trees && report_has_timeline(sc)) {
		fputs("<h3>Timeline per tree</h3>\n", out);
		for (size_t t = 0; t < r->n_trees; t++)
			report_svg_timeline(out, sc, r->trees[t]);
		fputs(legend, out);
	} else if (!sc->run_wide) {
		fputs("<p>No link failed or came back in this scenario: no "
		      "timeline.</p>\n", out);
	}
	if (sc->n_snapshots && r->n_links)
		topologies(out, r, sc);
	fputs("</section>\n", out);
}

/* Which mstlab, and per node where, under what and on which kernel. */
static void produced_by(FILE *out, const struct provenance *pv)
{
	fputs("<section id=\"produced-by\">\n<h2>Produced by</h2>\n<p>", out);
	if (!pv) {
		fprintf(out, "%s.</p>\n</section>\n", report_prov_none);
		return;
	}
	fputs("mstlab ", out);
	report_put_xml(out, pv->mstlab[0] ? pv->mstlab : "unknown");
	fputs(".</p>\n<table>\n<tr>", out);
	for (size_t k = 0; k < REPORT_PROV_COLS; k++)
		fprintf(out, "<th>%s</th>", report_prov_cols[k]);
	fputs("</tr>\n", out);
	for (size_t i = 0; i < pv->n_nodes; i++) {
		fputs("<tr>", out);
		for (size_t k = 0; k < REPORT_PROV_COLS; k++) {
			const char *v = report_prov_cell(&pv->nodes[i], k);

			cell(out, NULL, v[0] ? v : "unknown");
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n</section>\n", out);
}

int report_html(const struct result_run *r, FILE *out)
{
	struct result_counts n = result_count(r, NULL);
	bool fail = n.failed || r->oom;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\"/>\n<title>mstlab ", out);
	report_put_xml(out, r->lab);
	fprintf(out, ": %s</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>mstlab lab ", fail ? "FAIL" : "PASS", css);
	report_put_xml(out, r->lab);
	fprintf(out, ": <span class=\"%s\">%s</span></h1>\n<p>%u checks, %u "
		"failed, %u skipped; %lu frames, %lu BPDUs (%lu malformed)."
		"</p>\n", fail ? "fail" : "pass", fail ? "FAIL" : "PASS",
		n.checks, n.failed, n.skipped, r->frames, r->bpdus,
		r->bad_bpdus);
	if (r->warning) {
		fputs("<p class=\"fail\">Warning: ", out);
		report_put_xml(out, r->warning);
		fputs("</p>\n", out);
	}
	produced_by(out, r->prov);
	for (size_t i = 0; i < r->n_scenarios; i++)
		scenario(out, r, &r->scenarios[i]);
	fputs("</body>\n</html>\n", out);
	return ferror(out) ? -1 : 0;
}
