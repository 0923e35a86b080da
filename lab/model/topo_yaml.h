/* SPDX-License-Identifier: MIT */
/*
 * Typed, position-aware access to a libyaml document for the topology
 * parser. Every getter checks the node's shape and, on mismatch, records
 * the first error (file:line:col) in the context and returns -1.
 */
#ifndef MSTLAB_TOPO_YAML_H
#define MSTLAB_TOPO_YAML_H

#include <yaml.h>

#include "topo.h"

struct ty_ctx {
	yaml_document_t doc;
	struct topo_error *err;
	bool failed;
};

struct topo_mark ty_mark(const yaml_node_t *n);
/* Where the offset-th character of a one-line scalar's text is (past an
 * opening quote); the scalar's own mark when it spans lines. */
struct topo_mark ty_mark_in(const yaml_node_t *n, size_t offset);
int ty_fail(struct ty_ctx *c, const yaml_node_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

int ty_fail_at(struct ty_ctx *c, struct topo_mark mark, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

const char *ty_kind(const yaml_node_t *n);
/* The scalar's text (NUL-terminated by libyaml), or NULL if not a scalar. */
const char *ty_text(const yaml_node_t *n);
bool ty_is_plain(const yaml_node_t *n);

int ty_expect_map(struct ty_ctx *c, const yaml_node_t *n, const char *what);
int ty_expect_seq(struct ty_ctx *c, const yaml_node_t *n, const char *what);

/*
 * Checks that every key of map is a scalar, appears once, and is listed in
 * allowed (NULL-terminated; NULL allowed = any key).
 */
int ty_check_keys(struct ty_ctx *c, const yaml_node_t *map,
		  const char *const *allowed, const char *what);
yaml_node_t *ty_get(struct ty_ctx *c, const yaml_node_t *map, const char *key);
int ty_require(struct ty_ctx *c, const yaml_node_t *map, const char *key,
	       const char *what, yaml_node_t **out);

#define ty_pairs_foreach(c, map, p)                                    \
	for (yaml_node_pair_t *p = (map)->data.mapping.pairs.start;   \
	     p < (map)->data.mapping.pairs.top; p++)
#define ty_items_foreach(c, seq, it)                                   \
	for (yaml_node_item_t *it = (seq)->data.sequence.items.start; \
	     it < (seq)->data.sequence.items.top; it++)
yaml_node_t *ty_node(struct ty_ctx *c, int id);

int ty_str(struct ty_ctx *c, const yaml_node_t *n, const char *what,
	   char *buf, size_t len);
/* The scalar's text, checked to hold no NUL; owned by the document. */
int ty_cstr(struct ty_ctx *c, const yaml_node_t *n, const char *what,
	    const char **out);
int ty_strdup(struct ty_ctx *c, const yaml_node_t *n, const char *what,
	      char **out);
int ty_uint(struct ty_ctx *c, const yaml_node_t *n, const char *what,
	    unsigned long min, unsigned long max, unsigned long *out);
int ty_bool(struct ty_ctx *c, const yaml_node_t *n, const char *what,
	    bool *out);
/* "250ms", "2s", "1m" → milliseconds (a unit is required). */
int ty_duration(struct ty_ctx *c, const yaml_node_t *n, const char *what,
		unsigned *ms);
/* One of names[] (NULL-terminated) → its index. */
int ty_enum(struct ty_ctx *c, const yaml_node_t *n, const char *what,
	    const char *const *names, int *out);
/* A VLAN id, a list of VLAN ids, or "a-b" ranges in a list. */
int ty_vlan(struct ty_ctx *c, const yaml_node_t *n, unsigned *vid);
int ty_vlan_list(struct ty_ctx *c, const yaml_node_t *n, const char *what,
		 struct topo_vlanset *set);

#endif
