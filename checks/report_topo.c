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

/* One half of a link: from the node to the link's midpoint. For the
 * page, classed by link and end, with an arrowhead the page shows or
 * hides. */
static void half(struct sbuf *o, const struct result_run *r, size_t l,
		 int end, const struct result_port *p, bool page)
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
	if (page)
		sbuf_printf(o, ", class=\"port e-%zu-%d\", dir=forward, "
			    "arrowsize=1.1", l, end);
	else if (p->down)
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

static void topo_dot(const struct result_run *r,
		     const struct result_snapshot *s, bool page,
		     struct sbuf *o)
{
	/* The page's links are longer: their ends carry its colours. Its
	 * overlaps go by scaling the layout up, not by prism's pass, which
	 * shrinks every link to its shortest. */
	sbuf_printf(o, "graph topology {\n"
		    "  graph [overlap=%s, splines=true, pad=0.15];\n"
		    "  node [fontname=\"Helvetica\", fontsize=%d, "
		    "style=filled, fillcolor=\"#f4f6f8\"];\n"
		    "  edge [fontname=\"Helvetica\", fontsize=%d, len=%s, "
		    "penwidth=1.5, color=\"#555555\"];\n",
		    page ? "scale" : "false", page ? 14 : 11, page ? 12 : 9,
		    page ? "1.1" : "0.8");
	for (size_t i = 0; i < r->n_nodes; i++) {
		bool root = s->root == (int)i;

		sbuf_puts(o, "  ");
		plan_dot_id(o, r->nodes[i].name);
		sbuf_printf(o, " [shape=%s, class=\"%s",
			    plan_dot_shape((enum topo_role)r->nodes[i].role),
			    root ? "bridge root" :
			    topo_role_is_bridge((enum topo_role)r->nodes[i].role) ?
				   "bridge" : "host");
		if (page)
			sbuf_printf(o, " n-%zu", i);
		sbuf_puts(o, "\"");
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
			half(o, r, l, e, &s->ports[l * 2 + e], page);
	}
	sbuf_puts(o, "}\n");
}

void report_topo_dot(const struct result_run *r,
		     const struct result_snapshot *s, struct sbuf *o)
{
	topo_dot(r, s, false, o);
}

void report_topo_page_dot(const struct result_run *r,
			  const struct result_snapshot *s, struct sbuf *o)
{
	topo_dot(r, s, true, o);
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

int report_topo_svg(const struct sbuf *dot, char **el, struct errbuf *err)
{
	char *svg = NULL;
	const char *start = NULL;
	size_t len = 0;

	*el = NULL;
	if (sbuf_failed(dot))
		return errbuf_set(err, "out of memory");
	if (graphviz_svg("neato", sbuf_str(dot), &svg, err))
		return -1;
	start = svg_element(svg, &len);
	if (start)
		*el = strndup(start, len);
	free(svg);
	if (!start)
		return errbuf_set(err, "dot wrote no plain SVG");
	return *el ? 0 : errbuf_set(err, "out of memory");
}

void report_svg_topology(FILE *out, const struct result_run *r,
			 const struct result_snapshot *s)
{
	struct sbuf g;
	char *el;
	struct errbuf err;

	sbuf_init(&g);
	report_topo_dot(r, s, &g);
	if (!report_topo_svg(&g, &el, &err)) {
		fputs("<svg class=\"topology\" ", out);
		fputs(el + 5, out);
		fputc('\n', out);
		free(el);
	} else {
		fputs("<p class=\"topo-missing\">No drawing: ", out);
		report_put_xml(out, err.msg);
		fputs("</p>\n", out);
	}
	sbuf_free(&g);
}
