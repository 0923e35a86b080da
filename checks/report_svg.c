// SPDX-License-Identifier: MIT
/*
 * The timeline of one tree in one scenario, as inline SVG: the injected
 * events (link down/up, impairments, marks) as vertical lines and, for
 * each event, a bar as long as this tree took to settle.
 */
#include "report_svg.h"

#include <string.h>

#include "events.h"

#define W 760.0
#define LEFT 80.0
#define RIGHT 20.0
#define H 76.0
#define AXIS_Y 58.0
#define LABEL_ROWS 2

struct scale {
	int64_t start, span;
};

static double x_of(const struct scale *s, int64_t ns)
{
	double f = (double)(ns - s->start) / (double)s->span;

	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return LEFT + f * (W - LEFT - RIGHT);
}

/* A tick step giving at most 10 ticks over the span. */
static double tick_step(double span_s)
{
	static const double steps[] = { 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30,
					60, 120, 300, 600, 1800, 3600 };

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (span_s / steps[i] <= 10)
			return steps[i];
	return span_s / 10;
}

static const char *event_colour(const char *kind)
{
	switch (event_kind_of(kind)) {
	case EVENT_LINK_DOWN:
		return "#c0392b";
	case EVENT_LINK_UP:
		return "#27ae60";
	case EVENT_IMPAIR:
		return "#e67e22";
	case EVENT_MARK:
		return "#7f8c8d";
	default:
		return NULL;	/* not drawn */
	}
}

static void axis(FILE *out, const struct scale *s)
{
	double span_s = (double)s->span / 1e9, step = tick_step(span_s);

	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"#555\"/>\n", LEFT, AXIS_Y, W - RIGHT, AXIS_Y);
	for (int i = 0; i * step <= span_s + 1e-9 && i <= 100; i++) {
		double x = x_of(s, s->start + (int64_t)(i * step * 1e9));

		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"#555\"/><text x=\"%.1f\" "
			"y=\"%.1f\" class=\"tick\">%gs</text>\n", x, AXIS_Y,
			x, AXIS_Y + 4, x, AXIS_Y + 13, i * step);
	}
}

/* Event labels take the first of two rows where they do not run into
 * the previous label (9px text: about 5.5px a character). */
static double label_y(double x, const char *label, double row_end[])
{
	int row = 0;

	while (row < LABEL_ROWS && x < row_end[row] + 4)
		row++;
	if (row == LABEL_ROWS)
		row = 0;
	row_end[row] = x + 5.5 * (double)strlen(label);
	return 9.0 + 10.0 * row;
}

static void events(FILE *out, const struct result_scenario *sc,
		   const struct scale *s)
{
	double row_end[LABEL_ROWS] = { -1e9, -1e9 };

	for (size_t i = 0; i < sc->n_events; i++) {
		const struct result_event *e = &sc->events[i];
		const char *colour = event_colour(e->kind);
		double x = x_of(s, e->ns);

		if (!colour)
			continue;
		fputs("<g><title>", out);
		report_put_xml(out, e->kind);
		fputc(' ', out);
		report_put_xml(out, e->arg);
		fprintf(out, " at %.3f s</title><line x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"2\"/><text x=\"%.1f\" y=\"%.1f\" "
			"class=\"ev\">", report_seconds(e->ns - s->start), x,
			2.0, x, AXIS_Y, colour, x + 2,
			label_y(x + 2, e->arg, row_end));
		report_put_xml(out, e->arg);
		fputs("</text></g>\n", out);
	}
}

/* One bar per settle check: event to event + this tree's settle time. */
static void settle_bars(FILE *out, const struct result_scenario *sc,
			int msti, const struct scale *s)
{
	for (size_t i = 0; i < sc->n_checks; i++) {
		const struct result_check *c = &sc->checks[i];
		const struct result_figure *f =
			result_figure(c, "settle_s", msti);
		const struct result_figure *b =
			result_figure(c, "budget_s", RESULT_NO_TREE);
		bool over = b && f && f->value > b->value;
		double x0, x1;

		if (!f || !c->at_ns)
			continue;
		x0 = x_of(s, c->at_ns);
		x1 = x_of(s, c->at_ns + (int64_t)(f->value * 1e9));
		fputs("<g><title>", out);
		report_put_xml(out, c->text);
		fprintf(out, ": this tree settles in %.3f s</title>"
			"<rect x=\"%.1f\" y=\"34\" width=\"%.1f\" height=\"14\" "
			"class=\"%s\"/></g>\n", f->value, x0,
			x1 - x0 < 2 ? 2 : x1 - x0, over ? "bar-fail" : "bar");
		if (b)
			fprintf(out, "<line x1=\"%.1f\" y1=\"30\" x2=\"%.1f\" "
				"y2=\"52\" class=\"budget\"/>\n",
				x_of(s, c->at_ns + (int64_t)(b->value * 1e9)),
				x_of(s, c->at_ns + (int64_t)(b->value * 1e9)));
	}
}

void report_svg_timeline(FILE *out, const struct result_scenario *sc,
			 int msti)
{
	struct scale s = { sc->start_ns, sc->end_ns - sc->start_ns };
	char tree[16];

	if (s.span <= 0)
		s.span = 1000000000;	/* nothing happened: a 1 s axis */
	result_tree_name(msti, tree, sizeof(tree));
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		"class=\"timeline\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" role=\"img\"><title>", W, H, W, H);
	report_put_xml(out, sc->name);
	fprintf(out, ": %s timeline</title>\n<text x=\"4\" y=\"45\" "
		"class=\"tree\">%s</text>\n", tree, tree);
	axis(out, &s);
	settle_bars(out, sc, msti, &s);
	events(out, sc, &s);
	fputs("</svg>\n", out);
}
