// SPDX-License-Identifier: MIT
#include "topo_yaml.h"

#define TY_MAX_KEYS 1024

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct topo_mark ty_mark(const yaml_node_t *n)
{
	return (struct topo_mark){ n->start_mark.line + 1,
				   n->start_mark.column + 1 };
}

struct topo_mark ty_mark_in(const yaml_node_t *n, size_t offset)
{
	struct topo_mark m = ty_mark(n);
	bool quoted = n->type == YAML_SCALAR_NODE &&
		      (n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
		       n->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE);

	if (n->end_mark.line != n->start_mark.line)
		return m;
	m.col += (unsigned)offset + (quoted ? 1 : 0);
	return m;
}

static int vfail(struct ty_ctx *c, struct topo_mark mark, const char *fmt,
		 va_list ap)
{
	if (c->failed)
		return -1;
	c->failed = true;
	c->err->mark = mark;
	vsnprintf(c->err->msg, sizeof(c->err->msg), fmt, ap);
	return -1;
}

int ty_fail_at(struct ty_ctx *c, struct topo_mark mark, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(c, mark, fmt, ap);
	va_end(ap);
	return -1;
}

int ty_fail(struct ty_ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(c, ty_mark(n), fmt, ap);
	va_end(ap);
	return -1;
}

const char *ty_kind(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return "a scalar";
	case YAML_SEQUENCE_NODE:
		return "a list";
	case YAML_MAPPING_NODE:
		return "a mapping";
	default:
		return "nothing";
	}
}

const char *ty_text(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE ?
		(const char *)n->data.scalar.value : NULL;
}

bool ty_is_plain(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE &&
	       n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

yaml_node_t *ty_node(struct ty_ctx *c, int id)
{
	return yaml_document_get_node(&c->doc, id);
}

int ty_expect_map(struct ty_ctx *c, const yaml_node_t *n, const char *what)
{
	if (n->type == YAML_MAPPING_NODE)
		return 0;
	return ty_fail(c, n, "%s must be a mapping, found %s", what,
		       ty_kind(n));
}

int ty_expect_seq(struct ty_ctx *c, const yaml_node_t *n, const char *what)
{
	if (n->type == YAML_SEQUENCE_NODE)
		return 0;
	return ty_fail(c, n, "%s must be a list, found %s", what, ty_kind(n));
}

static bool listed(const char *const *names, const char *s)
{
	for (; *names; names++)
		if (strcmp(*names, s) == 0)
			return true;
	return false;
}

static void join(const char *const *names, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (; *names && used < len; names++) {
		int n = snprintf(buf + used, len - used, "%s%s",
				 used ? ", " : "", *names);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

int ty_check_keys(struct ty_ctx *c, const yaml_node_t *map,
		  const char *const *allowed, const char *what)
{
	if (ty_expect_map(c, map, what))
		return -1;
	/* Every mapping of the schema is small; this bounds the O(n^2). */
	if (map->data.mapping.pairs.top - map->data.mapping.pairs.start >
	    TY_MAX_KEYS)
		return ty_fail(c, map, "%s has more than %d keys", what,
			       TY_MAX_KEYS);
	ty_pairs_foreach(c, map, p) {
		yaml_node_t *k = ty_node(c, p->key);
		const char *ks = ty_text(k);

		if (!ks)
			return ty_fail(c, k, "a key in %s must be a scalar, "
				       "found %s", what, ty_kind(k));
		if (allowed && !listed(allowed, ks)) {
			char list[200];

			join(allowed, list, sizeof(list));
			return ty_fail(c, k, "unknown key '%s' in %s "
				       "(expected one of: %s)", ks, what, list);
		}
		for (yaml_node_pair_t *q = map->data.mapping.pairs.start;
		     q < p; q++) {
			yaml_node_t *qk = ty_node(c, q->key);

			if (ty_text(qk) && strcmp(ty_text(qk), ks) == 0)
				return ty_fail(c, k, "duplicate key '%s' in %s "
					       "(first at line %u)", ks, what,
					       ty_mark(qk).line);
		}
	}
	return 0;
}

yaml_node_t *ty_get(struct ty_ctx *c, const yaml_node_t *map, const char *key)
{
	if (map->type != YAML_MAPPING_NODE)
		return NULL;
	ty_pairs_foreach(c, map, p) {
		const char *ks = ty_text(ty_node(c, p->key));

		if (ks && strcmp(ks, key) == 0)
			return ty_node(c, p->value);
	}
	return NULL;
}

int ty_require(struct ty_ctx *c, const yaml_node_t *map, const char *key,
	       const char *what, yaml_node_t **out)
{
	*out = ty_get(c, map, key);
	if (*out)
		return 0;
	return ty_fail(c, map, "%s has no '%s'", what, key);
}

int ty_cstr(struct ty_ctx *c, const yaml_node_t *n, const char *what,
	    const char **out)
{
	const char *s = ty_text(n);

	if (!s)
		return ty_fail(c, n, "%s must be a string, found %s", what,
			       ty_kind(n));
	if (strlen(s) != n->data.scalar.length)
		return ty_fail(c, n, "%s contains a NUL character", what);
	*out = s;
	return 0;
}

int ty_str(struct ty_ctx *c, const yaml_node_t *n, const char *what,
	   char *buf, size_t len)
{
	const char *s;

	if (ty_cstr(c, n, what, &s))
		return -1;
	if (strlen(s) >= len)
		return ty_fail(c, n, "%s is longer than %zu characters", what,
			       len - 1);
	memcpy(buf, s, strlen(s) + 1);
	return 0;
}

int ty_strdup(struct ty_ctx *c, const yaml_node_t *n, const char *what,
	      char **out)
{
	const char *s;

	if (ty_cstr(c, n, what, &s))
		return -1;
	*out = strdup(s);
	if (!*out)
		return ty_fail(c, n, "out of memory");
	return 0;
}

/* Decimal digits only: YAML's octal/hex/sexagesimal forms are refused. */
static int parse_ulong(const char *s, unsigned long *v)
{
	char *end;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -EINVAL;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno ? -ERANGE : 0;
}

int ty_uint(struct ty_ctx *c, const yaml_node_t *n, const char *what,
	    unsigned long min, unsigned long max, unsigned long *out)
{
	const char *s = ty_text(n);
	unsigned long v;
	int r;

	if (!s || !ty_is_plain(n))
		return ty_fail(c, n, "%s must be an integer, found %s", what,
			       s ? "a quoted string" : ty_kind(n));
	r = parse_ulong(s, &v);
	if (r == -EINVAL)
		return ty_fail(c, n, "%s must be an integer, found '%s'",
			       what, s);
	if (r || v < min || v > max)
		return ty_fail(c, n, "%s %s is outside %lu..%lu", what, s,
			       min, max);
	*out = v;
	return 0;
}

int ty_bool(struct ty_ctx *c, const yaml_node_t *n, const char *what,
	    bool *out)
{
	const char *s = ty_text(n);

	if (s && ty_is_plain(n) && strcmp(s, "true") == 0) {
		*out = true;
		return 0;
	}
	if (s && ty_is_plain(n) && strcmp(s, "false") == 0) {
		*out = false;
		return 0;
	}
	return ty_fail(c, n, "%s must be true or false", what);
}

int ty_duration(struct ty_ctx *c, const yaml_node_t *n, const char *what,
		unsigned *ms)
{
	const char *s = ty_text(n);
	int r;

	if (!s || !ty_is_plain(n))
		return ty_fail(c, n, "%s must be a duration like 500ms, 2s "
			       "or 1m", what);
	r = topo_parse_duration_ms(s, ms);
	if (r == -ERANGE)
		return ty_fail(c, n, "%s '%s' is longer than a day", what, s);
	if (r)
		return ty_fail(c, n, "%s must be a duration like 500ms, 2s "
			       "or 1m, found '%s'", what, s);
	return 0;
}

int ty_enum(struct ty_ctx *c, const yaml_node_t *n, const char *what,
	    const char *const *names, int *out)
{
	const char *s = ty_text(n);
	char list[200];

	for (int i = 0; s && names[i]; i++) {
		if (strcmp(s, names[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	join(names, list, sizeof(list));
	if (!s)
		return ty_fail(c, n, "%s must be one of: %s, found %s", what,
			       list, ty_kind(n));
	return ty_fail(c, n, "%s must be one of: %s, found '%s'", what, list,
		       s);
}

int ty_vlan(struct ty_ctx *c, const yaml_node_t *n, unsigned *vid)
{
	unsigned long v;
	const char *s = ty_text(n);

	if (!s || !ty_is_plain(n) || parse_ulong(s, &v))
		return ty_fail(c, n, "a VLAN must be an integer, found %s%s%s",
			       s ? "'" : ty_kind(n), s ? s : "", s ? "'" : "");
	if (v < 1 || v > 4094)
		return ty_fail(c, n, "VLAN %s is outside 1..4094", s);
	*vid = (unsigned)v;
	return 0;
}

/* "a-b" inside a VLAN list. */
static int vlan_range(struct ty_ctx *c, const yaml_node_t *n,
		      struct topo_vlanset *set)
{
	const char *s = ty_text(n);
	const char *dash = strchr(s, '-');
	char lo_s[8], *hi_s;
	unsigned long lo, hi;
	size_t len = (size_t)(dash - s);

	if (len == 0 || len >= sizeof(lo_s))
		return ty_fail(c, n, "bad VLAN range '%s' (want 10-20)", s);
	memcpy(lo_s, s, len);
	lo_s[len] = '\0';
	hi_s = (char *)dash + 1;
	if (parse_ulong(lo_s, &lo) || parse_ulong(hi_s, &hi) || lo > hi)
		return ty_fail(c, n, "bad VLAN range '%s' (want 10-20)", s);
	if (lo < 1 || hi > 4094)
		return ty_fail(c, n, "VLAN range %s is outside 1..4094", s);
	for (unsigned long v = lo; v <= hi; v++)
		topo_vlan_add(set, (unsigned)v);
	return 0;
}

int ty_vlan_list(struct ty_ctx *c, const yaml_node_t *n, const char *what,
		 struct topo_vlanset *set)
{
	unsigned vid;

	if (n->type == YAML_SCALAR_NODE) {
		if (ty_is_plain(n) && strchr(ty_text(n), '-'))
			return vlan_range(c, n, set);
		if (ty_vlan(c, n, &vid))
			return -1;
		topo_vlan_add(set, vid);
		return 0;
	}
	if (ty_expect_seq(c, n, what))
		return -1;
	ty_items_foreach(c, n, it) {
		yaml_node_t *v = ty_node(c, *it);

		if (v->type == YAML_SCALAR_NODE && ty_is_plain(v) &&
		    strchr(ty_text(v), '-')) {
			if (vlan_range(c, v, set))
				return -1;
			continue;
		}
		if (ty_vlan(c, v, &vid))
			return -1;
		if (topo_vlan_has(set, vid))
			return ty_fail(c, v, "VLAN %u is listed twice in %s",
				       vid, what);
		topo_vlan_add(set, vid);
	}
	return 0;
}
