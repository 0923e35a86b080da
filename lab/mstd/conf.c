// SPDX-License-Identifier: MIT
/*
 * mstd configuration parser.  Line oriented: each line is split into
 * words, the first word picks the setting.  Every check names the line
 * and the column of the offending word.
 */
#include "conf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_WORDS	8
#define CONF_MAX_SIZE	(1 << 20)

struct word {
	const char *s;		/* NUL-terminated copy */
	unsigned int col;	/* 1-based */
};

struct parser {
	struct mstd_conf *c;
	const char *file;
	unsigned int line;
	char *err;
	/* Line of the first occurrence of the scalar settings (0: none). */
	unsigned int seen[16];
	unsigned int max_age_line, fwd_delay_line;
};

void mstd_conf_init(struct mstd_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->hello = MSTP_HELLO_TIME;
	c->max_age = MSTP_DEF_MAX_AGE;
	c->fwd_delay = MSTP_DEF_FWD_DELAY;
	c->max_hops = MSTP_DEF_MAX_HOPS;
	c->tx_hold = MSTP_DEF_TX_HOLD;
	c->force_version = MSTP_FORCE_MSTP;
	c->flush_scope = MSTP_FLUSH_TREE;
	c->log_level = MSTP_LOG_INFO;
}

void mstd_conf_free(struct mstd_conf *c)
{
	free(c->ports);
	c->ports = NULL;
	c->nports = 0;
}

__attribute__((format(printf, 3, 4)))
static int fail(struct parser *p, unsigned int col, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->line)
		n = snprintf(p->err, MSTD_CONF_ERR_MAX, "%s:%u:%u: ", p->file,
			     p->line, col);
	else
		n = snprintf(p->err, MSTD_CONF_ERR_MAX, "%s: ", p->file);
	if (n < 0 || n >= MSTD_CONF_ERR_MAX)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(p->err + n, MSTD_CONF_ERR_MAX - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int mstd_parse_uint(const char *s, unsigned long min, unsigned long max,
		    unsigned long *out)
{
	unsigned long v = 0;

	if (!*s || strlen(s) > 10)
		return -EINVAL;
	for (const char *q = s; *q; q++) {
		if (*q < '0' || *q > '9')
			return -EINVAL;
		v = v * 10 + (unsigned long)(*q - '0');
	}
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int mstd_parse_bool(const char *s, bool *out)
{
	if (!strcmp(s, "yes") || !strcmp(s, "on") || !strcmp(s, "1"))
		*out = true;
	else if (!strcmp(s, "no") || !strcmp(s, "off") || !strcmp(s, "0"))
		*out = false;
	else
		return -EINVAL;
	return 0;
}

int mstd_parse_p2p(const char *s, enum mstp_p2p *out)
{
	if (!strcmp(s, "auto"))
		*out = MSTP_P2P_AUTO;
	else if (!strcmp(s, "yes"))
		*out = MSTP_P2P_FORCE_TRUE;
	else if (!strcmp(s, "no"))
		*out = MSTP_P2P_FORCE_FALSE;
	else
		return -EINVAL;
	return 0;
}

int mstd_parse_flush_scope(const char *s, enum mstp_flush_scope *out)
{
	if (!strcmp(s, "tree"))
		*out = MSTP_FLUSH_TREE;
	else if (!strcmp(s, "port"))
		*out = MSTP_FLUSH_PORT;
	else
		return -EINVAL;
	return 0;
}

int mstd_parse_force_version(const char *s, enum mstp_force_version *out)
{
	if (!strcmp(s, "stp"))
		*out = MSTP_FORCE_STP;
	else if (!strcmp(s, "rstp"))
		*out = MSTP_FORCE_RSTP;
	else if (!strcmp(s, "mstp"))
		*out = MSTP_FORCE_MSTP;
	else
		return -EINVAL;
	return 0;
}

int mstd_parse_log_level(const char *s, enum mstp_log_level *out)
{
	if (!strcmp(s, "error"))
		*out = MSTP_LOG_ERR;
	else if (!strcmp(s, "info"))
		*out = MSTP_LOG_INFO;
	else if (!strcmp(s, "debug"))
		*out = MSTP_LOG_DEBUG;
	else
		return -EINVAL;
	return 0;
}

int mstd_conf_tree(const struct mstd_conf *c, uint16_t mstid)
{
	if (mstid == 0)
		return 0;
	for (unsigned int i = 0; i < c->nmstis; i++)
		if (c->mstids[i] == mstid)
			return (int)i + 1;
	return -1;
}

struct mstd_conf_port *mstd_conf_port(const struct mstd_conf *c,
				      const char *name)
{
	for (size_t i = 0; i < c->nports; i++)
		if (!strcmp(c->ports[i].name, name))
			return &c->ports[i];
	return NULL;
}

static int number(struct parser *p, const struct word *w, const char *what,
		  unsigned long min, unsigned long max, unsigned long *out)
{
	int r = mstd_parse_uint(w->s, min, max, out);

	if (r == -ERANGE)
		return fail(p, w->col, "%s %s out of range %lu..%lu", what,
			    w->s, min, max);
	if (r)
		return fail(p, w->col, "bad number \"%s\" for %s", w->s, what);
	return 0;
}

static int ifname(struct parser *p, const struct word *w, char *out)
{
	size_t n = strlen(w->s);

	if (n >= MSTD_IFNAMSIZ)
		return fail(p, w->col, "interface name \"%s\" longer than %d",
			    w->s, MSTD_IFNAMSIZ - 1);
	if (!strcmp(w->s, ".") || !strcmp(w->s, "..") || strchr(w->s, '/') ||
	    strchr(w->s, ':'))
		return fail(p, w->col, "bad interface name \"%s\"", w->s);
	memcpy(out, w->s, n + 1);
	return 0;
}

/* "cist" or a declared MSTID -> tree slot. */
static int tree_word(struct parser *p, const struct word *w, int *slot)
{
	unsigned long id;

	if (!strcmp(w->s, "cist")) {
		*slot = 0;
		return 0;
	}
	if (number(p, w, "MSTI", 1, MST_MSTID_MAX, &id))
		return -EINVAL;
	*slot = mstd_conf_tree(p->c, (uint16_t)id);
	if (*slot < 0)
		return fail(p, w->col,
			    "MSTI %lu is not declared (no \"msti %lu vlans ...\" line above)",
			    id, id);
	return 0;
}

static int treeval(struct parser *p, struct mstd_treeval *tv,
		   const struct word *tw, const struct word *vw,
		   const char *what, unsigned long min, unsigned long max,
		   unsigned long step)
{
	unsigned long v;
	int slot;

	if (tree_word(p, tw, &slot) || number(p, vw, what, min, max, &v))
		return -EINVAL;
	if (step > 1 && v % step)
		return fail(p, vw->col, "%s %lu is not a multiple of %lu",
			    what, v, step);
	if (tv[slot].set)
		return fail(p, tw->col, "%s for tree %s given twice", what,
			    tw->s);
	tv[slot].v = (uint32_t)v;
	tv[slot].set = true;
	return 0;
}

static int once(struct parser *p, unsigned int key, const struct word *w)
{
	if (p->seen[key])
		return fail(p, w->col, "\"%s\" given twice (first on line %u)",
			    w->s, p->seen[key]);
	p->seen[key] = p->line;
	return 0;
}

static int vlan_list(struct parser *p, const struct word *w, uint16_t mstid)
{
	const char *s = w->s;

	while (*s) {
		const char *item = s, *dash;
		char buf[16];
		size_t n = strcspn(s, ",");
		unsigned long lo, hi;
		unsigned int col = w->col + (unsigned int)(item - w->s);
		struct word iw = { buf, col };

		if (n == 0 || n >= sizeof(buf))
			return fail(p, col, "bad VLAN list item in \"%s\"",
				    w->s);
		memcpy(buf, item, n);
		buf[n] = 0;
		dash = strchr(buf, '-');
		if (dash) {
			struct word hw = { dash + 1,
					   col + (unsigned int)(dash + 1 - buf) };

			buf[dash - buf] = 0;
			if (number(p, &iw, "VLAN", 1, 4094, &lo) ||
			    number(p, &hw, "VLAN", 1, 4094, &hi))
				return -EINVAL;
			if (hi < lo)
				return fail(p, col, "VLAN range %lu-%lu is backwards",
					    lo, hi);
		} else {
			if (number(p, &iw, "VLAN", 1, 4094, &lo))
				return -EINVAL;
			hi = lo;
		}
		for (unsigned long v = lo; v <= hi; v++) {
			uint16_t old = p->c->vids.mstid[v];

			if (old)
				return fail(p, col, "VLAN %lu is already in MSTI %u",
					    v, old);
			p->c->vids.mstid[v] = mstid;
		}
		s += n;
		if (*s == ',') {
			s++;
			if (!*s)
				return fail(p, w->col + (unsigned int)(s - w->s),
					    "VLAN list ends with ','");
		}
	}
	return 0;
}

static int kw_msti(struct parser *p, const struct word *w, int n)
{
	struct mstd_conf *c = p->c;
	unsigned long id;

	if (n != 4 || strcmp(w[2].s, "vlans"))
		return fail(p, w[0].col, "expected \"msti ID vlans LIST\"");
	if (number(p, &w[1], "MSTI", 1, MST_MSTID_MAX, &id))
		return -EINVAL;
	if (mstd_conf_tree(c, (uint16_t)id) > 0)
		return fail(p, w[1].col, "MSTI %lu declared twice", id);
	if (c->nmstis == MSTP_MAX_MSTIS)
		return fail(p, w[1].col, "more than %d MSTIs", MSTP_MAX_MSTIS);
	c->mstids[c->nmstis++] = (uint16_t)id;
	return vlan_list(p, &w[3], (uint16_t)id);
}

static struct mstd_conf_port *port_get(struct parser *p, const struct word *w)
{
	struct mstd_conf *c = p->c;
	struct mstd_conf_port *port, *np;
	char name[MSTD_IFNAMSIZ];

	if (ifname(p, w, name))
		return NULL;
	port = mstd_conf_port(c, name);
	if (port)
		return port;
	if (c->nports == MSTD_MAX_PORTS) {
		fail(p, w->col, "more than %d ports", MSTD_MAX_PORTS);
		return NULL;
	}
	np = realloc(c->ports, (c->nports + 1) * sizeof(*np));
	if (!np) {
		fail(p, w->col, "out of memory");
		return NULL;
	}
	c->ports = np;
	port = &np[c->nports++];
	memset(port, 0, sizeof(*port));
	memcpy(port->name, name, sizeof(name));
	port->edge = port->auto_edge = port->p2p = -1;
	port->bpdu_guard = port->bpdu_filter = port->root_guard = -1;
	port->tcn_guard = port->loop_guard = -1;
	return port;
}

static int port_flag(struct parser *p, const struct word *w, int *slot,
		     const char *what)
{
	bool b;

	if (*slot >= 0)
		return fail(p, w[2].col, "\"port %s %s\" given twice", w[1].s,
			    what);
	if (mstd_parse_bool(w[3].s, &b))
		return fail(p, w[3].col, "%s must be yes or no, not \"%s\"",
			    what, w[3].s);
	*slot = b;
	return 0;
}

/* The yes/no settings of a port, by key; NULL for another key. */
static int *flag_slot(struct mstd_conf_port *port, const char *k)
{
	static const char *const keys[] = { "edge", "auto_edge",
		"bpdu_guard", "bpdu_filter", "root_guard", "tcn_guard",
		"loop_guard" };
	int *slots[] = { &port->edge, &port->auto_edge, &port->bpdu_guard,
			 &port->bpdu_filter, &port->root_guard,
			 &port->tcn_guard, &port->loop_guard };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(k, keys[i]))
			return slots[i];
	return NULL;
}

static int kw_port(struct parser *p, const struct word *w, int n)
{
	struct mstd_conf_port *port;
	const char *k;

	if (n < 4)
		return fail(p, w[0].col,
			    "expected \"port NAME edge|auto_edge|p2p|cost|ext_cost|priority|bpdu_guard|bpdu_filter|root_guard|tcn_guard|loop_guard ...\"");
	port = port_get(p, &w[1]);
	if (!port)
		return -EINVAL;
	k = w[2].s;
	if (!strcmp(k, "ext_cost")) {
		unsigned long v;

		if (n != 4)
			return fail(p, w[4].col, "unexpected \"%s\"", w[4].s);
		if (port->ext_cost.set)
			return fail(p, w[2].col, "\"port %s ext_cost\" given twice",
				    w[1].s);
		if (number(p, &w[3], "external port cost", 1,
			   MSTP_MAX_PATH_COST, &v))
			return -EINVAL;
		port->ext_cost.v = (uint32_t)v;
		port->ext_cost.set = true;
		return 0;
	}
	if (!strcmp(k, "edge") || !strcmp(k, "auto_edge") ||
	    !strcmp(k, "p2p") || flag_slot(port, k)) {
		if (n != 4)
			return fail(p, w[4].col, "unexpected \"%s\"", w[4].s);
		if (flag_slot(port, k))
			return port_flag(p, w, flag_slot(port, k), k);
		if (port->p2p >= 0)
			return fail(p, w[2].col, "\"port %s p2p\" given twice",
				    w[1].s);
		enum mstp_p2p v;

		if (mstd_parse_p2p(w[3].s, &v))
			return fail(p, w[3].col,
				    "p2p must be auto, yes or no, not \"%s\"",
				    w[3].s);
		port->p2p = (int)v;
		return 0;
	}
	if (!strcmp(k, "cost") || !strcmp(k, "priority")) {
		if (n != 5)
			return fail(p, w[2].col, "expected \"port %s %s cist|MSTI N\"",
				    w[1].s, k);
		if (!strcmp(k, "cost"))
			return treeval(p, port->cost, &w[3], &w[4], "port cost",
				       1, MSTP_MAX_PATH_COST, 1);
		return treeval(p, port->priority, &w[3], &w[4],
			       "port priority", 0, 240, 16);
	}
	return fail(p, w[2].col, "unknown port setting \"%s\"", k);
}

enum { K_BRIDGE, K_REGION, K_REVISION, K_HELLO, K_MAX_AGE, K_FWD_DELAY,
       K_MAX_HOPS, K_TX_HOLD, K_FORCE, K_FLUSH, K_LOG, K_AGEING,
       K_GUARD_RECOVERY };

static int scalar(struct parser *p, unsigned int key, const struct word *w,
		  unsigned long min, unsigned long max, unsigned int *out)
{
	unsigned long v;

	if (once(p, key, &w[0]) || number(p, &w[1], w[0].s, min, max, &v))
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

static int parse_line(struct parser *p, struct word *w, int n)
{
	struct mstd_conf *c = p->c;
	const char *k = w[0].s;

	if (!strcmp(k, "msti"))
		return kw_msti(p, w, n);
	if (!strcmp(k, "port"))
		return kw_port(p, w, n);
	if (!strcmp(k, "priority")) {
		if (n != 3)
			return fail(p, w[0].col, "expected \"priority cist|MSTI N\"");
		return treeval(p, c->priority, &w[1], &w[2], "bridge priority",
			       0, 61440, 4096);
	}
	if (n != 2) {
		static const char *const known[] = { "bridge", "region",
			"revision", "hello", "max_age", "forward_delay",
			"max_hops", "tx_hold", "force_version", "flush_scope",
			"log_level", "ageing_time", "guard_recovery" };

		for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (!strcmp(k, known[i]))
				return fail(p, n < 2 ? w[0].col : w[2].col,
					    "\"%s\" takes exactly one value", k);
		return fail(p, w[0].col, "unknown setting \"%s\"", k);
	}
	if (!strcmp(k, "bridge"))
		return once(p, K_BRIDGE, &w[0]) ? -EINVAL :
			ifname(p, &w[1], c->bridge);
	if (!strcmp(k, "region")) {
		if (once(p, K_REGION, &w[0]))
			return -EINVAL;
		if (strlen(w[1].s) > MST_CONFIG_NAME_LEN)
			return fail(p, w[1].col, "region name longer than %d bytes",
				    MST_CONFIG_NAME_LEN);
		strcpy(c->region, w[1].s);
		return 0;
	}
	if (!strcmp(k, "revision"))
		return scalar(p, K_REVISION, w, 0, 65535, &c->revision);
	if (!strcmp(k, "hello"))
		return scalar(p, K_HELLO, w, 1, 10, &c->hello);
	if (!strcmp(k, "max_age")) {
		p->max_age_line = p->line;
		return scalar(p, K_MAX_AGE, w, 6, 40, &c->max_age);
	}
	if (!strcmp(k, "forward_delay")) {
		p->fwd_delay_line = p->line;
		return scalar(p, K_FWD_DELAY, w, 4, 30, &c->fwd_delay);
	}
	if (!strcmp(k, "max_hops"))
		return scalar(p, K_MAX_HOPS, w, 6, 40, &c->max_hops);
	if (!strcmp(k, "tx_hold"))
		return scalar(p, K_TX_HOLD, w, 1, 10, &c->tx_hold);
	if (!strcmp(k, "ageing_time"))
		return scalar(p, K_AGEING, w, MSTD_AGEING_MIN, MSTD_AGEING_MAX,
			      &c->ageing_time);
	if (!strcmp(k, "guard_recovery"))
		return scalar(p, K_GUARD_RECOVERY, w, 0,
			      MSTD_GUARD_RECOVERY_MAX, &c->guard_recovery);
	if (!strcmp(k, "force_version")) {
		if (once(p, K_FORCE, &w[0]))
			return -EINVAL;
		if (mstd_parse_force_version(w[1].s, &c->force_version))
			return fail(p, w[1].col,
				    "force_version must be stp, rstp or mstp, not \"%s\"",
				    w[1].s);
		return 0;
	}
	if (!strcmp(k, "flush_scope")) {
		if (once(p, K_FLUSH, &w[0]))
			return -EINVAL;
		if (mstd_parse_flush_scope(w[1].s, &c->flush_scope))
			return fail(p, w[1].col,
				    "flush_scope must be tree or port, not \"%s\"",
				    w[1].s);
		return 0;
	}
	if (!strcmp(k, "log_level")) {
		if (once(p, K_LOG, &w[0]))
			return -EINVAL;
		if (mstd_parse_log_level(w[1].s, &c->log_level))
			return fail(p, w[1].col,
				    "log_level must be error, info or debug, not \"%s\"",
				    w[1].s);
		return 0;
	}
	return fail(p, w[0].col, "unknown setting \"%s\"", k);
}

/* Whole-file rules, checked after the last line. */
static int finish(struct parser *p)
{
	struct mstd_conf *c = p->c;

	if (!c->bridge[0]) {
		p->line = 0;
		return fail(p, 0, "no \"bridge NAME\" line");
	}
	/* 13.25 / Table 13-5: 2 * (Forward Delay - 1) >= Max Age. */
	if (2 * (c->fwd_delay - 1) < c->max_age) {
		p->line = p->fwd_delay_line > p->max_age_line ?
			  p->fwd_delay_line : p->max_age_line;
		return fail(p, 1,
			    "need 2 * (forward_delay - 1) >= max_age, have forward_delay %u and max_age %u",
			    c->fwd_delay, c->max_age);
	}
	if (c->max_age < 2 * (c->hello + 1)) {
		p->line = p->max_age_line ? p->max_age_line : p->seen[K_HELLO];
		return fail(p, 1,
			    "need max_age >= 2 * (hello + 1), have max_age %u and hello %u",
			    c->max_age, c->hello);
	}
	return 0;
}

int mstd_conf_parse(struct mstd_conf *c, const char *file, const char *text,
		    size_t len, char err[MSTD_CONF_ERR_MAX])
{
	struct parser p = { .c = c, .file = file, .err = err };
	const char *end = text + len;
	char buf[1024];

	err[0] = 0;
	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t n = nl ? (size_t)(nl - text) : (size_t)(end - text);
		struct word w[MAX_WORDS + 1];
		int nw = 0;
		char *s;

		p.line++;
		if (n >= sizeof(buf))
			return fail(&p, (unsigned int)sizeof(buf),
				    "line longer than %zu bytes", sizeof(buf) - 1);
		memcpy(buf, text, n);
		buf[n] = 0;
		text += n + (nl ? 1 : 0);
		if (strlen(buf) < n)
			return fail(&p, (unsigned int)strlen(buf) + 1,
				    "NUL byte in the line");
		if (n && buf[n - 1] == '\r')
			buf[n - 1] = 0;
		s = strchr(buf, '#');
		if (s)
			*s = 0;
		for (s = buf; *s; s++)
			if (((unsigned char)*s < 0x20 && *s != '\t') ||
			    *s == 0x7f)
				return fail(&p, (unsigned int)(s - buf) + 1,
					    "control character in the line");
		for (s = buf; *s;) {
			if (*s == ' ' || *s == '\t') {
				*s++ = 0;
				continue;
			}
			if (nw == MAX_WORDS)
				return fail(&p, (unsigned int)(s - buf) + 1,
					    "too many words");
			w[nw].s = s;
			w[nw].col = (unsigned int)(s - buf) + 1;
			nw++;
			while (*s && *s != ' ' && *s != '\t')
				s++;
		}
		if (nw == 0)
			continue;
		w[nw].s = "";
		w[nw].col = w[nw - 1].col + (unsigned int)strlen(w[nw - 1].s);
		if (parse_line(&p, w, nw))
			return -EINVAL;
	}
	return finish(&p);
}

int mstd_conf_load(struct mstd_conf *c, const char *path,
		   char err[MSTD_CONF_ERR_MAX])
{
	char *buf = malloc(CONF_MAX_SIZE + 1);
	size_t len = 0;
	ssize_t r;
	int fd, ret;

	if (!buf) {
		snprintf(err, MSTD_CONF_ERR_MAX, "%s: out of memory", path);
		return -ENOMEM;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, MSTD_CONF_ERR_MAX, "%s: %s", path, strerror(errno));
		free(buf);
		return ret;
	}
	while ((r = read(fd, buf + len, CONF_MAX_SIZE + 1 - len)) > 0)
		len += (size_t)r;
	ret = r < 0 ? -errno : 0;
	close(fd);
	if (ret)
		snprintf(err, MSTD_CONF_ERR_MAX, "%s: %s", path, strerror(-ret));
	else if (len > CONF_MAX_SIZE) {
		snprintf(err, MSTD_CONF_ERR_MAX, "%s: larger than %d bytes",
			 path, CONF_MAX_SIZE);
		ret = -EFBIG;
	} else {
		ret = mstd_conf_parse(c, path, buf, len, err);
	}
	free(buf);
	return ret;
}

int mstd_parse_vid_list(const char *s, uint16_t mstid,
			struct mst_vid_table *vids, size_t *bad)
{
	struct mst_vid_table t = *vids;
	const char *p = s;

	*bad = 0;
	if (!*s)
		return -EINVAL;
	while (*p) {
		size_t n = strcspn(p, ",");
		char item[16], *dash;
		unsigned long lo, hi;
		int r;

		*bad = (size_t)(p - s);
		if (n == 0 || n >= sizeof(item))
			return -EINVAL;
		memcpy(item, p, n);
		item[n] = 0;
		dash = strchr(item, '-');
		if (dash)
			*dash++ = 0;
		r = mstd_parse_uint(item, 1, 4094, &lo);
		if (!r)
			r = dash ? mstd_parse_uint(dash, lo, 4094, &hi) :
				   (hi = lo, 0);
		if (r)
			return r;
		for (unsigned long v = lo; v <= hi; v++)
			t.mstid[v] = mstid;
		p += n;
		if (*p == ',' && !*++p) {
			*bad = (size_t)(p - s);
			return -EINVAL;
		}
	}
	*vids = t;
	return 0;
}
