// SPDX-License-Identifier: MIT
/*
 * mstlab watch without a lab: BPDUs encoded with the daemon's codec go
 * into the tree-state engine (its rules: test_trees); the 80×24 screen
 * and the JSON lines that render its changes are checked; the follower
 * reads a capture written in pieces; the command replays a run folder
 * and refuses a lab that is not up.
 */
#include <jansson.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpdu.h"
#include "child.h"
#include "cli.h"
#include "plan.h"
#include "checks_fixture.h"
#include "unit.h"
#include "events.h"
#include "follow.h"
#include "trees.h"
#include "watch_render.h"

/* triangle.yaml's bridges: sw1 roots the CIST and MSTI 1, sw2 MSTI 2. */
static const char tri_yaml[] =
	"name: tri\n"
	"mst: { region: tri, instances: { 1: [10], 2: [20] } }\n"
	"nodes:\n"
	"  sw1: { role: bridge, priority: { cist: 4096, 1: 4096 } }\n"
	"  sw2: { role: bridge, priority: { 2: 4096 } }\n"
	"  sw3: { role: bridge }\n"
	"links:\n"
	"  - [sw1:p1, sw2:p1]\n"
	"  - [sw2:p2, sw3:p1]\n"
	"  - [sw3:p2, sw1:p2]\n";

#define S(x) ((int64_t)(x) * 1000000000LL)
#define MAX_EV 256

struct fx {
	struct topo *t;
	struct plan *p;
	struct trees tr;
	size_t n;
	struct trees_change ev[MAX_EV];
	struct event line[MAX_EV];	/* the log lines changes point to */
};

static void record(void *ctx, const struct trees_change *e)
{
	struct fx *f = ctx;

	if (f->n == MAX_EV)
		return;
	f->ev[f->n] = *e;
	if (e->event) {	/* valid during the callback only */
		f->line[f->n] = *e->event;
		f->ev[f->n].event = &f->line[f->n];
	}
	f->n++;
}

static int fx_init(struct fx *f, const char *yaml)
{
	struct topo_error te;

	memset(f, 0, sizeof(*f));
	if (topo_parse_buffer("t.yaml", yaml, strlen(yaml), &f->t, &te) ||
	    plan_build(f->t, &f->p) ||
	    trees_init(&f->tr, f->t, f->p, TREES_LIVE))
		return -1;
	f->tr.emit = record;
	f->tr.emit_ctx = f;
	return 0;
}

static void fx_free(struct fx *f)
{
	trees_free(&f->tr);
	plan_free(f->p);
	topo_free(f->t);
}

static void send_adv(struct fx *f, int64_t ns, int node, int port,
		     struct fx_adv a0, struct fx_adv a1, struct fx_adv a2)
{
	const struct fx_adv adv[3] = { a0, a1, a2 };
	uint8_t buf[BPDU_FRAME_MAX_LEN];
	size_t len = fx_mst_bpdu(f->p, node, port, 0, (const int[2]){ 0, 1 }, adv, buf, sizeof(buf));
	int link = f->t->nodes[node].ports[port].link;

	trees_frame(&f->tr, ns, link, 0, buf, len);
}

static void log_line(struct fx *f, const char *line)
{
	struct event e;

	if (!event_parse(line, &e))
		trees_event(&f->tr, &e);
}

static const struct fx_adv DF = { BPDU_ROLE_DESIGNATED, true, false };
static const struct fx_adv AD = { BPDU_ROLE_ALT_BACKUP, false, false };
static const struct fx_adv RF = { BPDU_ROLE_ROOT, true, false };

/* The visible width of a line: ANSI SGR sequences take no columns. */
static int visible(const char *s, size_t n)
{
	int w = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\033') {
			while (i < n && s[i] != 'm')
				i++;
			continue;
		}
		w++;
	}
	return w;
}

static void fill_log(struct fx *f, struct watch_log *log)
{
	char line[WATCH_LINE_MAX];

	for (size_t i = 0; i < f->n; i++) {
		watch_event_text(&f->tr, &f->ev[i], line, sizeof(line));
		watch_log_add(log, line);
	}
}

static int screen_lines(const char *s, int width, int *widest)
{
	int lines = 0;

	*widest = 0;
	while (*s) {
		size_t k = strcspn(s, "\n");
		int w = visible(s, k);

		if (w > *widest)
			*widest = w;
		lines++;
		s += k + (s[k] ? 1 : 0);
	}
	(void)width;
	return lines;
}

TEST(the_screen_fits_80x24_with_the_root_highlighted)
{
	struct watch_log log = { 0 };
	struct watch_screen scr = { 80, 24, true, "tri-20261204-080000",
				    S(1800000000) };
	struct fx f;
	struct sbuf sb;
	int widest, lines;

	CHECK(fx_init(&f, tri_yaml) == 0);
	for (int i = 0; i < 20; i++) {
		send_adv(&f, S(2 * i + 1), 2, 1, AD, i & 1 ? DF : AD, DF);
		send_adv(&f, S(2 * i + 1), 0, 0, DF, DF, RF);
		log_line(&f, "1 step 12 a long step text that goes on and on "
			 "and on and on and on and on and on past the edge of "
			 "any terminal");
	}
	fill_log(&f, &log);
	sbuf_init(&sb);
	watch_render_screen(&f.tr, &log, &scr, &sb);
	lines = screen_lines(sbuf_str(&sb), 80, &widest);
	CHECK(widest <= 80);
	CHECK_INT(lines, 23);
	CHECK(strstr(sbuf_str(&sb), "\033[1;7msw1\033[0m"));	/* CIST root */
	CHECK(strstr(sbuf_str(&sb), "\033[1;7msw2\033[0m"));	/* MSTI 2 */
	CHECK(strstr(sbuf_str(&sb), "msti 2 "));
	/* Plain: no escape at all. */
	sbuf_reset(&sb);
	scr.colour = false;
	watch_render_screen(&f.tr, &log, &scr, &sb);
	CHECK(!strchr(sbuf_str(&sb), '\033'));
	CHECK(strstr(sbuf_str(&sb), "Ad"));
	sbuf_free(&sb);
	fx_free(&f);
}

TEST(many_ports_wrap_into_blocks_within_80_columns)
{
	static const char yaml[] =
		"name: wide\n"
		"nodes:\n"
		"  sw1: { role: bridge }\n"
		"  sw2: { role: bridge }\n"
		"  sw3: { role: bridge }\n"
		"links:\n"
		"  - [sw1:port1, sw2:port1]\n  - [sw1:port2, sw2:port2]\n"
		"  - [sw1:port3, sw2:port3]\n  - [sw1:port4, sw2:port4]\n"
		"  - [sw1:port5, sw3:port1]\n  - [sw1:port6, sw3:port2]\n"
		"  - [sw2:port5, sw3:port3]\n  - [sw2:port6, sw3:port4]\n"
		"  - [sw2:port7, sw3:port5]\n  - [sw2:port8, sw3:port6]\n";
	struct watch_log log = { 0 };
	struct watch_screen scr = { 80, 24, true, "wide", 0 };
	struct fx f;
	struct sbuf sb;
	int widest, lines;

	CHECK(fx_init(&f, yaml) == 0);
	sbuf_init(&sb);
	watch_render_screen(&f.tr, &log, &scr, &sb);
	lines = screen_lines(sbuf_str(&sb), 80, &widest);
	CHECK(widest <= 80);
	/* 20 ports of 6 columns: two blocks of header, header, CIST. */
	CHECK_INT(lines, 1 + 2 * 3 + 1);
	CHECK(strstr(sbuf_str(&sb), "port8"));
	sbuf_free(&sb);
	fx_free(&f);
}

TEST(json_lines_carry_tree_port_role_state_and_what_was)
{
	struct fx f;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	json_t *o, *was;
	json_error_t je;

	CHECK(fx_init(&f, tri_yaml) == 0);
	send_adv(&f, S(1), 2, 1, AD, AD, DF);
	send_adv(&f, S(2) + 5, 2, 1, AD, DF, DF);
	mem = open_memstream(&buf, &len);
	watch_event_json(&f.tr, &f.ev[f.n - 1], mem);
	fclose(mem);
	CHECK(buf[len - 1] == '\n' && !memchr(buf, '\n', len - 1));
	o = json_loads(buf, 0, &je);
	CHECK(o);
	CHECK_STR(json_string_value(json_object_get(o, "type")), "port");
	CHECK_STR(json_string_value(json_object_get(o, "tree")), "msti 1");
	CHECK_INT(json_integer_value(json_object_get(o, "msti")), 1);
	CHECK_STR(json_string_value(json_object_get(o, "node")), "sw3");
	CHECK_STR(json_string_value(json_object_get(o, "port")), "p2");
	CHECK_STR(json_string_value(json_object_get(o, "link")), "link3");
	CHECK_STR(json_string_value(json_object_get(o, "role")), "designated");
	CHECK_STR(json_string_value(json_object_get(o, "state")), "forwarding");
	CHECK_STR(json_string_value(json_object_get(o, "root")), "sw1");
	CHECK_INT(json_integer_value(json_object_get(o, "ns")), S(2) + 5);
	CHECK_STR(json_string_value(json_object_get(o, "time")),
		  "1970-01-01T00:00:02.000000005Z");
	was = json_object_get(o, "was");
	CHECK_STR(json_string_value(json_object_get(was, "role")), "alternate");
	CHECK_STR(json_string_value(json_object_get(was, "state")),
		  "discarding");
	json_decref(o);
	free(buf);
	fx_free(&f);
}

/* A run folder for the tri lab in a results folder, as `mstlab up`
 * leaves it: results/.labs/tri -> ../tri-1, topology.yaml, pcap/. */
struct run {
	char results[64], dir[160], pcap[400];
};

static int make_run(struct run *r, struct fx *f)
{
	char path[400];
	FILE *fp;

	snprintf(r->results, sizeof(r->results), "/tmp/mstlab-watch-XXXXXX");
	if (!mkdtemp(r->results))
		return -1;
	snprintf(r->dir, sizeof(r->dir), "%s/tri-1", r->results);
	snprintf(path, sizeof(path), "%s/.labs", r->results);
	if (mkdir(r->dir, 0755) || mkdir(path, 0755))
		return -1;
	snprintf(path, sizeof(path), "%s/.labs/tri", r->results);
	if (symlink("../tri-1", path))
		return -1;
	snprintf(path, sizeof(path), "%s/topology.yaml", r->dir);
	fp = fopen(path, "w");
	if (!fp)
		return -1;
	fputs(tri_yaml, fp);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/pcap", r->dir);
	mkdir(path, 0755);
	snprintf(r->pcap, sizeof(r->pcap), "%s/%s", r->dir, f->p->links[2].pcap);
	return 0;
}

static void run_free(struct run *r)
{
	char *argv[] = { "rm", "-rf", r->results, NULL };

	fx_run_done(r->dir);
	spawn_run(argv, NULL, 10000);
}

/* The bytes libpcap writes for these frames, as tcpdump would. */
static char *pcap_bytes(struct fx *f, size_t *len)
{
	pcap_t *dead = pcap_open_dead_with_tstamp_precision(
		DLT_EN10MB, 65535, PCAP_TSTAMP_PRECISION_NANO);
	char *buf = NULL;
	FILE *mem = open_memstream(&buf, len);
	pcap_dumper_t *d = pcap_dump_fopen(dead, mem);
	uint8_t fr[BPDU_FRAME_MAX_LEN];
	const struct fx_adv a[2][3] = { { AD, AD, DF }, { AD, DF, DF } };

	for (int i = 0; i < 2; i++) {
		struct pcap_pkthdr h = { 0 };

		h.caplen = h.len = (bpf_u_int32)fx_mst_bpdu(f->p, 2, 1, 0, (const int[2]){ 0, 1 }, a[i], fr,
							  sizeof(fr));
		h.ts.tv_sec = 1 + i;
		h.ts.tv_usec = 0;
		pcap_dump((u_char *)d, &h, fr);
	}
	pcap_dump_close(d);	/* closes mem */
	pcap_close(dead);
	return buf;
}

static void append(const char *path, const char *data, size_t len)
{
	FILE *fp = fopen(path, "a");

	fwrite(data, 1, len, fp);
	fclose(fp);
}

TEST(the_follower_reads_a_capture_as_tcpdump_writes_it)
{
	struct follow wf;
	struct run r;
	struct fx f;
	size_t len, rec;
	char *bytes, path[400];

	CHECK(fx_init(&f, tri_yaml) == 0);
	CHECK(make_run(&r, &f) == 0);
	bytes = pcap_bytes(&f, &len);
	rec = (len - 24) / 2;
	CHECK(follow_init(&wf, f.t, f.p, r.dir) == 0);
	CHECK_INT(follow_pump(&wf, &f.tr, 100), 0);	/* no files */
	append(r.pcap, bytes, 10);				/* half a header */
	CHECK_INT(follow_pump(&wf, &f.tr, 100), 0);
	append(r.pcap, bytes + 10, 24 - 10 + rec + 7);	/* 1.x records */
	CHECK_INT(follow_pump(&wf, &f.tr, 100), 1);
	CHECK_INT(trees_port_now(&f.tr, 2, 1, 1)->role, PORT_ROLE_ALTERNATE);
	CHECK_INT(follow_pump(&wf, &f.tr, 100), 0);
	append(r.pcap, bytes + 24 + rec + 7, rec - 7);	/* the rest */
	snprintf(path, sizeof(path), "%s/events", r.dir);
	append(path, "1500000000 link-down link1 carrier\n1700000000 li", 48);
	CHECK_INT(follow_pump(&wf, &f.tr, 100), 2);
	CHECK_INT(trees_port_now(&f.tr, 2, 1, 1)->role, PORT_ROLE_DESIGNATED);
	CHECK_INT(tree_port_state(trees_port_now(&f.tr, 0, 0, 0)),
		  PORT_STATE_DOWN);
	append(path, "nk-up link1\n", 12);
	CHECK_INT(follow_pump(&wf, &f.tr, 100), 1);
	CHECK_INT(trees_port_now(&f.tr, 0, 0, 0)->role, PORT_ROLE_SILENT);
	CHECK(!follow_error(&wf));
	follow_close(&wf);
	free(bytes);
	run_free(&r);
	fx_free(&f);
}

TEST(watch_replays_a_lab_as_json_lines_and_refuses_one_that_is_not_up)
{
	char *out, *err, path[400];
	struct run r;
	struct fx f;
	size_t len;
	char *bytes;
	int rc;

	CHECK(fx_init(&f, tri_yaml) == 0);
	CHECK(make_run(&r, &f) == 0);
	bytes = pcap_bytes(&f, &len);
	append(r.pcap, bytes, len);
	snprintf(path, sizeof(path), "%s/events", r.dir);
	append(path, "1500000000 link-down link3 silent\n", 34);
	{
		char *argv[] = { "mstlab", "watch", "tri", "--results",
				 r.results, "--json", "--replay", "--for",
				 "0.2", NULL };

		out = unit_capture(mstlab_cli, 9, argv, &rc, &err);
	}
	CHECK_INT(rc, 0);
	CHECK(strstr(out, "\"type\":\"link\",\"link\":\"link3\",\"state\":"
		      "\"down\",\"mode\":\"silent\",\"ends\":[\"sw3:p2\","
		      "\"sw1:p2\"]}\n"));
	CHECK(strstr(out, "\"type\":\"port\",\"msti\":1,\"tree\":\"msti 1\","
		      "\"node\":\"sw3\",\"port\":\"p2\""));
	free(out);
	free(err);
	/* --count bounds it, and text mode prints the table first. */
	{
		char *argv[] = { "mstlab", "watch", r.dir, "--replay",
				 "--count", "2", NULL };

		out = unit_capture(mstlab_cli, 6, argv, &rc, &err);
	}
	CHECK_INT(rc, 0);
	CHECK(strstr(out, "tree   root"));
	CHECK(strstr(out, "sw3:p2     ?/unknown -> alternate/discarding"));
	free(out);
	free(err);
	{
		char *argv[] = { "mstlab", "watch", "nolab", "--results",
				 r.results, NULL };

		out = unit_capture(mstlab_cli, 5, argv, &rc, &err);
	}
	CHECK_INT(rc, 1);
	CHECK(strstr(err, "lab nolab is not up"));
	free(out);
	free(err);
	{
		char *argv[] = { "mstlab", "watch", "tri", "--for", "-1",
				 NULL };

		out = unit_capture(mstlab_cli, 5, argv, &rc, &err);
	}
	CHECK_INT(rc, 2);
	CHECK(strstr(err, "usage: mstlab watch"));
	free(out);
	free(err);
	free(bytes);
	run_free(&r);
	fx_free(&f);
}
