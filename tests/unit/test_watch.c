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
#include <time.h>
#include <unistd.h>

#include "bpdu.h"
#include "child.h"
#include "cli.h"
#include "plan.h"
#include "checks_fixture.h"
#include "unit.h"
#include "analyze.h"
#include "events.h"
#include "follow.h"
#include "report.h"
#include "trees.h"
#include "watch_render.h"

#define TRI_LAB FX_TRI_NODES FX_TRI_LINKS

static const char tri_yaml[] = TRI_LAB;

#define S(x) ((int64_t)(x) * 1000000000LL)

struct fx {
	struct topo *t;
	struct plan *p;
	struct trees tr;
	struct fx_changes c;
};

static int fx_init(struct fx *f, const char *yaml)
{
	struct topo_error te;

	memset(f, 0, sizeof(*f));
	if (topo_parse_buffer("t.yaml", yaml, strlen(yaml), &f->t, &te) ||
	    plan_build(f->t, &f->p) ||
	    trees_init(&f->tr, f->t, f->p, TREES_LIVE))
		return -1;
	f->tr.emit = fx_record;
	f->tr.emit_ctx = &f->c;
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
	struct watch_line line;

	for (size_t i = 0; i < f->c.n; i++) {
		watch_event_line(&f->tr, &f->c.ch[i], &line);
		watch_log_add(log, &line);
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
	watch_event_json(&f.tr, &f.c.ch[f.c.n - 1], mem);
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
 * leaves it: topology.yaml, pcap/, and its registry entry (registry.h)
 * RESULTS/labs/tri -> RESULTS/tri-1 (MSTLAB_RUNTIME_DIR=RESULTS). */
struct run {
	char results[64], dir[160], pcap[400];
};

static int make_run_of(struct run *r, struct fx *f, const char *yaml)
{
	char path[400];
	FILE *fp;

	snprintf(r->results, sizeof(r->results), "/tmp/mstlab-watch-XXXXXX");
	if (!mkdtemp(r->results))
		return -1;
	snprintf(r->dir, sizeof(r->dir), "%s/tri-1", r->results);
	snprintf(path, sizeof(path), "%s/labs", r->results);
	if (mkdir(r->dir, 0755) || mkdir(path, 0755))
		return -1;
	setenv("MSTLAB_RUNTIME_DIR", r->results, 1);
	snprintf(path, sizeof(path), "%s/labs/tri", r->results);
	if (symlink(r->dir, path))
		return -1;
	snprintf(path, sizeof(path), "%s/topology.yaml", r->dir);
	fp = fopen(path, "w");
	if (!fp)
		return -1;
	fputs(yaml, fp);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/pcap", r->dir);
	mkdir(path, 0755);
	snprintf(r->pcap, sizeof(r->pcap), "%s/%s", r->dir, f->p->links[2].pcap);
	return 0;
}

static int make_run(struct run *r, struct fx *f)
{
	return make_run_of(r, f, tri_yaml);
}

static void run_free(struct run *r)
{
	char *argv[] = { "rm", "-rf", r->results, NULL };

	fx_run_done(r->dir);
	spawn_run(argv, NULL, 10000);
}

/* The bytes libpcap writes for these frames, as tcpdump would. */
static char *capture_bytes(struct fx *f, size_t *len)
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
	bytes = capture_bytes(&f, &len);
	rec = (len - 24) / 2;
	CHECK(follow_init(&wf, f.t, f.p, r.dir) == 0);
	CHECK_INT(follow_pump(&wf, &f.tr, 100, INT64_MAX), 0); /* no files */
	append(r.pcap, bytes, 10);				/* half a header */
	CHECK_INT(follow_pump(&wf, &f.tr, 100, INT64_MAX), 0);
	append(r.pcap, bytes + 10, 24 - 10 + rec + 7);	/* 1.x records */
	CHECK_INT(follow_pump(&wf, &f.tr, 100, INT64_MAX), 1);
	CHECK_INT(trees_port_now(&f.tr, 2, 1, 1)->role, PORT_ROLE_ALTERNATE);
	CHECK_INT(follow_pump(&wf, &f.tr, 100, INT64_MAX), 0);
	append(r.pcap, bytes + 24 + rec + 7, rec - 7);	/* the rest */
	snprintf(path, sizeof(path), "%s/events", r.dir);
	append(path, "1500000000 link-down link1 carrier\n1700000000 li", 48);
	CHECK_INT(follow_pump(&wf, &f.tr, 100, INT64_MAX), 2);
	CHECK_INT(trees_port_now(&f.tr, 2, 1, 1)->role, PORT_ROLE_DESIGNATED);
	CHECK_INT(tree_port_state(trees_port_now(&f.tr, 0, 0, 0)),
		  PORT_STATE_DOWN);
	append(path, "nk-up link1\n", 12);
	CHECK_INT(follow_pump(&wf, &f.tr, 100, INT64_MAX), 1);
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
	bytes = capture_bytes(&f, &len);
	append(r.pcap, bytes, len);
	snprintf(path, sizeof(path), "%s/events", r.dir);
	append(path, "1500000000 link-down link3 silent\n", 34);
	{
		char *argv[] = { "mstlab", "watch", "tri", "--json",
				 "--replay", "--for", "0.2", NULL };

		out = unit_capture(mstlab_cli, 7, argv, &rc, &err);
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
		char *argv[] = { "mstlab", "watch", "nolab", NULL };

		out = unit_capture(mstlab_cli, 3, argv, &rc, &err);
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

/*
 * What mstlab watch --json said, folded up to an instant, against one
 * summary.json snapshot: the same root and, per link end, the same
 * link state and, on a link that is up, the same role, forwarding and
 * deduction. The fold follows the JSON contract (docs/cli.md): a state
 * line sets a tree's root and every port, a port line a port, a root
 * line a root, a link line takes its ends down, or up and unheard.
 */
struct fold {
	json_t *root;		/* tree (msti) -> root or null */
	json_t *port;		/* "msti node:port" -> {role, state, inferred} */
	json_t *down;		/* "node:port" -> true */
};

static void fold_line(struct fold *f, json_t *o)
{
	const char *type = json_string_value(json_object_get(o, "type"));
	json_int_t msti = json_integer_value(json_object_get(o, "msti"));
	char key[128];

	if (!strcmp(type, "state")) {
		json_t *ports = json_object_get(o, "ports");

		snprintf(key, sizeof(key), "%lld", (long long)msti);
		json_object_set(f->root, key, json_object_get(o, "root"));
		for (size_t i = 0; i < json_array_size(ports); i++) {
			json_t *p = json_array_get(ports, i);
			char end[96];
			bool down = !strcmp(json_string_value(
				json_object_get(p, "state")), "down");

			snprintf(end, sizeof(end), "%s:%s",
				 json_string_value(json_object_get(p, "node")),
				 json_string_value(json_object_get(p, "port")));
			snprintf(key, sizeof(key), "%lld %s", (long long)msti,
				 end);
			json_object_set_new(f->down, end, json_boolean(down));
			if (down)
				continue;
			json_object_set_new(f->port, key, json_pack(
				"{s:O, s:O, s:b}",
				"role", json_object_get(p, "role"),
				"state", json_object_get(p, "state"),
				"inferred",
				json_is_true(json_object_get(p, "inferred"))));
		}
	} else if (!strcmp(type, "root")) {
		snprintf(key, sizeof(key), "%lld", (long long)msti);
		json_object_set(f->root, key, json_object_get(o, "root"));
	} else if (!strcmp(type, "port")) {
		snprintf(key, sizeof(key), "%lld %s:%s", (long long)msti,
			 json_string_value(json_object_get(o, "node")),
			 json_string_value(json_object_get(o, "port")));
		json_object_set_new(f->port, key, json_pack(
			"{s:O, s:O, s:b}", "role", json_object_get(o, "role"),
			"state", json_object_get(o, "state"), "inferred",
			json_is_true(json_object_get(o, "inferred"))));
	} else if (!strcmp(type, "link")) {
		bool up = !strcmp(json_string_value(json_object_get(o, "state")),
				  "up");
		json_t *ends = json_object_get(o, "ends");
		const char *k;
		json_t *v;
		void *tmp;

		for (size_t e = 0; e < json_array_size(ends); e++) {
			const char *end = json_string_value(json_array_get(ends, e));

			json_object_set_new(f->down, end, json_boolean(!up));
			if (!up)
				continue;
			/* Restored: its ends are unheard in every tree. */
			json_object_foreach_safe(f->port, tmp, k, v)
				if (!strcmp(strchr(k, ' ') + 1, end))
					json_object_del(f->port, k);
		}
	}
}

/* The watch lines up to the instant t: a BPDU's changes at t came before
 * an event at t, which acts just after it. */
static void fold_until(struct fold *f, json_t *lines, json_int_t t)
{
	for (size_t i = 0; i < json_array_size(lines); i++) {
		json_t *o = json_array_get(lines, i);
		json_int_t ns = json_integer_value(json_object_get(o, "ns"));
		const char *type = json_string_value(json_object_get(o, "type"));

		if (ns > t || (ns == t && (!strcmp(type, "link") ||
					   !strcmp(type, "lab"))))
			return;
		fold_line(f, o);
	}
}

static const char *str_or(json_t *v, const char *dflt)
{
	return json_is_string(v) ? json_string_value(v) : dflt;
}

static bool port_agrees(struct fold *f, json_int_t msti, json_t *p, char *why,
			size_t len)
{
	char end[96], key[128];
	json_t *w;
	bool down, up_said, inferred;
	const char *role, *state;

	snprintf(end, sizeof(end), "%s:%s",
		 json_string_value(json_object_get(p, "node")),
		 json_string_value(json_object_get(p, "port")));
	snprintf(key, sizeof(key), "%lld %s", (long long)msti, end);
	w = json_object_get(f->port, key);
	down = json_is_true(json_object_get(f->down, end));
	role = str_or(json_object_get(w, "role"), "unknown");
	state = str_or(json_object_get(w, "state"), "unknown");
	inferred = json_is_true(json_object_get(w, "inferred"));
	up_said = !json_is_true(json_object_get(p, "link_down"));
	if (down == up_said) {
		snprintf(why, len, "%s: link %s in watch, not in summary.json",
			 key, down ? "down" : "up");
		return false;
	}
	/* What a failed link's ends said is history: disabled now. */
	if (down && (strcmp(json_string_value(json_object_get(p, "role")),
			    "disabled") ||
		     json_is_true(json_object_get(p, "forwarding")))) {
		snprintf(why, len, "%s: its link is down, summary.json has it "
			 "%s%s", key,
			 json_string_value(json_object_get(p, "role")),
			 json_is_true(json_object_get(p, "forwarding")) ?
				 " forwarding" : "");
		return false;
	}
	if (down)
		return true;
	if (strcmp(!strcmp(role, "unknown") ? "silent" : role,
		   json_string_value(json_object_get(p, "role"))) ||
	    !strcmp(state, "forwarding") !=
		    json_is_true(json_object_get(p, "forwarding")) ||
	    inferred != json_is_true(json_object_get(p, "inferred"))) {
		snprintf(why, len, "%s: watch %s/%s%s, summary.json %s%s%s",
			 key, role, state, inferred ? " inferred" : "",
			 json_string_value(json_object_get(p, "role")),
			 json_is_true(json_object_get(p, "forwarding")) ?
				 "/forwarding" : "",
			 json_is_true(json_object_get(p, "inferred")) ?
				 " inferred" : "");
		return false;
	}
	return true;
}

static bool snapshot_agrees(json_t *lines, json_t *snap, const struct topo *t,
			    char *why, size_t len)
{
	struct fold f = { json_object(), json_object(), json_object() };
	json_int_t msti = json_integer_value(json_object_get(snap, "msti"));
	json_t *ports = json_object_get(snap, "ports");
	char key[32];
	const char *root;
	bool ok = true;

	fold_until(&f, lines, json_integer_value(json_object_get(snap,
								  "time_ns")));
	snprintf(key, sizeof(key), "%lld", (long long)msti);
	/* A root outside the lab is its bridge id in watch, null here. */
	root = str_or(json_object_get(f.root, key), NULL);
	if (root && topo_node_find(t, root) < 0)
		root = NULL;
	if (!root != !json_is_string(json_object_get(snap, "root")) ||
	    (root && strcmp(root, json_string_value(json_object_get(snap,
								     "root"))))) {
		snprintf(why, len, "msti %s: root %s in watch, %s in "
			 "summary.json", key, root ? root : "none",
			 str_or(json_object_get(snap, "root"), "none"));
		ok = false;
	}
	for (size_t i = 0; ok && i < json_array_size(ports); i++)
		ok = port_agrees(&f, msti, json_array_get(ports, i), why, len);
	json_decref(f.root);
	json_decref(f.port);
	json_decref(f.down);
	return ok;
}

/* summary.json as `mstlab verdict` would write it, without writing. */
static json_t *summary_of(const struct topo *t, const struct plan *p,
			  const char *dir)
{
	struct analysis *a = calloc(1, sizeof(*a));
	struct result_run r;
	char *buf = NULL;
	struct errbuf err;
	size_t len = 0;
	json_t *j = NULL;
	FILE *mem;

	if (!a || analysis_load(a, t, p, dir, &err)) {
		free(a);
		return NULL;
	}
	result_init(&r, t->name);
	analysis_results(a, &r);
	mem = open_memstream(&buf, &len);
	if (mem && !report_json(&r, mem) && !fclose(mem))
		j = json_loads(buf, 0, NULL);
	free(buf);
	result_free(&r);
	analysis_free(a);
	free(a);
	return j;
}

/* Every snapshot of dir's summary.json against watch --json's lines;
 * how many in *snaps. */
static bool watch_agrees_with_verdicts(const char *dir, unsigned *snaps,
				       char *why, size_t len)
{
	char topo[400], *out, *err, *line, *save = NULL;
	char *argv[] = { "mstlab", "watch", (char *)dir, "--replay", "--json",
			 "--for", "0", NULL };
	json_t *lines = json_array(), *sum, *scs;
	struct topo_error te;
	struct topo *t = NULL;
	struct plan *p = NULL;
	bool ok = false;
	int rc;

	snprintf(topo, sizeof(topo), "%s/topology.yaml", dir);
	snprintf(why, len, "%s: cannot read the lab", dir);
	if (topo_parse_file(topo, &t, &te) || plan_build(t, &p))
		goto out;
	out = unit_capture(mstlab_cli, 7, argv, &rc, &err);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		json_array_append_new(lines, json_loads(line, 0, NULL));
	free(out);
	free(err);
	sum = summary_of(t, p, dir);
	scs = json_object_get(sum, "scenarios");
	ok = rc == 0 && sum;
	*snaps = 0;
	for (size_t i = 0; ok && i < json_array_size(scs); i++) {
		json_t *snap = json_object_get(json_array_get(scs, i),
					       "topology");

		for (size_t k = 0; ok && k < json_array_size(snap); k++) {
			ok = snapshot_agrees(lines, json_array_get(snap, k), t,
					     why, len);
			++*snaps;
		}
	}
	json_decref(sum);
out:
	json_decref(lines);
	plan_free(p);
	topo_free(t);
	return ok;
}

/* The tri lab with a failover: a scenario fails and restores link3. */
static const char tri_run_yaml[] =
	TRI_LAB
	"scenarios:\n"
	"  s:\n"
	"    steps:\n"
	"      - fail: sw3:p2\n"
	"      - restore: sw3:p2\n";

static const struct fx_adv DF_TC = { BPDU_ROLE_DESIGNATED, true, true };

struct capture {
	pcap_t *dead;
	pcap_dumper_t *d[3];
};

static void bpdu_at(struct capture *c, struct fx *f, int64_t ns, int node,
		    int port, struct fx_adv a0, struct fx_adv a1,
		    struct fx_adv a2)
{
	const struct fx_adv adv[3] = { a0, a1, a2 };
	uint8_t buf[BPDU_FRAME_MAX_LEN];
	struct pcap_pkthdr h = { 0 };
	int link = f->t->nodes[node].ports[port].link;

	h.caplen = h.len = (bpf_u_int32)fx_mst_bpdu(
		f->p, node, port, 0, (const int[2]){ 0, 1 }, adv, buf,
		sizeof(buf));
	h.ts.tv_sec = ns / 1000000000;
	h.ts.tv_usec = ns % 1000000000;
	pcap_dump((u_char *)c->d[link], &h, buf);
}

/*
 * sw1 roots the CIST and MSTI 1, sw2 MSTI 2. Designated ports speak
 * every second; sw3's root and alternate ports once, then fall quiet.
 * link3 (sw3:p2-sw1:p2) fails at 5 s: sw3:p1 takes over as root port
 * (TC on sw2:p2); restored at 8 s, sw3:p2 is silent, facing a designated
 * port: deduced alternate at the run's end (9 s); at 9.2 s it says it is
 * the root port again and sw3:p1 goes quiet as an alternate.
 */
static int write_failover(struct run *r, struct fx *f)
{
	struct capture c = { 0 };
	char path[600];

	c.dead = pcap_open_dead_with_tstamp_precision(
		DLT_EN10MB, 65535, PCAP_TSTAMP_PRECISION_NANO);

	for (int l = 0; l < 3; l++) {
		snprintf(path, sizeof(path), "%s/%s", r->dir, f->p->links[l].pcap);
		c.d[l] = pcap_dump_open(c.dead, path);
		if (!c.d[l])
			return -1;
	}
	/* In time order on each link, as tcpdump writes them. */
	for (int s = 2; s < 10; s++) {
		int64_t t = S(s) + 500;

		if (s == 2) {
			bpdu_at(&c, f, S(2), 2, 1, RF, RF, AD);	/* sw3:p2 */
			bpdu_at(&c, f, S(2) + 1, 2, 0, AD, AD, RF); /* sw3:p1 */
		}
		bpdu_at(&c, f, t, 0, 0, DF, DF, RF);	/* sw1:p1 */
		if (s < 5 || s >= 8)
			bpdu_at(&c, f, t, 0, 1, DF, DF, DF);	/* sw1:p2 */
		bpdu_at(&c, f, t + 1, 1, 0, RF, RF, DF);	/* sw2:p1 */
		bpdu_at(&c, f, t + 2, 1, 1, s == 5 ? DF_TC : DF, DF, DF);
		if (s == 5)
			bpdu_at(&c, f, S(5) + S(1) / 10, 2, 0, RF, RF, RF);
		if (s == 9)	/* after the run's end */
			bpdu_at(&c, f, S(9) + S(1) / 5, 2, 1, RF, RF, AD);
	}
	for (int l = 0; l < 3; l++)
		pcap_dump_close(c.d[l]);
	pcap_close(c.dead);
	fx_write_file(r->dir, "events", "1000000000 scenario s\n"
		      "1500000000 step 1 fail sw3:p2--sw1:p2 (carrier)\n"
		      "5000000000 link-down link3 carrier\n"
		      "7000000000 step 2 restore sw3:p2--sw1:p2\n"
		      "8000000000 link-up link3\n"
		      "9000000000 run-end ok\n");
	return 0;
}

/* mstlab down forgets the lab: its run folder is a finished run. */
static void lab_down(struct run *r)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/labs/tri", r->results);
	unlink(path);
}

/* The failover above in a new run folder; with down, its lab is down
 * (a finished run). */
static int failover_run(struct fx *f, struct run *r, bool down)
{
	if (fx_init(f, tri_yaml) || make_run_of(r, f, tri_run_yaml) ||
	    write_failover(r, f))
		return -1;
	if (down)
		lab_down(r);
	return 0;
}

/*
 * watch --json and summary.json say the same about a run: folded up to
 * each snapshot's instant, watch's lines give the snapshot's root and
 * every link end's state (and the engine, live and as history, agrees
 * with itself over the run: run_free). Also over any run folders named
 * in MSTLAB_RUNS (colon-separated).
 */
TEST(watch_json_and_summary_json_agree_at_every_snapshot)
{
	const char *env = getenv("MSTLAB_RUNS");
	char why[600], *list = env ? strdup(env) : NULL, *dir, *save = NULL;
	unsigned snaps;
	struct run r;
	struct fx f;

	CHECK(failover_run(&f, &r, false) == 0);
	if (!watch_agrees_with_verdicts(r.dir, &snaps, why, sizeof(why)))
		unit_fail(__FILE__, __LINE__, "%s", why);
	/* before-failure, after the failure, end; three trees each */
	CHECK_INT(snaps, 9);
	for (dir = list ? strtok_r(list, ":", &save) : NULL; dir;
	     dir = strtok_r(NULL, ":", &save))
		if (!watch_agrees_with_verdicts(dir, &snaps, why, sizeof(why)))
			unit_fail(__FILE__, __LINE__, "%s", why);
	free(list);
	run_free(&r);
	fx_free(&f);
}

/* The tri lab with the longer names labs have. */
static const char long_yaml[] =
	"name: tri\n"
	"mst: { region: tri, instances: { 1: [10], 2: [20] } }\n"
	"nodes:\n"
	"  core-west: { role: bridge, priority: { cist: 4096, 1: 4096 } }\n"
	"  core-east: { role: bridge, priority: { 2: 4096 } }\n"
	"  access-03: { role: bridge }\n"
	"links:\n"
	"  - [core-west:uplink1, core-east:uplink1]\n"
	"  - [core-east:uplink2, access-03:uplink1]\n"
	"  - [access-03:uplink2, core-west:uplink2]\n";

/* Rows as watch_line_fit writes them back into one line: each row's
 * indent dropped, the rows joined by a space. */
static void unwrap(const char *rows, char *out, size_t len)
{
	size_t n = 0;

	while (*rows && n + 2 < len) {
		size_t k;

		while (*rows == ' ')
			rows++;
		k = strcspn(rows, "\n");
		if (n)
			out[n++] = ' ';
		if (k > len - 1 - n)
			k = len - 1 - n;
		memcpy(out + n, rows, k);
		n += k;
		rows += k + (rows[k] ? 1 : 0);
	}
	out[n] = 0;
}

/*
 * A port deduced alternate after a restore, a root port handed over:
 * lines wider than 80 columns. Each keeps its change whole, on one row
 * without the time's hour and HEAD's padding, or on rows of its own.
 */
TEST(event_lines_keep_the_change_they_report_at_80_columns)
{
	struct watch_log log = { 0 };
	struct watch_screen scr = { 80, 24, false, "tri", S(9) };
	char all[8192];
	struct sbuf sb;
	struct fx f;
	int wide = 0, wrapped = 0, widest;

	CHECK(fx_init(&f, long_yaml) == 0);
	send_adv(&f, S(2), 2, 1, RF, RF, AD);
	send_adv(&f, S(2) + 1, 2, 0, AD, AD, RF);
	send_adv(&f, S(2) + 2, 0, 1, DF, DF, DF);
	send_adv(&f, S(2) + 3, 1, 1, DF, DF, DF);
	log_line(&f, "5000000000 link-down link3 carrier");
	send_adv(&f, S(5) + 12, 2, 0, RF, RF, RF);
	log_line(&f, "7000000000 link-up link3");
	send_adv(&f, S(7) + 1, 0, 1, DF, DF, DF);
	send_adv(&f, S(8), 2, 1, RF, RF, AD);
	sbuf_init(&sb);
	for (size_t i = 0; i < f.c.n; i++) {
		struct watch_line l;
		int rows;

		watch_event_line(&f.tr, &f.c.ch[i], &l);
		sbuf_reset(&sb);
		rows = watch_line_fit(&l, 80, &sb);
		wide += strlen(l.text) > 80;
		wrapped += rows > 1;
		screen_lines(sbuf_str(&sb), 80, &widest);
		CHECK(widest <= 80);
		unwrap(sbuf_str(&sb), all, sizeof(all));
		if (!strstr(all, l.text + l.change)) {
			unit_fail(__FILE__, __LINE__, "\"%s\" at 80 columns: "
				  "\"%s\"", l.text, all);
			return;
		}
	}
	CHECK(wide > 4 && wrapped > 0);
	/* The screen: every time without its hour, so they stay in a
	 * column; the newest events whole at the bottom. */
	fill_log(&f, &log);
	sbuf_reset(&sb);
	watch_render_screen(&f.tr, &log, &scr, &sb);
	CHECK(screen_lines(sbuf_str(&sb), 80, &widest) <= 23);
	CHECK(widest <= 80);
	CHECK(strstr(sbuf_str(&sb), "\n00:07.000 msti 2  access-03:uplink2 "
		     "?/unknown -> alternate/discarding (inferred)\n"));
	CHECK(strstr(sbuf_str(&sb), "\n00:08.000 msti 1 access-03:uplink1\n"
		     "    root/forwarding -> alternate/discarding "
		     "(inferred)\n"));
	unwrap(sbuf_str(&sb), all, sizeof(all));
	for (size_t i = f.c.n - 3; i < f.c.n; i++) {
		struct watch_line l;

		watch_event_line(&f.tr, &f.c.ch[i], &l);
		CHECK(strstr(all, l.text + l.change));
	}
	sbuf_free(&sb);
	fx_free(&f);
}

/* pcap records as tcpdump -U writes them (nanosecond, host order). */
static void pcap_header(const char *path)
{
	const uint32_t h[6] = { 0xa1b23c4d, 0x00040002, 0, 0, 65535,
				DLT_EN10MB };

	append(path, (const char *)h, sizeof(h));
}

static void pcap_bpdu(struct fx *f, const char *dir, int64_t ns, int node,
		      int port, struct fx_adv a0, struct fx_adv a1,
		      struct fx_adv a2)
{
	const struct fx_adv adv[3] = { a0, a1, a2 };
	uint8_t rec[16 + BPDU_FRAME_MAX_LEN];
	int link = f->t->nodes[node].ports[port].link;
	size_t len = fx_mst_bpdu(f->p, node, port, 0, (const int[2]){ 0, 1 },
				 adv, rec + 16, sizeof(rec) - 16);
	const uint32_t h[4] = { (uint32_t)(ns / S(1)),
				(uint32_t)(ns % S(1)), (uint32_t)len,
				(uint32_t)len };
	char path[600];

	memcpy(rec, h, sizeof(h));
	snprintf(path, sizeof(path), "%s/%s", dir, f->p->links[link].pcap);
	append(path, (const char *)rec, 16 + len);
}

static bool in_time_order(const struct fx_changes *c)
{
	for (size_t i = 1; i < c->n; i++)
		if (c->ch[i].ns < c->ch[i - 1].ns)
			return false;
	return true;
}

/*
 * The files of a run being written do not grow in step: link1 has a
 * BPDU at 1.166 s and the event log link3's failure at 1.154 s, while
 * link2's BPDU at 1.150 s is not written yet. Nothing is given until
 * every file is past it, or the horizon (now - the lag) is; the engine
 * sees everything in time order.
 */
TEST(the_follower_merges_growing_files_in_time_order)
{
	struct follow wf;
	struct run r;
	struct fx f;
	char path[600];

	CHECK(fx_init(&f, tri_yaml) == 0);
	CHECK(make_run(&r, &f) == 0);
	for (int l = 0; l < 3; l++) {
		snprintf(path, sizeof(path), "%s/%s", r.dir,
			 f.p->links[l].pcap);
		pcap_header(path);
	}
	pcap_bpdu(&f, r.dir, 1166000000, 0, 0, DF, DF, RF);	/* link1 */
	pcap_bpdu(&f, r.dir, S(2), 0, 1, DF, DF, DF);		/* link3 */
	snprintf(path, sizeof(path), "%s/events", r.dir);
	append(path, "1154000000 link-down link3 carrier\n", 35);
	CHECK(follow_init(&wf, f.t, f.p, r.dir) == 0);
	/* link2 may still put something before 1.154 s. */
	CHECK_INT(follow_pump(&wf, &f.tr, 100, 0), 0);
	CHECK_INT(follow_next(&wf), 1154000000);
	pcap_bpdu(&f, r.dir, 1150000000, 1, 1, DF, DF, DF);	/* link2 */
	CHECK_INT(follow_pump(&wf, &f.tr, 100, 0), 1);	/* only that */
	pcap_bpdu(&f, r.dir, 1300000000, 1, 1, DF, DF, DF);
	/* Every file is past 1.154 s: the event; link1's BPDU at 1.166 s
	 * waits for the event log (read up to 1.154 s). */
	CHECK_INT(follow_pump(&wf, &f.tr, 100, 0), 1);
	CHECK_INT(follow_next(&wf), 1166000000);
	/* The horizon lets what is no later than it go. */
	CHECK_INT(follow_pump(&wf, &f.tr, 100, 1300000000), 2);
	CHECK_INT(follow_next(&wf), S(2));
	CHECK_INT(follow_pump(&wf, &f.tr, 100, INT64_MAX), 1);
	CHECK_INT(follow_next(&wf), INT64_MAX);
	CHECK(f.c.n > 4 && in_time_order(&f.c));
	follow_close(&wf);
	run_free(&r);
	fx_free(&f);
}

/* tri with sw2 and sw3 on another host: link2 is captured there only. */
static const char tri_split_yaml[] =
	"name: tri\n"
	"hosts:\n"
	"  local: { address: 10.9.0.1 }\n"
	"  far: { uri: \"qemu+ssh://root@10.9.0.2/system\", "
	"address: 10.9.0.2 }\n"
	"mst: { region: tri, instances: { 1: [10], 2: [20] } }\n"
	"nodes:\n"
	"  sw1: { role: bridge, priority: { cist: 4096, 1: 4096 } }\n"
	"  sw2: { role: bridge, priority: { 2: 4096 }, host: far }\n"
	"  sw3: { role: bridge, host: far }\n"
	FX_TRI_LINKS;

/*
 * A capture of another host (mirrored here while the lab runs) is read
 * on this host's timeline, with the clock file's offset as the verdicts
 * apply it, and the run is merged further behind the clock for it.
 */
TEST(a_capture_of_another_host_is_put_on_this_host_s_clock)
{
	struct follow wf;
	struct run r;
	struct fx f;
	char path[600];

	CHECK(fx_init(&f, tri_split_yaml) == 0);
	CHECK(make_run_of(&r, &f, tri_split_yaml) == 0);
	CHECK(f.p->links[1].capture_host != TOPO_LOCAL_HOST);
	CHECK(f.p->links[0].capture_host == TOPO_LOCAL_HOST);
	for (int l = 0; l < 3; l++) {
		snprintf(path, sizeof(path), "%s/%s", r.dir,
			 f.p->links[l].pcap);
		pcap_header(path);
	}
	snprintf(path, sizeof(path), "%s/events", r.dir);
	append(path, "500000000 run-start tri\n", 24);
	/* Its clock 0.5 s ahead of this one's. */
	snprintf(path, sizeof(path), "%s/clock", r.dir);
	append(path, "far start 1000000000 500000000 1000 2000 16\n", 44);
	pcap_bpdu(&f, r.dir, S(3), 1, 1, DF, DF, DF);	/* link2, far: 2.5 s */
	pcap_bpdu(&f, r.dir, 2700000000, 0, 0, DF, DF, DF);	/* link1 */
	CHECK(follow_init(&wf, f.t, f.p, r.dir) == 0);
	CHECK_INT(follow_lag(&wf), FOLLOW_LAG_NS + FOLLOW_FAR_LAG_NS);
	CHECK_INT(follow_pump(&wf, &f.tr, 100, S(1)), 1);	/* run-start */
	/* Far 3.0 s is 2.5 s here: before link1's 2.7 s. */
	CHECK_INT(follow_next(&wf), 2500000000);
	CHECK_INT(follow_pump(&wf, &f.tr, 100, INT64_MAX), 2);
	CHECK(f.c.n > 0 && in_time_order(&f.c));
	follow_close(&wf);
	run_free(&r);
	fx_free(&f);
	/* A lab of one host lags as before. */
	CHECK(fx_init(&f, tri_yaml) == 0);
	CHECK(make_run(&r, &f) == 0);
	snprintf(path, sizeof(path), "%s/events", r.dir);
	append(path, "500000000 run-start tri\n", 24);
	CHECK(follow_init(&wf, f.t, f.p, r.dir) == 0);
	CHECK_INT(follow_lag(&wf), FOLLOW_LAG_NS);
	follow_close(&wf);
	run_free(&r);
	fx_free(&f);
}

/* mstlab with argv (NULL-terminated): what it printed (free it), how
 * long it took in *secs. */
static char *mstlab(char **argv, int *rc, double *secs)
{
	struct timespec t0, t1;
	char *out, *err;
	int argc = 0;

	while (argv[argc])
		argc++;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	out = unit_capture(mstlab_cli, argc, argv, rc, &err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	free(err);
	if (secs)
		*secs = (double)(t1.tv_sec - t0.tv_sec) +
			(double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return out;
}

/* --json's lines, parsed. */
static json_t *json_lines(char *out)
{
	json_t *lines = json_array();
	char *save = NULL;

	for (char *l = strtok_r(out, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save))
		json_array_append_new(lines, json_loads(l, 0, NULL));
	return lines;
}

static const char *type_of(json_t *lines, size_t i)
{
	return json_string_value(json_object_get(json_array_get(lines, i),
						 "type"));
}

/*
 * A run whose lab is down is told from its start, at once, and watch
 * exits (well before --for, which only bounds a failure): the events,
 * then the table. --follow waits for more.
 */
TEST(a_finished_run_is_replayed_and_watch_exits)
{
	double secs;
	json_t *lines;
	struct run r;
	struct fx f;
	char *out;
	int rc;

	CHECK(failover_run(&f, &r, true) == 0);
	out = mstlab((char *[]){ "mstlab", "watch", r.dir, "--for", "5",
				 NULL }, &rc, &secs);
	CHECK_INT(rc, 0);
	CHECK(secs < 2);
	/* No table of nothing first: the run's first event is. */
	CHECK(!strncmp(out, "00:00:01.000 scenario s\n", 24));
	CHECK(strstr(out, " link3 sw3:p2-sw1:p2 down carrier\n"));
	CHECK(strstr(out, "00:00:09.000 run-end ok\n"));
	CHECK(strstr(out, "(said)\nmstlab watch tri-1 "));
	CHECK(strstr(out, "\ncist   sw1 "));
	free(out);
	out = mstlab((char *[]){ "mstlab", "watch", r.dir, "--json", "--for",
				 "5", NULL }, &rc, &secs);
	CHECK(secs < 2);
	CHECK_INT(rc, 0);
	lines = json_lines(out);
	free(out);
	CHECK(json_array_size(lines) > 10);
	CHECK_STR(type_of(lines, 0), "state");
	CHECK_STR(type_of(lines, json_array_size(lines) - 1), "port");
	json_decref(lines);
	/* --follow: the run so far is the first picture; it waits. */
	out = mstlab((char *[]){ "mstlab", "watch", r.dir, "--follow", "--for",
				 "0.5", NULL }, &rc, &secs);
	CHECK_INT(rc, 0);
	CHECK(secs >= 0.45);
	CHECK(!strstr(out, "scenario s"));
	CHECK(!strncmp(out, "mstlab watch tri-1 ", 19));
	free(out);
	run_free(&r);
	fx_free(&f);
}

/*
 * What watch shows is the engine's state after the newest event it
 * printed: with --count stopping at link3's failure, the table has
 * link3's ends down and sw3:p1 still alternate, not what came after.
 */
TEST(the_table_is_the_state_after_the_newest_event_printed)
{
	char count[16];
	json_t *lines;
	size_t k = 0;
	struct run r;
	struct fx f;
	char *out;
	int rc;

	CHECK(failover_run(&f, &r, true) == 0);
	out = mstlab((char *[]){ "mstlab", "watch", r.dir, "--json", "--for",
				 "5", NULL }, &rc, NULL);
	lines = json_lines(out);
	free(out);
	/* The events up to link3's failure. */
	for (size_t i = 0; i < json_array_size(lines); i++) {
		if (strcmp(type_of(lines, i), "state"))
			k++;
		if (!strcmp(type_of(lines, i), "link"))
			break;
		CHECK(i + 1 < json_array_size(lines));
	}
	json_decref(lines);
	snprintf(count, sizeof(count), "%zu", k);
	out = mstlab((char *[]){ "mstlab", "watch", r.dir, "--count", count,
				 "--for", "5", NULL }, &rc, NULL);
	CHECK_INT(rc, 0);
	CHECK(strstr(out, "00:00:05.000 link3 sw3:p2-sw1:p2 down carrier\n"
		      "mstlab watch tri-1 "));
	CHECK(strstr(out, "\ncist   sw1         Df  --  Rf  Df  Ad  --  \n"));
	free(out);
	/* --json --count: the states, then that many events. */
	out = mstlab((char *[]){ "mstlab", "watch", r.dir, "--count", count,
				 "--json", "--for", "5", NULL }, &rc, NULL);
	lines = json_lines(out);
	free(out);
	CHECK_INT(json_array_size(lines), 3 + k);
	CHECK_STR(type_of(lines, 2 + k), "link");
	json_decref(lines);
	run_free(&r);
	fx_free(&f);
}

/*
 * --json starts with every tree's state, so a settled lab answers at
 * once, and a reader that folds the events onto it has the trees: the
 * state agrees with all the events from the run's start.
 */
TEST(json_starts_with_the_state_of_every_tree)
{
	char *argv[] = { "mstlab", "watch", "tri", "--json", "--count", "5",
			 "--for", "0.3", NULL };
	char *replay[] = { "mstlab", "watch", "tri", "--json", "--replay",
			   "--for", "0", NULL };
	struct fold all = { json_object(), json_object(), json_object() };
	struct fold now = { json_object(), json_object(), json_object() };
	static const char *const root[] = { "sw1", "sw1", "sw2" };
	json_t *lines, *events;
	const char *k;
	struct run r;
	struct fx f;
	json_t *v;
	char *out;
	int rc;

	CHECK(failover_run(&f, &r, false) == 0);
	out = mstlab(argv, &rc, NULL);
	CHECK_INT(rc, 0);
	lines = json_lines(out);
	free(out);
	/* Settled: the three trees' states and no event. */
	CHECK_INT(json_array_size(lines), 3);
	for (size_t i = 0; i < 3; i++) {
		json_t *o = json_array_get(lines, i);

		CHECK_STR(type_of(lines, i), "state");
		CHECK_INT(json_integer_value(json_object_get(o, "msti")), i);
		CHECK_STR(json_string_value(json_object_get(o, "root")),
			  root[i]);
		CHECK_INT(json_array_size(json_object_get(o, "ports")), 6);
		fold_line(&now, o);
	}
	out = mstlab(replay, &rc, NULL);
	events = json_lines(out);
	free(out);
	for (size_t i = 0; i < json_array_size(events); i++)
		fold_line(&all, json_array_get(events, i));
	CHECK(json_equal(all.root, now.root));
	json_object_foreach(now.port, k, v) {
		char *a = json_dumps(v, 0),
		     *b = json_dumps(json_object_get(all.port, k), 0);

		if (!json_equal(v, json_object_get(all.port, k)))
			unit_fail(__FILE__, __LINE__, "%s: state %s, events %s",
				  k, a, b ? b : "none");
		free(a);
		free(b);
	}
	json_object_foreach(now.down, k, v)
		CHECK(json_is_true(v) ==
		      json_is_true(json_object_get(all.down, k)));
	json_decref(lines);
	json_decref(events);
	json_decref(all.root);
	json_decref(all.port);
	json_decref(all.down);
	json_decref(now.root);
	json_decref(now.port);
	json_decref(now.down);
	run_free(&r);
	fx_free(&f);
}
