// SPDX-License-Identifier: MIT
/*
 * junit.xml as GitLab and Jenkins read it: one <testsuite> per scenario,
 * what produced the run as its <properties>, classname "lab.scenario",
 * test names the checks' ids (stable from run to run), the settle time
 * as the test's time, and the evidence pcaps as [[ATTACHMENT|...]] lines
 * (paths relative to the run folder).
 */
#include "report.h"

#include <string.h>

static void attr(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=\"", name);
	report_put_xml(out, value);
	fputc('"', out);
}

/* What a check measured as a duration: its settle time, else none. */
static double check_time(const struct result_check *c)
{
	const struct result_figure *f =
		result_figure(c, "settle_s", RESULT_NO_TREE);

	return f && f->value > 0 ? f->value : 0;
}

static void system_out(FILE *out, const struct result_check *c)
{
	fputs("      <system-out>", out);
	report_put_xml(out, c->text);
	fputc('\n', out);
	if (c->message) {
		report_put_xml(out, c->message);
		fputc('\n', out);
	}
	for (size_t i = 0; i < c->n_figures; i++) {
		char tree[16];

		result_tree_name(c->figures[i].msti, tree, sizeof(tree));
		fprintf(out, "%s%s%s", *tree ? "[" : "", tree, *tree ? "] " : "");
		report_put_xml(out, c->figures[i].name);
		fputs(" = ", out);
		report_put_number(out, c->figures[i].value);
		fputc('\n', out);
	}
	for (size_t i = 0; i < c->n_evidence; i++) {
		const struct result_evidence *e = &c->evidence[i];

		fputs("evidence: ", out);
		report_put_xml(out, e->pcap);
		fprintf(out, " frame %lu at ", e->frame);
		report_put_time(out, e->ns);
		fprintf(out, " (wireshark -Y frame.number==%lu)\n", e->frame);
	}
	/* One attachment line per distinct capture. */
	for (size_t i = 0; i < c->n_evidence; i++) {
		bool seen = false;

		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(c->evidence[k].pcap, c->evidence[i].pcap);
		if (seen)
			continue;
		fputs("[[ATTACHMENT|", out);
		report_put_xml(out, c->evidence[i].pcap);
		fputs("]]\n", out);
	}
	fputs("</system-out>\n", out);
}

static void testcase(FILE *out, const char *classname,
		     const struct result_check *c)
{
	fputs("    <testcase", out);
	attr(out, "classname", classname);
	attr(out, "name", c->id);
	fprintf(out, " time=\"%.3f\">\n", check_time(c));
	if (c->status == RESULT_FAIL) {
		fputs("      <failure", out);
		attr(out, "message", c->message ? c->message : c->text);
		attr(out, "type", c->name);
		fputc('>', out);
		report_put_xml(out, c->text);
		fputs("</failure>\n", out);
	} else if (c->status == RESULT_SKIP) {
		fputs("      <skipped", out);
		attr(out, "message", c->message ? c->message : "");
		fputs("/>\n", out);
	}
	system_out(out, c);
	fputs("    </testcase>\n", out);
}

static void property(FILE *out, const char *name, const char *node,
		     const char *value)
{
	if (!value[0])
		return;
	fputs("      <property name=\"", out);
	if (node) {
		fputs("node.", out);
		report_put_xml(out, node);
		fputc('.', out);
	}
	report_put_xml(out, name);
	fputs("\"", out);
	attr(out, "value", value);
	fputs("/>\n", out);
}

/* What produced the run, in every suite: a CI shows a suite's own. */
static void properties(FILE *out, const struct provenance *pv)
{
	if (!pv)
		return;
	fputs("    <properties>\n", out);
	property(out, "mstlab", NULL, pv->mstlab);
	for (size_t i = 0; i < pv->n_nodes; i++)
		for (size_t k = 1; k < REPORT_PROV_COLS; k++)
			property(out, report_prov_cols[k], pv->nodes[i].name,
				 report_prov_cell(&pv->nodes[i], k));
	fputs("    </properties>\n", out);
}

static void testsuite(FILE *out, const struct result_run *r,
		      const struct result_scenario *sc)
{
	struct result_counts n = result_count(r, sc);
	char classname[512];
	double secs = sc->end_ns > sc->start_ns ?
			      report_seconds(sc->end_ns - sc->start_ns) : 0;

	snprintf(classname, sizeof(classname), "%s.%s", r->lab, sc->name);
	fputs("  <testsuite", out);
	attr(out, "name", classname);
	fprintf(out, " tests=\"%u\" failures=\"%u\" errors=\"0\" "
		"skipped=\"%u\" time=\"%.3f\">\n", n.checks, n.failed,
		n.skipped, secs);
	properties(out, r->prov);
	for (size_t i = 0; i < sc->n_checks; i++)
		testcase(out, classname, &sc->checks[i]);
	fputs("  </testsuite>\n", out);
}

int report_junit(const struct result_run *r, FILE *out)
{
	struct result_counts n = result_count(r, NULL);
	double secs = 0;

	for (size_t i = 0; i < r->n_scenarios; i++)
		if (r->scenarios[i].end_ns > r->scenarios[i].start_ns)
			secs += report_seconds(r->scenarios[i].end_ns -
					       r->scenarios[i].start_ns);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", out);
	attr(out, "name", r->lab);
	fprintf(out, " tests=\"%u\" failures=\"%u\" errors=\"%d\" "
		"skipped=\"%u\" time=\"%.3f\">\n", n.checks, n.failed,
		r->oom ? 1 : 0, n.skipped, secs);
	for (size_t i = 0; i < r->n_scenarios; i++)
		testsuite(out, r, &r->scenarios[i]);
	fputs("</testsuites>\n", out);
	return ferror(out) ? -1 : 0;
}
