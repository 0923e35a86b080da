// SPDX-License-Identifier: MIT
/*
 * The topology of one tree at one instant, drawn by Graphviz for
 * report.html: the lab's nodes (shapes as `mstlab graph` draws them),
 * each link as two halves meeting at a point so each port end has its
 * own style: the root bridge filled, root ports as arrows toward the
 * root, blocked ports dashed, links that are down dotted.
 */
#include <ctype.h>
#include <string.h>
#include <stdlib.h>
#include <strings.h>

#include "graphviz.h"
#include "plan.h"
#include "report.h"
#include "report_svg.h"

#define ROOT_FILL "#ffd54f"
#define BLOCKED "#b02a37"
#define ROOT_PORT "#1e7e34"

static const char *abbrev(const struct result_port *p)
{
	switch (p->role) {
	case PORT_ROLE_ROOT:
		return " R";
	case PORT_ROLE_DESIGNATED:
		return " D";
	case PORT_ROLE_ALTERNATE:
		return " A";
	case PORT_ROLE_MASTER:
		return " M";
	default:
		return "";
	}
}

/* One half of a link: from the node to the link's midpoint. */
static void half(struct sbuf *o, const struct result_run *r, size_t l,
		 int end, const struct result_port *p)
{
	const struct result_link *k = &r->links[l];
	char label[96];

	snprintf(label, sizeof(label), "%s%s%s%s", k->port[end], abbrev(p),
		 p->inferred ? "?" : "",
		 p->down ? " down" :
		 result_port_blocked(p) && p->role != PORT_ROLE_ALTERNATE ?
			   " disc" : "");
	sbuf_puts(o, "  ");
	plan_dot_id(o, r->nodes[k->node[end]].name);
	sbuf_puts(o, " -- ");
	plan_dot_id(o, k->name);
	sbuf_puts(o, " [taillabel=");
	plan_dot_id(o, label);
	if (p->down)
		sbuf_puts(o, ", class=\"port down\", style=dotted, "
			  "color=\"#aaaaaa\"");
	else if (result_port_blocked(p))
		sbuf_printf(o, ", class=\"port blocked%s\", style=dashed, "
			    "color=\"" BLOCKED "\", fontcolor=\"" BLOCKED "\"",
			    p->inferred ? " inferred" : "");
	else if (p->role == PORT_ROLE_ROOT)
		/* Arrowhead at the midpoint: this end leads to the root. */
		sbuf_printf(o, ", class=\"port rootport%s\", dir=forward, "
			    "penwidth=2.5, color=\"" ROOT_PORT "\"",
			    p->inferred ? " inferred" : "");
	else
		sbuf_printf(o, ", class=\"port %s%s\"",
			    port_role_name(p->role),
			    p->inferred ? " inferred" : "");
	sbuf_puts(o, "];\n");
}

void report_topo_dot(const struct result_run *r,
		     const struct result_snapshot *s, struct sbuf *o)
{
	sbuf_puts(o, "graph topology {\n"
		  "  graph [overlap=false, splines=true, pad=0.15];\n"
		  "  node [fontname=\"Helvetica\", fontsize=11, "
		  "style=filled, fillcolor=\"#f4f6f8\"];\n"
		  "  edge [fontname=\"Helvetica\", fontsize=9, len=0.8, "
		  "penwidth=1.5, color=\"#555555\"];\n");
	for (size_t i = 0; i < r->n_nodes; i++) {
		bool root = s->root == (int)i;

		sbuf_puts(o, "  ");
		plan_dot_id(o, r->nodes[i].name);
		sbuf_printf(o, " [shape=%s, class=\"%s\"",
			    plan_dot_shape((enum topo_role)r->nodes[i].role),
			    root ? "bridge root" :
			    topo_role_is_bridge((enum topo_role)r->nodes[i].role) ?
				   "bridge" : "host");
		if (root)
			sbuf_puts(o, ", style=\"filled,bold\", fillcolor=\""
				  ROOT_FILL "\", penwidth=2.5, xlabel=root");
		else if (!topo_role_is_bridge((enum topo_role)r->nodes[i].role))
			sbuf_puts(o, ", fillcolor=\"#e3ecfa\"");
		sbuf_puts(o, "];\n");
	}
	for (size_t l = 0; l < r->n_links; l++) {
		sbuf_puts(o, "  ");
		plan_dot_id(o, r->links[l].name);
		sbuf_puts(o, " [shape=point, width=0.05, class=\"mid\"];\n");
		for (int e = 0; e < 2; e++)
			half(o, r, l, e, &s->ports[l * 2 + e]);
	}
	sbuf_puts(o, "}\n");
}

/* Case-insensitive search in [s, end). */
static bool has(const char *s, const char *end, const char *what)
{
	size_t n = strlen(what);

	for (; s + n <= end; s++)
		if (!strncasecmp(s, what, n))
			return true;
	return false;
}

/* An attribute named on...= (an event handler) in [s, end)? */
static bool has_handler(const char *s, const char *end)
{
	for (; s + 3 < end; s++) {
		const char *p = s + 3;

		if (!isspace((unsigned char)s[0]) || strncasecmp(s + 1, "on", 2))
			continue;
		while (p < end && isalpha((unsigned char)*p))
			p++;
		if (p > s + 3 && p < end && *p == '=')
			return true;
	}
	return false;
}

/*
 * The <svg> element of dot's output, without the XML prolog, doctype
 * and comments before it: NULL unless it is plain drawing (no script,
 * no handler, no foreign content) that can sit inline in the page.
 */
static const char *svg_element(const char *svg, size_t *len)
{
	const char *start = strstr(svg, "<svg "), *end = NULL;

	for (const char *p = start; p && (p = strstr(p, "</svg>")); p++)
		end = p + strlen("</svg>");
	if (!start || !end || has(start, end, "<script") ||
	    has(start, end, "<foreignObject") ||
	    has(start, end, "javascript:") || has_handler(start, end))
		return NULL;
	*len = (size_t)(end - start);
	return start;
}

void report_svg_topology(FILE *out, const struct result_run *r,
			 const struct result_snapshot *s)
{
	struct sbuf g;
	char *svg = NULL;
	struct errbuf err;
	const char *el = NULL;
	size_t len = 0;

	sbuf_init(&g);
	report_topo_dot(r, s, &g);
	if (sbuf_failed(&g))
		errbuf_set(&err, "out of memory");
	else if (!graphviz_svg("neato", sbuf_str(&g), &svg, &err) &&
		 !(el = svg_element(svg, &len)))
		errbuf_set(&err, "dot wrote no plain SVG");
	if (el) {
		fputs("<svg class=\"topology\" ", out);
		fwrite(el + 5, 1, len - 5, out);
		fputc('\n', out);
	} else {
		fputs("<p class=\"topo-missing\">No drawing: ", out);
		report_put_xml(out, err.msg);
		fputs("</p>\n", out);
	}
	free(svg);
	sbuf_free(&g);
}
