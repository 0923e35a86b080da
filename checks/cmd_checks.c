// SPDX-License-Identifier: MIT
/* mstlab decode and mstlab verdict: the checks from the command line. */
#include "cmd_checks.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "bpdu.h"
#include "bpdu_print.h"
#include "opts.h"
#include "pcapread.h"
#include "print.h"
#include "report.h"
#include "result.h"

/* Lines go out in writes of this size: stdio's 4 KiB buffer would cost
 * a system call every few BPDUs. */
#define DECODE_OUT_SIZE (256 * 1024)
/* Malformed BPDUs named one by one on stderr; the rest only counted. */
#define DECODE_BAD_SHOWN 10

struct decode_ctx {
	FILE *out, *err;
	bool json;
	uint64_t frame;		/* number of the current frame, from 1 */
	unsigned long bad;
	char *buf;		/* DECODE_OUT_SIZE + BPDU_LINE_MAX */
	size_t used;
	bool write_failed;
};

static int decode_flush(struct decode_ctx *d)
{
	if (d->used && fwrite(d->buf, 1, d->used, d->out) != d->used)
		d->write_failed = true;
	d->used = 0;
	return d->write_failed ? -1 : 0;
}

static int decode_frame(void *ctx, int64_t ns, const uint8_t *frame,
			size_t len)
{
	struct decode_ctx *d = ctx;
	struct bpdu_frame f;
	enum bpdu_err e;
	struct bpdu b;

	d->frame++;
	if (len < 6 || memcmp(frame, bpdu_group_addr, 6))
		return 0;
	e = bpdu_frame_parse(frame, len, &f);
	/* Other protocols use the group address too: not BPDUs at all. */
	if (e == BPDU_ERR_FRAME_NOT_LLC || e == BPDU_ERR_FRAME_LLC)
		return 0;
	if (e == BPDU_OK)
		e = bpdu_decode(f.bpdu, f.bpdu_len, &b);
	if (e != BPDU_OK) {
		if (d->bad++ < DECODE_BAD_SHOWN)
			fprintf(d->err, "mstlab: frame %llu: %s: BPDU skipped\n",
				(unsigned long long)d->frame,
				bpdu_strerror(e));
		return 0;
	}
	d->used += bpdu_format(d->buf + d->used, d->json, d->frame, ns, &f,
			       &b);
	return d->used >= DECODE_OUT_SIZE ? decode_flush(d) : 0;
}

static const struct opt decode_opts[] = { OPT_FLAG("json", 'j'), { 0 } };

static const struct opt_spec decode_spec = {
	.opts = decode_opts,
	.flags = OPT_QUIET,
	.min_words = 1,
	.max_words = 1,
};

int cmd_decode(int argc, char **argv, FILE *out, FILE *err)
{
	struct decode_ctx d = { .out = out, .err = err };
	const char *path;
	struct errbuf e;
	struct opts o;
	int rc = 0, c;

	opts_start(&o, &decode_spec, argc, argv);
	while ((c = opts_next(&o)) == 'j')
		d.json = true;
	if (c != OPT_END) {
		fprintf(err, "usage: mstlab decode FILE.pcap [--json]\n");
		return 2;
	}
	path = argv[o.ind];
	d.buf = malloc(DECODE_OUT_SIZE + BPDU_LINE_MAX);
	if (!d.buf) {
		fprintf(err, "mstlab: out of memory\n");
		return 1;
	}
	/* A capture cut short still prints its whole frames first. */
	if (pcapread_file(path, decode_frame, &d, &e) && !d.write_failed) {
		fprintf(err, "mstlab: %s\n", e.msg);
		rc = 1;
	}
	if (decode_flush(&d) || fflush(out) || ferror(out)) {
		fprintf(err, "mstlab: %s: cannot write the output\n", path);
		rc = 1;
	}
	free(d.buf);
	if (d.bad)
		fprintf(err, "mstlab: %lu malformed BPDU%s skipped\n", d.bad,
			d.bad == 1 ? "" : "s");
	return rc;
}

/* What produced the run, from its folder; none from an older mstlab's. */
static void load_provenance(struct result_run *r, const char *run_dir)
{
	struct provenance *pv = malloc(sizeof(*pv));
	struct errbuf e;

	if (!pv)
		r->oom = true;
	else if (!provenance_load(pv, run_dir, &e))
		result_set_provenance(r, pv);
	free(pv);
}

/* The verdicts of run_dir as a model; a run folder that cannot be read
 * is one failed check. */
static void build_results(const struct topo *t, const char *run_dir,
			  struct result_run *r)
{
	struct analysis *a = calloc(1, sizeof(*a));
	struct result_scenario *sc;
	struct errbuf e;
	struct plan *p = NULL;

	result_init(r, t->name);
	load_provenance(r, run_dir);
	if (!a || plan_build(t, &p)) {
		r->oom = true;
	} else if (analysis_load(a, t, p, run_dir, &e)) {
		sc = result_add_scenario(r, NULL, 0, 0);
		result_add_check(r, sc, "load", RESULT_NO_TREE, NULL, false,
				 e.msg, NULL);
	} else {
		analysis_results(a, r);
	}
	if (a)
		analysis_free(a);
	free(a);
	plan_free(p);
}

int run_verdicts(const struct topo *t, const char *run_dir, FILE *out,
		 int *tap, struct result_counts *counts)
{
	struct result_run r;
	struct errbuf e;
	int failed;

	build_results(t, run_dir, &r);
	failed = report_tap(&r, out, tap);
	if (counts)
		*counts = result_count(&r, NULL);
	if (report_write_files(&r, run_dir, &e)) {
		fprintf(out, "not ok %d - checks: report files: %s\n", ++*tap,
			e.msg);
		failed++;
		if (counts) {
			counts->checks++;
			counts->failed++;
		}
	}
	result_free(&r);
	return failed;
}

void cmd_checks_result_line(FILE *out, const struct result_counts *checks,
			    const struct step_counts *steps,
			    const char *run_dir)
{
	char report[PATH_MAX + 16];
	bool fail = checks->failed || (steps && steps->failed);

	snprintf(report, sizeof(report), "%s/report.html", run_dir);
	fprintf(out, "RESULT: %s %u checks, %u failed, %u skipped",
		fail ? "FAIL" : "PASS", checks->checks, checks->failed,
		checks->skipped);
	if (steps)
		fprintf(out, "; steps: %u ok, %u failed", steps->ok,
			steps->failed);
	fprintf(out, " \xe2\x80\x94 %s\n", access(report, R_OK) ? run_dir :
						 report);
}

static const struct opt_spec verdict_spec = {
	.flags = OPT_QUIET,
	.min_words = 1,
	.max_words = 1,
};

int cmd_verdict(int argc, char **argv, FILE *out, FILE *err)
{
	char topo[PATH_MAX + 32];
	struct errbuf msg;
	const char *run_dir;
	struct topo_error te;
	struct topo *t;
	struct opts o;
	struct result_counts n = { 0 };
	int tap = 0, failed;

	opts_start(&o, &verdict_spec, argc, argv);
	if (opts_next(&o) != OPT_END) {
		fprintf(err, "usage: mstlab verdict RUN_DIR\n");
		return 2;
	}
	run_dir = argv[o.ind];
	snprintf(topo, sizeof(topo), "%s/topology.yaml", run_dir);
	if (topo_parse_file(topo, &t, &te)) {
		fprintf(err, "%s\n", topo_error_format(&te, &msg));
		return 1;
	}
	fprintf(out, "TAP version 14\n");
	failed = run_verdicts(t, run_dir, out, &tap, &n);
	fprintf(out, "1..%d\n", tap);
	cmd_checks_result_line(out, &n, NULL, run_dir);
	topo_free(t);
	return failed ? 1 : 0;
}
