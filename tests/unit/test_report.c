// SPDX-License-Identifier: MIT
/*
 * The renderers of a run's verdicts, on a small hand-built model: the
 * JSON parses back to the same figures, junit.xml and report.html are
 * well-formed XML (xmllint) with the right counts, and names holding
 * '<', '&' and '"' come out escaped, never raw.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child.h"
#include "report.h"
#include "report_svg.h"
#include "result.h"
#include "topo.h"
#include "unit.h"

#define S(x) ((int64_t)(x) * 1000000000LL)
/* A scenario name that breaks any renderer that forgets to escape. */
#define NASTY "s<1>&\"q\""
#define NASTY_XML "s&lt;1&gt;&amp;&quot;q&quot;"
#define PCAP1 "pcap/link1-sw1.p1-sw2.p1.pcap"
#define PCAP2 "pcap/link2-sw2.p2-sw3.p1.pcap"

/*
 * Lab "duo", trees CIST and MSTI 1. Scenario NASTY: a root check that
 * passes, a settle check that fails (6.5 s in MSTI 1, budget 5 s), a
 * skipped check; scenario "calm": one passing check.
 */
static void build(struct result_run *r)
{
	struct result_scenario *sc;
	struct result_check *c;

	result_init(r, "duo");
	r->analysed = true;
	r->frames = 40;
	r->bpdus = 30;
	r->n_trees = 2;
	r->trees[0] = 0;
	r->trees[1] = 1;
	sc = result_add_scenario(r, NASTY, S(100), S(120));
	result_add_event(r, sc, S(102), "mark", "before <failure>");
	result_add_event(r, sc, S(105), "link-down", "link1 carrier");
	result_add_event(r, sc, S(112), "link-up", "link1");
	c = result_add_check(r, sc, "root-before-failure", 1, NULL, true,
			     "msti 1 root is sw2 before the first failure",
			     "the BPDUs name sw2");
	c->at_ns = S(105);
	result_add_evidence(r, c, PCAP1, 3, S(104) + 1000);
	c = result_add_check(r, sc, "settle-link-down", RESULT_NO_TREE,
			     "link1", false,
			     "link-down link1 carrier settles in 6.500 s "
			     "(msti 1)",
			     "over the \"budget\" <5 s> & | more");
	c->at_ns = S(105);
	result_add_figure(r, c, "settle_s", 6.5, RESULT_NO_TREE);
	result_add_figure(r, c, "budget_s", 5, RESULT_NO_TREE);
	result_add_figure(r, c, "settle_s", 0.25, 0);
	result_add_figure(r, c, "settle_s", 6.5, 1);
	result_add_evidence(r, c, PCAP1, 17, S(111) + S(1) / 2);
	result_add_evidence(r, c, PCAP1, 18, S(111) + S(1) / 2 + 10);
	result_add_evidence(r, c, PCAP2, 9, S(111));
	c = result_add_check(r, sc, "flush-scope", 1, NULL, true,
			     "msti 1 flush scope is per-msti", NULL);
	result_skip(r, c, "no probe traffic");
	sc = result_add_scenario(r, "calm", S(120), S(130));
	result_add_check(r, sc, "no-loop", RESULT_NO_TREE, NULL, true,
			 "no frame goes round a loop", NULL);
}

static char *render(int (*fn)(const struct result_run *, FILE *),
		    const struct result_run *r, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*rc = fn(r, f);
	fclose(f);
	return buf;
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* xmllint's verdict on a document: its exit status (0: well-formed,
 * and valid against schema unless that is NULL). */
static int xmllint_schema(const char *doc, const char *schema)
{
	char path[] = "/tmp/mstlab-report-XXXXXX";
	char *argv[] = { "xmllint", "--noout", path, NULL, NULL, NULL };
	int fd = mkstemp(path), rc;

	if (schema) {
		argv[3] = "--schema";
		argv[4] = (char *)schema;
	}

	if (fd < 0)
		return -1;
	if (write(fd, doc, strlen(doc)) != (ssize_t)strlen(doc)) {
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	rc = spawn_run(argv, NULL, 20000);
	unlink(path);
	return rc;
}

static int xmllint(const char *doc)
{
	return xmllint_schema(doc, NULL);
}

TEST(xmllint_is_there_and_rejects_a_broken_document)
{
	/* Without this the well-formedness checks below could pass on a
	 * machine where xmllint does not run (deps.txt: libxml2-utils). */
	CHECK_INT(xmllint("<a><b>&amp;</b></a>"), 0);
	CHECK(xmllint("<a><b>&</b></a>") != 0);
	CHECK(xmllint("<a x=\"\"\"/>") != 0);
}

TEST(the_model_counts_and_names_checks)
{
	struct result_run r;
	struct result_counts n;
	struct result_check *c;

	build(&r);
	n = result_count(&r, NULL);
	CHECK_INT(n.checks, 4);
	CHECK_INT(n.failed, 1);
	CHECK_INT(n.skipped, 1);
	n = result_count_tree(&r.scenarios[0], 1);
	CHECK_INT(n.checks, 2);
	CHECK_INT(n.failed, 0);
	/* Ids are made of what a check is about. */
	CHECK_STR(r.scenarios[0].checks[0].id, "root-before-failure[msti 1]");
	CHECK_STR(r.scenarios[0].checks[1].id, "settle-link-down[link1]");
	c = result_add_check_on(&r, &r.scenarios[0], "outage", 1, NULL,
				"h1->h2 vlan 10", true, "flow", NULL);
	CHECK_STR(c->id, "outage[msti 1][h1->h2 vlan 10]");
	/* A second check of the very same things is told apart. */
	c = result_add_check(&r, &r.scenarios[0], "settle-link-down",
			     RESULT_NO_TREE, "link1", true, "again", NULL);
	CHECK(c != NULL);
	CHECK_STR(c->name, "settle-link-down");
	CHECK_STR(c->id, "settle-link-down[link1]#2");
	c = result_add_check(&r, &r.scenarios[0], "settle-link-down",
			     RESULT_NO_TREE, "link2", true, "other", NULL);
	CHECK_STR(c->id, "settle-link-down[link2]");
	c = result_add_check(&r, &r.scenarios[0], "settle-link-down",
			     RESULT_NO_TREE, "link1", true, "third", NULL);
	CHECK_STR(c->id, "settle-link-down[link1]#3");
	/* Another scenario counts its own. */
	c = result_add_check(&r, &r.scenarios[1], "settle-link-down",
			     RESULT_NO_TREE, "link1", true, "calm", NULL);
	CHECK_STR(c->id, "settle-link-down[link1]");
	/* Bytes no renderer could emit become '?'. */
	c = result_add_check(&r, &r.scenarios[1], "x", 0, NULL, true,
			     "a\x01" "b\xff" "c\xc3\xa9\xed\xa0\x80", NULL);
	CHECK_STR(c->text, "a?b?c\xc3\xa9???");
	CHECK(!r.oom);
	result_free(&r);
}

TEST(tap_from_the_model)
{
	struct result_run r;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int tap = 4, failed;

	build(&r);
	failed = report_tap(&r, f, &tap);
	fclose(f);
	CHECK_INT(failed, 1);
	CHECK_INT(tap, 8);
	CHECK(starts_with(out, "# checks: 40 frames, 30 BPDUs (0 malformed)\n"
			  "ok 5 - check " NASTY ": msti 1 root is sw2 before "
			  "the first failure\nnot ok 6 "));
	CHECK(strstr(out, "\nnot ok 6 - check " NASTY ": link-down link1 "
			  "carrier settles in 6.500 s (msti 1)\n# over the "
			  "\"budget\" <5 s> & | more\nok 7 - ") != NULL);
	CHECK(strstr(out, "\nok 7 - check " NASTY ": msti 1 flush scope is "
			  "per-msti # SKIP no probe traffic\n") != NULL);
	CHECK(strstr(out, "\nok 8 - check calm: no frame goes round a "
			  "loop\n") != NULL);
	free(out);
	result_free(&r);
}

static json_t *find_tree(json_t *trees, int msti)
{
	size_t i;
	json_t *t;

	json_array_foreach(trees, i, t)
		if (json_integer_value(json_object_get(t, "msti")) == msti)
			return t;
	return NULL;
}

TEST(summary_json_parses_and_holds_verdicts_and_figures)
{
	struct result_run r;
	json_error_t je;
	json_t *root, *sc, *chk, *t1, *t0, *ev;
	char *out;
	int rc;

	build(&r);
	out = render(report_json, &r, &rc);
	CHECK_INT(rc, 0);
	root = json_loads(out, 0, &je);
	CHECK(root != NULL);
	CHECK_STR(json_string_value(json_object_get(root, "result")), "fail");
	CHECK_INT(json_integer_value(json_object_get(
			  json_object_get(root, "counts"), "checks")), 4);
	CHECK_INT(json_integer_value(json_object_get(
			  json_object_get(root, "counts"), "failed")), 1);
	CHECK_INT(json_array_size(json_object_get(root, "scenarios")), 2);
	sc = json_array_get(json_object_get(root, "scenarios"), 0);
	CHECK_STR(json_string_value(json_object_get(sc, "name")), NASTY);
	CHECK_STR(json_string_value(json_object_get(sc, "result")), "fail");
	CHECK(json_real_value(json_object_get(sc, "duration_s")) == 20.0);
	/* Per tree: MSTI 1 has the two checks about it and 6.5 s. */
	t1 = find_tree(json_object_get(sc, "trees"), 1);
	t0 = find_tree(json_object_get(sc, "trees"), 0);
	CHECK(t1 && t0);
	CHECK_INT(json_integer_value(json_object_get(
			  json_object_get(t1, "counts"), "checks")), 2);
	CHECK(json_real_value(json_array_get(json_object_get(
		      json_object_get(t1, "figures"), "settle_s"), 0)) == 6.5);
	CHECK(json_real_value(json_array_get(json_object_get(
		      json_object_get(t0, "figures"), "settle_s"), 0)) == 0.25);
	chk = json_array_get(json_object_get(sc, "checks"), 1);
	CHECK_STR(json_string_value(json_object_get(chk, "name")),
		  "settle-link-down");
	CHECK_STR(json_string_value(json_object_get(chk, "result")), "fail");
	CHECK_STR(json_string_value(json_object_get(chk, "link")), "link1");
	CHECK(json_is_null(json_object_get(chk, "msti")));
	CHECK_STR(json_string_value(json_object_get(chk, "message")),
		  "over the \"budget\" <5 s> & | more");
	CHECK(json_real_value(json_object_get(json_object_get(chk, "figures"),
					      "budget_s")) == 5.0);
	CHECK(json_real_value(json_object_get(json_object_get(
		      json_object_get(chk, "tree_figures"), "msti 1"),
		      "settle_s")) == 6.5);
	CHECK_INT(json_integer_value(json_object_get(chk, "at_ns")), S(105));
	ev = json_array_get(json_object_get(chk, "evidence"), 2);
	CHECK_STR(json_string_value(json_object_get(ev, "pcap")), PCAP2);
	CHECK_INT(json_integer_value(json_object_get(ev, "frame")), 9);
	CHECK_INT(json_integer_value(json_object_get(ev, "time_ns")), S(111));
	CHECK_STR(json_string_value(json_object_get(json_array_get(
			  json_object_get(sc, "events"), 0), "arg")),
		  "before <failure>");
	chk = json_array_get(json_object_get(sc, "checks"), 2);
	CHECK_STR(json_string_value(json_object_get(chk, "result")), "skip");
	json_decref(root);
	free(out);
	result_free(&r);
}

TEST(junit_xml_is_well_formed_with_counts_failures_and_attachments)
{
	struct result_run r;
	char *out, *settle, *end;
	int rc;

	build(&r);
	out = render(report_junit, &r, &rc);
	CHECK_INT(rc, 0);
	CHECK_INT(xmllint(out), 0);
	CHECK(strstr(out, "<testsuites name=\"duo\" tests=\"4\" failures=\"1\" "
			  "errors=\"0\" skipped=\"1\" time=\"30.000\">") != NULL);
	CHECK(strstr(out, "<testsuite name=\"duo." NASTY_XML "\" tests=\"3\" "
			  "failures=\"1\" errors=\"0\" skipped=\"1\" "
			  "time=\"20.000\">") != NULL);
	CHECK(strstr(out, "<testsuite name=\"duo.calm\" tests=\"1\" "
			  "failures=\"0\"") != NULL);
	CHECK_INT(count(out, "<testcase "), 4);
	CHECK_INT(count(out, "<failure "), 1);
	CHECK_INT(count(out, "<skipped "), 1);
	CHECK(strstr(out, "classname=\"duo." NASTY_XML "\" "
			  "name=\"root-before-failure[msti 1]\" "
			  "time=\"0.000\">") != NULL);
	settle = strstr(out, "name=\"settle-link-down[link1]\" "
			     "time=\"6.500\">\n      <failure message=\"over "
			     "the &quot;budget&quot; &lt;5 s&gt; &amp; | "
			     "more\" type=\"settle-link-down\">");
	CHECK(settle != NULL);
	end = strstr(settle, "</testcase>");
	CHECK(end != NULL);
	*end = 0;
	/* Three pieces of evidence in two captures: two attachments. */
	CHECK_INT(count(settle, "[[ATTACHMENT|" PCAP1 "]]"), 1);
	CHECK_INT(count(settle, "[[ATTACHMENT|" PCAP2 "]]"), 1);
	CHECK(strstr(settle, "evidence: " PCAP1 " frame 17 at 111.500000000 "
			     "(wireshark -Y frame.number==17)\n") != NULL);
	CHECK(strstr(out, NASTY) == NULL);
	free(out);
	result_free(&r);
}

TEST(report_html_has_rows_timelines_and_escapes)
{
	struct result_run r;
	char *out;
	int rc;

	build(&r);
	out = render(report_html, &r, &rc);
	CHECK_INT(rc, 0);
	/* Written as well-formed XML so a parser can check the escaping. */
	CHECK_INT(xmllint(out), 0);
	CHECK(starts_with(out, "<!DOCTYPE html>\n"));
	CHECK(strstr(out, "<style>") != NULL);
	CHECK(strstr(out, "<script") == NULL);
	CHECK(strstr(out, "<h1>mstlab lab duo: <span class=\"fail\">FAIL"
			  "</span></h1>") != NULL);
	CHECK(strstr(out, "<h2>" NASTY_XML ": <span class=\"fail\">FAIL")
	      != NULL);
	CHECK(strstr(out, NASTY) == NULL);
	/* One row per check, failures marked. */
	CHECK_INT(count(out, "<tr class=\"pass\""), 2);
	CHECK_INT(count(out, "<tr class=\"fail\""), 1);
	CHECK_INT(count(out, "<tr class=\"skip\""), 1);
	CHECK(strstr(out, "<td>over the &quot;budget&quot; &lt;5 s&gt; &amp; "
			  "| more</td>") != NULL);
	/* A timeline per tree of the scenario with link events (none for
	 * the other: it says so); MSTI 1's bar is over budget. */
	CHECK_INT(count(out, "<svg "), 2);
	CHECK_INT(count(out, "No link failed or came back in this scenario"),
		  1);
	CHECK_INT(count(out, "class=\"bar-fail\""), 1);
	CHECK_INT(count(out, "class=\"budget\""), 2);
	CHECK(strstr(out, "class=\"ev\">before &lt;failure&gt;</text>")
	      != NULL);
	/* Evidence times from the scenario's start (100 s), the capture's
	 * own on hover. */
	CHECK(strstr(out, "<code>" PCAP2 "</code> frame 9 at <span title="
			  "\"111.000000000\">+11.000 s</span>") != NULL);
	free(out);
	result_free(&r);
}

TEST(report_md_has_a_table_per_scenario)
{
	struct result_run r;
	char *out;
	int rc;

	build(&r);
	out = render(report_md, &r, &rc);
	CHECK_INT(rc, 0);
	CHECK(starts_with(out, "# mstlab run of lab duo: FAIL\n"));
	CHECK(strstr(out, "\n## s&lt;1&gt;&amp;\"q\": FAIL (3 checks, 1 "
			  "failed)\n") != NULL);
	CHECK(strstr(out, "\n## calm: PASS (1 checks, 0 failed)\n") != NULL);
	CHECK_INT(count(out, "\n|---|"), 2);
	CHECK(strstr(out, "| 2 | link-down link1 carrier settles in 6.500 s "
			  "(msti 1) |  | link1 | **FAIL** | over the \"budget\" "
			  "&lt;5 s&gt; &amp; \\| more | settle\\_s 6.5, "
			  "budget\\_s 5 | ") != NULL);
	/* Evidence from the scenario's start, then the capture's time. */
	CHECK(strstr(out, PCAP2 " #9 @ +11.000 s (111.000000000)") != NULL);
	free(out);
	result_free(&r);
}

TEST(report_files_land_in_the_run_folder)
{
	static const char *names[] = { "summary.json", "junit.xml",
				       "report.md", "report.html" };
	char dir[] = "/tmp/mstlab-report-XXXXXX", path[128];
	struct errbuf err = { "" };
	struct result_run r;
	struct stat st;

	CHECK(mkdtemp(dir) != NULL);
	build(&r);
	CHECK_INT(report_write_files(&r, dir, &err), 0);
	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		CHECK(stat(path, &st) == 0 && st.st_size > 100);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s.tmp", dir, names[i]);
		CHECK(stat(path, &st) != 0);
	}
	rmdir(dir);
	/* The folder is gone now: the error names the file. */
	CHECK_INT(report_write_files(&r, dir, &err), -1);
	snprintf(path, sizeof(path), "%s/summary.json.tmp: ", dir);
	CHECK(starts_with(err.msg, path));
	result_free(&r);
}

/* Our schema of the junit.xml CI reads. */
static json_t *summary_of(const struct result_run *r);

static int junit_schema(const char *doc)
{
	return xmllint_schema(doc, "tests/unit/junit.xsd");
}

TEST(junit_xml_is_valid_against_the_schema)
{
	struct result_run r;
	char *out, *p;
	int rc;

	CHECK(access("tests/unit/junit.xsd", R_OK) == 0);
	build(&r);
	out = render(report_junit, &r, &rc);
	CHECK_INT(rc, 0);
	CHECK_INT(junit_schema(out), 0);
	/* The schema can say no: a failure without its type. */
	p = strstr(out, " type=\"settle-link-down\"");
	CHECK(p != NULL);
	memset(p, ' ', strlen(" type=\"settle-link-down\""));
	CHECK(junit_schema(out) != 0);
	free(out);
	result_free(&r);
}

/* build()'s run as produced by two nodes: sw1 here under TCG, sw2 on
 * another host whose files are not known here; one field with a control
 * character and markup, as a hostile provenance.json could have it. */
static void build_with_provenance(struct result_run *r)
{
	static const struct provenance pv = {
		.mstlab = "v1.2-3-gabc\x01<x>",
		.n_nodes = 2,
		.nodes = {
			{ "sw1", "ci-3", "tcg", "default", "6.1.158",
			  "#1a2b3c4d", "sha256:0011223344556677" },
			{ "sw2", "far.example", "kvm", "debug", "", "", "" },
		},
	};

	build(r);
	result_set_provenance(r, &pv);
}

TEST(provenance_is_in_every_verdict_file)
{
	struct result_run r;
	json_t *root, *prov, *n;
	char *junit, *md, *html;
	int rc;

	build_with_provenance(&r);
	CHECK(!r.oom);
	CHECK_STR(r.prov->mstlab, "v1.2-3-gabc?<x>");
	root = summary_of(&r);
	CHECK(root != NULL);
	CHECK_INT(json_integer_value(json_object_get(root, "version")), 2);
	prov = json_object_get(root, "provenance");
	CHECK_STR(json_string_value(json_object_get(prov, "mstlab")),
		  "v1.2-3-gabc?<x>");
	n = json_array_get(json_object_get(prov, "nodes"), 0);
	CHECK_STR(json_string_value(json_object_get(n, "name")), "sw1");
	CHECK_STR(json_string_value(json_object_get(n, "host")), "ci-3");
	CHECK_STR(json_string_value(json_object_get(n, "virt")), "tcg");
	CHECK_STR(json_string_value(json_object_get(n, "kernel")), "default");
	CHECK_STR(json_string_value(json_object_get(n, "release")), "6.1.158");
	CHECK_STR(json_string_value(json_object_get(n, "series")),
		  "#1a2b3c4d");
	CHECK_STR(json_string_value(json_object_get(n, "image")),
		  "sha256:0011223344556677");
	n = json_array_get(json_object_get(prov, "nodes"), 1);
	CHECK(json_is_null(json_object_get(n, "release")));
	CHECK_STR(json_string_value(json_object_get(n, "virt")), "kvm");
	json_decref(root);

	junit = render(report_junit, &r, &rc);
	CHECK_INT(rc, 0);
	CHECK_INT(junit_schema(junit), 0);
	/* In every suite, so that a CI showing one suite shows it. */
	CHECK_INT(count(junit, "<properties>"), 2);
	CHECK(strstr(junit, "<property name=\"mstlab\" "
			    "value=\"v1.2-3-gabc?&lt;x&gt;\"/>"));
	CHECK(strstr(junit, "<property name=\"node.sw1.release\" "
			    "value=\"6.1.158\"/>"));
	CHECK(strstr(junit, "<property name=\"node.sw1.series\" "
			    "value=\"#1a2b3c4d\"/>"));
	CHECK(strstr(junit, "<property name=\"node.sw2.host\" "
			    "value=\"far.example\"/>"));
	/* What is not known is left out, not written empty. */
	CHECK(!strstr(junit, "node.sw2.release"));

	md = render(report_md, &r, &rc);
	CHECK_INT(rc, 0);
	CHECK(strstr(md, "\n## Produced by\n\nmstlab v1.2-3-gabc?&lt;x&gt;."
			 "\n\n| node | host | virt | kernel | release | series "
			 "| image |\n"));
	CHECK(strstr(md, "\n| sw1 | ci-3 | tcg | default | 6.1.158 | "
			 "#1a2b3c4d | sha256:0011223344556677 |\n"));
	CHECK(strstr(md, "\n| sw2 | far.example | kvm | debug | unknown | "
			 "unknown | unknown |\n"));

	html = render(report_html, &r, &rc);
	CHECK_INT(rc, 0);
	CHECK_INT(xmllint(html), 0);
	CHECK(strstr(html, "<h2>Produced by</h2>\n<p>mstlab "
			   "v1.2-3-gabc?&lt;x&gt;.</p>"));
	CHECK(strstr(html, "<td>sw1</td><td>ci-3</td><td>tcg</td>"
			   "<td>default</td><td>6.1.158</td><td>#1a2b3c4d</td>"));
	free(junit);
	free(md);
	free(html);
	result_free(&r);
}

TEST(a_run_without_provenance_says_so)
{
	struct result_run r;
	json_t *root;
	char *junit, *md;
	int rc;

	build(&r);
	root = summary_of(&r);
	CHECK(json_is_null(json_object_get(root, "provenance")));
	json_decref(root);
	junit = render(report_junit, &r, &rc);
	CHECK(!strstr(junit, "<properties>"));
	md = render(report_md, &r, &rc);
	CHECK(strstr(md, "\n## Produced by\n\nnot recorded (the run folder "
			 "has no provenance.json).\n"));
	free(junit);
	free(md);
	result_free(&r);
}

/*
 * The model of build() plus a lab (sw1, sw2, sw3 in a triangle, host h1
 * on sw1) and two snapshots of the first scenario: MSTI 1 before the
 * failure (root sw1; sw3:p1 alternate; sw3:p2 sw3's root port, deduced)
 * and the CIST at the end with link3 down.
 */
#define FWD PORT_STATE_FORWARDING
#define DISC PORT_STATE_DISCARDING

static void build_topo(struct result_run *r)
{
	static const char *const ends[4][4] = {
		{ "sw1", "p1", "sw2", "p1" }, { "sw2", "p2", "sw3", "p1" },
		{ "sw3", "p2", "sw1", "p2" }, { "sw1", "p3", "h1", "eth1" },
	};
	static const size_t node[4][2] = { { 0, 1 }, { 1, 2 }, { 2, 0 },
					   { 0, 3 } };
	struct result_snapshot *s;

	build(r);
	result_add_node(r, "sw1", TOPO_ROLE_BRIDGE);
	result_add_node(r, "sw2", TOPO_ROLE_BRIDGE);
	result_add_node(r, "sw3", TOPO_ROLE_BRIDGE);
	result_add_node(r, "h1", TOPO_ROLE_HOST);
	for (size_t l = 0; l < 4; l++) {
		char name[8], pcap[64];
		const char *port[2] = { ends[l][1], ends[l][3] };

		snprintf(name, sizeof(name), "link%zu", l + 1);
		snprintf(pcap, sizeof(pcap), "pcap/%s.pcap", name);
		result_add_link(r, name, pcap, node[l], port);
	}
	s = result_add_snapshot(r, &r->scenarios[0], "before-failure", NULL,
				S(105), 1);
	s->root = 0;
	s->ports[0] = (struct result_port){ PORT_ROLE_DESIGNATED, FWD,
					    false, false, 3 };
	s->ports[1] = (struct result_port){ PORT_ROLE_ROOT, FWD, false,
					    false, 4 };
	s->ports[2] = (struct result_port){ PORT_ROLE_DESIGNATED, FWD,
					    false, false, 5 };
	s->ports[3] = (struct result_port){ PORT_ROLE_ALTERNATE, DISC,
					    false, false, 6 };
	s->ports[4] = (struct result_port){ PORT_ROLE_ROOT, FWD, true,
					    false, 0 };
	s->ports[5] = s->ports[2];
	s->ports[6] = s->ports[2];
	s = result_add_snapshot(r, &r->scenarios[0], "end", "link-down link3",
				S(120) - 1, 0);
	s->root = 0;
	s->ports[4].down = s->ports[5].down = true;
	s->ports[5].role = PORT_ROLE_DESIGNATED;
}

TEST(topology_dot_has_root_root_ports_and_blocked_ends)
{
	struct result_run r;
	struct sbuf o;
	const char *g;

	build_topo(&r);
	CHECK(!r.oom);
	sbuf_init(&o);
	report_topo_dot(&r, &r.scenarios[0].snapshots[0], &o);
	g = sbuf_str(&o);
	CHECK(strstr(g, "\n  \"sw1\" [shape=box, class=\"bridge root\", "
		      "style=\"filled,bold\", fillcolor=\"#ffd54f\"") != NULL);
	CHECK(strstr(g, "\n  \"h1\" [shape=ellipse, class=\"host\"") != NULL);
	CHECK(strstr(g, "\n  \"sw2\" -- \"link1\" [taillabel=\"p1 R\", "
		      "class=\"port rootport\", dir=forward") != NULL);
	CHECK(strstr(g, "\n  \"sw3\" -- \"link2\" [taillabel=\"p1 A\", "
		      "class=\"port blocked\", style=dashed") != NULL);
	CHECK(strstr(g, "\n  \"sw3\" -- \"link3\" [taillabel=\"p2 R?\", "
		      "class=\"port rootport inferred\"") != NULL);
	CHECK_INT(count(g, "style=dashed"), 1);
	CHECK_INT(count(g, "fillcolor=\"#ffd54f\""), 1);
	/* Any role deduced is marked so, a designated one too (an MSTI's at
	 * a boundary port follows the CIST's). */
	sbuf_reset(&o);
	r.scenarios[0].snapshots[0].ports[2].inferred = true;
	report_topo_dot(&r, &r.scenarios[0].snapshots[0], &o);
	CHECK(strstr(sbuf_str(&o), "\n  \"sw2\" -- \"link2\" [taillabel="
		      "\"p2 D?\", class=\"port designated inferred\"]")
	      != NULL);
	sbuf_reset(&o);
	report_topo_dot(&r, &r.scenarios[0].snapshots[1], &o);
	g = sbuf_str(&o);
	CHECK(strstr(g, "\n  \"sw1\" -- \"link3\" [taillabel=\"p2 D down\", "
		      "class=\"port down\", style=dotted") != NULL);
	CHECK_INT(count(g, "style=dashed"), 0);
	sbuf_free(&o);
	result_free(&r);
}

/* The drawing inside one <figure class="topo">, as a string. */
static char *figure_of(const char *html, const char *data_tree)
{
	const char *p = strstr(html, data_tree), *end;

	if (!p || !(end = strstr(p, "</figure>")))
		return NULL;
	return strndup(p, (size_t)(end - p));
}

TEST(report_html_draws_each_snapshot_with_graphviz)
{
	struct result_run r;
	char *out, *fig;
	int rc;

	build_topo(&r);
	out = render(report_html, &r, &rc);
	CHECK_INT(rc, 0);
	CHECK_INT(xmllint(out), 0);
	CHECK(strstr(out, "<script") == NULL);
	CHECK(strstr(out, "<?xml") == NULL);
	CHECK(strstr(out, "<!DOCTYPE svg") == NULL);
	CHECK_INT(count(out, "<svg class=\"topology\" "), 2);
	CHECK(strstr(out, "<p class=\"instant\">Before the first failure "
			  "(5.000 s into the scenario)</p>") != NULL);
	CHECK(strstr(out, "<p class=\"instant\">At the end, after link-down "
			  "link3 (20.000 s into the scenario)</p>") != NULL);
	fig = figure_of(out, "data-tree=\"1\" data-at=\"before-failure\"");
	CHECK(fig != NULL);
	CHECK(strstr(fig, "<figcaption>msti 1: root sw1</figcaption>"));
	/* Graphviz drew sw1 filled and sw3:p1's half of link2 dashed. */
	CHECK(strstr(fig, "<g id=\"node1\" class=\"node bridge root\">\n"
			  "<title>sw1</title>\n<polygon fill=\"#ffd54f\"")
	      != NULL);
	CHECK_INT(count(fig, "class=\"edge port blocked\""), 1);
	CHECK(strstr(strstr(fig, "class=\"edge port blocked\""),
		     "stroke-dasharray") != NULL);
	CHECK_INT(count(fig, "class=\"edge port rootport"), 2);
	free(fig);
	fig = figure_of(out, "data-tree=\"0\" data-at=\"end\"");
	CHECK(fig != NULL);
	CHECK_INT(count(fig, "class=\"edge port down\""), 2);
	CHECK_INT(count(fig, "class=\"edge port blocked\""), 0);
	free(fig);
	free(out);
	result_free(&r);
}

/* Runs report_html with PATH holding only dir (a fake dot, or none). */
static char *html_with_path(const struct result_run *r, const char *dir)
{
	char *old = strdup(getenv("PATH") ? getenv("PATH") : ""), *out;
	int rc;

	setenv("PATH", dir, 1);
	out = render(report_html, r, &rc);
	setenv("PATH", old, 1);
	free(old);
	return out;
}

TEST(a_drawing_is_left_out_if_dot_fails_or_writes_script)
{
	static const char fake[] =
		"#!/bin/sh\ncat >/dev/null\necho '<svg width=\"1\"><g "
		"onload=\"x()\"/><script>alert(1)</script></svg>'\n";
	char dir[] = "/tmp/mstlab-dot-XXXXXX", path[64];
	struct result_run r;
	char *out;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/dot", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fputs(fake, f);
	fclose(f);
	chmod(path, 0755);
	build_topo(&r);
	out = html_with_path(&r, dir);
	CHECK(strstr(out, "alert") == NULL && strstr(out, "onload") == NULL);
	CHECK_INT(count(out, "<p class=\"topo-missing\">No drawing: dot "
			     "wrote no plain SVG</p>"), 2);
	free(out);
	unlink(path);
	out = html_with_path(&r, dir);	/* no dot at all */
	CHECK_INT(count(out, "<p class=\"topo-missing\">No drawing: dot: "
			     "No such file or directory (Debian package "
			     "graphviz)</p>"), 2);
	CHECK_INT(xmllint(out), 0);
	free(out);
	rmdir(dir);
	result_free(&r);
}

/* summary.json of r, parsed back; NULL if it does not parse. */
static json_t *summary_of(const struct result_run *r)
{
	json_error_t je;
	json_t *root;
	int rc;
	char *out = render(report_json, r, &rc);

	root = rc ? NULL : json_loads(out, 0, &je);
	free(out);
	return root;
}

TEST(summary_json_holds_the_lab_and_each_snapshot)
{
	struct result_run r;
	json_t *root, *snap, *port, *topo;

	build_topo(&r);
	root = summary_of(&r);
	CHECK(root != NULL);
	topo = json_object_get(root, "topology");
	CHECK_INT(json_array_size(json_object_get(topo, "nodes")), 4);
	CHECK_STR(json_string_value(json_object_get(json_array_get(
			  json_object_get(topo, "nodes"), 3), "role")), "host");
	CHECK_STR(json_string_value(json_array_get(json_object_get(
			  json_array_get(json_object_get(topo, "links"), 1),
			  "ports"), 1)), "p1");
	snap = json_array_get(json_object_get(json_array_get(
		json_object_get(root, "scenarios"), 0), "topology"), 0);
	CHECK_STR(json_string_value(json_object_get(snap, "at")),
		  "before-failure");
	CHECK_STR(json_string_value(json_object_get(snap, "root")), "sw1");
	CHECK_INT(json_integer_value(json_object_get(snap, "msti")), 1);
	CHECK_INT(json_array_size(json_object_get(snap, "ports")), 8);
	port = json_array_get(json_object_get(snap, "ports"), 3);
	CHECK_STR(json_string_value(json_object_get(port, "node")), "sw3");
	CHECK_STR(json_string_value(json_object_get(port, "role")),
		  "alternate");
	CHECK(json_is_true(json_object_get(port, "blocked")));
	CHECK_INT(json_integer_value(json_object_get(port, "frame")), 6);
	port = json_array_get(json_object_get(snap, "ports"), 4);
	CHECK(json_is_true(json_object_get(port, "inferred")));
	CHECK(json_is_null(json_object_get(port, "frame")));
	/* The second scenario has no snapshot: no key. */
	CHECK(json_object_get(json_array_get(json_object_get(root,
			"scenarios"), 1), "topology") == NULL);
	json_decref(root);
	result_free(&r);
}
