// SPDX-License-Identifier: MIT
/* The event log's reader: a line into a struct event. */
#include "events.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

static const char *const kind_names[EVENT_KINDS] = {
	[EVENT_RUN_START] = "run-start",
	[EVENT_READY] = "ready",
	[EVENT_LINK_DOWN] = "link-down",
	[EVENT_LINK_UP] = "link-up",
	[EVENT_CONVERGED] = "converged",
	[EVENT_IMPAIR] = "impair",
	[EVENT_PROBE_START] = "probe-start",
	[EVENT_PROBE_STOP] = "probe-stop",
	[EVENT_MARK] = "mark",
	[EVENT_SCENARIO] = "scenario",
	[EVENT_STEP] = "step",
	[EVENT_STEP_FAILED] = "step-failed",
	[EVENT_RUN_END] = "run-end",
};

const char *event_kind_name(enum event_kind kind)
{
	return (unsigned)kind < EVENT_KINDS ? kind_names[kind] : NULL;
}

enum event_kind event_kind_of(const char *word)
{
	for (int k = EVENT_OTHER + 1; k < EVENT_KINDS; k++)
		if (!strcmp(word, kind_names[k]))
			return (enum event_kind)k;
	return EVENT_OTHER;
}

bool event_is_link(const struct event *e)
{
	return e->kind == EVENT_LINK_DOWN || e->kind == EVENT_LINK_UP;
}

/* The arguments each kind carries, where they parse. */
static void parse_args(struct event *e)
{
	char mode[16];
	int used = 0;

	switch (e->kind) {
	case EVENT_LINK_DOWN:
		if (sscanf(e->arg, "link%u %15s", &e->link, mode) == 2 &&
		    !strcmp(mode, "silent")) {
			e->mode = TOPO_FAIL_SILENT;
			/* one way; older logs end after the mode */
			sscanf(e->arg, "link%*u silent deaf %63s", e->deaf);
		}
		e->args_ok = e->link > 0;
		break;
	case EVENT_LINK_UP:
	case EVENT_IMPAIR:
		e->args_ok = sscanf(e->arg, "link%u", &e->link) == 1;
		break;
	case EVENT_PROBE_START:
		e->args_ok = sscanf(e->arg, "%u %63s %63s %u %u", &e->n,
				    e->from, e->to, &e->vid, &e->pps) == 5;
		break;
	case EVENT_PROBE_STOP:
	case EVENT_STEP_FAILED:
		e->args_ok = sscanf(e->arg, "%u", &e->n) == 1;
		break;
	case EVENT_STEP:
		e->args_ok = sscanf(e->arg, "%u %n", &e->n, &used) == 1;
		e->text_at = (size_t)used;
		break;
	default:
		e->args_ok = true;
		break;
	}
}

int event_parse(const char *line, struct event *e)
{
	const char *s = line, *w;
	size_t n;
	char *end;
	long long ns;

	memset(e, 0, sizeof(*e));
	if (!isdigit((unsigned char)*s))
		return -1;	/* comments, blank lines, garbage */
	errno = 0;
	ns = strtoll(s, &end, 10);
	if (errno || ns <= 0 || !isspace((unsigned char)*end) || *end == '\n')
		return -1;
	for (s = end; *s == ' ' || *s == '\t'; s++)
		;
	for (w = s; *s && !isspace((unsigned char)*s); s++)
		;
	if (s == w)
		return -1;
	n = (size_t)(s - w) < sizeof(e->word) ? (size_t)(s - w) :
						sizeof(e->word) - 1;
	memcpy(e->word, w, n);
	while (*s && *s != '\n' && isspace((unsigned char)*s))
		s++;
	n = strcspn(s, "\n");
	if (n >= sizeof(e->arg))
		n = sizeof(e->arg) - 1;
	memcpy(e->arg, s, n);
	e->ns = ns;
	e->kind = event_kind_of(e->word);
	parse_args(e);
	return 0;
}

int events_read(const char *run_dir, struct event **ev, size_t *n,
		struct errbuf *err)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0, len = 0, have = 0;
	struct event *all = NULL;
	FILE *f;

	*ev = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "%s/events", run_dir);
	f = fopen(path, "re");
	if (!f) {
		errbuf_set(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &len, f) > 0) {
		if (grow((void **)&all, &cap, have, sizeof(*all), 64))
			break;	/* out of memory: the events so far */
		if (!event_parse(line, &all[have]))
			have++;
	}
	free(line);
	fclose(f);
	*ev = all;
	*n = have;
	return 0;
}
