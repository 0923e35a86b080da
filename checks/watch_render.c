// SPDX-License-Identifier: MIT
#include "watch_render.h"

#include <string.h>
#include <time.h>

#include "print.h"

#define TREE_W 7
#define ROOT_W 9
#define TC_W 3
#define PREFIX_W (TREE_W + ROOT_W + TC_W)

void watch_log_add(struct watch_log *log, const struct watch_line *line)
{
	log->line[log->next] = *line;
	log->next = (log->next + 1) % WATCH_LOG_LINES;
	if (log->n < WATCH_LOG_LINES)
		log->n++;
}

const struct watch_line *watch_log_newest(const struct watch_log *log,
					  size_t i)
{
	if (i >= log->n)
		return NULL;
	return &log->line[(log->next + WATCH_LOG_LINES - 1 - i) %
			  WATCH_LOG_LINES];
}

/* text cut or padded to exactly width columns, in an SGR colour. */
static void cell(struct sbuf *sb, bool colour, const char *sgr,
		 const char *text, int width)
{
	int n = (int)strnlen(text, (size_t)width);

	if (!n)
		sgr = NULL;
	if (colour && sgr)
		sbuf_printf(sb, "\033[%sm", sgr);
	sbuf_printf(sb, "%.*s", n, text);
	if (colour && sgr)
		sbuf_puts(sb, "\033[0m");
	sbuf_printf(sb, "%*s", width - n, "");
}

static void hms(int64_t ns, char *buf, size_t len)
{
	time_t s = (time_t)(ns / 1000000000LL);
	struct tm tm;

	gmtime_r(&s, &tm);
	snprintf(buf, len, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min,
		 tm.tm_sec, (int)(ns % 1000000000LL / 1000000));
}

static void bridge_name(const struct trees *tr, int node, uint64_t id,
			char *buf, size_t len)
{
	if (node >= 0)
		snprintf(buf, len, "%s", tr->t->nodes[node].name);
	else if (id)
		snprintf(buf, len, "%04x.%012llx", (unsigned)(id >> 48),
			 (unsigned long long)(id & 0xffffffffffffULL));
	else
		snprintf(buf, len, "-");
}

/* By enum port_role: S for an STP port (no role on the wire). */
static const char role_letter[] = "MARDS.";

static void port_cell(const struct tree_port *p, char out[3],
		      const char **sgr)
{
	static const char state_letter[] = "?dlf-";
	enum port_state st = tree_port_state(p);

	if (st == PORT_STATE_DOWN) {
		strcpy(out, "--");
		*sgr = "31";
		return;
	}
	if (p->role == PORT_ROLE_SILENT) {
		strcpy(out, "..");
		*sgr = "2";
		return;
	}
	out[0] = role_letter[p->role <= PORT_ROLE_SILENT ? p->role : 4];
	out[1] = state_letter[st <= PORT_STATE_DOWN ? st : 0];
	out[2] = 0;
	*sgr = st == PORT_STATE_FORWARDING ?
		       (p->role == PORT_ROLE_ROOT ? "1;32" : "32") :
	       st == PORT_STATE_LEARNING ? "33" :
	       st == PORT_STATE_DISCARDING ? "1;31" : "2";
}

struct column {
	int node, port;
};

/* The ports a tree table shows: every port of every bridge node. */
static size_t columns(const struct trees *tr, struct column *col,
		      size_t max, int *colw)
{
	size_t n = 0;

	*colw = 4;
	for (size_t i = 0; i < tr->t->n_nodes; i++) {
		if (!topo_role_is_bridge(tr->t->nodes[i].role))
			continue;
		for (size_t j = 0; j < tr->t->nodes[i].n_ports && n < max;
		     j++) {
			int w = (int)strlen(tr->t->nodes[i].ports[j].name) + 1;

			if (w > *colw)
				*colw = w < 7 ? w : 7;
			col[n++] = (struct column){ (int)i, (int)j };
		}
	}
	return n;
}

static void table(const struct trees *tr, const struct watch_screen *scr,
		  const struct column *col, size_t ncol, int colw,
		  struct sbuf *sb, int *lines, int max_lines)
{
	int per = (scr->width - PREFIX_W) / colw;
	char buf[64];

	if (per < 1)
		per = 1;
	for (size_t b = 0; b < ncol || b == 0; b += (size_t)per) {
		size_t end = b + (size_t)per < ncol ? b + (size_t)per : ncol;

		if (*lines + 2 + (int)tr->ntrees > max_lines)
			return;
		/* Node names over their ports. */
		sbuf_printf(sb, "%*s", PREFIX_W, "");
		for (size_t c = b; c < end;) {
			size_t k = c;

			while (k < end && col[k].node == col[c].node)
				k++;
			snprintf(buf, sizeof(buf), "%s",
				 tr->t->nodes[col[c].node].name);
			if ((int)strlen(buf) > (int)(k - c) * colw - 1)
				buf[(k - c) * (size_t)colw - 1] = 0;
			cell(sb, scr->colour, "1", buf, (int)(k - c) * colw);
			c = k;
		}
		sbuf_puts(sb, "\n");
		cell(sb, scr->colour, NULL, "tree", TREE_W);
		cell(sb, scr->colour, NULL, "root", ROOT_W);
		cell(sb, scr->colour, NULL, "", TC_W);
		for (size_t c = b; c < end; c++)
			cell(sb, scr->colour, NULL,
			     tr->t->nodes[col[c].node].ports[col[c].port].name,
			     colw);
		sbuf_puts(sb, "\n");
		*lines += 2;
		for (size_t tree = 0; tree < tr->ntrees; tree++) {
			const struct tree_view *wt = trees_now(tr, (int)tree);

			cell(sb, scr->colour, NULL,
			     trees_tree_name(tr, (int)tree, buf, sizeof(buf)),
			     TREE_W);
			bridge_name(tr, wt->root_node, wt->root, buf,
				    sizeof(buf));
			if ((int)strlen(buf) > ROOT_W - 1)
				buf[ROOT_W - 1] = 0;
			/* The root in reverse video: the eye finds it first. */
			cell(sb, scr->colour, wt->root ? "1;7" : NULL, buf,
			     (int)strlen(buf));
			cell(sb, scr->colour, NULL, "",
			     ROOT_W - (int)strlen(buf));
			cell(sb, scr->colour, "1;35", wt->tc ? "TC" : "",
			     TC_W);
			for (size_t c = b; c < end; c++) {
				char txt[3];
				const char *sgr;

				port_cell(trees_port_now(tr, col[c].node,
							 col[c].port,
							 (int)tree),
					  txt, &sgr);
				cell(sb, scr->colour, sgr, txt, colw);
			}
			sbuf_puts(sb, "\n");
			(*lines)++;
		}
		if (end >= ncol)
			break;
	}
}

/* The i-th newest line of log, without the hour when hourless. */
static const struct watch_line *log_line(const struct watch_log *log,
					 size_t i, bool hourless,
					 struct watch_line *buf)
{
	const struct watch_line *l = watch_log_newest(log, i);

	if (!l || !hourless)
		return l;
	watch_line_hourless(l, buf);
	return buf;
}

/* The newest lines of log that fit in rows, oldest first; when one is
 * too wide, every time loses its hour, so that they stay in a column. */
static void events(const struct watch_log *log, int width, int rows,
		   struct sbuf *out)
{
	const struct watch_line *l;
	struct watch_line buf;
	bool hourless = false;
	struct sbuf row;
	size_t k;

	for (k = 0; k < (size_t)(rows > 0 ? rows : 0) &&
		    (l = watch_log_newest(log, k)); k++)
		if ((int)strlen(l->text) > width)
			hourless = true;
	sbuf_init(&row);
	for (k = 0; (l = log_line(log, k, hourless, &buf)); k++) {
		sbuf_reset(&row);
		rows -= watch_line_fit(l, width, &row);
		if (rows < 0)
			break;
	}
	sbuf_free(&row);
	while (k-- > 0)
		watch_line_fit(log_line(log, k, hourless, &buf), width, out);
}

void watch_render_screen(const struct trees *tr,
			 const struct watch_log *log,
			 const struct watch_screen *scr, struct sbuf *out)
{
	struct column col[TOPO_MAX_NODES * 4];
	int colw, lines = 0, max_lines = scr->height - 1;
	size_t ncol = columns(tr, col, sizeof(col) / sizeof(col[0]), &colw);
	char buf[WATCH_LINE_MAX + 64], t[32];

	hms(scr->now_ns, t, sizeof(t));
	t[8] = 0;	/* seconds are enough in the title */
	snprintf(buf, sizeof(buf), "mstlab watch %s  %s UTC  BPDUs %lu  "
		 "bad %lu", scr->title ? scr->title : "", t, tr->bpdus, tr->bad);
	cell(out, scr->colour, "1", buf,
	     (int)strnlen(buf, (size_t)scr->width));
	sbuf_puts(out, "\n");
	lines++;
	table(tr, scr, col, ncol, colw, out, &lines, max_lines);
	if (lines < max_lines) {
		snprintf(buf, sizeof(buf), "R root D desig A alt M master | "
			 "f fwd l learn d discard | -- down .. unheard");
		cell(out, scr->colour, "2", buf,
		     (int)strnlen(buf, (size_t)scr->width));
		sbuf_puts(out, "\n");
		lines++;
	}
	/* The newest events at the bottom, as many as fit whole. */
	events(log, scr->width, max_lines - lines, out);
}

static void end_name(const struct trees *tr, int node, int port,
		     char *buf, size_t len)
{
	snprintf(buf, len, "%s:%s", tr->t->nodes[node].name,
		 tr->t->nodes[node].ports[port].name);
}

/* A port's role as watch words it: a silent port's is unknown; one whose
 * link is down is disabled, as in summary.json. */
static const char *role_word(const struct tree_port *p, const char *silent)
{
	return p->down ? port_role_name(PORT_ROLE_DISABLED) :
	       p->role == PORT_ROLE_SILENT ? silent :
					     port_role_name(p->role);
}

static const char *state_word(const struct tree_port *p)
{
	return port_state_name(tree_port_state(p));
}

/* What a link-down event says after its link: "carrier", "silent". */
static const char *link_mode(const struct event *e)
{
	const char *m = e->arg + strcspn(e->arg, " ");

	return *m ? m + 1 : m;
}

static void mac_str(const uint8_t mac[6], char out[18])
{
	snprintf(out, 18, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1],
		 mac[2], mac[3], mac[4], mac[5]);
}

/* s after the n characters of l's text, cut to fit; the new length. */
static size_t line_put(struct watch_line *l, size_t n, const char *s)
{
	size_t k = strnlen(s, sizeof(l->text) - 1 - n);

	memcpy(l->text + n, s, k);
	l->text[n + k] = 0;
	return n + k;
}

/* l = "TIME HEAD CHANGE" (HEAD may be empty). */
static void line_join(struct watch_line *l, int64_t ns, const char *head,
		      const char *change)
{
	char t[32];
	size_t n;

	hms(ns, t, sizeof(t));
	n = line_put(l, 0, t);
	n = line_put(l, n, " ");
	l->head = (unsigned short)n;
	if (*head) {
		n = line_put(l, n, head);
		n = line_put(l, n, " ");
	}
	l->change = (unsigned short)n;
	line_put(l, n, change);
}

void watch_event_line(const struct trees *tr, const struct trees_change *e,
		      struct watch_line *l)
{
	char tree[16], head[200], buf[WATCH_LINE_MAX], a[80], b[80];
	char mac[18];
	const char *what = buf;
	const struct topo_link *tl = e->link >= 0 ? &tr->t->links[e->link] :
						    NULL;

	trees_tree_name(tr, e->tree, tree, sizeof(tree));
	snprintf(head, sizeof(head), "%-7s", tree);
	switch (e->kind) {
	case TREES_PORT:
		end_name(tr, e->node, e->port, a, sizeof(a));
		snprintf(head, sizeof(head), "%-7s %-10s", tree, a);
		b[0] = 0;
		if (e->was.last_ns && e->was.root != e->now.root) {
			char r0[32], r1[32];

			bridge_name(tr, trees_node_of_bridge(tr, e->was.root),
				    e->was.root, r0, sizeof(r0));
			bridge_name(tr, trees_node_of_bridge(tr, e->now.root),
				    e->now.root, r1, sizeof(r1));
			snprintf(b, sizeof(b), ", root %s -> %s", r0, r1);
		}
		snprintf(buf, sizeof(buf), "%s/%s -> %s/%s%s%s",
			 role_word(&e->was, "?"), state_word(&e->was),
			 role_word(&e->now, "?"), state_word(&e->now), b,
			 e->now.inferred ? " (inferred)" :
			 e->was.inferred ? " (said)" : "");
		break;
	case TREES_ROOT:
		bridge_name(tr, e->was_root_node, e->was_root, a, sizeof(a));
		bridge_name(tr, e->root_node, e->root, b, sizeof(b));
		snprintf(buf, sizeof(buf), "root %s -> %s", a, b);
		break;
	case TREES_TC:
		a[0] = 0;
		if (e->node >= 0)
			end_name(tr, e->node, e->port, a, sizeof(a));
		snprintf(buf, sizeof(buf), "TC %s (%s)",
			 e->on ? "set" : "cleared", a);
		break;
	case TREES_LINK:
		end_name(tr, tl->end[0].node, tl->end[0].port, a, sizeof(a));
		end_name(tr, tl->end[1].node, tl->end[1].port, b, sizeof(b));
		snprintf(head, sizeof(head), "link%u %s-%s", tl->index, a, b);
		snprintf(buf, sizeof(buf), "%s%s%s", e->on ? "up" : "down",
			 e->on ? "" : " ", e->on ? "" : link_mode(e->event));
		break;
	case TREES_BAD_BPDU:
		mac_str(e->src, mac);
		a[0] = 0;
		if (e->node >= 0)
			end_name(tr, e->node, e->port, a, sizeof(a));
		snprintf(head, sizeof(head), "link%u", tl ? tl->index : 0);
		snprintf(buf, sizeof(buf), "bad BPDU from %s%s%s: %s",
			 a[0] ? a : mac, a[0] ? " " : "", a[0] ? mac : "",
			 e->error);
		break;
	case TREES_UNKNOWN_SENDER:
		mac_str(e->src, mac);
		snprintf(head, sizeof(head), "link%u", tl ? tl->index : 0);
		snprintf(buf, sizeof(buf), "BPDU from %s: not a port of "
			 "this lab", mac);
		break;
	case TREES_LAB:
		snprintf(head, sizeof(head), "%s", e->event->word);
		what = e->event->arg;
		break;
	}
	line_join(l, e->ns, head, what);
}

#define WRAP_INDENT 4

/* s in rows of at most width columns, broken at spaces where it can
 * be; rows after the first (all, if indent_first) indented. */
static int wrap(struct sbuf *out, const char *s, int width,
		bool indent_first)
{
	int rows = 0;

	while (*s) {
		int pre = rows || indent_first ? WRAP_INDENT : 0;
		int room = width - pre > 1 ? width - pre : 1;
		int n = (int)strlen(s);

		if (n > room) {
			int k = room;

			while (k > 0 && s[k] != ' ')
				k--;
			n = k > 0 ? k : room;
		}
		sbuf_printf(out, "%*s%.*s\n", pre, "", n, s);
		s += n;
		while (*s == ' ')
			s++;
		rows++;
	}
	return rows;
}

/* The time as "HH:MM:SS.mmm": the hour can go. */
static bool has_hour(const struct watch_line *l)
{
	return l->head >= 13 && l->text[2] == ':' && l->text[5] == ':';
}

void watch_line_hourless(const struct watch_line *l, struct watch_line *out)
{
	*out = *l;
	if (!has_hour(l))
		return;
	memmove(out->text, out->text + 3, strlen(out->text + 3) + 1);
	out->head -= 3;
	out->change -= 3;
}

int watch_line_fit(const struct watch_line *l, int width, struct sbuf *out)
{
	const char *change = l->text + l->change;
	struct watch_line s;
	char head[WATCH_LINE_MAX];
	size_t n = 0;

	if ((int)strlen(l->text) <= width) {
		sbuf_printf(out, "%s\n", l->text);
		return 1;
	}
	if (has_hour(l)) {
		watch_line_hourless(l, &s);
		return watch_line_fit(&s, width, out);
	}
	/* HEAD without its padding: what changed stays whole. */
	for (size_t i = 0; i < l->change; i++)
		if (l->text[i] != ' ' || (n && head[n - 1] != ' '))
			head[n++] = l->text[i];
	while (n && head[n - 1] == ' ')
		n--;
	head[n] = 0;
	if ((int)(n + 1 + strlen(change)) <= width) {
		sbuf_printf(out, "%s %s\n", head, change);
		return 1;
	}
	return wrap(out, head, width, false) + wrap(out, change, width, true);
}

static void json_time(struct printer *pr, int64_t ns)
{
	time_t s = (time_t)(ns / 1000000000LL);
	char buf[64];
	struct tm tm;

	gmtime_r(&s, &tm);
	snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%09lldZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, (long long)(ns % 1000000000LL));
	print_string(pr, PRINT_JSON, "time", NULL, buf);
	/* Exact, for scripts that compare with pcap and event times. */
	print_u64(pr, PRINT_JSON, "ns", NULL, (uint64_t)ns);
}

static void json_tree(const struct trees *tr, struct printer *pr, int tree)
{
	char name[16];

	print_uint(pr, PRINT_JSON, "msti", NULL,
		   tree > 0 ? tr->tree_id[tree] : 0);
	print_string(pr, PRINT_JSON, "tree", NULL,
		     trees_tree_name(tr, tree, name, sizeof(name)));
}

static void json_bridge(const struct trees *tr, struct printer *pr,
			const char *key, int node, uint64_t id)
{
	char buf[64];

	if (!id) {
		print_null(pr, PRINT_JSON, key, NULL);
		return;
	}
	bridge_name(tr, node, id, buf, sizeof(buf));
	print_string(pr, PRINT_JSON, key, NULL, buf);
}

static void json_port(const struct trees *tr, struct printer *pr,
		      const char *key, const struct tree_port *p)
{
	print_open_object(pr, key);
	print_string(pr, PRINT_JSON, "role", NULL, role_word(p, "unknown"));
	print_string(pr, PRINT_JSON, "state", NULL, state_word(p));
	json_bridge(tr, pr, "root", trees_node_of_bridge(tr, p->root),
		    p->root);
	print_bool(pr, PRINT_JSON, "tc", NULL, p->tc);
	print_close_object(pr);
}

static void json_link(const struct trees *tr, struct printer *pr, int link)
{
	char buf[16];

	if (link < 0)
		return;
	snprintf(buf, sizeof(buf), "link%u", tr->t->links[link].index);
	print_string(pr, PRINT_JSON, "link", NULL, buf);
}

void watch_event_json(const struct trees *tr, const struct trees_change *e,
		      FILE *out)
{
	static const char *const type[] = { "port", "root", "tc", "link",
					    "bad-bpdu", "unknown-sender",
					    "lab" };
	struct printer pr;
	char a[80], mac[18];

	print_init(&pr, out, true);
	print_open_object(&pr, NULL);
	json_time(&pr, e->ns);
	print_string(&pr, PRINT_JSON, "type", NULL, type[e->kind]);
	if (e->tree >= 0)
		json_tree(tr, &pr, e->tree);
	if (e->node >= 0) {
		print_string(&pr, PRINT_JSON, "node", NULL,
			     tr->t->nodes[e->node].name);
		print_string(&pr, PRINT_JSON, "port", NULL,
			     tr->t->nodes[e->node].ports[e->port].name);
	}
	json_link(tr, &pr, e->link);
	switch (e->kind) {
	case TREES_PORT:
		print_string(&pr, PRINT_JSON, "role", NULL,
			     role_word(&e->now, "unknown"));
		print_string(&pr, PRINT_JSON, "state", NULL,
			     state_word(&e->now));
		json_bridge(tr, &pr, "root",
			    trees_node_of_bridge(tr, e->now.root), e->now.root);
		json_port(tr, &pr, "was", &e->was);
		if (e->now.inferred)
			print_bool(&pr, PRINT_JSON, "inferred", NULL, true);
		break;
	case TREES_ROOT:
		json_bridge(tr, &pr, "root", e->root_node, e->root);
		json_bridge(tr, &pr, "was", e->was_root_node, e->was_root);
		break;
	case TREES_TC:
		print_bool(&pr, PRINT_JSON, "tc", NULL, e->on);
		break;
	case TREES_LINK: {
		const struct topo_link *tl = &tr->t->links[e->link];

		print_string(&pr, PRINT_JSON, "state", NULL,
			     e->on ? "up" : "down");
		if (!e->on && *link_mode(e->event))
			print_string(&pr, PRINT_JSON, "mode", NULL,
				     link_mode(e->event));
		print_open_array(&pr, "ends");
		for (int k = 0; k < 2; k++) {
			end_name(tr, tl->end[k].node, tl->end[k].port, a,
				 sizeof(a));
			print_string(&pr, PRINT_JSON, NULL, NULL, a);
		}
		print_close_array(&pr);
		break;
	}
	case TREES_BAD_BPDU:
	case TREES_UNKNOWN_SENDER:
		mac_str(e->src, mac);
		print_string(&pr, PRINT_JSON, "src", NULL, mac);
		if (e->error)
			print_string(&pr, PRINT_JSON, "error", NULL, e->error);
		break;
	case TREES_LAB:
		print_string(&pr, PRINT_JSON, "kind", NULL, e->event->word);
		print_string(&pr, PRINT_JSON, "arg", NULL, e->event->arg);
		break;
	}
	print_close_object(&pr);
}

void watch_view_json(const struct trees *tr, const struct tree_view *v,
		     int tree, int64_t ns, FILE *out)
{
	struct printer pr;

	print_init(&pr, out, true);
	print_open_object(&pr, NULL);
	json_time(&pr, ns);
	print_string(&pr, PRINT_JSON, "type", NULL, "state");
	json_tree(tr, &pr, tree);
	json_bridge(tr, &pr, "root", v->root_node, v->root);
	print_bool(&pr, PRINT_JSON, "tc", NULL, v->tc);
	print_open_array(&pr, "ports");
	for (size_t i = 0; i < tr->t->n_nodes; i++) {
		const struct topo_node *n = &tr->t->nodes[i];

		if (!topo_role_is_bridge(n->role))
			continue;
		for (size_t j = 0; j < n->n_ports; j++) {
			const struct tree_port *p =
				tree_view_port(v, (int)i, (int)j);

			print_open_object(&pr, NULL);
			print_string(&pr, PRINT_JSON, "node", NULL, n->name);
			print_string(&pr, PRINT_JSON, "port", NULL,
				     n->ports[j].name);
			json_link(tr, &pr, n->ports[j].link);
			print_string(&pr, PRINT_JSON, "role", NULL,
				     role_word(p, "unknown"));
			print_string(&pr, PRINT_JSON, "state", NULL,
				     state_word(p));
			json_bridge(tr, &pr, "root",
				    trees_node_of_bridge(tr, p->root), p->root);
			print_bool(&pr, PRINT_JSON, "tc", NULL, p->tc);
			if (p->inferred)
				print_bool(&pr, PRINT_JSON, "inferred", NULL,
					   true);
			print_close_object(&pr);
		}
	}
	print_close_array(&pr);
	print_close_object(&pr);
}

void watch_state_json(const struct trees *tr, int tree, int64_t ns,
		      FILE *out)
{
	watch_view_json(tr, trees_now(tr, tree), tree, ns, out);
}
