// SPDX-License-Identifier: MIT
/*
 * Topology file → struct topo. The document is loaded with libyaml's
 * document API, then walked against the schema in a fixed order (name,
 * hosts, defaults, mst, nodes, links, scenarios) whatever the key order
 * in the file, so references always point backwards in the walk. The
 * first error stops everything; nothing outside the returned model is
 * touched.
 */
#include "kernels.h"
#include "topo_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int parse_name(struct ty_ctx *c, struct topo *t, const yaml_node_t *n)
{
	char buf[TOPO_TEXT_MAX];

	if (ty_str(c, n, "the lab name", buf, sizeof(buf)))
		return -1;
	if (!topo_valid_lab_name(buf))
		return ty_fail(c, n, "lab name '%s' must be 1-12 of a-z, 0-9 "
			       "and inner '-'", buf);
	strcpy(t->name, buf);
	return 0;
}

/* Whether path has a ".." component. */
static bool climbs(const char *path)
{
	for (const char *p = path; (p = strstr(p, "..")); p += 2)
		if ((p == path || p[-1] == '/') && (p[2] == '/' || !p[2]))
			return true;
	return false;
}

/*
 * A node's overlay: a directory inside the topology file's folder, named
 * relative to it, made absolute here (lexically: the parser never looks
 * at the host, so a run's copy of its topology still parses where the
 * directory is not) for the domain to share with the guest. A topology
 * names no other folder of the host: the guest reads what it shares.
 * topo_check_host() says whether it exists, and that no symbolic link
 * leads it out of that folder.
 */
static int parse_overlay(struct ty_ctx *c, const struct topo *t,
			 const yaml_node_t *n, struct topo_node *node)
{
	char given[TOPO_TEXT_MAX], cwd[PATH_MAX] = "";
	const char *slash = strrchr(t->file, '/');
	int base_len = slash ? (int)(slash - t->file) : 0;
	int len;

	if (ty_str(c, n, "overlay", given, sizeof(given)))
		return -1;
	if (!given[0])
		return ty_fail(c, n, "overlay must name a directory");
	if (given[0] == '/' || climbs(given))
		return ty_fail(c, n, "overlay '%s': name a folder inside the "
			       "topology's folder, relative to it (no absolute "
			       "path, no '..'): a topology shares no other "
			       "folder of this host", given);
	if (t->file[0] != '/' && !getcwd(cwd, sizeof(cwd)))
		return ty_fail(c, n, "overlay '%s': the current folder: %s",
			       given, strerror(errno));
	len = snprintf(node->overlay, sizeof(node->overlay), "%s%s%.*s%s%s",
		       cwd, cwd[0] ? "/" : "", base_len, t->file,
		       base_len ? "/" : "", given);
	if (len < 0 || (size_t)len >= sizeof(node->overlay))
		return ty_fail(c, n, "overlay '%s': path longer than %zu "
			       "characters", given, sizeof(node->overlay) - 1);
	node->overlay_mark = ty_mark(n);
	return 0;
}

#define IDENT_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
	"0123456789._-"

static int parse_ident(struct ty_ctx *c, const yaml_node_t *n,
		       const char *what, char *buf, size_t len)
{
	if (ty_str(c, n, what, buf, len))
		return -1;
	if (!buf[0] || strspn(buf, IDENT_CHARS) != strlen(buf))
		return ty_fail(c, n, "%s '%s' may only use A-Z, a-z, 0-9, "
			       "'.', '_' and '-'", what, buf);
	return 0;
}

static int parse_memory(struct ty_ctx *c, const yaml_node_t *n, unsigned *v)
{
	unsigned long x;

	if (ty_uint(c, n, "memory (MiB)", 32, 65536, &x))
		return -1;
	*v = (unsigned)x;
	return 0;
}

static int parse_vcpus(struct ty_ctx *c, const yaml_node_t *n, unsigned *v)
{
	unsigned long x;

	if (ty_uint(c, n, "vcpus", 1, 64, &x))
		return -1;
	*v = (unsigned)x;
	return 0;
}

/* hsmp: { protocol: N }, the HSMP protocols of the EPYC parts 6.1 knows. */
static int parse_hsmp(struct ty_ctx *c, const yaml_node_t *n,
		      struct topo_node *node)
{
	static const char *const keys[] = { "protocol", NULL };
	yaml_node_t *v;
	unsigned long x;

	if (node->role != TOPO_ROLE_HSMP_HOST)
		return ty_fail(c, n, "'hsmp' is only valid on hsmp-host nodes");
	if (ty_check_keys(c, n, keys, "hsmp"))
		return -1;
	v = ty_get(c, n, "protocol");
	if (!v)
		return 0;
	if (ty_uint(c, v, "HSMP protocol", 0, 255, &x))
		return -1;
	if (x != 2 && x != 4 && x != 5 && x != 7)
		return ty_fail(c, v, "HSMP protocol %lu is not one of 2, 4, 5, "
			       "7", x);
	node->hsmp_protocol = (unsigned)x;
	return 0;
}

static int parse_kernel(struct ty_ctx *c, const yaml_node_t *n,
			enum topo_kernel *k)
{
	int i;

	if (ty_enum(c, n, "kernel", kernel_spellings(), &i))
		return -1;
	return kernel_by_name(kernel_spellings()[i], k);
}

static int parse_defaults(struct ty_ctx *c, struct topo *t,
			  const yaml_node_t *n)
{
	static const char *const keys[] = { "memory", "vcpus", "cpu", "kernel",
					    NULL };
	struct topo_defaults *d = &t->defaults;
	yaml_node_t *v;

	if (ty_check_keys(c, n, keys, "defaults"))
		return -1;
	v = ty_get(c, n, "memory");
	if (v && parse_memory(c, v, &d->memory_mib))
		return -1;
	v = ty_get(c, n, "vcpus");
	if (v && parse_vcpus(c, v, &d->vcpus))
		return -1;
	v = ty_get(c, n, "cpu");
	if (v && parse_ident(c, v, "cpu model", d->cpu, sizeof(d->cpu)))
		return -1;
	v = ty_get(c, n, "kernel");
	if (v && parse_kernel(c, v, &d->kernel))
		return -1;
	return 0;
}

int tp_tree_key(struct ty_ctx *c, const struct topo_mst *mst,
		const yaml_node_t *k, uint16_t *tree)
{
	const char *s = ty_text(k);
	unsigned long id;

	if (s && strcmp(s, "cist") == 0) {
		*tree = TOPO_CIST;
		return 0;
	}
	if (ty_uint(c, k, "a tree (cist or an MSTI)", 0, 65535, &id))
		return -1;
	if (id == 0 || id > 4094)
		return ty_fail(c, k, "MSTI %lu is outside 1..4094 (write cist "
			       "for the CIST)", id);
	if (topo_tree_slot(mst, (uint16_t)id) < 0)
		return ty_fail(c, k, "MSTI %lu is not declared in "
			       "mst.instances", id);
	*tree = (uint16_t)id;
	return 0;
}

/* Checks one value of a per-tree setting: range and granularity. */
struct tv_rule {
	const char *what;
	unsigned long min, max, step;
};

static int tv_value(struct ty_ctx *c, const yaml_node_t *n,
		    const struct tv_rule *r, uint32_t *out)
{
	unsigned long v;

	if (ty_uint(c, n, r->what, 0, 0xffffffffUL, &v))
		return -1;
	if (v < r->min || v > r->max || v % r->step)
		return r->step > 1 ?
			ty_fail(c, n, "%s %lu is not a multiple of %lu in "
				"%lu..%lu", r->what, v, r->step, r->min,
				r->max) :
			ty_fail(c, n, "%s %lu is outside %lu..%lu", r->what, v,
				r->min, r->max);
	*out = (uint32_t)v;
	return 0;
}

/* A scalar (every tree) or a mapping { cist: V, MSTI: V, ... }. */
static int parse_treevals(struct ty_ctx *c, const struct topo_mst *mst,
			  const yaml_node_t *n, const struct tv_rule *r,
			  struct topo_treevals *tv)
{
	memset(tv, 0, sizeof(*tv));
	if (n->type == YAML_SCALAR_NODE) {
		tv->has_all = true;
		return tv_value(c, n, r, &tv->all);
	}
	if (n->type != YAML_MAPPING_NODE)
		return ty_fail(c, n, "%s must be an integer or a mapping of "
			       "trees (cist, MSTI) to integers", r->what);
	if (ty_check_keys(c, n, NULL, r->what))
		return -1;
	ty_pairs_foreach(c, n, p) {
		struct topo_treeval *v = &tv->v[tv->n];

		if (tv->n == TOPO_MAX_TREES)
			return ty_fail(c, ty_node(c, p->key), "too many trees");
		if (tp_tree_key(c, mst, ty_node(c, p->key), &v->tree) ||
		    tv_value(c, ty_node(c, p->value), r, &v->value))
			return -1;
		tv->n++;
	}
	return 0;
}

static const struct tv_rule bridge_prio_rule = { "bridge priority", 0, 61440,
						 4096 };
static const struct tv_rule port_prio_rule = { "port priority", 0, 240, 16 };
static const struct tv_rule cost_rule = { "path cost", 1, 200000000, 1 };

static int parse_seconds(struct ty_ctx *c, const yaml_node_t *n,
			 const char *what, unsigned min, unsigned max,
			 unsigned *s)
{
	unsigned ms;

	if (ty_duration(c, n, what, &ms))
		return -1;
	if (ms % 1000 || ms / 1000 < min || ms / 1000 > max)
		return ty_fail(c, n, "%s must be whole seconds in %us..%us",
			       what, min, max);
	*s = ms / 1000;
	return 0;
}

static int cmp_msti(const void *a, const void *b)
{
	const struct topo_msti *x = a, *y = b;

	return (int)x->id - (int)y->id;
}

static int parse_instances(struct ty_ctx *c, struct topo_mst *m,
			   const yaml_node_t *n)
{
	struct topo_vlanset seen = { 0 };

	if (ty_check_keys(c, n, NULL, "mst.instances"))
		return -1;
	ty_pairs_foreach(c, n, p) {
		yaml_node_t *k = ty_node(c, p->key);
		yaml_node_t *v = ty_node(c, p->value);
		struct topo_msti *msti = &m->msti[m->n_msti];
		unsigned long id;

		if (ty_uint(c, k, "MSTI", 0, 65535, &id))
			return -1;
		if (id == 0 || id > 4094)
			return ty_fail(c, k, "MSTI %lu is outside 1..4094 "
				       "(MSTI 0 is the CIST)", id);
		if (m->n_msti == TOPO_MAX_MSTI)
			return ty_fail(c, k, "more than %d MSTIs",
				       TOPO_MAX_MSTI);
		memset(msti, 0, sizeof(*msti));
		msti->id = (uint16_t)id;
		if (ty_vlan_list(c, v, "an MSTI's VLANs", &msti->vlans))
			return -1;
		for (unsigned vid = 1; vid < 4095; vid++) {
			if (!topo_vlan_has(&msti->vlans, vid))
				continue;
			if (topo_vlan_has(&seen, vid))
				return ty_fail(c, v, "VLAN %u is in two MSTIs",
					       vid);
			topo_vlan_add(&seen, vid);
		}
		m->n_msti++;
	}
	qsort(m->msti, m->n_msti, sizeof(m->msti[0]), cmp_msti);
	return 0;
}

static int parse_mst(struct ty_ctx *c, struct topo_mst *m,
		     const yaml_node_t *n, const char *what)
{
	static const char *const keys[] = { "region", "revision", "instances",
		"hello", "max_age", "forward_delay", "max_hops", "tx_hold",
		"force_version", "ageing_time", "guard_recovery", NULL };
	static const char *const versions[] = { "mstp", "rstp", "stp", NULL };
	int fv;
	yaml_node_t *v;
	unsigned long x;

	if (ty_check_keys(c, n, keys, what))
		return -1;
	v = ty_get(c, n, "region");
	if (v && parse_ident(c, v, "region name", m->region, sizeof(m->region)))
		return -1;
	v = ty_get(c, n, "revision");
	if (v) {
		if (ty_uint(c, v, "revision", 0, 65535, &x))
			return -1;
		m->revision = (uint16_t)x;
	}
	v = ty_get(c, n, "instances");
	if (v) {
		m->n_msti = 0;
		if (parse_instances(c, m, v))
			return -1;
	}
	v = ty_get(c, n, "hello");
	if (v && parse_seconds(c, v, "hello", 1, 10, &m->hello_s))
		return -1;
	v = ty_get(c, n, "max_age");
	if (v && parse_seconds(c, v, "max_age", 6, 40, &m->max_age_s))
		return -1;
	v = ty_get(c, n, "forward_delay");
	if (v &&
	    parse_seconds(c, v, "forward_delay", 4, 30, &m->forward_delay_s))
		return -1;
	v = ty_get(c, n, "max_hops");
	if (v) {
		if (ty_uint(c, v, "max_hops", 6, 40, &x))
			return -1;
		m->max_hops = (unsigned)x;
	}
	v = ty_get(c, n, "tx_hold");
	if (v) {
		if (ty_uint(c, v, "tx_hold", 1, 10, &x))
			return -1;
		m->tx_hold = (unsigned)x;
	}
	v = ty_get(c, n, "force_version");
	if (v) {
		if (ty_enum(c, v, "force_version", versions, &fv))
			return -1;
		m->force_version = (enum topo_force_version)fv;
	}
	v = ty_get(c, n, "ageing_time");
	if (v && parse_seconds(c, v, "ageing_time", 10, 86400,
			       &m->ageing_time_s))
		return -1;
	v = ty_get(c, n, "guard_recovery");
	if (v && parse_seconds(c, v, "guard_recovery", 0, 86400,
			       &m->guard_recovery_s))
		return -1;
	/* 802.1Q 13.25: 2 * (forward delay - 1) >= max age >= 2 * (hello + 1) */
	if (2 * (m->forward_delay_s - 1) < m->max_age_s ||
	    m->max_age_s < 2 * (m->hello_s + 1))
		return ty_fail(c, n, "timers break 2 * (forward_delay - 1) >= "
			       "max_age >= 2 * (hello + 1)");
	return 0;
}

static void mst_defaults(struct topo_mst *m, const char *region)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->region, sizeof(m->region), "%s", region);
	m->hello_s = 2;
	m->max_age_s = 20;
	m->forward_delay_s = 15;
	m->max_hops = 20;
	m->tx_hold = 6;
	m->force_version = TOPO_FORCE_MSTP;
}

static int parse_vlans(struct ty_ctx *c, const yaml_node_t *n,
		       struct topo_vlans *vl)
{
	static const char *const keys[] = { "tagged", "untagged", NULL };
	yaml_node_t *v;

	memset(vl, 0, sizeof(*vl));
	if (ty_check_keys(c, n, keys, "vlans"))
		return -1;
	vl->set = true;
	v = ty_get(c, n, "tagged");
	if (v && ty_vlan_list(c, v, "tagged", &vl->tagged))
		return -1;
	v = ty_get(c, n, "untagged");
	if (v) {
		unsigned vid;
		const char *s = ty_text(v);

		if (!(s && ty_is_plain(v) && strcmp(s, "none") == 0)) {
			if (ty_vlan(c, v, &vid))
				return -1;
			if (topo_vlan_has(&vl->tagged, vid))
				return ty_fail(c, v, "VLAN %u cannot be both "
					       "tagged and untagged", vid);
			vl->untagged = (uint16_t)vid;
		}
	}
	return 0;
}

static int parse_edge(struct ty_ctx *c, const yaml_node_t *n, int *edge)
{
	bool b;

	if (ty_bool(c, n, "edge", &b))
		return -1;
	*edge = b;
	return 0;
}

static int bridge_only(struct ty_ctx *c, const struct topo_node *node,
		       const yaml_node_t *v, const char *key)
{
	if (!v || topo_role_is_bridge(node->role))
		return 0;
	return ty_fail(c, v, "'%s' is only valid on bridge and dsa-switch "
		       "nodes, '%s' is a %s", key, node->name,
		       topo_role_name(node->role));
}

static int port_name_check(struct ty_ctx *c, const struct topo_node *node,
			   const yaml_node_t *n, const char *port)
{
	const char *iface = topo_guest_iface_name(port);

	if (topo_valid_port_name(node->role, port))
		return 0;
	if (node->role == TOPO_ROLE_DSA_SWITCH)
		return ty_fail(c, n, "'%s' is a dsa-switch: its ports are "
			       "lan1..lan5, not '%s'", node->name, port);
	if (iface)
		return ty_fail(c, n, "port name '%s' is %s: name %s's port "
			       "another way (p1, ...)", port, iface,
			       node->name);
	return ty_fail(c, n, "port name '%s' must be 1-10 of a-z, 0-9, '_', "
		       "'-' starting with a letter", port);
}

static struct topo_port *add_port(struct topo_node *node, const char *name,
				  struct topo_mark mark)
{
	struct topo_port *p;

	if (node->n_ports == TOPO_MAX_PORTS)
		return NULL;
	p = &node->ports[node->n_ports++];
	memset(p, 0, sizeof(*p));
	strcpy(p->name, name);
	p->mark = mark;
	p->link = -1;
	p->edge = -1;
	p->bpdu_guard = p->bpdu_filter = p->root_guard = -1;
	p->tcn_guard = p->loop_guard = -1;
	return p;
}

/* The guards and the external cost of a bridge's port. */
static int parse_port_controls(struct ty_ctx *c, struct topo_node *node,
			       struct topo_port *p, const yaml_node_t *n)
{
	static const char *const guards[] = { "bpdu_guard", "bpdu_filter",
		"root_guard", "tcn_guard", "loop_guard" };
	int *slots[] = { &p->bpdu_guard, &p->bpdu_filter, &p->root_guard,
			 &p->tcn_guard, &p->loop_guard };
	yaml_node_t *v;
	unsigned long x;
	bool b;

	for (size_t i = 0; i < sizeof(guards) / sizeof(guards[0]); i++) {
		v = ty_get(c, n, guards[i]);
		if (!v)
			continue;
		if (bridge_only(c, node, v, guards[i]) ||
		    ty_bool(c, v, guards[i], &b))
			return -1;
		*slots[i] = b;
	}
	v = ty_get(c, n, "ext_cost");
	if (!v)
		return 0;
	if (bridge_only(c, node, v, "ext_cost") ||
	    ty_uint(c, v, "ext_cost", 1, 200000000, &x))
		return -1;
	p->ext_cost = (uint32_t)x;
	return 0;
}

static int parse_node_port(struct ty_ctx *c, struct topo_node *node,
			   const yaml_node_t *k, const yaml_node_t *n)
{
	static const char *const keys[] = { "cost", "priority", "edge",
		"vlans", "ext_cost", "bpdu_guard", "bpdu_filter", "root_guard",
		"tcn_guard", "loop_guard", NULL };
	char name[TOPO_TEXT_MAX];
	struct topo_port *p;
	yaml_node_t *v;

	if (ty_str(c, k, "a port name", name, sizeof(name)) ||
	    port_name_check(c, node, k, name))
		return -1;
	p = add_port(node, name, ty_mark(k));
	if (!p)
		return ty_fail(c, k, "more than %d ports on '%s'",
			       TOPO_MAX_PORTS, node->name);
	if (ty_check_keys(c, n, keys, "a port"))
		return -1;
	if (bridge_only(c, node, ty_get(c, n, "cost"), "cost") ||
	    bridge_only(c, node, ty_get(c, n, "priority"), "priority") ||
	    bridge_only(c, node, ty_get(c, n, "edge"), "edge"))
		return -1;
	v = ty_get(c, n, "cost");
	if (v && parse_treevals(c, node->mst, v, &cost_rule, &p->cost))
		return -1;
	v = ty_get(c, n, "priority");
	if (v && parse_treevals(c, node->mst, v, &port_prio_rule, &p->priority))
		return -1;
	v = ty_get(c, n, "edge");
	if (v && parse_edge(c, v, &p->edge))
		return -1;
	v = ty_get(c, n, "vlans");
	if (v && parse_vlans(c, v, &p->vlans))
		return -1;
	return parse_port_controls(c, node, p, n);
}

static int parse_node(struct ty_ctx *c, struct topo *t, struct topo_node *node,
		      const yaml_node_t *k, const yaml_node_t *n)
{
	static const char *const keys[] = { "role", "memory", "vcpus", "cpu",
		"kernel", "overlay", "sockets", "hsmp", "priority", "ports",
		"mst", "stp", "host", NULL };
	static const char *const stps[] = { "mstp", "kernel", NULL };
	static const char *const roles[] = { "bridge", "dsa-switch",
					     "hsmp-host", "host", NULL };
	char name[TOPO_TEXT_MAX];
	yaml_node_t *v, *role;
	unsigned long x;
	int r;

	if (ty_str(c, k, "a node name", name, sizeof(name)))
		return -1;
	if (topo_guest_iface_name(name))
		return ty_fail(c, k, "node name '%s' is %s: a node's name "
			       "must not read as an interface's", name,
			       topo_guest_iface_name(name));
	if (!topo_valid_node_name(name))
		return ty_fail(c, k, "node name '%s' must be 1-15 of a-z, 0-9 "
			       "and inner '-', starting with a letter", name);
	strcpy(node->name, name);
	node->mark = ty_mark(k);
	if (ty_check_keys(c, n, keys, "a node") ||
	    ty_require(c, n, "role", "a node", &role) ||
	    ty_enum(c, role, "role", roles, &r))
		return -1;
	node->role = (enum topo_role)r;
	node->memory_mib = t->defaults.memory_mib;
	node->vcpus = t->defaults.vcpus;
	strcpy(node->cpu, t->defaults.cpu);
	node->kernel = t->defaults.kernel;
	node->mst = &t->mst;
	node->sockets = 1;
	node->cpu_mark = node->mark;

	v = ty_get(c, n, "memory");
	if (v && parse_memory(c, v, &node->memory_mib))
		return -1;
	v = ty_get(c, n, "host");
	if (v && tp_node_host(c, t, v, node))
		return -1;
	v = ty_get(c, n, "cpu");
	if (v && parse_ident(c, v, "cpu model", node->cpu, sizeof(node->cpu)))
		return -1;
	v = ty_get(c, n, "kernel");
	if (v && parse_kernel(c, v, &node->kernel))
		return -1;
	v = ty_get(c, n, "overlay");
	if (v && parse_overlay(c, t, v, node))
		return -1;
	v = ty_get(c, n, "sockets");
	if (v) {
		if (node->role != TOPO_ROLE_HSMP_HOST)
			return ty_fail(c, v, "'sockets' is only valid on "
				       "hsmp-host nodes");
		if (ty_uint(c, v, "sockets", 1, 2, &x))
			return -1;
		node->sockets = (unsigned)x;
		node->cpu_mark = ty_mark(v);
	}
	v = ty_get(c, n, "hsmp");
	if (v && parse_hsmp(c, v, node))
		return -1;
	v = ty_get(c, n, "vcpus");
	if (v) {
		if (parse_vcpus(c, v, &node->vcpus))
			return -1;
		if (node->vcpus % node->sockets)
			return ty_fail(c, v, "vcpus %u is not a multiple of "
				       "sockets %u", node->vcpus,
				       node->sockets);
		node->cpu_mark = ty_mark(v);
	} else if (node->role == TOPO_ROLE_HSMP_HOST) {
		/* Whole sockets of 2 cores at least: no EPYC has one. */
		unsigned per = (node->vcpus + node->sockets - 1) /
			       node->sockets;

		node->vcpus = node->sockets * (per < 2 ? 2 : per);
	}
	if (bridge_only(c, node, ty_get(c, n, "mst"), "mst") ||
	    bridge_only(c, node, ty_get(c, n, "priority"), "priority"))
		return -1;
	v = ty_get(c, n, "stp");
	if (v) {
		int k;

		if (node->role != TOPO_ROLE_BRIDGE)
			return ty_fail(c, v, "'stp' is only valid on bridge "
				       "nodes");
		if (ty_enum(c, v, "stp", stps, &k))
			return -1;
		node->kernel_stp = k == 1;
	}
	v = ty_get(c, n, "mst");
	if (v) {
		node->own_mst = malloc(sizeof(*node->own_mst));
		if (!node->own_mst)
			return ty_fail(c, v, "out of memory");
		*node->own_mst = t->mst;
		if (parse_mst(c, node->own_mst, v, "a node's mst"))
			return -1;
		node->mst = node->own_mst;
	}
	v = ty_get(c, n, "priority");
	if (v && parse_treevals(c, node->mst, v, &bridge_prio_rule,
				&node->priority))
		return -1;
	v = ty_get(c, n, "ports");
	if (v) {
		if (ty_check_keys(c, v, NULL, "ports"))
			return -1;
		ty_pairs_foreach(c, v, p)
			if (parse_node_port(c, node, ty_node(c, p->key),
					    ty_node(c, p->value)))
				return -1;
	}
	return 0;
}

static int parse_nodes(struct ty_ctx *c, struct topo *t, const yaml_node_t *n)
{
	size_t count;

	if (ty_check_keys(c, n, NULL, "nodes"))
		return -1;
	count = (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
	if (count == 0)
		return ty_fail(c, n, "a lab needs at least one node");
	if (count > TOPO_MAX_NODES)
		return ty_fail(c, n, "more than %d nodes", TOPO_MAX_NODES);
	t->nodes = calloc(count, sizeof(*t->nodes));
	if (!t->nodes)
		return ty_fail(c, n, "out of memory");
	ty_pairs_foreach(c, n, p) {
		struct topo_node *node = &t->nodes[t->n_nodes];

		node->index = (unsigned)t->n_nodes;
		t->n_nodes++;
		if (parse_node(c, t, node, ty_node(c, p->key),
			       ty_node(c, p->value)))
			return -1;
	}
	return 0;
}

/* Splits "node:port"; the node must exist, the port name must suit it. */
static int split_end(struct ty_ctx *c, const struct topo *t,
		     const yaml_node_t *n, const char *what, int *node,
		     char port[TOPO_PORT_NAME_MAX + 1])
{
	char buf[TOPO_TEXT_MAX], *colon;

	if (ty_str(c, n, what, buf, sizeof(buf)))
		return -1;
	colon = strchr(buf, ':');
	if (!colon)
		return ty_fail(c, n, "%s '%s' must be node:port", what, buf);
	*colon = '\0';
	*node = topo_node_find(t, buf);
	if (*node < 0) {
		*colon = ':';
		return ty_fail(c, n, "%s '%s' names no node", what, buf);
	}
	if (port_name_check(c, &t->nodes[*node], n, colon + 1))
		return -1;
	strcpy(port, colon + 1);
	return 0;
}

int tp_port_ref(struct ty_ctx *c, const struct topo *t, const yaml_node_t *n,
		const char *what, int *node, int *port)
{
	char name[TOPO_PORT_NAME_MAX + 1];

	if (split_end(c, t, n, what, node, name))
		return -1;
	*port = topo_port_find(&t->nodes[*node], name);
	if (*port < 0)
		return ty_fail(c, n, "%s '%s' names no linked port", what,
			       ty_text(n));
	return 0;
}

int tp_link_ref(struct ty_ctx *c, const struct topo *t, const yaml_node_t *n,
		int *link)
{
	int node, port;

	if (tp_port_ref(c, t, n, "link", &node, &port))
		return -1;
	*link = t->nodes[node].ports[port].link;
	return 0;
}

static int link_end(struct ty_ctx *c, struct topo *t, struct topo_link *l,
		    int e, const yaml_node_t *n)
{
	char name[TOPO_PORT_NAME_MAX + 1];
	struct topo_node *node;
	struct topo_port *p;
	int ni, pi;

	if (split_end(c, t, n, "link end", &ni, name))
		return -1;
	node = &t->nodes[ni];
	pi = topo_port_find(node, name);
	/* Two ports of one node may be linked (a Backup port, 802.1Q
	 * 13.12); a port to itself is no link. */
	if (e == 1 && ni == l->end[0].node && pi == l->end[0].port)
		return ty_fail(c, n, "link %u joins %s to itself: its ends "
			       "must be two ports", l->index, ty_text(n));
	if (pi < 0) {
		p = add_port(node, name, ty_mark(n));
		if (!p)
			return ty_fail(c, n, "more than %d ports on '%s'",
				       TOPO_MAX_PORTS, node->name);
		pi = (int)node->n_ports - 1;
	} else {
		p = &node->ports[pi];
		if (p->link >= 0)
			return ty_fail(c, n, "port '%s' is already used by "
				       "link %u (line %u)", ty_text(n),
				       t->links[p->link].index,
				       t->links[p->link].mark.line);
	}
	p->link = (int)(l - t->links);
	p->end = e;
	l->end[e] = (struct topo_end){ ni, pi };
	return 0;
}

/* "0.5", "2", "1.25" percent → parts per million. */
int tp_loss(struct ty_ctx *c, const yaml_node_t *n, unsigned *ppm)
{
	const char *s = ty_text(n);
	unsigned long whole = 0, frac = 0, scale = 10000;
	size_t i = 0;

	if (!s || !ty_is_plain(n) || !*s)
		goto bad;
	for (; s[i] >= '0' && s[i] <= '9' && whole <= 100; i++)
		whole = whole * 10 + (unsigned long)(s[i] - '0');
	if (i == 0)
		goto bad;
	if (s[i] == '.') {
		size_t start = ++i;

		for (; s[i] >= '0' && s[i] <= '9' && i - start < 4; i++) {
			frac = frac * 10 + (unsigned long)(s[i] - '0');
			scale /= 10;
		}
		if (i == start)
			goto bad;
	}
	if (s[i] == '%')
		i++;
	if (s[i])
		goto bad;
	if (whole * 10000 + frac * scale > 1000000)
		return ty_fail(c, n, "loss %s is outside 0..100 (percent)", s);
	*ppm = (unsigned)(whole * 10000 + frac * scale);
	return 0;
bad:
	return ty_fail(c, n, "loss must be a percentage like 0.5 or 2%%");
}

static int parse_impair(struct ty_ctx *c, const yaml_node_t *n,
			struct topo_impair *im)
{
	static const char *const keys[] = { "delay", "loss", NULL };
	yaml_node_t *v;

	memset(im, 0, sizeof(*im));
	if (ty_check_keys(c, n, keys, "impair"))
		return -1;
	v = ty_get(c, n, "delay");
	if (v && ty_duration(c, v, "delay", &im->delay_ms))
		return -1;
	v = ty_get(c, n, "loss");
	if (v && tp_loss(c, v, &im->loss_ppm))
		return -1;
	return 0;
}

static int parse_link(struct ty_ctx *c, struct topo *t, struct topo_link *l,
		      const yaml_node_t *n)
{
	static const char *const keys[] = { "ends", "cost", "vlans", "edge",
					    "impair", NULL };
	const yaml_node_t *ends = n;
	yaml_node_t *v;

	l->mark = ty_mark(n);
	l->edge = -1;
	if (n->type == YAML_MAPPING_NODE) {
		yaml_node_t *e;

		if (ty_check_keys(c, n, keys, "a link") ||
		    ty_require(c, n, "ends", "a link", &e))
			return -1;
		ends = e;
	} else if (n->type != YAML_SEQUENCE_NODE) {
		return ty_fail(c, n, "a link must be [node:port, node:port] "
			       "or a mapping with 'ends'");
	}
	if (ty_expect_seq(c, ends, "a link's ends"))
		return -1;
	if (ends->data.sequence.items.top - ends->data.sequence.items.start != 2)
		return ty_fail(c, ends, "a link has exactly two ends");
	for (int e = 0; e < 2; e++)
		if (link_end(c, t, l, e,
			     ty_node(c, ends->data.sequence.items.start[e])))
			return -1;
	if (n->type != YAML_MAPPING_NODE)
		return 0;
	v = ty_get(c, n, "cost");
	if (v && parse_treevals(c, &t->mst, v, &cost_rule, &l->cost))
		return -1;
	v = ty_get(c, n, "edge");
	if (v && parse_edge(c, v, &l->edge))
		return -1;
	v = ty_get(c, n, "vlans");
	if (v && parse_vlans(c, v, &l->vlans))
		return -1;
	v = ty_get(c, n, "impair");
	if (v && parse_impair(c, v, &l->impair))
		return -1;
	return 0;
}

static int parse_links(struct ty_ctx *c, struct topo *t, const yaml_node_t *n)
{
	size_t count;

	if (ty_expect_seq(c, n, "links"))
		return -1;
	count = (size_t)(n->data.sequence.items.top -
			 n->data.sequence.items.start);
	if (count > TOPO_MAX_LINKS)
		return ty_fail(c, n, "more than %d links", TOPO_MAX_LINKS);
	t->links = calloc(count ? count : 1, sizeof(*t->links));
	if (!t->links)
		return ty_fail(c, n, "out of memory");
	ty_items_foreach(c, n, it) {
		struct topo_link *l = &t->links[t->n_links];

		t->n_links++;
		l->index = (unsigned)t->n_links;
		if (parse_link(c, t, l, ty_node(c, *it)))
			return -1;
	}
	return 0;
}

/* Default membership: every MSTI's VLANs tagged, VLAN 1 untagged. */
static void default_vlans(const struct topo_mst *m, struct topo_vlans *vl)
{
	memset(vl, 0, sizeof(*vl));
	vl->untagged = 1;
	for (size_t i = 0; i < m->n_msti; i++)
		for (size_t w = 0; w < 64; w++)
			vl->tagged.bits[w] |= m->msti[i].vlans.bits[w];
	vl->tagged.bits[0] &= ~(1ULL << 1);
}

static int cmp_port(const void *a, const void *b)
{
	const struct topo_port *x = a, *y = b;

	return (int)x->index - (int)y->index;
}

/*
 * Every configured port must be linked; ports then take what they do not
 * set themselves from their link, get their NIC index (lanN → N, others in
 * order of appearance in links) and are sorted by it.
 */
static int resolve_ports(struct ty_ctx *c, struct topo *t)
{
	unsigned next[TOPO_MAX_NODES] = { 0 };

	for (size_t i = 0; i < t->n_nodes; i++) {
		struct topo_node *node = &t->nodes[i];

		for (size_t j = 0; j < node->n_ports; j++) {
			struct topo_port *p = &node->ports[j];

			if (p->link < 0)
				return ty_fail_at(c, p->mark, "port '%s:%s' is "
						  "configured but not linked",
						  node->name, p->name);
		}
	}
	for (size_t l = 0; l < t->n_links; l++) {
		const struct topo_link *link = &t->links[l];

		for (int e = 0; e < 2; e++) {
			struct topo_node *node = &t->nodes[link->end[e].node];
			struct topo_port *p = &node->ports[link->end[e].port];

			if (!p->cost.has_all && !p->cost.n)
				p->cost = link->cost;
			if (p->edge < 0)
				p->edge = link->edge;
			if (!p->vlans.set)
				p->vlans = link->vlans;
			if (!p->vlans.set)
				default_vlans(topo_role_is_bridge(node->role) ?
					      node->mst : &t->mst, &p->vlans);
			/* 802.1D keeps 16-bit port costs. */
			if (node->kernel_stp &&
			    topo_treevals_get(&p->cost, 0, TOPO_DEFAULT_COST) >
				    65535)
				return ty_fail_at(c, p->mark, "'%s:%s' runs "
						  "the kernel's STP: its cost "
						  "must be at most 65535",
						  node->name, p->name);
			if (node->role == TOPO_ROLE_DSA_SWITCH)
				p->index = (unsigned)(p->name[3] - '0');
			else
				p->index = ++next[node->index];
		}
	}
	for (size_t i = 0; i < t->n_nodes; i++) {
		struct topo_node *node = &t->nodes[i];

		qsort(node->ports, node->n_ports, sizeof(node->ports[0]),
		      cmp_port);
		for (size_t j = 0; j < node->n_ports; j++) {
			struct topo_port *p = &node->ports[j];

			t->links[p->link].end[p->end].port = (int)j;
		}
	}
	return 0;
}

/*
 * A link's per-tree cost names MSTIs of the lab's region; a bridge at
 * either end that has its own region must know them too.
 */
static int check_link_trees(struct ty_ctx *c, struct topo *t)
{
	for (size_t l = 0; l < t->n_links; l++) {
		const struct topo_link *link = &t->links[l];

		for (int e = 0; e < 2; e++) {
			const struct topo_node *node =
				&t->nodes[link->end[e].node];

			for (size_t i = 0; i < link->cost.n; i++) {
				uint16_t tree = link->cost.v[i].tree;

				if (!topo_role_is_bridge(node->role) ||
				    topo_tree_slot(node->mst, tree) >= 0)
					continue;
				return ty_fail_at(c, link->mark, "link cost "
						  "names MSTI %u, unknown to "
						  "'%s'", tree, node->name);
			}
		}
	}
	return 0;
}

static int parse_root(struct ty_ctx *c, struct topo *t, const yaml_node_t *root)
{
	static const char *const keys[] = { "name", "hosts", "defaults", "mst",
					    "nodes", "links", "scenarios",
					    NULL };
	yaml_node_t *v;

	tp_hosts_init(t);
	if (ty_check_keys(c, root, keys, "the lab"))
		return -1;
	if (ty_require(c, root, "name", "the lab", &v) || parse_name(c, t, v))
		return -1;
	t->defaults.memory_mib = 128;
	t->defaults.vcpus = 1;
	t->defaults.kernel = TOPO_KERNEL_DEFAULT;
	v = ty_get(c, root, "defaults");
	if (v && parse_defaults(c, t, v))
		return -1;
	v = ty_get(c, root, "hosts");
	if (v && tp_hosts(c, t, v))
		return -1;
	mst_defaults(&t->mst, t->name);
	v = ty_get(c, root, "mst");
	if (v && parse_mst(c, &t->mst, v, "mst"))
		return -1;
	if (ty_require(c, root, "nodes", "the lab", &v) || parse_nodes(c, t, v))
		return -1;
	v = ty_get(c, root, "links");
	if (v && parse_links(c, t, v))
		return -1;
	if (resolve_ports(c, t) || check_link_trees(c, t) ||
	    tp_check_hosts(c, t))
		return -1;
	v = ty_get(c, root, "scenarios");
	if (v && tp_scenarios(c, t, v))
		return -1;
	return 0;
}

int tp_syntax_error(struct topo_error *err, const yaml_parser_t *p)
{
	const yaml_mark_t *m = p->problem ? &p->problem_mark : &p->context_mark;

	err->mark = (struct topo_mark){ m->line + 1, m->column + 1 };
	if (p->context)
		snprintf(err->msg, sizeof(err->msg), "%s %s", p->problem,
			 p->context);
	else
		snprintf(err->msg, sizeof(err->msg), "%s",
			 p->problem ? p->problem : "YAML error");
	return -1;
}

/*
 * libyaml's document loader takes time quadratic in the nesting of flow
 * collections (100,000 '[' took 40 s), and no topology nests deeper than
 * a handful of levels: its event parser, which is linear, refuses a
 * deeper document at the collection that crosses the limit, before the
 * loader sees it.
 */
static int check_depth(struct topo_error *err, const void *buf, size_t len)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	unsigned depth = 0;
	int r = 0;

	if (!yaml_parser_initialize(&parser))
		return 0;	/* the loader reports it */
	yaml_parser_set_input_string(&parser, buf, len);
	for (;;) {
		yaml_event_type_t type;

		if (!yaml_parser_parse(&parser, &ev))
			break;	/* a syntax error: the loader says where */
		type = ev.type;
		if (type == YAML_SEQUENCE_START_EVENT ||
		    type == YAML_MAPPING_START_EVENT) {
			if (++depth > TOPO_MAX_DEPTH) {
				err->mark = (struct topo_mark){
					ev.start_mark.line + 1,
					ev.start_mark.column + 1 };
				snprintf(err->msg, sizeof(err->msg),
					 "nested deeper than %u levels",
					 TOPO_MAX_DEPTH);
				r = -1;
			}
		} else if (type == YAML_SEQUENCE_END_EVENT ||
			   type == YAML_MAPPING_END_EVENT) {
			depth--;
		}
		yaml_event_delete(&ev);
		if (r || type == YAML_STREAM_END_EVENT)
			break;
	}
	yaml_parser_delete(&parser);
	return r;
}

int topo_parse_buffer(const char *file, const void *buf, size_t len,
		      struct topo **out, struct topo_error *err)
{
	struct ty_ctx c = { .err = err };
	yaml_parser_t parser;
	yaml_document_t extra;
	yaml_node_t *root;
	struct topo *t;
	int r = -1;

	*out = NULL;
	memset(err, 0, sizeof(*err));
	snprintf(err->file, sizeof(err->file), "%s", file);
	t = calloc(1, sizeof(*t));
	if (!t || !yaml_parser_initialize(&parser)) {
		free(t);
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		err->mark = (struct topo_mark){ 1, 1 };
		return -1;
	}
	snprintf(t->file, sizeof(t->file), "%s", file);
	if (tp_check_encoding(err, buf, len) || check_depth(err, buf, len))
		goto out_parser;
	yaml_parser_set_input_string(&parser, buf, len);
	if (!yaml_parser_load(&parser, &c.doc)) {
		tp_syntax_error(err, &parser);
		goto out_parser;
	}
	root = yaml_document_get_root_node(&c.doc);
	if (!root) {
		err->mark = (struct topo_mark){ 1, 1 };
		snprintf(err->msg, sizeof(err->msg), "the file is empty");
		goto out_doc;
	}
	if (!yaml_parser_load(&parser, &extra)) {
		tp_syntax_error(err, &parser);
		goto out_doc;
	}
	if (yaml_document_get_root_node(&extra)) {
		ty_fail(&c, yaml_document_get_root_node(&extra),
			"a topology file holds one YAML document");
		yaml_document_delete(&extra);
		goto out_doc;
	}
	yaml_document_delete(&extra);
	r = parse_root(&c, t, root);
out_doc:
	yaml_document_delete(&c.doc);
out_parser:
	yaml_parser_delete(&parser);
	if (r) {
		topo_free(t);
		return -1;
	}
	*out = t;
	return 0;
}

int tp_file_error(struct topo_error *err, const char *path,
		  const char *what)
{
	memset(err, 0, sizeof(*err));
	snprintf(err->file, sizeof(err->file), "%s", path);
	err->mark = (struct topo_mark){ 1, 1 };
	snprintf(err->msg, sizeof(err->msg), "%s", what);
	return -1;
}

/*
 * Opens a topology file: "-" is standard input, anything else must be a
 * regular file. Opened without blocking, so a FIFO is refused at once
 * instead of waiting for a writer.
 */
static FILE *open_topology(const char *path, struct topo_error *err)
{
	struct stat st;
	char msg[160];
	FILE *f;
	int fd;

	if (!strcmp(path, "-"))
		return stdin;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(msg, sizeof(msg), "cannot open: %s", strerror(errno));
		tp_file_error(err, path, msg);
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		tp_file_error(err, path, S_ISDIR(st.st_mode) ?
			      "is a directory, not a topology file" :
			      "is not a regular file (give '-' to read standard input)");
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "rb");
	if (!f) {
		snprintf(msg, sizeof(msg), "cannot open: %s", strerror(errno));
		tp_file_error(err, path, msg);
		close(fd);
	}
	return f;
}

int topo_parse_file(const char *path, struct topo **out,
		    struct topo_error *err)
{
	FILE *f = open_topology(path, err);
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int r;

	*out = NULL;
	if (!f)
		return -1;
	for (;;) {
		if (len == cap) {
			char *nb = cap < (16u << 20) ?
				realloc(buf, cap = cap ? 2 * cap : 65536) : NULL;

			if (!nb) {
				free(buf);
				if (f != stdin)
					fclose(f);
				return tp_file_error(err, path, "file too "
						     "large or out of memory");
			}
			buf = nb;
		}
		size_t n = fread(buf + len, 1, cap - len, f);

		if (n == 0)
			break;
		len += n;
	}
	if (ferror(f)) {
		char msg[160];

		snprintf(msg, sizeof(msg), "cannot read: %s", strerror(errno));
		free(buf);
		if (f != stdin)
			fclose(f);
		return tp_file_error(err, path, msg);
	}
	if (f != stdin)
		fclose(f);
	r = topo_parse_buffer(f == stdin ? "<stdin>" : path, buf, len, out,
			      err);
	free(buf);
	return r;
}

/* Whether dir, symbolic links followed, is in the topology's folder. */
static bool inside_topology_folder(const struct topo *t, const char *dir)
{
	char base[PATH_MAX], real[PATH_MAX], top[PATH_MAX];
	const char *slash = strrchr(t->file, '/');

	snprintf(base, sizeof(base), "%.*s", slash ? (int)(slash - t->file) :
		 1, slash ? t->file : ".");
	if (slash == t->file)
		snprintf(base, sizeof(base), "/");
	if (!realpath(base, top) || !realpath(dir, real))
		return false;
	return strcmp(top, "/") == 0 ||
	       (!strncmp(real, top, strlen(top)) &&
		(real[strlen(top)] == '/' || !real[strlen(top)]));
}

int topo_check_host(const struct topo *t, struct topo_error *err)
{
	for (size_t i = 0; i < t->n_nodes; i++) {
		const struct topo_node *n = &t->nodes[i];
		const char *why;
		struct stat st;

		if (!n->overlay[0])
			continue;
		if (stat(n->overlay, &st))
			why = strerror(errno);
		else if (!S_ISDIR(st.st_mode))
			why = "not a directory";
		else if (!inside_topology_folder(t, n->overlay))
			why = "a symbolic link leads it out of the topology's "
			      "folder";
		else
			continue;
		memset(err, 0, sizeof(*err));
		snprintf(err->file, sizeof(err->file), "%s", t->file);
		err->mark = n->overlay_mark;
		size_t len = strlen(n->overlay);

		/* A long path is cut at the front: its end names it. */
		snprintf(err->msg, sizeof(err->msg), "overlay '%s%.160s': "
			 "%.60s", len > 160 ? "..." : "",
			 n->overlay + (len > 160 ? len - 160 : 0), why);
		return -1;
	}
	return 0;
}
