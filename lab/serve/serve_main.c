// SPDX-License-Identifier: MIT
/*
 * mstlab serve: the lab's trees on a web page, live (pushed as
 * Server-Sent Events from the engine watch uses, following the run's
 * captures) or, for a finished run, replayed at any instant with the
 * verdicts' own snapshots; links failed and restored from the page as
 * `mstlab link` does it. serve_http.h says what a client may do,
 * serve_model.h what the page is told.
 */
#include "serve_main.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab.h"
#include "opts.h"
#include "mirror.h"
#include "run_ref.h"
#include "runtime.h"
#include "serve_http.h"
#include "serve_model.h"
#include "watch_render.h"

static const char serve_usage[] =
	"serve TOPO.yaml|LAB|RUN_DIR [--listen ADDR:PORT]\n"
	"                    [--token-file FILE | --no-auth] [--read-only] "
	"[--uri URI]";

/* How often the page hears of the flows, and that the stream is alive. */
#define FLOWS_EVERY_NS (250 * 1000000LL)
#define KEEPALIVE_EVERY_NS (15 * 1000000000LL)
#define UP_CHECK_EVERY_NS 1000000000LL

struct serve_opts {
	const char *what, *listen, *token_file, *uri;
	bool read_only, no_auth;
	struct sockaddr_storage addr;	/* --listen's */
	socklen_t addr_len;
};

struct serve_run {
	struct serve_opts o;
	struct run_ref ref;
	struct serve_model m;
	struct serve_http *h;
	FILE *out, *err;
	bool up;		/* live, and the lab is still up */
	bool control;		/* links can be failed from the page */
	bool attached;		/* rt and lab below are in use */
	struct runtime rt;	/* libvirt, for control */
	struct lab lab;
	struct mirror mir;	/* other hosts' captures, copied here */
	bool dirty[TOPO_MAX_TREES];	/* changed since its last state */
	unsigned long flows_sent;	/* flows.version then */
	char token[SERVE_TOKEN_MAX + 1];
};

enum { O_LISTEN = 256, O_TOKEN_FILE, O_NO_AUTH, O_READ_ONLY, O_URI };

static const struct opt serve_opt_table[] = {
	OPT_VALUE("listen", O_LISTEN), OPT_VALUE("token-file", O_TOKEN_FILE),
	OPT_FLAG("no-auth", O_NO_AUTH), OPT_FLAG("read-only", O_READ_ONLY),
	OPT_VALUE("uri", O_URI),
	{ 0 },
};

static const struct opt_spec serve_spec = {
	.opts = serve_opt_table,
	.flags = OPT_QUIET,
	.min_words = 1,
	.max_words = 1,
};

static int parse_opts(struct serve_opts *o, int argc, char **argv,
		      char *why, size_t len)
{
	struct errbuf e;
	struct opts op;
	int c;

	memset(o, 0, sizeof(*o));
	o->listen = SERVE_DEFAULT_LISTEN;
	opts_start(&op, &serve_spec, argc, argv);
	while ((c = opts_next(&op)) > 0) {
		if (c == O_LISTEN)
			o->listen = op.arg;
		else if (c == O_TOKEN_FILE)
			o->token_file = op.arg;
		else if (c == O_NO_AUTH)
			o->no_auth = true;
		else if (c == O_READ_ONLY)
			o->read_only = true;
		else if (c == O_URI)
			o->uri = op.arg;
	}
	if (c != OPT_END) {
		opts_why(&op, why, len);
		return -1;
	}
	if (serve_listen_parse(o->listen, &o->addr, &o->addr_len, &e)) {
		snprintf(why, len, "--listen: %s", e.msg);
		return -1;
	}
	if (o->no_auth && o->token_file) {
		snprintf(why, len, "--no-auth and --token-file: one or the "
			 "other");
		return -1;
	}
	/* Anyone who reaches the address could drive the lab. */
	if (o->no_auth && !serve_addr_loopback(&o->addr)) {
		snprintf(why, len, "--no-auth is for a loopback address only "
			 "(127.0.0.0/8, [::1]), not %s", o->listen);
		return -1;
	}
	o->what = argv[op.ind];
	return 0;
}

/* ---- the engine's changes, to every page ------------------------------------ */

static bool has_clients(const struct serve_run *s)
{
	return s->h && serve_http_stats(s->h).clients;
}

/* A change: as watch --json has it, then as watch's line of text. */
static void on_change(void *ctx, const struct trees_change *c)
{
	struct serve_run *s = ctx;
	const struct trees *tr = &s->m.live;
	struct watch_line line;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (c->kind == TREES_LINK)
		memset(s->dirty, true, sizeof(s->dirty));
	else if (c->tree >= 0 && c->tree < TOPO_MAX_TREES)
		s->dirty[c->tree] = true;
	if (!has_clients(s))
		return;
	f = open_memstream(&buf, &len);
	if (!f)
		return;
	watch_event_json(tr, c, f);
	watch_event_line(tr, c, &line);
	fputs(line.text, f);
	if (!fclose(f))
		serve_http_broadcast(s->h, "change", buf, len);
	free(buf);
}

/* A message (j, freed) to one stream, or to every one (c NULL). */
static void send_to(struct serve_run *s, struct serve_client *c,
		    const char *event, char *j, size_t len)
{
	if (!j)
		return;
	if (c)
		serve_http_send(c, event, j, len);
	else
		serve_http_broadcast(s->h, event, j, len);
	free(j);
}

static void send_state(struct serve_run *s, struct serve_client *c, int tree,
		       int64_t ns)
{
	size_t len = 0;
	char *j = serve_model_state(&s->m, tree, ns, &len);

	send_to(s, c, "state", j, len);
}

static void send_flows(struct serve_run *s, struct serve_client *c,
		       int64_t now)
{
	size_t len = 0;
	char *j = serve_model_flows(&s->m, now, &len);

	send_to(s, c, "flows", j, len);
}

/* The lab's time: the newest item the engine had, or the horizon. */
static int64_t lab_now(const struct serve_run *s, int64_t horizon)
{
	return s->up ? horizon : s->m.live.now_ns;
}

/* After each pump: the trees that changed, whole. */
static void flush_states(struct serve_run *s, int64_t now)
{
	for (size_t t = 0; t < s->m.live.ntrees; t++) {
		if (!s->dirty[t])
			continue;
		s->dirty[t] = false;
		if (has_clients(s))
			send_state(s, NULL, (int)t, now);
	}
}

/* ---- the routes ------------------------------------------------------------------- */

static void reply_json(struct serve_reply *r, char *body, size_t len)
{
	if (!body) {
		serve_reply_error(r, 500, "out of memory");
		return;
	}
	*r = (struct serve_reply){ .status = 200, .body = body, .len = len };
}

static void on_get(void *ctx, enum serve_route route,
		   const struct serve_args *a, struct serve_reply *r)
{
	struct serve_run *s = ctx;
	int64_t t = s->m.replay ? s->m.start_ns : 0;
	size_t len = 0;
	char *end, *body;

	if (route == SERVE_LAB) {
		body = serve_model_lab(&s->m, s->control, s->up, &len);
		reply_json(r, body, len);
		return;
	}
	if (a->t) {
		errno = 0;
		t = strtoll(a->t, &end, 10);
		if (errno || *end || end == a->t || t < 0) {
			serve_reply_error(r, 400, "t is an instant in ns");
			return;
		}
	}
	body = serve_model_states(&s->m, t, &len);
	reply_json(r, body, len);
}

static bool on_stream(void *ctx, struct serve_client *c,
		      struct serve_reply *r)
{
	struct serve_run *s = ctx;
	int64_t now = lab_now(s, events_now() - follow_lag(&s->m.fw));
	char hello[128];

	if (s->m.replay) {
		serve_reply_error(r, 404, "a finished run has no stream: ask "
				  "/api/state?t=NS");
		return false;
	}
	snprintf(hello, sizeof(hello), "{\"ns\":%" PRId64 ",\"up\":%s}", now,
		 s->up ? "true" : "false");
	serve_http_send(c, "hello", hello, strlen(hello));
	for (size_t t = 0; t < s->m.live.ntrees; t++)
		send_state(s, c, (int)t, now);
	send_flows(s, c, now);
	return true;
}

/* The link an action names, what it does to it: the link, or -1 with
 * why. */
static int link_action(const struct serve_run *s, const struct serve_args *a,
		       bool *fail, enum topo_fail_mode *mode, struct errbuf *e)
{
	if (!a->end || !a->action)
		return errbuf_set(e, "end=NODE:PORT and action=fail|restore "
				  "are needed");
	if (lab_link_words(a->action, a->mode, fail, mode, e))
		return -1;
	return lab_link_at(s->ref.t, a->end, e);
}

static bool on_control_check(void *ctx, const struct serve_args *a,
			     struct serve_reply *r)
{
	struct serve_run *s = ctx;
	enum topo_fail_mode mode;
	struct errbuf e;
	bool fail;

	if (!s->control) {
		serve_reply_error(r, 403, "links cannot be failed from here (%s)",
				  s->m.replay ? "a finished run" :
				  !s->up ? "the lab went down" :
				  "mstlab serve --read-only");
		return false;
	}
	if (link_action(s, a, &fail, &mode, &e) < 0) {
		serve_reply_error(r, 400, "%s", e.msg);
		return false;
	}
	return true;
}

/* In the control thread: what `mstlab link` does, through the lab. */
static void on_control(void *ctx, const struct serve_args *a,
		       struct serve_reply *r)
{
	struct serve_run *s = ctx;
	enum topo_fail_mode mode;
	struct errbuf e;
	char *body, name[16];
	bool fail;
	int link;
	json_t *o;

	link = link_action(s, a, &fail, &mode, &e);	/* checked before */
	if (fail ? lab_link_fail(&s->lab, link, mode, &e) :
		   lab_link_restore(&s->lab, link, &e)) {
		serve_reply_error(r, 500, "%s", e.msg);
		return;
	}
	fprintf(s->err, "mstlab serve: link%u (%s) %s from the page\n",
		s->ref.t->links[link].index, a->end, !fail ? "restored" :
		mode == TOPO_FAIL_CARRIER ? "down (carrier)" : "down (silent)");
	snprintf(name, sizeof(name), "link%u", s->ref.t->links[link].index);
	o = json_pack("{s:s, s:s, s:s, s:s?}", "link", name, "end", a->end,
		      "state", fail ? "down" : "up", "mode", !fail ? NULL :
		      mode == TOPO_FAIL_CARRIER ? "carrier" : "silent");
	body = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	reply_json(r, body, body ? strlen(body) : 0);
}

/* ---- running ------------------------------------------------------------------------ */

/* Everything the files hold up to h into the engine. */
static void pump(struct serve_run *s, int64_t h)
{
	while (follow_pump(&s->m.fw, &s->m.live, 4096, h))
		;
	trees_tick(&s->m.live, h);
}

/* The lab went down: what it wrote last, and no more control. */
static void lab_gone(struct serve_run *s)
{
	static const char down[] = "{\"up\":false}";

	s->up = false;
	s->control = false;
	mirror_stop(&s->mir);
	pump(s, INT64_MAX);
	flush_states(s, s->m.live.now_ns);
	send_flows(s, NULL, s->m.live.now_ns);
	serve_http_broadcast(s->h, "lab", down, sizeof(down) - 1);
	fprintf(s->err, "mstlab serve: the lab went down; the page keeps its "
		"last state\n");
}

static void loop(struct serve_run *s)
{
	int64_t last_flows = 0, last_alive = events_now(), last_check = 0;
	int ino = s->m.replay ? -1 : follow_inotify(s->ref.run_dir);
	char drain[4096];

	while (!lab_interrupted) {
		struct pollfd pfd = { .fd = ino, .events = POLLIN };
		int64_t now = events_now(), h, due;
		int wait = s->m.replay ? 1000 : 250;

		/* An item held back is due once the lag has passed. */
		due = s->up ? follow_next(&s->m.fw) : INT64_MAX;
		if (due != INT64_MAX) {
			due = (due + follow_lag(&s->m.fw) - now) / 1000000 + 1;
			if (due < wait)
				wait = due > 0 ? (int)due : 0;
		}
		serve_http_poll(s->h, &pfd, ino >= 0, wait);
		if (pfd.revents & POLLIN)
			while (read(ino, drain, sizeof(drain)) > 0)
				;
		if (s->m.replay)
			continue;
		now = events_now();
		h = now - follow_lag(&s->m.fw);
		if (s->up) {
			pump(s, h);
			flush_states(s, h);
		}
		if (s->up && now - last_check >= UP_CHECK_EVERY_NS) {
			last_check = now;
			if (!run_ref_still_up(&s->ref))
				lab_gone(s);
		}
		if (s->up && s->m.flows.version != s->flows_sent &&
		    now - last_flows >= FLOWS_EVERY_NS) {
			s->flows_sent = s->m.flows.version;
			last_flows = now;
			if (has_clients(s))
				send_flows(s, NULL, h);
		}
		if (now - last_alive >= KEEPALIVE_EVERY_NS) {
			last_alive = now;
			serve_http_broadcast(s->h, NULL, "alive", 5);
		}
		/* Resumed streams write now, not at the next wake. */
		serve_http_poll(s->h, NULL, 0, 0);
	}
	if (ino >= 0)
		close(ino);
}

/* Links can be failed from the page: libvirt and the lab, as `mstlab
 * link` attaches to them. */
static int attach(struct serve_run *s)
{
	struct errbuf e;

	runtime_for(&s->rt, s->o.uri, s->out, s->err);
	s->lab.st.fd = -1;	/* lab_fini before lab_attach closes nothing */
	s->attached = true;
	if (runtime_connect(&s->rt, false, PLAN_VIRT_QEMU))
		return -1;
	if (lab_attach(&s->lab, s->ref.t, &s->rt.ops, s->err, &e)) {
		fprintf(s->err, "mstlab: %s\n", e.msg);
		return -1;
	}
	return 0;
}

/* The token: --token-file's, or a new one (none with --no-auth). */
static int make_token(struct serve_run *s)
{
	struct errbuf e;

	if (s->o.no_auth)
		return 0;
	if (!(s->o.token_file ? serve_token_read(s->o.token_file, s->token,
						 sizeof(s->token), &e) :
				serve_token_new(s->token, &e)))
		return 0;
	fprintf(s->err, "mstlab serve: %s\n", e.msg);
	return -1;
}

static int start(struct serve_run *s)
{
	struct serve_cfg cfg = { .addr = s->o.addr, .addr_len = s->o.addr_len,
				 .token = s->o.no_auth ? NULL : s->token };
	const struct serve_app app = {
		.ctx = s, .get = on_get, .stream = on_stream,
		.control_check = on_control_check, .control = on_control,
	};
	struct errbuf e;

	s->h = serve_http_start(&cfg, &app, &e);
	if (s->h)
		return 0;
	fprintf(s->err, "mstlab serve: %s\n", e.msg);
	return 1;
}

static void say_where(struct serve_run *s)
{
	const char *colon = strrchr(s->o.listen, ':');
	int n = (int)(colon - s->o.listen);

	fprintf(s->out, "mstlab serve: http://%.*s:%u/%s%s (lab %s, %s%s)\n",
		n, s->o.listen, serve_http_port(s->h),
		s->token[0] && !s->o.token_file ? "?token=" : "",
		s->token[0] && !s->o.token_file ? s->token : "", s->ref.lab,
		s->m.replay ? "replay of a finished run" : "live",
		s->m.replay ? "" : s->control ? ", links controllable" :
		", read-only");
	fflush(s->out);
}

int serve_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct serve_run *s = calloc(1, sizeof(*s));
	struct errbuf e;
	char why[ERRBUF_LEN + 16];
	int rc = 1;

	if (!s)
		return 1;
	s->out = out;
	s->err = err;
	s->mir.wake[0] = s->mir.wake[1] = -1;
	if (parse_opts(&s->o, argc, argv, why, sizeof(why))) {
		fprintf(err, "mstlab serve: %s\nusage: mstlab %s\n", why,
			serve_usage);
		free(s);
		return 2;
	}
	if (make_token(s) || run_ref_find(&s->ref, s->o.what, err))
		goto done;
	if (serve_model_open(&s->m, &s->ref, !s->ref.live, &e)) {
		fprintf(err, "mstlab serve: %s\n", e.msg);
		goto done;
	}
	s->up = s->ref.live;
	if (s->up && !s->o.read_only) {
		if (attach(s))
			goto done;
		s->control = true;
	}
	/* What its other hosts capture, copied here as it grows. */
	if (s->up && mirror_needed(s->ref.t, s->m.p) &&
	    mirror_start(&s->mir, s->ref.t, s->m.p, s->ref.run_dir, NULL,
			 err, &e))
		fprintf(err, "mstlab serve: %s\n", e.msg);
	if (s->up) {
		s->m.on_change = on_change;
		s->m.on_change_ctx = s;
		pump(s, events_now() - follow_lag(&s->m.fw));
		memset(s->dirty, 0, sizeof(s->dirty));
	}
	rc = start(s);
	if (rc)
		goto done;
	say_where(s);
	lab_interrupted = 0;
	runtime_signals();
	loop(s);
	rc = 0;
done:
	mirror_stop(&s->mir);
	serve_http_stop(s->h);
	serve_model_close(&s->m);
	if (s->attached) {
		lab_fini(&s->lab);
		runtime_free(&s->rt);
	}
	run_ref_free(&s->ref);
	free(s);
	return rc;
}
