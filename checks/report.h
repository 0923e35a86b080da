/* SPDX-License-Identifier: MIT */
/*
 * The renderers of a run's verdicts (result.h): TAP 14 on stdout and the
 * files a run folder gets (results/README.md). Each reads the model only.
 */
#ifndef MSTLAB_REPORT_H
#define MSTLAB_REPORT_H

#include <stdio.h>

#include "errbuf.h"
#include "result.h"

/* TAP lines numbered from *tap + 1 (no header, no plan); the failures. */
int report_tap(const struct result_run *r, FILE *out, int *tap);

/* Each writes one whole document; 0, or -1 on a write or memory error. */
int report_json(const struct result_run *r, FILE *out);	/* summary.json */
int report_junit(const struct result_run *r, FILE *out);	/* junit.xml */
int report_md(const struct result_run *r, FILE *out);		/* report.md */
int report_html(const struct result_run *r, FILE *out);	/* report.html */

/* Writes the four files into dir; 0, or -1 with err. */
int report_write_files(const struct result_run *r, const char *dir,
		       struct errbuf *err);

/* Shared by the renderers. */
/* s with & < > " ' as entities: safe in XML/HTML text and attributes. */
void report_put_xml(FILE *out, const char *s);
/* s safe inside a Markdown table cell: no '|', no raw HTML. */
void report_put_md(FILE *out, const char *s);
/* The provenance table of report.md and report.html, and the keys of
 * junit.xml's properties: each node's fields by column (the node's
 * name first), "" where not known. */
#define REPORT_PROV_COLS 7
extern const char *const report_prov_cols[REPORT_PROV_COLS];
const char *report_prov_cell(const struct provenance_node *n, size_t col);
/* Said where a run has no provenance. */
extern const char report_prov_none[];
/* Seconds from ns, for display. */
double report_seconds(int64_t ns);
/* A capture time as Wireshark's frame.time_epoch: "1796350664.080709803". */
void report_put_time(FILE *out, int64_t ns);
/* The same from the scenario's start, "+5.500 s" (the run-wide checks,
 * which have no start, keep the epoch). */
void report_put_rel_time(FILE *out, const struct result_scenario *sc,
			 int64_t ns);
/* Whether a scenario has anything to draw on a timeline: a link event. */
bool report_has_timeline(const struct result_scenario *sc);
/* A figure's value ("%g"), or "none" where there is none (NaN: e.g. a
 * tree's tc_first_s for an event without TC; summary.json's null). */
void report_put_number(FILE *out, double v);

#endif
