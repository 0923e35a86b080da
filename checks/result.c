// SPDX-License-Identifier: MIT
#include "result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (1-4), or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned min;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f, min = 0x80;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f, min = 0x800;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07, min = 0x10000;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF are invalid, and
	 * would make XML and JSON readers reject the whole file. */
	if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* A copy that every renderer can emit: bad bytes and controls -> '?'. */
static char *clean_dup(struct result_run *r, const char *s)
{
	const unsigned char *in = (const unsigned char *)s;
	size_t len = strlen(s), o = 0;
	char *out;

	if (r->oom)
		return NULL;
	out = malloc(len + 1);
	if (!out) {
		r->oom = true;
		return NULL;
	}
	for (size_t i = 0; i < len;) {
		size_t n = utf8_len(in + i);

		if (n == 1 && in[i] < 0x20)
			n = 0;
		if (n == 1 && in[i] == 0x7f)
			n = 0;
		if (!n) {
			out[o++] = '?';
			i++;
			continue;
		}
		memcpy(out + o, in + i, n);
		o += n;
		i += n;
	}
	out[o] = 0;
	return out;
}

/* Grows *arr to hold one more element; false when out of memory. */
static bool grow(struct result_run *r, void **arr, size_t n, size_t size)
{
	void *m;

	if (r->oom)
		return false;
	/* Capacity 8, then doubling: reallocate only when n hits it. */
	if (n && (n < 8 || (n & (n - 1))))
		return true;
	m = realloc(*arr, (n < 8 ? 8 : n * 2) * size);
	if (!m) {
		r->oom = true;
		return false;
	}
	*arr = m;
	return true;
}

void result_init(struct result_run *r, const char *lab)
{
	memset(r, 0, sizeof(*r));
	r->lab = clean_dup(r, lab ? lab : "");
}

static void free_check(struct result_check *c)
{
	free(c->name);
	free(c->id);
	free(c->subject);
	free(c->text);
	free(c->link);
	free(c->message);
	for (size_t i = 0; i < c->n_figures; i++)
		free(c->figures[i].name);
	for (size_t i = 0; i < c->n_evidence; i++)
		free(c->evidence[i].pcap);
	free(c->figures);
	free(c->evidence);
}

void result_free(struct result_run *r)
{
	for (size_t i = 0; i < r->n_scenarios; i++) {
		struct result_scenario *sc = &r->scenarios[i];

		for (size_t k = 0; k < sc->n_checks; k++)
			free_check(&sc->checks[k]);
		for (size_t k = 0; k < sc->n_events; k++) {
			free(sc->events[k].kind);
			free(sc->events[k].arg);
		}
		for (size_t k = 0; k < sc->n_snapshots; k++) {
			free(sc->snapshots[k].at);
			free(sc->snapshots[k].event);
			free(sc->snapshots[k].ports);
		}
		free(sc->checks);
		free(sc->events);
		free(sc->snapshots);
		free(sc->name);
	}
	for (size_t i = 0; i < r->n_nodes; i++)
		free(r->nodes[i].name);
	for (size_t i = 0; i < r->n_links; i++) {
		free(r->links[i].name);
		free(r->links[i].pcap);
		free(r->links[i].port[0]);
		free(r->links[i].port[1]);
	}
	free(r->nodes);
	free(r->links);
	free(r->scenarios);
	free(r->lab);
	free(r->warning);
	free(r->prov);
	memset(r, 0, sizeof(*r));
}

void result_set_warning(struct result_run *r, const char *warning)
{
	free(r->warning);
	r->warning = clean_dup(r, warning);
}

struct result_scenario *result_add_scenario(struct result_run *r,
					    const char *name, int64_t start_ns,
					    int64_t end_ns)
{
	struct result_scenario *sc;

	if (!grow(r, (void **)&r->scenarios, r->n_scenarios,
		  sizeof(*r->scenarios)))
		return NULL;
	sc = &r->scenarios[r->n_scenarios];
	memset(sc, 0, sizeof(*sc));
	sc->run_wide = !name;
	sc->name = clean_dup(r, name ? name : "run");
	if (!sc->name)
		return NULL;
	sc->start_ns = start_ns;
	sc->end_ns = end_ns;
	r->n_scenarios++;
	return sc;
}

void result_add_event(struct result_run *r, struct result_scenario *sc,
		      int64_t ns, const char *kind, const char *arg)
{
	struct result_event *e;

	if (!sc || !grow(r, (void **)&sc->events, sc->n_events,
			 sizeof(*sc->events)))
		return;
	e = &sc->events[sc->n_events];
	e->ns = ns;
	e->kind = clean_dup(r, kind);
	e->arg = clean_dup(r, arg ? arg : "");
	if (!e->kind || !e->arg) {
		free(e->kind);
		free(e->arg);
		return;
	}
	sc->n_events++;
}

/* s cleaned in place: clean_dup never makes a string longer. */
static void clean_field(struct result_run *r, char *s, size_t size)
{
	char *c = clean_dup(r, s);

	if (c)
		snprintf(s, size, "%s", c);
	else
		s[0] = '\0';
	free(c);
}

#define CLEAN(r, field) clean_field(r, field, sizeof(field))

void result_set_provenance(struct result_run *r, const struct provenance *pv)
{
	struct provenance *p;

	if (r->oom)
		return;
	p = malloc(sizeof(*p));
	if (!p) {
		r->oom = true;
		return;
	}
	*p = *pv;
	CLEAN(r, p->mstlab);
	for (size_t i = 0; i < p->n_nodes; i++) {
		struct provenance_node *n = &p->nodes[i];

		CLEAN(r, n->name);
		CLEAN(r, n->host);
		CLEAN(r, n->virt);
		CLEAN(r, n->kernel);
		CLEAN(r, n->release);
		CLEAN(r, n->series);
		CLEAN(r, n->image);
	}
	free(r->prov);
	r->prov = p;
}

/* How many checks of the scenario have the id base, with or without a
 * "#N" of their own. */
static unsigned same_id(const struct result_scenario *sc, const char *base)
{
	size_t len = strlen(base);
	unsigned n = 0;

	for (size_t i = 0; i < sc->n_checks; i++) {
		const char *id = sc->checks[i].id;

		if (!strncmp(id, base, len) &&
		    (id[len] == 0 ||
		     (id[len] == '#' && strspn(id + len + 1, "0123456789") ==
					     strlen(id + len + 1))))
			n++;
	}
	return n;
}

/* name[tree][link][subject], and "#N" when that is taken. */
static char *make_id(struct result_run *r, const struct result_scenario *sc,
		     const char *name, int msti, const char *link,
		     const char *subject)
{
	char base[512], tree[16], id[528];
	unsigned dup;

	result_tree_name(msti, tree, sizeof(tree));
	snprintf(base, sizeof(base), "%s%s%s%s%s%s%s%s%s%s", name,
		 *tree ? "[" : "", tree, *tree ? "]" : "", link ? "[" : "",
		 link ? link : "", link ? "]" : "", subject ? "[" : "",
		 subject ? subject : "", subject ? "]" : "");
	dup = same_id(sc, base);
	if (dup)
		snprintf(id, sizeof(id), "%s#%u", base, dup + 1);
	else
		snprintf(id, sizeof(id), "%s", base);
	return clean_dup(r, id);
}

struct result_check *result_add_check_on(struct result_run *r,
					 struct result_scenario *sc,
					 const char *name, int msti,
					 const char *link, const char *subject,
					 bool ok, const char *text,
					 const char *message)
{
	struct result_check *c;

	if (!sc || !grow(r, (void **)&sc->checks, sc->n_checks,
			 sizeof(*sc->checks)))
		return NULL;
	c = &sc->checks[sc->n_checks];
	memset(c, 0, sizeof(*c));
	c->msti = msti;
	c->status = ok ? RESULT_PASS : RESULT_FAIL;
	c->name = clean_dup(r, name);
	c->id = make_id(r, sc, name, msti, link, subject);
	c->text = clean_dup(r, text);
	c->link = link ? clean_dup(r, link) : NULL;
	c->subject = subject ? clean_dup(r, subject) : NULL;
	c->message = message && *message ? clean_dup(r, message) : NULL;
	if (r->oom) {
		free_check(c);
		return NULL;
	}
	sc->n_checks++;
	return c;
}

struct result_check *result_add_check(struct result_run *r,
				      struct result_scenario *sc,
				      const char *name, int msti,
				      const char *link, bool ok,
				      const char *text, const char *message)
{
	return result_add_check_on(r, sc, name, msti, link, NULL, ok, text,
				   message);
}

void result_skip(struct result_run *r, struct result_check *c,
		 const char *reason)
{
	if (!c)
		return;
	c->status = RESULT_SKIP;
	free(c->message);
	c->message = clean_dup(r, reason);
}

void result_add_figure(struct result_run *r, struct result_check *c,
		       const char *name, double value, int msti)
{
	struct result_figure *f;

	if (!c || !grow(r, (void **)&c->figures, c->n_figures,
			sizeof(*c->figures)))
		return;
	f = &c->figures[c->n_figures];
	f->name = clean_dup(r, name);
	f->value = value;
	f->msti = msti;
	if (f->name)
		c->n_figures++;
}

void result_add_evidence(struct result_run *r, struct result_check *c,
			 const char *pcap, unsigned long frame, int64_t ns)
{
	struct result_evidence *e;

	if (!c || !grow(r, (void **)&c->evidence, c->n_evidence,
			sizeof(*c->evidence)))
		return;
	e = &c->evidence[c->n_evidence];
	e->pcap = clean_dup(r, pcap);
	e->frame = frame;
	e->ns = ns;
	if (e->pcap)
		c->n_evidence++;
}

void result_add_node(struct result_run *r, const char *name, int role)
{
	struct result_node *n;

	if (!grow(r, (void **)&r->nodes, r->n_nodes, sizeof(*r->nodes)))
		return;
	n = &r->nodes[r->n_nodes];
	n->role = role;
	n->name = clean_dup(r, name);
	if (n->name)
		r->n_nodes++;
}

void result_add_link(struct result_run *r, const char *name,
		     const char *pcap, const size_t node[2],
		     const char *const port[2])
{
	struct result_link *l;

	if (!grow(r, (void **)&r->links, r->n_links, sizeof(*r->links)))
		return;
	l = &r->links[r->n_links];
	memset(l, 0, sizeof(*l));
	l->name = clean_dup(r, name);
	l->pcap = clean_dup(r, pcap);
	for (int e = 0; e < 2; e++) {
		l->node[e] = node[e];
		l->port[e] = clean_dup(r, port[e]);
	}
	if (r->oom || node[0] >= r->n_nodes || node[1] >= r->n_nodes) {
		free(l->name);
		free(l->pcap);
		free(l->port[0]);
		free(l->port[1]);
		return;
	}
	r->n_links++;
}

struct result_snapshot *result_add_snapshot(struct result_run *r,
					    struct result_scenario *sc,
					    const char *at, const char *event,
					    int64_t ns, int msti)
{
	struct result_snapshot *s;

	if (!sc || !grow(r, (void **)&sc->snapshots, sc->n_snapshots,
			 sizeof(*sc->snapshots)))
		return NULL;
	s = &sc->snapshots[sc->n_snapshots];
	memset(s, 0, sizeof(*s));
	s->ns = ns;
	s->msti = msti;
	s->root = -1;
	s->at = clean_dup(r, at);
	s->event = event ? clean_dup(r, event) : NULL;
	s->ports = calloc(r->n_links * 2 + 1, sizeof(*s->ports));
	if (!s->ports)
		r->oom = true;
	for (size_t k = 0; s->ports && k < r->n_links * 2; k++)
		s->ports[k].role = PORT_ROLE_SILENT;
	if (r->oom) {
		free(s->at);
		free(s->event);
		free(s->ports);
		return NULL;
	}
	sc->n_snapshots++;
	return s;
}

bool result_port_blocked(const struct result_port *p)
{
	return port_blocked(p->role, p->state, p->down);
}

const struct result_figure *result_figure(const struct result_check *c,
					  const char *name, int msti)
{
	for (size_t i = 0; i < c->n_figures; i++)
		if (c->figures[i].msti == msti &&
		    !strcmp(c->figures[i].name, name))
			return &c->figures[i];
	return NULL;
}

static void count(struct result_counts *n, const struct result_check *c)
{
	n->checks++;
	n->failed += c->status == RESULT_FAIL;
	n->skipped += c->status == RESULT_SKIP;
}

struct result_counts result_count(const struct result_run *r,
				  const struct result_scenario *sc)
{
	struct result_counts n = { 0 };

	for (size_t i = 0; i < r->n_scenarios; i++) {
		const struct result_scenario *s = &r->scenarios[i];

		if (sc && s != sc)
			continue;
		for (size_t k = 0; k < s->n_checks; k++)
			count(&n, &s->checks[k]);
	}
	return n;
}

struct result_counts result_count_tree(const struct result_scenario *sc,
				       int msti)
{
	struct result_counts n = { 0 };

	for (size_t k = 0; k < sc->n_checks; k++)
		if (sc->checks[k].msti == msti)
			count(&n, &sc->checks[k]);
	return n;
}

const char *result_status_name(enum result_status s)
{
	return s == RESULT_PASS ? "pass" : s == RESULT_FAIL ? "fail" : "skip";
}

const char *result_tree_name(int msti, char *buf, size_t len)
{
	if (msti == RESULT_NO_TREE)
		snprintf(buf, len, "%s", "");
	else if (msti == 0)
		snprintf(buf, len, "cist");
	else
		snprintf(buf, len, "msti %d", msti);
	return buf;
}
