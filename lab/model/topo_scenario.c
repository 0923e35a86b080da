// SPDX-License-Identifier: MIT
/*
 * Scenarios: named lists of steps plus what the checks should expect.
 * Every step is a one-key mapping whose key names the action.
 */
#include "topo_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WAIT_TIMEOUT_MS 60000
#define EXEC_TIMEOUT_MS 30000

static int node_ref(struct ty_ctx *c, const struct topo *t,
		    const yaml_node_t *n, const char *what, int *node)
{
	char name[TOPO_TEXT_MAX];

	if (ty_str(c, n, what, name, sizeof(name)))
		return -1;
	*node = topo_node_find(t, name);
	if (*node < 0)
		return ty_fail(c, n, "%s '%s' names no node", what, name);
	return 0;
}

static int add_arg(struct ty_ctx *c, const yaml_node_t *n,
		   struct topo_cmd *cmd, const char *s)
{
	if (cmd->argc == TOPO_ARGV_MAX)
		return ty_fail(c, n, "more than %d arguments", TOPO_ARGV_MAX);
	cmd->argv[cmd->argc] = strdup(s);
	if (!cmd->argv[cmd->argc])
		return ty_fail(c, n, "out of memory");
	cmd->argc++;
	return 0;
}

/* A string runs under the guest's sh -c; a list is the argv itself. */
static int parse_cmd(struct ty_ctx *c, const yaml_node_t *n,
		     struct topo_cmd *cmd)
{
	const char *s;

	if (n->type == YAML_SCALAR_NODE) {
		if (ty_cstr(c, n, "cmd", &s))
			return -1;
		if (!*s)
			return ty_fail(c, n, "cmd is empty");
		return add_arg(c, n, cmd, "/bin/sh") ||
		       add_arg(c, n, cmd, "-c") || add_arg(c, n, cmd, s) ?
		       -1 : 0;
	}
	if (ty_expect_seq(c, n, "cmd"))
		return -1;
	if (n->data.sequence.items.top == n->data.sequence.items.start)
		return ty_fail(c, n, "cmd is empty");
	ty_items_foreach(c, n, it) {
		yaml_node_t *a = ty_node(c, *it);

		if (ty_cstr(c, a, "an argument", &s) || add_arg(c, a, cmd, s))
			return -1;
	}
	return 0;
}

static int parse_wait(struct ty_ctx *c, const struct topo *t,
		      struct topo_step *st, const yaml_node_t *n)
{
	static const char *const keys[] = { "for", "timeout", "node", "cmd",
					    "match", NULL };
	static const char *const whats[] = { "converged", "agents", "command",
					     NULL };
	yaml_node_t *v;
	int w;

	st->timeout_ms = WAIT_TIMEOUT_MS;
	if (n->type == YAML_SCALAR_NODE) {
		if (ty_enum(c, n, "wait", whats, &w))
			return -1;
		if (w == TOPO_WAIT_COMMAND)
			return ty_fail(c, n, "wait for a command needs a "
				       "mapping with node and cmd");
		st->wait_for = (enum topo_wait_for)w;
		return 0;
	}
	if (ty_check_keys(c, n, keys, "wait") ||
	    ty_require(c, n, "for", "wait", &v) ||
	    ty_enum(c, v, "wait for", whats, &w))
		return -1;
	st->wait_for = (enum topo_wait_for)w;
	v = ty_get(c, n, "timeout");
	if (v && ty_duration(c, v, "timeout", &st->timeout_ms))
		return -1;
	if (st->wait_for != TOPO_WAIT_COMMAND) {
		const char *extra = ty_get(c, n, "node") ? "node" :
				    ty_get(c, n, "cmd") ? "cmd" :
				    ty_get(c, n, "match") ? "match" : NULL;

		if (extra)
			return ty_fail(c, n, "'%s' only goes with "
				       "'for: command'", extra);
		return 0;
	}
	if (ty_require(c, n, "node", "wait for command", &v) ||
	    node_ref(c, t, v, "node", &st->cmd.node) ||
	    ty_require(c, n, "cmd", "wait for command", &v) ||
	    parse_cmd(c, v, &st->cmd))
		return -1;
	v = ty_get(c, n, "match");
	if (v && ty_strdup(c, v, "match", &st->match))
		return -1;
	return 0;
}

static int parse_mode(struct ty_ctx *c, const yaml_node_t *map,
		      enum topo_fail_mode *mode)
{
	static const char *const modes[] = { "carrier", "silent", NULL };
	yaml_node_t *v = ty_get(c, map, "mode");
	int m;

	*mode = TOPO_FAIL_CARRIER;
	if (!v)
		return 0;
	if (ty_enum(c, v, "mode", modes, &m))
		return -1;
	*mode = (enum topo_fail_mode)m;
	return 0;
}

/*
 * One side of "A->B": a node or node:port at one end of the link; the
 * end's index, or -1 (error at offset at of the scalar n).
 */
static int direction_end(struct ty_ctx *c, const struct topo *t, int link,
			 const yaml_node_t *n, size_t at, const char *side)
{
	const struct topo_end *e = t->links[link].end;
	char name[TOPO_TEXT_MAX];
	const char *colon;
	int node, found = -1;

	snprintf(name, sizeof(name), "%s", side);
	colon = strchr(name, ':');
	if (colon)
		name[colon - name] = 0;
	node = topo_node_find(t, name);
	if (node < 0)
		return ty_fail_at(c, ty_mark_in(n, at), "'%s' names no node",
				  name);
	for (int i = 0; i < 2; i++) {
		if (e[i].node != node || (colon &&
		    strcmp(t->nodes[node].ports[e[i].port].name, colon + 1)))
			continue;
		if (found >= 0)
			return ty_fail_at(c, ty_mark_in(n, at), "both ends "
					  "of the link are on '%s': name the "
					  "port (%s:PORT)", name, name);
		found = i;
	}
	if (found < 0)
		return ty_fail_at(c, ty_mark_in(n, at), "'%s' is at neither "
				  "end of the link", side);
	return found;
}

/* direction: "A->B", A and B the link's two ends (node or node:port):
 * B stops hearing A. */
static int parse_direction(struct ty_ctx *c, const struct topo *t,
			   struct topo_step *st, const yaml_node_t *n)
{
	char from[TOPO_TEXT_MAX], *to, *arrow;
	size_t to_at;
	int a, b;

	if (ty_str(c, n, "direction", from, sizeof(from)))
		return -1;
	arrow = strstr(from, "->");
	if (!arrow || arrow == from || !arrow[2])
		return ty_fail(c, n, "direction '%s' must be FROM->TO, the "
			       "link's two ends (node or node:port)", from);
	*arrow = 0;
	to = arrow + 2;
	/* "sw1 -> sw2" reads as "sw1->sw2" */
	for (char *sp = arrow; sp > from && sp[-1] == ' '; sp--)
		sp[-1] = 0;
	while (*to == ' ')
		to++;
	to_at = (size_t)(to - from);
	a = direction_end(c, t, st->link, n, 0, from);
	if (a < 0)
		return -1;
	b = direction_end(c, t, st->link, n, to_at, to);
	if (b < 0)
		return -1;
	if (a == b)
		return ty_fail_at(c, ty_mark_in(n, to_at), "direction goes "
				  "from an end to itself");
	st->deaf_end = b;
	return 0;
}

/* fail/restore: "node:port" or { link: node:port [, mode, direction] } */
static int parse_fail(struct ty_ctx *c, const struct topo *t,
		      struct topo_step *st, const yaml_node_t *n, bool restore)
{
	static const char *const fail_keys[] = { "link", "mode", "direction",
						 NULL };
	static const char *const restore_keys[] = { "link", NULL };
	const char *what = restore ? "restore" : "fail";
	yaml_node_t *v;

	if (n->type == YAML_SCALAR_NODE)
		return tp_link_ref(c, t, n, &st->link);
	if (ty_check_keys(c, n, restore ? restore_keys : fail_keys, what) ||
	    ty_require(c, n, "link", what, &v) ||
	    tp_link_ref(c, t, v, &st->link))
		return -1;
	if (restore || parse_mode(c, n, &st->mode))
		return restore ? 0 : -1;
	v = ty_get(c, n, "direction");
	if (!v)
		return 0;
	if (st->mode != TOPO_FAIL_SILENT)
		return ty_fail(c, v, "a one-way failure is silent: direction "
			       "needs mode: silent (carrier is lost both "
			       "ways)");
	return parse_direction(c, t, st, v);
}

static int parse_flap(struct ty_ctx *c, const struct topo *t,
		      struct topo_step *st, const yaml_node_t *n)
{
	static const char *const keys[] = { "link", "count", "up", "down",
					    "mode", NULL };
	yaml_node_t *v;
	unsigned long count;

	if (ty_check_keys(c, n, keys, "flap") ||
	    ty_require(c, n, "link", "flap", &v) ||
	    tp_link_ref(c, t, v, &st->link) ||
	    ty_require(c, n, "count", "flap", &v) ||
	    ty_uint(c, v, "count", 1, 10000, &count) ||
	    ty_require(c, n, "up", "flap", &v) ||
	    ty_duration(c, v, "up", &st->up_ms) ||
	    ty_require(c, n, "down", "flap", &v) ||
	    ty_duration(c, v, "down", &st->down_ms))
		return -1;
	st->count = (unsigned)count;
	return parse_mode(c, n, &st->mode);
}

static int parse_impair_step(struct ty_ctx *c, const struct topo *t,
			     struct topo_step *st, const yaml_node_t *n)
{
	static const char *const keys[] = { "link", "delay", "loss", NULL };
	yaml_node_t *v;

	if (ty_check_keys(c, n, keys, "impair") ||
	    ty_require(c, n, "link", "impair", &v) ||
	    tp_link_ref(c, t, v, &st->link))
		return -1;
	v = ty_get(c, n, "delay");
	if (v && ty_duration(c, v, "delay", &st->impair.delay_ms))
		return -1;
	v = ty_get(c, n, "loss");
	if (v && tp_loss(c, v, &st->impair.loss_ppm))
		return -1;
	return 0;
}

static bool node_carries(const struct topo_node *n, unsigned vid)
{
	for (size_t j = 0; j < n->n_ports; j++)
		if (n->ports[j].vlans.untagged == vid ||
		    topo_vlan_has(&n->ports[j].vlans.tagged, vid))
			return true;
	return false;
}

/* Probe traffic on a VLAN needs that VLAN at both ends. */
static int vlans_reach(struct ty_ctx *c, const struct topo_node *const ends[2],
		       const yaml_node_t *item)
{
	struct topo_vlanset one = { 0 };

	if (ty_vlan_list(c, item, "vlans", &one))
		return -1;
	for (unsigned vid = 1; vid < 4095; vid++) {
		if (!topo_vlan_has(&one, vid))
			continue;
		for (int e = 0; e < 2; e++)
			if (!node_carries(ends[e], vid))
				return ty_fail(c, item, "VLAN %u is on no port "
					       "of '%s'", vid, ends[e]->name);
	}
	return 0;
}

static int probe_vlans_reach(struct ty_ctx *c, const struct topo *t,
			     const struct topo_step *st, const yaml_node_t *n)
{
	const struct topo_node *const ends[2] = { &t->nodes[st->from],
						  &t->nodes[st->to] };

	if (n->type != YAML_SEQUENCE_NODE)
		return vlans_reach(c, ends, n);
	ty_items_foreach(c, n, it)
		if (vlans_reach(c, ends, ty_node(c, *it)))
			return -1;
	return 0;
}

static int parse_probe(struct ty_ctx *c, const struct topo *t,
		       struct topo_step *st, const yaml_node_t *n)
{
	static const char *const keys[] = { "from", "to", "vlans", "rate",
					    NULL };
	yaml_node_t *v;
	unsigned long rate = 100;

	if (n->type == YAML_SCALAR_NODE) {
		if (!ty_text(n) || strcmp(ty_text(n), "stop") != 0)
			return ty_fail(c, n, "probe must be 'stop' or a "
				       "mapping with from and to");
		st->kind = TOPO_STEP_PROBE_STOP;
		return 0;
	}
	if (ty_check_keys(c, n, keys, "probe") ||
	    ty_require(c, n, "from", "probe", &v) ||
	    node_ref(c, t, v, "from", &st->from) ||
	    ty_require(c, n, "to", "probe", &v) ||
	    node_ref(c, t, v, "to", &st->to))
		return -1;
	if (st->from == st->to)
		return ty_fail(c, v, "a probe needs two different nodes");
	v = ty_get(c, n, "vlans");
	if (v && (ty_vlan_list(c, v, "vlans", &st->vlans) ||
		  probe_vlans_reach(c, t, st, v)))
		return -1;
	v = ty_get(c, n, "rate");
	if (v && ty_uint(c, v, "rate (packets/s)", 1, 100000, &rate))
		return -1;
	st->rate_pps = (unsigned)rate;
	st->kind = TOPO_STEP_PROBE_START;
	return 0;
}

static int parse_exec(struct ty_ctx *c, const struct topo *t,
		      struct topo_step *st, const yaml_node_t *n)
{
	static const char *const keys[] = { "node", "cmd", "timeout", NULL };
	yaml_node_t *v;

	st->timeout_ms = EXEC_TIMEOUT_MS;
	if (ty_check_keys(c, n, keys, "exec") ||
	    ty_require(c, n, "node", "exec", &v) ||
	    node_ref(c, t, v, "node", &st->cmd.node) ||
	    ty_require(c, n, "cmd", "exec", &v) ||
	    parse_cmd(c, v, &st->cmd))
		return -1;
	v = ty_get(c, n, "timeout");
	if (v && ty_duration(c, v, "timeout", &st->timeout_ms))
		return -1;
	return 0;
}

static int parse_step(struct ty_ctx *c, const struct topo *t,
		      struct topo_step *st, const yaml_node_t *n)
{
	static const char *const kinds[] = { "wait", "fail", "restore",
		"flap", "impair", "probe", "exec", "sleep", "mark", "send",
		NULL };
	yaml_node_t *k, *v;
	int kind;

	st->mark = ty_mark(n);
	st->link = -1;
	st->deaf_end = -1;
	st->from = st->to = st->cmd.node = -1;
	if (ty_check_keys(c, n, kinds, "a step"))
		return -1;
	if (n->data.mapping.pairs.top - n->data.mapping.pairs.start != 1)
		return ty_fail(c, n, "a step is a mapping with exactly one "
			       "action");
	k = ty_node(c, n->data.mapping.pairs.start->key);
	v = ty_node(c, n->data.mapping.pairs.start->value);
	ty_enum(c, k, "a step", kinds, &kind);
	switch (kind) {
	case 0:
		st->kind = TOPO_STEP_WAIT;
		return parse_wait(c, t, st, v);
	case 1:
		st->kind = TOPO_STEP_FAIL;
		return parse_fail(c, t, st, v, false);
	case 2:
		st->kind = TOPO_STEP_RESTORE;
		return parse_fail(c, t, st, v, true);
	case 3:
		st->kind = TOPO_STEP_FLAP;
		return parse_flap(c, t, st, v);
	case 4:
		st->kind = TOPO_STEP_IMPAIR;
		return parse_impair_step(c, t, st, v);
	case 5:
		return parse_probe(c, t, st, v);
	case 6:
		st->kind = TOPO_STEP_EXEC;
		return parse_exec(c, t, st, v);
	case 7:
		st->kind = TOPO_STEP_SLEEP;
		return ty_duration(c, v, "sleep", &st->sleep_ms);
	case 8:
		st->kind = TOPO_STEP_MARK;
		return ty_strdup(c, v, "mark", &st->label);
	default:
		st->kind = TOPO_STEP_SEND;
		return tp_send(c, t, &st->send, v);
	}
}

static int tree_slot(struct ty_ctx *c, const struct topo *t,
		     const yaml_node_t *k)
{
	uint16_t tree;

	if (tp_tree_key(c, &t->mst, k, &tree))
		return -1;
	return topo_tree_slot(&t->mst, tree);
}

static int parse_roots(struct ty_ctx *c, const struct topo *t,
		       struct topo_expect *e, const yaml_node_t *n)
{
	if (ty_check_keys(c, n, NULL, "roots"))
		return -1;
	ty_pairs_foreach(c, n, p) {
		yaml_node_t *v = ty_node(c, p->value);
		int slot = tree_slot(c, t, ty_node(c, p->key));
		int node;

		if (slot < 0 || node_ref(c, t, v, "root", &node))
			return -1;
		if (!topo_role_is_bridge(t->nodes[node].role))
			return ty_fail(c, v, "root '%s' is a %s, not a bridge",
				       t->nodes[node].name,
				       topo_role_name(t->nodes[node].role));
		e->root[slot] = node;
	}
	return 0;
}

static int parse_blocked(struct ty_ctx *c, const struct topo *t,
			 struct topo_expect *e, const yaml_node_t *n)
{
	if (ty_check_keys(c, n, NULL, "blocked"))
		return -1;
	ty_pairs_foreach(c, n, p) {
		yaml_node_t *v = ty_node(c, p->value);
		int slot = tree_slot(c, t, ty_node(c, p->key));

		if (slot < 0 || ty_expect_seq(c, v, "blocked ports"))
			return -1;
		ty_items_foreach(c, v, it) {
			struct topo_portref *r, *nb;
			yaml_node_t *pn = ty_node(c, *it);

			if (e->n_blocked == TOPO_MAX_NODES * TOPO_MAX_PORTS *
					    TOPO_MAX_TREES)
				return ty_fail(c, pn, "too many blocked ports");
			nb = realloc(e->blocked,
				     (e->n_blocked + 1) * sizeof(*nb));
			if (!nb)
				return ty_fail(c, pn, "out of memory");
			e->blocked = nb;
			r = &e->blocked[e->n_blocked];
			r->tree = topo_tree_id(&t->mst, slot);
			if (tp_port_ref(c, t, pn, "blocked port", &r->node,
					&r->port))
				return -1;
			if (!topo_role_is_bridge(t->nodes[r->node].role))
				return ty_fail(c, pn, "'%s' is not a bridge "
					       "port", ty_text(pn));
			e->n_blocked++;
		}
	}
	return 0;
}

static int parse_outage(struct ty_ctx *c, const struct topo *t,
			struct topo_expect *e, const yaml_node_t *n)
{
	static const char *const keys[] = { "max", NULL };

	if (ty_check_keys(c, n, NULL, "outage_ms"))
		return -1;
	ty_pairs_foreach(c, n, p) {
		yaml_node_t *v = ty_node(c, p->value);
		int slot = tree_slot(c, t, ty_node(c, p->key));
		unsigned long ms;

		if (slot < 0)
			return -1;
		if (v->type == YAML_MAPPING_NODE) {
			if (ty_check_keys(c, v, keys, "an outage bound") ||
			    ty_require(c, v, "max", "an outage bound", &v))
				return -1;
		}
		if (ty_uint(c, v, "outage (ms)", 0, 3600000, &ms))
			return -1;
		e->outage_max_ms[slot] = (long)ms;
	}
	return 0;
}

static int parse_expect(struct ty_ctx *c, const struct topo *t,
			struct topo_expect *e, const yaml_node_t *n)
{
	static const char *const keys[] = { "roots", "blocked", "outage_ms",
					    "flush", "settle", NULL };
	static const char *const flushes[] = { "per-msti", "all", "none",
					       NULL };
	yaml_node_t *v;
	int f;

	e->set = true;
	if (ty_check_keys(c, n, keys, "expect"))
		return -1;
	v = ty_get(c, n, "roots");
	if (v && parse_roots(c, t, e, v))
		return -1;
	v = ty_get(c, n, "blocked");
	if (v && parse_blocked(c, t, e, v))
		return -1;
	v = ty_get(c, n, "outage_ms");
	if (v && parse_outage(c, t, e, v))
		return -1;
	v = ty_get(c, n, "flush");
	if (v) {
		if (ty_enum(c, v, "flush", flushes, &f))
			return -1;
		e->flush = (enum topo_flush)(f + 1);
	}
	v = ty_get(c, n, "settle");
	if (v && ty_duration(c, v, "settle", &e->settle_ms))
		return -1;
	return 0;
}

static bool valid_scenario_name(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= 63 && s[0] >= 'a' && s[0] <= 'z' &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

static int parse_scenario(struct ty_ctx *c, const struct topo *t,
			  struct topo_scenario *s, const yaml_node_t *k,
			  const yaml_node_t *n)
{
	static const char *const keys[] = { "description", "steps", "expect",
					    NULL };
	yaml_node_t *v, *steps;
	size_t count;

	if (ty_str(c, k, "a scenario name", s->name, sizeof(s->name)))
		return -1;
	if (!valid_scenario_name(s->name))
		return ty_fail(c, k, "scenario name '%s' must be 1-63 of a-z, "
			       "0-9, '_', '-' starting with a letter",
			       s->name);
	s->mark = ty_mark(k);
	for (int i = 0; i < TOPO_MAX_TREES; i++) {
		s->expect.root[i] = -1;
		s->expect.outage_max_ms[i] = -1;
	}
	if (ty_check_keys(c, n, keys, "a scenario") ||
	    ty_require(c, n, "steps", "a scenario", &steps) ||
	    ty_expect_seq(c, steps, "steps"))
		return -1;
	v = ty_get(c, n, "description");
	if (v && ty_strdup(c, v, "description", &s->description))
		return -1;
	count = (size_t)(steps->data.sequence.items.top -
			 steps->data.sequence.items.start);
	if (count == 0)
		return ty_fail(c, steps, "a scenario needs at least one step");
	if (count > TOPO_MAX_STEPS)
		return ty_fail(c, steps, "more than %d steps", TOPO_MAX_STEPS);
	s->steps = calloc(count, sizeof(*s->steps));
	if (!s->steps)
		return ty_fail(c, steps, "out of memory");
	ty_items_foreach(c, steps, it) {
		struct topo_step *st = &s->steps[s->n_steps++];

		if (ty_expect_map(c, ty_node(c, *it), "a step") ||
		    parse_step(c, t, st, ty_node(c, *it)))
			return -1;
	}
	v = ty_get(c, n, "expect");
	if (v && parse_expect(c, t, &s->expect, v))
		return -1;
	return 0;
}

int tp_scenarios(struct ty_ctx *c, struct topo *t, const yaml_node_t *n)
{
	size_t count;

	if (ty_check_keys(c, n, NULL, "scenarios"))
		return -1;
	count = (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
	if (count > TOPO_MAX_SCENARIOS)
		return ty_fail(c, n, "more than %d scenarios",
			       TOPO_MAX_SCENARIOS);
	t->scenarios = calloc(count ? count : 1, sizeof(*t->scenarios));
	if (!t->scenarios)
		return ty_fail(c, n, "out of memory");
	ty_pairs_foreach(c, n, p)
		if (parse_scenario(c, t, &t->scenarios[t->n_scenarios++],
				   ty_node(c, p->key), ty_node(c, p->value)))
			return -1;
	return 0;
}
