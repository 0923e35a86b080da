// SPDX-License-Identifier: MIT
/*
 * mstlab watch: the lab's trees live, from its captures (follow.h says
 * why the files) through the tree-state engine the verdicts use too: a
 * screen on a terminal, event lines otherwise, JSON lines with --json.
 * A run still being written is followed; a finished one is replayed.
 * Whatever it prints, the trees it shows are the engine's state after
 * the newest event it printed.
 */
#include "cmd_watch.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lab.h"
#include "mirror.h"
#include "opts.h"
#include "run_ref.h"
#include "runtime.h"
#include "follow.h"
#include "watch_render.h"

static const char watch_usage[] =
	"watch TOPO.yaml|LAB|RUN_DIR [--json] [--count N] [--for SECONDS]\n"
	"                    [--replay] [--follow]";

struct watch_opts {
	const char *what;
	bool json, replay, follow;
	long count;		/* 0: no limit */
	double for_s;		/* < 0: no limit */
};

struct watch_run {
	struct watch_opts o;
	struct run_ref ref;	/* live: the lab's current run, ends with
				 * `down` */
	bool following;		/* live or --follow: waits for more */
	struct plan *p;
	struct trees tr;
	struct follow wf;
	struct mirror mir;	/* other hosts' captures, copied here */
	struct watch_log log;
	FILE *out, *err;
	bool tty;
	long emitted;
};

static volatile sig_atomic_t resized;

static void on_winch(int sig)
{
	(void)sig;
	resized = 1;
}

static int64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

enum { O_REPLAY = 256, O_FOLLOW, O_COUNT, O_FOR };

static const struct opt watch_opt_table[] = {
	OPT_FLAG("json", 'j'), OPT_FLAG("replay", O_REPLAY),
	OPT_FLAG("follow", O_FOLLOW),
	OPT_VALUE("count", O_COUNT),
	OPT_VALUE("for", O_FOR),
	{ 0 },
};

static const struct opt_spec watch_spec = {
	.opts = watch_opt_table,
	.flags = OPT_QUIET,
	.min_words = 1,
	.max_words = 1,
};

static int parse_opts(struct watch_opts *o, int argc, char **argv)
{
	struct opts op;
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	o->for_s = -1;
	opts_start(&op, &watch_spec, argc, argv);
	while ((c = opts_next(&op)) > 0) {
		switch (c) {
		case 'j':
			o->json = true;
			break;
		case O_REPLAY:
			o->replay = true;
			break;
		case O_FOLLOW:
			o->follow = true;
			break;
		case O_COUNT:
			errno = 0;
			o->count = strtol(op.arg, &end, 10);
			if (errno || *end || end == op.arg || o->count <= 0)
				return -1;
			break;
		case O_FOR:
			errno = 0;
			o->for_s = strtod(op.arg, &end);
			if (errno || *end || end == op.arg ||
			    !(o->for_s >= 0) || o->for_s > 1e7)
				return -1;
			break;
		}
	}
	if (c != OPT_END)
		return -1;
	o->what = argv[op.ind];
	return 0;
}

/* The run (run_ref.h), its plan, the engine and the follower. */
static int find_run(struct watch_run *w)
{
	if (run_ref_find(&w->ref, w->o.what, w->err))
		return 1;
	if (plan_build(w->ref.t, &w->p) ||
	    trees_init(&w->tr, w->ref.t, w->p, TREES_LIVE) ||
	    follow_init(&w->wf, w->ref.t, w->p, w->ref.run_dir)) {
		fprintf(w->err, "mstlab: out of memory\n");
		return 1;
	}
	/* A lab that is up: what its other hosts capture is copied here
	 * as it grows (at teardown it is fetched whole). */
	if (w->ref.live && mirror_needed(w->ref.t, w->p)) {
		struct errbuf e;

		if (mirror_start(&w->mir, w->ref.t, w->p, w->ref.run_dir, NULL,
				 w->err, &e))
			fprintf(w->err, "mstlab: %s\n", e.msg);
	}
	return 0;
}

static bool counted_out(const struct watch_run *w)
{
	return w->o.count && w->emitted >= w->o.count;
}

static void on_event(void *ctx, const struct trees_change *e)
{
	struct watch_run *w = ctx;
	struct watch_line line;

	if (counted_out(w))
		return;
	w->emitted++;
	if (w->o.json) {
		watch_event_json(&w->tr, e, w->out);
		fflush(w->out);
		return;
	}
	watch_event_line(&w->tr, e, &line);
	if (w->tty) {
		watch_log_add(&w->log, &line);
	} else {
		fprintf(w->out, "%s\n", line.text);
		fflush(w->out);
	}
}

/* Up to when the files are merged: a run being written lags the clock
 * a little (follow.h), a finished one is all there. */
static int64_t horizon(const struct watch_run *w)
{
	return w->following ? realtime_ns() - follow_lag(&w->wf) : INT64_MAX;
}

/* Into the engine, what the files hold up to h; with --count item by
 * item, so that the trees shown are those after the last event counted. */
static void pump(struct watch_run *w, int64_t h)
{
	size_t step = w->o.count ? 1 : 4096;

	while (!counted_out(w) && follow_pump(&w->wf, &w->tr, step, h))
		;
}

/* Time passes up to ns: TC nobody refreshed lapses. */
static void tick(struct watch_run *w, int64_t ns)
{
	if (!counted_out(w))
		trees_tick(&w->tr, ns);
}

/* --json: every tree's state at ns, before the events after it. */
static void print_states(struct watch_run *w, int64_t ns)
{
	for (size_t s = 0; s < w->tr.ntrees; s++)
		watch_state_json(&w->tr, (int)s, ns, w->out);
	fflush(w->out);
}

static void screen_size(FILE *f, int *width, int *height)
{
	struct winsize ws;

	*width = 80;
	*height = 24;
	if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40 &&
	    ws.ws_row >= 10) {
		*width = ws.ws_col;
		*height = ws.ws_row;
	}
}

static void draw(struct watch_run *w, bool clear)
{
	/* The time of the state shown: that of its newest event, or now. */
	struct watch_screen scr = {
		.colour = w->tty,
		.now_ns = w->tr.now_ns ? w->tr.now_ns : realtime_ns(),
	};
	char title[PATH_MAX];
	struct sbuf sb;
	const char *base = strrchr(w->ref.run_dir, '/');

	snprintf(title, sizeof(title), "%s", base ? base + 1 : w->ref.run_dir);
	scr.title = title;
	screen_size(w->out, &scr.width, &scr.height);
	if (!clear)	/* a table in a log: all of it, no event lines */
		scr.height = 1000;
	sbuf_init(&sb);
	watch_render_screen(&w->tr, clear ? &w->log : &(struct watch_log){ 0 },
			    &scr, &sb);
	if (clear) {
		/* Home, then each line over the old one; erase the rest. */
		fputs("\033[H", w->out);
		for (const char *s = sbuf_str(&sb); *s;) {
			size_t k = strcspn(s, "\n");

			fwrite(s, 1, k, w->out);
			fputs("\033[K", w->out);
			s += k;
			if (*s) {
				fputc('\n', w->out);
				s++;
			}
		}
		fputs("\033[J", w->out);
	} else {
		fputs(sbuf_str(&sb), w->out);
	}
	sbuf_free(&sb);
	fflush(w->out);
}

static int follow(struct watch_run *w)
{
	int64_t start = realtime_ns(), last_draw = 0, last_check = start;
	int64_t stop = w->o.for_s >= 0 ?
			       start + (int64_t)(w->o.for_s * 1e9) : INT64_MAX;
	unsigned long seen = w->tr.changes;
	int fd = follow_inotify(w->ref.run_dir);
	const char *why = NULL;

	while (!lab_interrupted && !why) {
		int64_t now = realtime_ns(), h, due;
		long wait_ms = 250;
		char drain[4096];

		if (counted_out(w) || now >= stop)
			break;
		if (w->ref.live && now - last_check >= 1000000000LL) {
			last_check = now;
			if (!run_ref_still_up(&w->ref)) {
				why = "the lab went down";
				mirror_stop(&w->mir);
				pump(w, INT64_MAX);	/* its last words */
				break;
			}
		}
		if (w->tty && (w->tr.changes != seen || resized ||
			       now - last_draw >= 1000000000LL)) {
			seen = w->tr.changes;
			resized = 0;
			last_draw = now;
			draw(w, true);
		}
		if ((stop - now) / 1000000 < wait_ms)
			wait_ms = (long)((stop - now) / 1000000) + 1;
		/* An item held back is due once the lag has passed. */
		due = follow_next(&w->wf);
		if (due != INT64_MAX) {
			due = (due + follow_lag(&w->wf) - now) / 1000000 + 1;
			if (due < wait_ms)
				wait_ms = due > 0 ? (long)due : 0;
		}
		if (fd >= 0) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };

			if (poll(&pfd, 1, (int)wait_ms) > 0)
				while (read(fd, drain, sizeof(drain)) > 0)
					;
		} else {
			usleep((useconds_t)wait_ms * 1000);
		}
		h = horizon(w);
		pump(w, h);
		tick(w, h);
	}
	if (fd >= 0)
		close(fd);
	if (why)	/* stderr: stdout stays one JSON object a line */
		fprintf(w->err, "mstlab: %s\n", why);
	return 0;
}

static void run_free(struct watch_run *w)
{
	mirror_stop(&w->mir);
	follow_close(&w->wf);
	trees_free(&w->tr);
	plan_free(w->p);
	run_ref_free(&w->ref);
}

int cmd_watch(int argc, char **argv, FILE *out, FILE *err)
{
	struct watch_run *w = calloc(1, sizeof(*w));
	struct sigaction sa = { .sa_handler = on_winch };
	const char *bad;
	bool replay;
	int64_t h;
	int rc;

	if (!w)
		return 1;
	w->out = out;
	w->err = err;
	w->mir.wake[0] = w->mir.wake[1] = -1;
	if (parse_opts(&w->o, argc, argv)) {
		fprintf(err, "usage: mstlab %s\n", watch_usage);
		free(w);
		return 2;
	}
	rc = find_run(w);
	if (rc)
		goto done;
	/* A run no lab is writing any more is told from its start, once. */
	w->following = w->ref.live || w->o.follow;
	replay = w->o.replay || !w->following;
	w->tty = !w->o.json && w->following && isatty(fileno(out));
	w->tr.emit_ctx = w;
	/* The run so far makes the first picture; its events are history,
	 * printed only when replaying, after the state they start from. */
	if (replay) {
		h = follow_next(&w->wf);
		if (w->o.json)
			print_states(w, h != INT64_MAX ? h : realtime_ns());
		w->tr.emit = on_event;
	}
	h = horizon(w);
	pump(w, h);
	/* History's TC that lapsed: by now, or after the run's last word. */
	if (w->following)
		tick(w, h);
	else if (w->tr.now_ns)
		tick(w, w->tr.now_ns + w->tr.tc_hold_ns + 1);
	if (!replay && w->o.json)
		print_states(w, w->tr.now_ns ? w->tr.now_ns : realtime_ns());
	w->tr.emit = on_event;
	bad = follow_error(&w->wf);
	if (bad)
		fprintf(err, "mstlab: %s\n", bad);
	lab_interrupted = 0;
	runtime_signals();
	sigemptyset(&sa.sa_mask);
	sigaction(SIGWINCH, &sa, NULL);
	if (w->tty)	/* the alternate screen, no cursor: restored below */
		fputs("\033[?1049h\033[?25l", out);
	else if (!w->o.json && !replay)
		draw(w, false);
	rc = w->following ? follow(w) : 0;
	if (w->tty) {
		fputs("\033[?25h\033[?1049l", out);
		draw(w, false);		/* the last picture stays on screen */
	} else if (!w->o.json) {
		draw(w, false);
	}
	fflush(out);
done:
	run_free(w);
	free(w);
	return rc;
}
