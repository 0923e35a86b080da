// SPDX-License-Identifier: MIT
/*
 * mstlab watch without a lab: BPDUs encoded with the daemon's codec go
 * into the model; the events, the 80×24 screen and the JSON lines that
 * come out are checked; the follower reads a capture written in pieces;
 * the command replays a run folder and refuses a lab that is not up.
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
#include "watch_follow.h"
#include "watch_model.h"
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
	struct watch_model m;
	size_t n;
	struct watch_event ev[MAX_EV];
};

static void record(void *ctx, const struct watch_event *e)
{
	struct fx *f = ctx;

	if (f->n < MAX_EV)
		f->ev[f->n++] = *e;
}

static int fx_init(struct fx *f, const char *yaml)
{
	struct topo_error te;

	memset(f, 0, sizeof(*f));
	if (topo_parse_buffer("t.yaml", yaml, strlen(yaml), &f->t, &te) ||
	    plan_build(f->t, &f->p) || watch_model_init(&f->m, f->t, f->p))
		return -1;
	f->m.emit = record;
	f->m.emit_ctx = f;
	return 0;
}

static void fx_free(struct fx *f)
{
	watch_model_free(&f->m);
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

	watch_frame(&f->m, ns, link, buf, len);
}

static const struct fx_adv DF = { BPDU_ROLE_DESIGNATED, true, false };
static const struct fx_adv DF_TC = { BPDU_ROLE_DESIGNATED, true, true };
static const struct fx_adv AD = { BPDU_ROLE_ALT_BACKUP, false, false };
static const struct fx_adv RF = { BPDU_ROLE_ROOT, true, false };
static const struct fx_adv RF_TC = { BPDU_ROLE_ROOT, true, true };

static size_t count(const struct fx *f, enum watch_kind kind, int tree)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n; i++)
		n += f->ev[i].kind == kind && (tree < 0 || f->ev[i].tree == tree);
	return n;
}

static const struct watch_event *find(const struct fx *f, enum watch_kind k,
				      int tree)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->ev[i].kind == k && (tree < 0 || f->ev[i].tree == tree))
			return &f->ev[i];
	return NULL;
}

TEST(a_role_or_state_change_is_a_port_event_per_tree)
{
	struct fx f;
	const struct watch_event *e;

	CHECK(fx_init(&f, tri_yaml) == 0);
	/* sw3:p2 (node 2, port 1): alternate in the CIST and MSTI 1. */
	send_adv(&f, S(1), 2, 1, AD, AD, DF);
	CHECK_INT(count(&f, WATCH_EV_PORT, -1), 3);
	CHECK_INT(watch_port_get(&f.m, 2, 1, 1)->role, WATCH_ROLE_ALTERNATE);
	CHECK_INT(watch_port_get(&f.m, 2, 1, 1)->state, WATCH_DISCARDING);
	CHECK_INT(watch_port_get(&f.m, 2, 1, 2)->state, WATCH_FORWARDING);
	/* The same advertisement again changes nothing. */
	f.n = 0;
	send_adv(&f, S(3), 2, 1, AD, AD, DF);
	CHECK_INT(f.n, 0);
	/* MSTI 1 only: the port takes over (sw1:p2 failed, say). */
	send_adv(&f, S(5), 2, 1, AD, DF, DF);
	CHECK_INT(count(&f, WATCH_EV_PORT, -1), 1);
	e = find(&f, WATCH_EV_PORT, 1);
	CHECK(e);
	CHECK_INT(e->node, 2);
	CHECK_INT(e->port, 1);
	CHECK_INT(e->link, 2);
	CHECK_INT(e->was.role, WATCH_ROLE_ALTERNATE);
	CHECK_INT(e->was.state, WATCH_DISCARDING);
	CHECK_INT(e->now.role, WATCH_ROLE_DESIGNATED);
	CHECK_INT(e->now.state, WATCH_FORWARDING);
	fx_free(&f);
}

/* sw3 reaches sw1 through sw2 in every tree: sw2:p2 designated, sw3:p1
 * root; the events so far are forgotten. */
static void sw3_via_sw2(struct fx *f)
{
	send_adv(f, S(1), 1, 1, DF, DF, DF);
	send_adv(f, S(1), 2, 0, RF, RF, RF);
	f->n = 0;
}

TEST(a_new_root_port_retires_the_old_one_facing_a_designated_port)
{
	struct fx f;
	const struct watch_event *e;

	CHECK(fx_init(&f, tri_yaml) == 0);
	/* Then sw3:p2 says root in the CIST: sw3:p1 went quiet. */
	sw3_via_sw2(&f);
	send_adv(&f, S(2), 2, 1, RF, AD, AD);	/* sw3:p2 */
	e = find(&f, WATCH_EV_PORT, 0);
	CHECK(e && e->inferred);
	CHECK_INT(e->node, 2);
	CHECK_INT(e->port, 0);
	CHECK_INT(e->now.role, WATCH_ROLE_ALTERNATE);
	CHECK_INT(e->now.state, WATCH_DISCARDING);
	CHECK_INT(watch_port_get(&f.m, 2, 0, 0)->role, WATCH_ROLE_ALTERNATE);
	/* MSTI 1: sw3:p2 is not root, sw3:p1 stays root. */
	CHECK_INT(watch_port_get(&f.m, 2, 0, 1)->role, WATCH_ROLE_ROOT);
	fx_free(&f);
}

TEST(no_inference_without_a_designated_port_facing)
{
	struct fx f;

	CHECK(fx_init(&f, tri_yaml) == 0);
	send_adv(&f, S(1), 2, 0, RF, RF, RF);	/* sw3:p1; sw2:p2 unheard */
	send_adv(&f, S(2), 2, 1, RF, AD, AD);
	CHECK_INT(watch_port_get(&f.m, 2, 0, 0)->role, WATCH_ROLE_ROOT);
	fx_free(&f);
}

TEST(the_root_is_what_most_ports_advertise)
{
	struct fx f;
	const struct watch_event *e;

	CHECK(fx_init(&f, tri_yaml) == 0);
	send_adv(&f, S(1), 0, 0, DF, DF, RF);
	e = find(&f, WATCH_EV_ROOT, 2);
	CHECK(e);
	CHECK_INT(e->root_node, 1);	/* MSTI 2: sw2 */
	CHECK_INT(e->was_root_node, -1);
	CHECK_INT(f.m.trees[0].root_node, 0);
	CHECK_INT(f.m.trees[1].root_node, 0);
	fx_free(&f);
}

TEST(tc_is_set_per_tree_and_cleared_by_the_next_bpdu_or_silence)
{
	struct fx f;
	const struct watch_event *e;

	CHECK(fx_init(&f, tri_yaml) == 0);
	sw3_via_sw2(&f);
	/* TC in MSTI 2 only. */
	send_adv(&f, S(2), 1, 1, DF, DF, DF_TC);
	CHECK_INT(count(&f, WATCH_EV_TC, -1), 1);
	e = find(&f, WATCH_EV_TC, 2);
	CHECK(e && e->on);
	CHECK_INT(e->node, 1);
	CHECK(f.m.trees[2].tc && !f.m.trees[1].tc && !f.m.trees[0].tc);
	/* Its next BPDU without TC clears it. */
	send_adv(&f, S(4), 1, 1, DF, DF, DF);
	CHECK_INT(count(&f, WATCH_EV_TC, 2), 2);
	CHECK(!f.m.trees[2].tc);
	/* A root port says TC once and falls silent: held for two hello
	 * times, then cleared by the clock. */
	f.n = 0;
	send_adv(&f, S(10), 2, 0, RF, RF_TC, RF);
	CHECK(f.m.trees[1].tc);
	watch_tick(&f.m, S(13));
	CHECK(f.m.trees[1].tc);
	watch_tick(&f.m, S(14) + 1);
	CHECK(!f.m.trees[1].tc);
	e = find(&f, WATCH_EV_TC, 1);
	CHECK(e && e->on);
	CHECK_INT(count(&f, WATCH_EV_TC, 1), 2);
	CHECK(!f.ev[f.n - 1].on && f.ev[f.n - 1].ns == S(14) + 1);
	fx_free(&f);
}

TEST(an_unknown_sender_is_reported_once)
{
	struct fx f;
	uint8_t buf[BPDU_FRAME_MAX_LEN];
	const struct fx_adv adv[3] = { DF, DF, DF };
	size_t len;

	CHECK(fx_init(&f, tri_yaml) == 0);
	len = fx_mst_bpdu(f.p, 0, 0, 0, (const int[2]){ 0, 1 }, adv, buf, sizeof(buf));
	memcpy(buf + 6, "\x02\x00\x00\x00\x00\x99", 6);
	watch_frame(&f.m, S(1), 0, buf, len);
	watch_frame(&f.m, S(3), 0, buf, len);
	CHECK_INT(f.n, 1);
	CHECK_INT(f.ev[0].kind, WATCH_EV_UNKNOWN_SENDER);
	CHECK_INT(f.ev[0].link, 0);
	CHECK_MEM(f.ev[0].src, 6, "\x02\x00\x00\x00\x00\x99", 6);
	CHECK_INT(f.m.unknown, 2);
	CHECK_INT(watch_port_get(&f.m, 0, 0, 0)->last_ns, 0);
	fx_free(&f);
}

TEST(a_malformed_bpdu_is_an_event_with_its_reason)
{
	struct fx f;
	uint8_t buf[64] = { 0 };

	CHECK(fx_init(&f, tri_yaml) == 0);
	/* From sw2:p1, LLC 42 42 03, protocol id 1: discarded (14.5). */
	memcpy(buf, bpdu_group_addr, 6);
	memcpy(buf + 6, f.p->nodes[1].nic[0].mac, 6);
	memcpy(buf + 12, "\x00\x26\x42\x42\x03\x00\x01\x00\x00", 9);
	watch_frame(&f.m, S(1), 0, buf, 60);
	CHECK_INT(f.n, 1);
	CHECK_INT(f.ev[0].kind, WATCH_EV_BAD_BPDU);
	CHECK_STR(f.ev[0].error, bpdu_strerror(BPDU_ERR_PROTOCOL_ID));
	CHECK_INT(f.ev[0].node, 1);
	CHECK_INT(f.ev[0].port, 0);
	CHECK_INT(f.m.bad, 1);
	/* Not to the group address: not a BPDU at all. */
	buf[0] = 0xff;
	watch_frame(&f.m, S(2), 0, buf, 60);
	CHECK_INT(f.n, 1);
	fx_free(&f);
}

TEST(a_failed_link_takes_both_ends_down_until_restored)
{
	struct fx f;

	CHECK(fx_init(&f, tri_yaml) == 0);
	send_adv(&f, S(1), 0, 1, DF, DF, DF);	/* sw1:p2, link 3 */
	send_adv(&f, S(1), 2, 1, AD, AD, DF);	/* sw3:p2 */
	f.n = 0;
	watch_event_line(&f.m, "3000000000 link-down link3 carrier\n");
	CHECK(f.n >= 1);
	CHECK_INT(f.ev[0].kind, WATCH_EV_LINK);
	CHECK_INT(f.ev[0].link, 2);
	CHECK(!f.ev[0].on);
	CHECK_INT(watch_port_get(&f.m, 0, 1, 1)->state, WATCH_DOWN);
	CHECK_INT(watch_port_get(&f.m, 2, 1, 0)->state, WATCH_DOWN);
	watch_event_line(&f.m, "4000000000 link-up link3");
	CHECK_INT(f.ev[f.n - 1].kind, WATCH_EV_LINK);
	CHECK(f.ev[f.n - 1].on);
	CHECK_INT(watch_port_get(&f.m, 2, 1, 0)->state, WATCH_UNKNOWN);
	/* Other lines pass through; junk and unknown links are lab lines
	 * or nothing, never a crash. */
	f.n = 0;
	watch_event_line(&f.m, "5000000000 step 2 fail sw1:p1");
	watch_event_line(&f.m, "6000000000 link-down link99 carrier");
	watch_event_line(&f.m, "garbage");
	watch_event_line(&f.m, "# comment");
	CHECK_INT(f.n, 2);
	CHECK_INT(f.ev[0].kind, WATCH_EV_LAB);
	CHECK_STR(f.ev[0].kind_word, "step");
	CHECK_STR(f.ev[0].arg, "2 fail sw1:p1");
	CHECK_INT(f.ev[1].kind, WATCH_EV_LAB);
	fx_free(&f);
}

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
		watch_event_text(&f->m, &f->ev[i], line, sizeof(line));
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
		watch_event_line(&f.m, "1 step 12 a long step text that "
				 "goes on and on and on and on and on and on "
				 "and on past the edge of any terminal");
	}
	fill_log(&f, &log);
	sbuf_init(&sb);
	watch_render_screen(&f.m, &log, &scr, &sb);
	lines = screen_lines(sbuf_str(&sb), 80, &widest);
	CHECK(widest <= 80);
	CHECK_INT(lines, 23);
	CHECK(strstr(sbuf_str(&sb), "\033[1;7msw1\033[0m"));	/* CIST root */
	CHECK(strstr(sbuf_str(&sb), "\033[1;7msw2\033[0m"));	/* MSTI 2 */
	CHECK(strstr(sbuf_str(&sb), "msti 2 "));
	/* Plain: no escape at all. */
	sbuf_reset(&sb);
	scr.colour = false;
	watch_render_screen(&f.m, &log, &scr, &sb);
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
	watch_render_screen(&f.m, &log, &scr, &sb);
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
	watch_event_json(&f.m, &f.ev[f.n - 1], mem);
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
	struct watch_follow wf;
	struct run r;
	struct fx f;
	size_t len, rec;
	char *bytes, path[400];

	CHECK(fx_init(&f, tri_yaml) == 0);
	CHECK(make_run(&r, &f) == 0);
	bytes = pcap_bytes(&f, &len);
	rec = (len - 24) / 2;
	CHECK(watch_follow_init(&wf, f.t, f.p, r.dir) == 0);
	CHECK_INT(watch_follow_pump(&wf, &f.m, 100), 0);	/* no files */
	append(r.pcap, bytes, 10);				/* half a header */
	CHECK_INT(watch_follow_pump(&wf, &f.m, 100), 0);
	append(r.pcap, bytes + 10, 24 - 10 + rec + 7);	/* 1.x records */
	CHECK_INT(watch_follow_pump(&wf, &f.m, 100), 1);
	CHECK_INT(watch_port_get(&f.m, 2, 1, 1)->role, WATCH_ROLE_ALTERNATE);
	CHECK_INT(watch_follow_pump(&wf, &f.m, 100), 0);
	append(r.pcap, bytes + 24 + rec + 7, rec - 7);	/* the rest */
	snprintf(path, sizeof(path), "%s/events", r.dir);
	append(path, "1500000000 link-down link1 carrier\n1700000000 li", 48);
	CHECK_INT(watch_follow_pump(&wf, &f.m, 100), 2);
	CHECK_INT(watch_port_get(&f.m, 2, 1, 1)->role, WATCH_ROLE_DESIGNATED);
	CHECK_INT(watch_port_get(&f.m, 0, 0, 0)->state, WATCH_DOWN);
	append(path, "nk-up link1\n", 12);
	CHECK_INT(watch_follow_pump(&wf, &f.m, 100), 1);
	CHECK_INT(watch_port_get(&f.m, 0, 0, 0)->state, WATCH_UNKNOWN);
	CHECK(!watch_follow_error(&wf));
	watch_follow_close(&wf);
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
