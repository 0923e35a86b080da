// SPDX-License-Identifier: MIT
#include "watch_render.h"

#include <string.h>
#include <time.h>

#include "print.h"

#define TREE_W 7
#define ROOT_W 9
#define TC_W 3
#define PREFIX_W (TREE_W + ROOT_W + TC_W)

void watch_log_add(struct watch_log *log, const char *line)
{
	snprintf(log->line[log->next], WATCH_LINE_MAX, "%s", line);
	log->next = (log->next + 1) % WATCH_LOG_LINES;
	if (log->n < WATCH_LOG_LINES)
		log->n++;
}

const char *watch_log_newest(const struct watch_log *log, size_t i)
{
	if (i >= log->n)
		return NULL;
	return log->line[(log->next + WATCH_LOG_LINES - 1 - i) %
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

static void bridge_name(const struct watch_model *m, int node, uint64_t id,
			char *buf, size_t len)
{
	if (node >= 0)
		snprintf(buf, len, "%s", m->t->nodes[node].name);
	else if (id)
		snprintf(buf, len, "%04x.%012llx", (unsigned)(id >> 48),
			 (unsigned long long)(id & 0xffffffffffffULL));
	else
		snprintf(buf, len, "-");
}

static const char role_letter[] = "MARDS";	/* by enum watch_role */

static void port_cell(const struct watch_port *wp, char out[3],
		      const char **sgr)
{
	static const char state_letter[] = "?dlf-";

	if (wp->state == WATCH_DOWN) {
		strcpy(out, "--");
		*sgr = "31";
		return;
	}
	if (!wp->last_ns) {
		strcpy(out, "..");
		*sgr = "2";
		return;
	}
	out[0] = role_letter[wp->role < 5 ? wp->role : 4];
	out[1] = state_letter[wp->state < 5 ? wp->state : 0];
	out[2] = 0;
	*sgr = wp->state == WATCH_FORWARDING ?
		       (wp->role == WATCH_ROLE_ROOT ? "1;32" : "32") :
	       wp->state == WATCH_LEARNING ? "33" :
	       wp->state == WATCH_DISCARDING ? "1;31" : "2";
}

struct column {
	int node, port;
};

/* The ports a tree table shows: every port of every bridge node. */
static size_t columns(const struct watch_model *m, struct column *col,
		      size_t max, int *colw)
{
	size_t n = 0;

	*colw = 4;
	for (size_t i = 0; i < m->t->n_nodes; i++) {
		if (!topo_role_is_bridge(m->t->nodes[i].role))
			continue;
		for (size_t j = 0; j < m->t->nodes[i].n_ports && n < max;
		     j++) {
			int w = (int)strlen(m->t->nodes[i].ports[j].name) + 1;

			if (w > *colw)
				*colw = w < 7 ? w : 7;
			col[n++] = (struct column){ (int)i, (int)j };
		}
	}
	return n;
}

static void table(const struct watch_model *m, const struct watch_screen *scr,
		  const struct column *col, size_t ncol, int colw,
		  struct sbuf *sb, int *lines, int max_lines)
{
	int per = (scr->width - PREFIX_W) / colw;
	char buf[64];

	if (per < 1)
		per = 1;
	for (size_t b = 0; b < ncol || b == 0; b += (size_t)per) {
		size_t end = b + (size_t)per < ncol ? b + (size_t)per : ncol;

		if (*lines + 2 + (int)m->ntrees > max_lines)
			return;
		/* Node names over their ports. */
		sbuf_printf(sb, "%*s", PREFIX_W, "");
		for (size_t c = b; c < end;) {
			size_t k = c;

			while (k < end && col[k].node == col[c].node)
				k++;
			snprintf(buf, sizeof(buf), "%s",
				 m->t->nodes[col[c].node].name);
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
			     m->t->nodes[col[c].node].ports[col[c].port].name,
			     colw);
		sbuf_puts(sb, "\n");
		*lines += 2;
		for (size_t tree = 0; tree < m->ntrees; tree++) {
			const struct watch_tree *wt = &m->trees[tree];

			cell(sb, scr->colour, NULL,
			     watch_tree_name(m, (int)tree, buf, sizeof(buf)),
			     TREE_W);
			bridge_name(m, wt->root_node, wt->root, buf,
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

				port_cell(watch_port_get(m, col[c].node,
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

void watch_render_screen(const struct watch_model *m,
			 const struct watch_log *log,
			 const struct watch_screen *scr, struct sbuf *out)
{
	struct column col[TOPO_MAX_NODES * 4];
	int colw, lines = 0, max_lines = scr->height - 1;
	size_t ncol = columns(m, col, sizeof(col) / sizeof(col[0]), &colw);
	char buf[WATCH_LINE_MAX + 64], t[32];

	hms(scr->now_ns, t, sizeof(t));
	t[8] = 0;	/* seconds are enough in the title */
	snprintf(buf, sizeof(buf), "mstlab watch %s  %s UTC  BPDUs %lu  "
		 "bad %lu", scr->title ? scr->title : "", t, m->bpdus, m->bad);
	cell(out, scr->colour, "1", buf,
	     (int)strnlen(buf, (size_t)scr->width));
	sbuf_puts(out, "\n");
	lines++;
	table(m, scr, col, ncol, colw, out, &lines, max_lines);
	if (lines < max_lines) {
		snprintf(buf, sizeof(buf), "R root D desig A alt M master | "
			 "f fwd l learn d discard | -- down .. unheard");
		cell(out, scr->colour, "2", buf,
		     (int)strnlen(buf, (size_t)scr->width));
		sbuf_puts(out, "\n");
		lines++;
	}
	/* The newest events at the bottom, as many as fit. */
	for (size_t k = (size_t)(max_lines - lines); k-- > 0;) {
		const char *l = watch_log_newest(log, k);

		if (!l)
			continue;
		cell(out, false, NULL, l, (int)strnlen(l, (size_t)scr->width));
		sbuf_puts(out, "\n");
	}
}

static void end_name(const struct watch_model *m, int node, int port,
		     char *buf, size_t len)
{
	snprintf(buf, len, "%s:%s", m->t->nodes[node].name,
		 m->t->nodes[node].ports[port].name);
}

static void mac_str(const uint8_t mac[6], char out[18])
{
	snprintf(out, 18, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1],
		 mac[2], mac[3], mac[4], mac[5]);
}

void watch_event_text(const struct watch_model *m, const struct watch_event *e,
		      char *buf, size_t len)
{
	char t[32], tree[16], a[80], b[80], mac[18];
	const struct topo_link *tl = e->link >= 0 ? &m->t->links[e->link] :
						    NULL;

	hms(e->ns, t, sizeof(t));
	watch_tree_name(m, e->tree, tree, sizeof(tree));
	switch (e->kind) {
	case WATCH_EV_PORT:
		end_name(m, e->node, e->port, a, sizeof(a));
		b[0] = 0;
		if (e->was.last_ns && e->was.root != e->now.root) {
			char r0[32], r1[32];

			bridge_name(m, watch_node_of_bridge(m, e->was.root),
				    e->was.root, r0, sizeof(r0));
			bridge_name(m, watch_node_of_bridge(m, e->now.root),
				    e->now.root, r1, sizeof(r1));
			snprintf(b, sizeof(b), ", root %s -> %s", r0, r1);
		}
		snprintf(buf, len, "%s %-7s %-10s %s/%s -> %s/%s%s%s", t, tree,
			 a, e->was.last_ns ? watch_role_name(e->was.role) : "?",
			 watch_state_name(e->was.state),
			 watch_role_name(e->now.role),
			 watch_state_name(e->now.state), b,
			 e->inferred ? " (inferred)" : "");
		break;
	case WATCH_EV_ROOT:
		bridge_name(m, e->was_root_node, e->was_root, a, sizeof(a));
		bridge_name(m, e->root_node, e->root, b, sizeof(b));
		snprintf(buf, len, "%s %-7s root %s -> %s", t, tree, a, b);
		break;
	case WATCH_EV_TC:
		a[0] = 0;
		if (e->node >= 0)
			end_name(m, e->node, e->port, a, sizeof(a));
		snprintf(buf, len, "%s %-7s TC %s (%s)", t, tree,
			 e->on ? "set" : "cleared", a);
		break;
	case WATCH_EV_LINK:
		end_name(m, tl->end[0].node, tl->end[0].port, a, sizeof(a));
		end_name(m, tl->end[1].node, tl->end[1].port, b, sizeof(b));
		snprintf(buf, len, "%s link%u %s-%s %s%s%s", t, tl->index, a, b,
			 e->on ? "up" : "down", e->on ? "" : " ",
			 e->on ? "" : e->arg + strcspn(e->arg, " ") +
					      (e->arg[strcspn(e->arg, " ")] ?
						       1 : 0));
		break;
	case WATCH_EV_BAD_BPDU:
		mac_str(e->src, mac);
		a[0] = 0;
		if (e->node >= 0)
			end_name(m, e->node, e->port, a, sizeof(a));
		snprintf(buf, len, "%s link%u bad BPDU from %s%s%s: %s", t,
			 tl ? tl->index : 0, a[0] ? a : mac, a[0] ? " " : "",
			 a[0] ? mac : "", e->error);
		break;
	case WATCH_EV_UNKNOWN_SENDER:
		mac_str(e->src, mac);
		snprintf(buf, len, "%s link%u BPDU from %s: not a port of "
			 "this lab", t, tl ? tl->index : 0, mac);
		break;
	case WATCH_EV_LAB:
		snprintf(buf, len, "%s %s %s", t, e->kind_word, e->arg);
		break;
	}
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

static void json_tree(const struct watch_model *m, struct printer *pr,
		      int tree)
{
	char name[16];

	print_uint(pr, PRINT_JSON, "msti", NULL,
		   tree > 0 ? m->tree_id[tree] : 0);
	print_string(pr, PRINT_JSON, "tree", NULL,
		     watch_tree_name(m, tree, name, sizeof(name)));
}

static void json_bridge(const struct watch_model *m, struct printer *pr,
			const char *key, int node, uint64_t id)
{
	char buf[64];

	if (!id) {
		print_null(pr, PRINT_JSON, key, NULL);
		return;
	}
	bridge_name(m, node, id, buf, sizeof(buf));
	print_string(pr, PRINT_JSON, key, NULL, buf);
}

static void json_port(const struct watch_model *m, struct printer *pr,
		      const char *key, const struct watch_port *wp)
{
	print_open_object(pr, key);
	print_string(pr, PRINT_JSON, "role", NULL,
		     wp->last_ns ? watch_role_name(wp->role) : "unknown");
	print_string(pr, PRINT_JSON, "state", NULL,
		     watch_state_name(wp->state));
	json_bridge(m, pr, "root", watch_node_of_bridge(m, wp->root),
		    wp->root);
	print_bool(pr, PRINT_JSON, "tc", NULL, wp->tc);
	print_close_object(pr);
}

static void json_link(const struct watch_model *m, struct printer *pr,
		      int link)
{
	char buf[16];

	if (link < 0)
		return;
	snprintf(buf, sizeof(buf), "link%u", m->t->links[link].index);
	print_string(pr, PRINT_JSON, "link", NULL, buf);
}

void watch_event_json(const struct watch_model *m, const struct watch_event *e,
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
		json_tree(m, &pr, e->tree);
	if (e->node >= 0) {
		print_string(&pr, PRINT_JSON, "node", NULL,
			     m->t->nodes[e->node].name);
		print_string(&pr, PRINT_JSON, "port", NULL,
			     m->t->nodes[e->node].ports[e->port].name);
	}
	json_link(m, &pr, e->link);
	switch (e->kind) {
	case WATCH_EV_PORT:
		print_string(&pr, PRINT_JSON, "role", NULL,
			     watch_role_name(e->now.role));
		print_string(&pr, PRINT_JSON, "state", NULL,
			     watch_state_name(e->now.state));
		json_bridge(m, &pr, "root", watch_node_of_bridge(m, e->now.root),
			    e->now.root);
		json_port(m, &pr, "was", &e->was);
		if (e->inferred)
			print_bool(&pr, PRINT_JSON, "inferred", NULL, true);
		break;
	case WATCH_EV_ROOT:
		json_bridge(m, &pr, "root", e->root_node, e->root);
		json_bridge(m, &pr, "was", e->was_root_node, e->was_root);
		break;
	case WATCH_EV_TC:
		print_bool(&pr, PRINT_JSON, "tc", NULL, e->on);
		break;
	case WATCH_EV_LINK: {
		const struct topo_link *tl = &m->t->links[e->link];
		const char *mode = e->arg + strcspn(e->arg, " ");

		print_string(&pr, PRINT_JSON, "state", NULL,
			     e->on ? "up" : "down");
		if (!e->on && *mode)
			print_string(&pr, PRINT_JSON, "mode", NULL, mode + 1);
		print_open_array(&pr, "ends");
		for (int k = 0; k < 2; k++) {
			end_name(m, tl->end[k].node, tl->end[k].port, a,
				 sizeof(a));
			print_string(&pr, PRINT_JSON, NULL, NULL, a);
		}
		print_close_array(&pr);
		break;
	}
	case WATCH_EV_BAD_BPDU:
	case WATCH_EV_UNKNOWN_SENDER:
		mac_str(e->src, mac);
		print_string(&pr, PRINT_JSON, "src", NULL, mac);
		if (e->error)
			print_string(&pr, PRINT_JSON, "error", NULL, e->error);
		break;
	case WATCH_EV_LAB:
		print_string(&pr, PRINT_JSON, "kind", NULL, e->kind_word);
		print_string(&pr, PRINT_JSON, "arg", NULL, e->arg);
		break;
	}
	print_close_object(&pr);
}
