// SPDX-License-Identifier: MIT
/* report.md: the verdict table of each scenario, for a merge request or
 * a wiki page. */
#include "report.h"

static const char *mark(enum result_status s)
{
	return s == RESULT_PASS ? "pass" : s == RESULT_FAIL ? "**FAIL**" :
							      "skip";
}

static void figures(FILE *out, const struct result_check *c)
{
	bool any = false;

	/* The tree-by-tree values are in summary.json; here the headline. */
	for (size_t i = 0; i < c->n_figures; i++) {
		if (c->figures[i].msti != RESULT_NO_TREE)
			continue;
		fputs(any ? ", " : "", out);
		report_put_md(out, c->figures[i].name);
		fputc(' ', out);
		report_put_number(out, c->figures[i].value);
		any = true;
	}
}

/* Times from the scenario's start, then the capture's own. */
static void evidence(FILE *out, const struct result_scenario *sc,
		     const struct result_check *c)
{
	for (size_t i = 0; i < c->n_evidence; i++) {
		fputs(i ? "<br>" : "", out);
		report_put_md(out, c->evidence[i].pcap);
		fprintf(out, " #%lu @ ", c->evidence[i].frame);
		report_put_rel_time(out, sc, c->evidence[i].ns);
		if (!sc->run_wide && sc->start_ns) {
			fputs(" (", out);
			report_put_time(out, c->evidence[i].ns);
			fputc(')', out);
		}
	}
}

static void scenario(FILE *out, const struct result_run *r,
		     const struct result_scenario *sc)
{
	struct result_counts n = result_count(r, sc);

	fputs("\n## ", out);
	report_put_md(out, sc->name);
	fprintf(out, ": %s (%u checks, %u failed)\n\n",
		n.failed ? "FAIL" : "PASS", n.checks, n.failed);
	fputs("| # | check | tree | link | result | detail | figures | "
	      "evidence |\n|---|---|---|---|---|---|---|---|\n", out);
	for (size_t i = 0; i < sc->n_checks; i++) {
		const struct result_check *c = &sc->checks[i];
		char tree[16];

		fprintf(out, "| %zu | ", i + 1);
		report_put_md(out, c->text);
		fputs(" | ", out);
		report_put_md(out, result_tree_name(c->msti, tree,
						    sizeof(tree)));
		fputs(" | ", out);
		report_put_md(out, c->link);
		fprintf(out, " | %s | ", mark(c->status));
		report_put_md(out, c->message);
		fputs(" | ", out);
		figures(out, c);
		fputs(" | ", out);
		evidence(out, sc, c);
		fputs(" |\n", out);
	}
}

/* Which mstlab, and per node where, under what and on which kernel. */
static void produced_by(FILE *out, const struct provenance *pv)
{
	fputs("\n## Produced by\n\n", out);
	if (!pv) {
		fprintf(out, "%s.\n", report_prov_none);
		return;
	}
	fputs("mstlab ", out);
	report_put_md(out, pv->mstlab[0] ? pv->mstlab : "unknown");
	fputs(".\n\n|", out);
	for (size_t k = 0; k < REPORT_PROV_COLS; k++)
		fprintf(out, " %s |", report_prov_cols[k]);
	fputs("\n|", out);
	for (size_t k = 0; k < REPORT_PROV_COLS; k++)
		fputs("---|", out);
	for (size_t i = 0; i < pv->n_nodes; i++) {
		fputs("\n|", out);
		for (size_t k = 0; k < REPORT_PROV_COLS; k++) {
			const char *v = report_prov_cell(&pv->nodes[i], k);

			fputc(' ', out);
			report_put_md(out, v[0] ? v : "unknown");
			fputs(" |", out);
		}
	}
	fputc('\n', out);
}

int report_md(const struct result_run *r, FILE *out)
{
	struct result_counts n = result_count(r, NULL);
	bool fail = n.failed || r->oom;

	fputs("# mstlab run of lab ", out);
	report_put_md(out, r->lab);
	fprintf(out, ": %s\n\n%u checks, %u failed, %u skipped; %lu frames, "
		"%lu BPDUs (%lu malformed).\n", fail ? "FAIL" : "PASS",
		n.checks, n.failed, n.skipped, r->frames, r->bpdus,
		r->bad_bpdus);
	if (r->warning) {
		fputs("\nWarning: ", out);
		report_put_md(out, r->warning);
		fputc('\n', out);
	}
	produced_by(out, r->prov);
	for (size_t i = 0; i < r->n_scenarios; i++)
		scenario(out, r, &r->scenarios[i]);
	return ferror(out) ? -1 : 0;
}
