// SPDX-License-Identifier: MIT
/*
 * The send step: crafted frames (malformed BPDUs, other protocols' frames)
 * out of one port of a node. The frames are written in the file as hex,
 * so a run folder's copy of its topology says exactly what was sent.
 */
#include "topo_priv.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mac.h"

#define SEND_SEPARATORS " :."

/* A frame after its source address as plain hex digits, checked digit by
 * digit so an error points at the character. */
static int parse_frame(struct ty_ctx *c, const yaml_node_t *n, char **out)
{
	const char *s;
	size_t digits = 0, len;
	char *hex;

	if (ty_cstr(c, n, "a frame", &s))
		return -1;
	len = strlen(s);
	hex = malloc(len + 1);
	if (!hex)
		return ty_fail(c, n, "out of memory");
	for (size_t i = 0; i < len; i++) {
		if (strchr(SEND_SEPARATORS, s[i]))
			continue;
		if (!isxdigit((unsigned char)s[i])) {
			free(hex);
			return ty_fail_at(c, ty_mark_in(n, i), "'%c' in a frame "
					  "is not a hex digit (separators: "
					  "space, ':', '.')", s[i]);
		}
		hex[digits++] = (char)tolower((unsigned char)s[i]);
	}
	hex[digits] = 0;
	if (digits % 2) {
		free(hex);
		return ty_fail(c, n, "a frame has an odd number of hex digits "
			       "(%zu)", digits);
	}
	if (digits < 4 || digits / 2 > TOPO_SEND_OCTETS_MAX) {
		free(hex);
		return ty_fail(c, n, "a frame is %zu octets after its source "
			       "address; 2..%d (its EtherType or length "
			       "first)", digits / 2, TOPO_SEND_OCTETS_MAX);
	}
	*out = hex;
	return 0;
}

static int parse_frames(struct ty_ctx *c, struct topo_send *s,
			const yaml_node_t *n)
{
	if (n->type == YAML_SCALAR_NODE)
		return parse_frame(c, n, &s->frames[s->n_frames++]);
	if (ty_expect_seq(c, n, "frames"))
		return -1;
	if (n->data.sequence.items.top == n->data.sequence.items.start)
		return ty_fail(c, n, "frames is empty");
	ty_items_foreach(c, n, it) {
		yaml_node_t *f = ty_node(c, *it);

		if (s->n_frames == TOPO_SEND_FRAMES_MAX)
			return ty_fail(c, f, "more than %d frames in one send",
				       TOPO_SEND_FRAMES_MAX);
		if (parse_frame(c, f, &s->frames[s->n_frames]))
			return -1;
		s->n_frames++;
	}
	return 0;
}

static int parse_dst(struct ty_ctx *c, struct topo_send *s,
		     const yaml_node_t *n)
{
	uint8_t mac[6];
	const char *text;

	if (ty_cstr(c, n, "dst", &text))
		return -1;
	bool shape = strlen(text) == 17;

	for (size_t i = 0; shape && i < 17; i++)
		shape = i % 3 == 2 ? text[i] == ':' :
				     isxdigit((unsigned char)text[i]) != 0;
	if (!shape || mac_parse(text, mac))
		return ty_fail(c, n, "dst '%s' is not a MAC address "
			       "(01:80:c2:00:00:00)", text);
	snprintf(s->dst, sizeof(s->dst), "%02x:%02x:%02x:%02x:%02x:%02x",
		 mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
	return 0;
}

int tp_send(struct ty_ctx *c, const struct topo *t, struct topo_send *s,
	    const yaml_node_t *n)
{
	static const char *const keys[] = { "node", "port", "dst", "frames",
					    "count", "pad", NULL };
	char name[TOPO_TEXT_MAX];
	unsigned long count = 1;
	yaml_node_t *v;

	s->pad = true;
	snprintf(s->dst, sizeof(s->dst), "01:80:c2:00:00:00");
	if (ty_expect_map(c, n, "send") || ty_check_keys(c, n, keys, "send") ||
	    ty_require(c, n, "node", "send", &v) ||
	    ty_str(c, v, "node", name, sizeof(name)))
		return -1;
	s->node = topo_node_find(t, name);
	if (s->node < 0)
		return ty_fail(c, v, "node '%s' names no node", name);
	if (t->nodes[s->node].n_ports == 0)
		return ty_fail(c, v, "'%s' has no port to send from (no link "
			       "uses it)", name);
	s->port = 0;	/* the first port, as a probe's */
	v = ty_get(c, n, "port");
	if (v) {
		if (ty_str(c, v, "port", name, sizeof(name)))
			return -1;
		s->port = topo_port_find(&t->nodes[s->node], name);
		if (s->port < 0)
			return ty_fail(c, v, "'%s' has no port '%s' (a port "
				       "exists where a link uses it)",
				       t->nodes[s->node].name, name);
	}
	v = ty_get(c, n, "dst");
	if (v && parse_dst(c, s, v))
		return -1;
	if (ty_require(c, n, "frames", "send", &v) || parse_frames(c, s, v))
		return -1;
	v = ty_get(c, n, "count");
	if (v && ty_uint(c, v, "count", 1, TOPO_SEND_COUNT_MAX, &count))
		return -1;
	s->count = (unsigned)count;
	v = ty_get(c, n, "pad");
	if (v && ty_bool(c, v, "pad", &s->pad))
		return -1;
	return 0;
}
