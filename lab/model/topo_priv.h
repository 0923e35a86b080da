/* SPDX-License-Identifier: MIT */
/* Shared between the topology parser's files; not an API. */
#ifndef MSTLAB_TOPO_PRIV_H
#define MSTLAB_TOPO_PRIV_H

#include "topo_yaml.h"

/* "node:port" → node and port indexes (the port must exist). */
int tp_port_ref(struct ty_ctx *c, const struct topo *t, const yaml_node_t *n,
		const char *what, int *node, int *port);
/* A link named by one of its ends, "node:port". */
int tp_link_ref(struct ty_ctx *c, const struct topo *t, const yaml_node_t *n,
		int *link);
/* Tree key "cist" or an MSTI id declared in mst. */
int tp_tree_key(struct ty_ctx *c, const struct topo_mst *mst,
		const yaml_node_t *k, uint16_t *tree);
/* A loss percentage, "0.5" or "2%", in parts per million. */
int tp_loss(struct ty_ctx *c, const yaml_node_t *n, unsigned *ppm);
/* send: { node, port, dst, frames, count, pad } (topo_send.c). */
int tp_send(struct ty_ctx *c, const struct topo *t, struct topo_send *s,
	    const yaml_node_t *n);
int tp_scenarios(struct ty_ctx *c, struct topo *t, const yaml_node_t *n);
/* topo_hosts.c: hosts[0] "local" alone; the hosts: section; a node's
 * host:; what the hosts need once links are known (tunnel addresses). */
void tp_hosts_init(struct topo *t);
int tp_hosts(struct ty_ctx *c, struct topo *t, const yaml_node_t *n);
int tp_node_host(struct ty_ctx *c, const struct topo *t, const yaml_node_t *n,
		 struct topo_node *node);
int tp_check_hosts(struct ty_ctx *c, const struct topo *t);
/* The text is UTF-8 (topo_encoding.c): 0, or -1 with err at the fault. */
int tp_check_encoding(struct topo_error *err, const void *buf, size_t len);
/* A file's fault as a whole (at 1:1). */
int tp_file_error(struct topo_error *err, const char *path,
		  const char *what);
/* libyaml's complaint, where it was. */
int tp_syntax_error(struct topo_error *err, const yaml_parser_t *p);

#endif
