// SPDX-License-Identifier: MIT
/* The model's small helpers: names, lookups, freeing. */
#include "topo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *topo_error_format(const struct topo_error *err,
			      struct errbuf *out)
{
	errbuf_set(out, "%s:%u:%u: %s", err->file, err->mark.line,
		   err->mark.col, err->msg);
	return out->msg;
}

bool topo_warning_next(const struct topo *t, size_t *i, struct topo_error *w)
{
	while (*i < t->n_nodes) {
		const struct topo_node *n = &t->nodes[(*i)++];

		if (n->role != TOPO_ROLE_HSMP_HOST || n->vcpus / n->sockets > 1)
			continue;
		memset(w, 0, sizeof(*w));
		snprintf(w->file, sizeof(w->file), "%s", t->file);
		w->mark = n->cpu_mark;
		snprintf(w->msg, sizeof(w->msg), "warning: hsmp-host '%s' has "
			 "one core a socket (vcpus %u, sockets %u): no EPYC "
			 "has, and its CPUID counts no logical processor per "
			 "package, by which AMD's tools divide; give vcpus %u",
			 n->name, n->vcpus, n->sockets, 2 * n->sockets);
		return true;
	}
	return false;
}

const char *topo_role_name(enum topo_role role)
{
	static const char *const names[] = {
		[TOPO_ROLE_BRIDGE] = "bridge",
		[TOPO_ROLE_DSA_SWITCH] = "dsa-switch",
		[TOPO_ROLE_HSMP_HOST] = "hsmp-host",
		[TOPO_ROLE_HOST] = "host",
	};
	return names[role];
}

bool topo_role_is_bridge(enum topo_role role)
{
	return role == TOPO_ROLE_BRIDGE || role == TOPO_ROLE_DSA_SWITCH;
}

const char *topo_step_name(enum topo_step_kind kind)
{
	static const char *const names[] = {
		[TOPO_STEP_WAIT] = "wait",
		[TOPO_STEP_FAIL] = "fail",
		[TOPO_STEP_RESTORE] = "restore",
		[TOPO_STEP_FLAP] = "flap",
		[TOPO_STEP_IMPAIR] = "impair",
		[TOPO_STEP_PROBE_START] = "probe",
		[TOPO_STEP_PROBE_STOP] = "probe-stop",
		[TOPO_STEP_EXEC] = "exec",
		[TOPO_STEP_SLEEP] = "sleep",
		[TOPO_STEP_MARK] = "mark",
		[TOPO_STEP_SEND] = "send",
	};
	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ?
		names[kind] : "?";
}

bool topo_vlanset_empty(const struct topo_vlanset *s)
{
	for (size_t i = 0; i < sizeof(s->bits) / sizeof(s->bits[0]); i++)
		if (s->bits[i])
			return false;
	return true;
}

bool topo_vlan_next_range(const struct topo_vlanset *s, unsigned *vid,
			  unsigned *lo, unsigned *hi)
{
	unsigned v = *vid;

	while (v < 4096 && !topo_vlan_has(s, v))
		v++;
	if (v >= 4096)
		return false;
	*lo = v;
	while (v + 1 < 4096 && topo_vlan_has(s, v + 1))
		v++;
	*hi = v;
	*vid = v + 1;
	return true;
}

uint32_t topo_treevals_get(const struct topo_treevals *tv, uint16_t tree,
			   uint32_t dflt)
{
	for (size_t i = 0; i < tv->n; i++)
		if (tv->v[i].tree == tree)
			return tv->v[i].value;
	return tv->has_all ? tv->all : dflt;
}

int topo_node_find(const struct topo *t, const char *name)
{
	for (size_t i = 0; i < t->n_nodes; i++)
		if (strcmp(t->nodes[i].name, name) == 0)
			return (int)i;
	return -1;
}

int topo_host_find(const struct topo *t, const char *name)
{
	for (size_t i = 0; i < t->n_hosts; i++)
		if (strcmp(t->hosts[i].name, name) == 0)
			return (int)i;
	return -1;
}

bool topo_link_crosses(const struct topo *t, size_t link)
{
	const struct topo_end *e = t->links[link].end;

	return t->nodes[e[0].node].host != t->nodes[e[1].node].host;
}

bool topo_host_used(const struct topo *t, size_t host)
{
	for (size_t i = 0; i < t->n_nodes; i++)
		if (t->nodes[i].host == host)
			return true;
	return false;
}

int topo_port_find(const struct topo_node *n, const char *name)
{
	for (size_t i = 0; i < n->n_ports; i++)
		if (strcmp(n->ports[i].name, name) == 0)
			return (int)i;
	return -1;
}

int topo_tree_slot(const struct topo_mst *mst, uint16_t tree)
{
	if (tree == TOPO_CIST)
		return 0;
	for (size_t i = 0; i < mst->n_msti; i++)
		if (mst->msti[i].id == tree)
			return (int)i + 1;
	return -1;
}

uint16_t topo_tree_id(const struct topo_mst *mst, int slot)
{
	return slot == 0 ? TOPO_CIST : mst->msti[slot - 1].id;
}

static bool all_in(const char *s, const char *set)
{
	return strspn(s, set) == strlen(s);
}

#define LOWER_DIGITS "abcdefghijklmnopqrstuvwxyz0123456789"

/*
 * Lab and node names end up in libvirt domain names, guest hostnames and
 * file names: lower-case letters, digits and inner dashes only.
 */
bool topo_valid_lab_name(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= TOPO_LAB_NAME_MAX && all_in(s, LOWER_DIGITS "-")
	       && s[0] != '-' && s[n - 1] != '-';
}

/* WORD followed by digits alone ("eth0", "br12"). */
static bool numbered(const char *s, const char *word)
{
	size_t w = strlen(word);

	return !strncmp(s, word, w) && s[w] && all_in(s + w, "0123456789");
}

const char *topo_guest_iface_name(const char *s)
{
	if (!strcmp(s, "lo"))
		return "the guests' loopback";
	if (numbered(s, "br"))
		return "a name of the guests' bridge (br0)";
	if (numbered(s, "eth"))
		return "the kernel's name of a NIC before a guest names it "
		       "after its port";
	return NULL;
}

bool topo_valid_node_name(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= TOPO_NODE_NAME_MAX &&
	       all_in(s, LOWER_DIGITS "-") && s[0] >= 'a' && s[0] <= 'z' &&
	       s[n - 1] != '-' && !topo_guest_iface_name(s);
}

bool topo_valid_host_name(const char *s)
{
	return topo_valid_node_name(s);
}

bool topo_safe_word(const char *s)
{
	size_t n = strlen(s);

	if (n < 1 || n > 255 ||
	    !all_in(s, LOWER_DIGITS "ABCDEFGHIJKLMNOPQRSTUVWXYZ/._+-"))
		return false;
	/* Not an option to whatever reads it, and no way up. */
	if (s[0] == '-')
		return false;
	for (const char *p = s; (p = strstr(p, "..")); p++)
		if ((p == s || p[-1] == '/') && (p[2] == '/' || !p[2]))
			return false;
	return true;
}

/*
 * Guest interface names: short enough for "name.4094" in IFNAMSIZ, and
 * none the guest has for itself. A host's NIC is eth1 by custom; a
 * bridge's port named like an unnamed NIC could not be told from one.
 */
bool topo_valid_port_name(enum topo_role role, const char *s)
{
	size_t n = strlen(s);

	if (role == TOPO_ROLE_DSA_SWITCH)
		return n == 4 && strncmp(s, "lan", 3) == 0 && s[3] >= '1' &&
		       s[3] <= '0' + TOPO_DSA_PORTS;
	if (topo_guest_iface_name(s) &&
	    (topo_role_is_bridge(role) || !numbered(s, "eth")))
		return false;
	return n >= 1 && n <= TOPO_PORT_NAME_MAX &&
	       all_in(s, LOWER_DIGITS "_-") && s[0] >= 'a' && s[0] <= 'z';
}

static void free_cmd(struct topo_cmd *cmd)
{
	for (size_t i = 0; i < cmd->argc; i++)
		free(cmd->argv[i]);
}

void topo_free(struct topo *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n_nodes; i++)
		free(t->nodes[i].own_mst);
	for (size_t i = 0; i < t->n_scenarios; i++) {
		struct topo_scenario *s = &t->scenarios[i];

		for (size_t j = 0; j < s->n_steps; j++) {
			free(s->steps[j].match);
			free(s->steps[j].label);
			free_cmd(&s->steps[j].cmd);
			for (size_t k = 0; k < s->steps[j].send.n_frames; k++)
				free(s->steps[j].send.frames[k]);
		}
		free(s->steps);
		free(s->description);
		free(s->expect.blocked);
	}
	free(t->scenarios);
	free(t->links);
	free(t->nodes);
	free(t);
}

/* "sw1:p1--sw2:p1" for people. */
static const char *link_name(const struct topo *t, int link, char *buf,
			     size_t len)
{
	const struct topo_end *e = t->links[link].end;

	snprintf(buf, len, "%s:%s--%s:%s", t->nodes[e[0].node].name,
		 t->nodes[e[0].node].ports[e[0].port].name,
		 t->nodes[e[1].node].name,
		 t->nodes[e[1].node].ports[e[1].port].name);
	return buf;
}

/* "exec on NODE: COMMAND": a string command as written (sh -c STRING),
 * a list one as its words joined by spaces. */
static void describe_cmd(const struct topo *t, const struct topo_cmd *c,
			 char *buf, size_t len)
{
	size_t at;
	bool string_form = c->argc == 3 && !strcmp(c->argv[0], "/bin/sh") &&
			   !strcmp(c->argv[1], "-c");

	at = (size_t)snprintf(buf, len, "exec on %s:", t->nodes[c->node].name);
	for (size_t i = string_form ? 2 : 0; i < c->argc && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, " %s", c->argv[i]);
}

void topo_step_describe(const struct topo *t, const struct topo_step *st,
			char *buf, size_t len)
{
	char ln[160];

	switch (st->kind) {
	case TOPO_STEP_WAIT:
		snprintf(buf, len, "wait for %s",
			 st->wait_for == TOPO_WAIT_CONVERGED ? "convergence" :
			 st->wait_for == TOPO_WAIT_AGENTS ? "agents" :
			 "a command");
		break;
	case TOPO_STEP_FAIL:
	case TOPO_STEP_FLAP:
		if (st->kind == TOPO_STEP_FAIL && st->deaf_end >= 0) {
			const struct topo_end *e = t->links[st->link].end;
			const struct topo_end *to = &e[st->deaf_end];
			const struct topo_end *from = &e[!st->deaf_end];

			snprintf(buf, len, "fail %s (silent, %s:%s->%s:%s "
				 "only)", link_name(t, st->link, ln, sizeof(ln)),
				 t->nodes[from->node].name,
				 t->nodes[from->node].ports[from->port].name,
				 t->nodes[to->node].name,
				 t->nodes[to->node].ports[to->port].name);
			break;
		}
		snprintf(buf, len, "%s %s (%s)", topo_step_name(st->kind),
			 link_name(t, st->link, ln, sizeof(ln)),
			 st->mode == TOPO_FAIL_CARRIER ? "carrier" : "silent");
		break;
	case TOPO_STEP_SEND:
		snprintf(buf, len, "send %zu frame%s x %u from %s:%s to %s",
			 st->send.n_frames, st->send.n_frames == 1 ? "" : "s",
			 st->send.count, t->nodes[st->send.node].name,
			 t->nodes[st->send.node].ports[st->send.port].name,
			 st->send.dst);
		break;
	case TOPO_STEP_RESTORE:
	case TOPO_STEP_IMPAIR:
		snprintf(buf, len, "%s %s", topo_step_name(st->kind),
			 link_name(t, st->link, ln, sizeof(ln)));
		break;
	case TOPO_STEP_EXEC:
		describe_cmd(t, &st->cmd, buf, len);
		break;
	case TOPO_STEP_SLEEP:
		snprintf(buf, len, "sleep %u ms", st->sleep_ms);
		break;
	case TOPO_STEP_MARK:
		snprintf(buf, len, "mark %s", st->label);
		break;
	case TOPO_STEP_PROBE_START:
		snprintf(buf, len, "probe %s -> %s at %u frames/s%s",
			 t->nodes[st->from].name, t->nodes[st->to].name,
			 st->rate_pps, topo_vlanset_empty(&st->vlans) ?
			 ", untagged" : ", one flow per VLAN");
		break;
	case TOPO_STEP_PROBE_STOP:
		snprintf(buf, len, "probe stop");
		break;
	default:
		snprintf(buf, len, "%s", topo_step_name(st->kind));
	}
}

int topo_parse_duration_ms(const char *s, unsigned *ms)
{
	static const struct {
		const char *suffix;
		unsigned long scale;
	} units[] = { { "ms", 1 }, { "s", 1000 }, { "m", 60000 } };
	size_t digits = strspn(s, "0123456789");

	for (size_t i = 0; digits && i < sizeof(units) / sizeof(units[0]);
	     i++) {
		unsigned long v = 0;

		if (strcmp(s + digits, units[i].suffix) != 0)
			continue;
		if (digits > 9)
			return -ERANGE;
		for (size_t k = 0; k < digits; k++)
			v = v * 10 + (unsigned long)(s[k] - '0');
		if (v > 86400000UL / units[i].scale)
			return -ERANGE;
		*ms = (unsigned)(v * units[i].scale);
		return 0;
	}
	return -EINVAL;
}

const char *topo_force_version_name(enum topo_force_version v)
{
	return v == TOPO_FORCE_STP ? "stp" : v == TOPO_FORCE_RSTP ? "rstp" :
	       "mstp";
}
