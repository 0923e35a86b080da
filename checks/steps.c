// SPDX-License-Identifier: MIT
#include "steps.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "ok N - text" or "not ok N - text": the text and the verdict. */
static bool tap_line(char *line, bool *ok, const char **text)
{
	char *p = line;

	*ok = strncmp(p, "not ok", 6) != 0;
	p += *ok ? 0 : 4;
	if (strncmp(p, "ok", 2) || (p[2] != ' ' && p[2] != '\0'))
		return false;
	p += 2;
	while (*p == ' ' || (*p >= '0' && *p <= '9'))
		p++;
	if (*p == '-')
		p++;
	while (*p == ' ')
		p++;
	*text = p;
	return true;
}

/* In step order: step2 before step10 (two runs of one suite on one
 * node are told apart by their order, docs/results.md). */
static int by_step(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

/*
 * What a guest suite's test is called in the check's id: the node and
 * the TAP description, not the step's number (a step put before it must
 * not rename it), and without the trailing "(...)" where suites put what
 * they saw ("ENOMSG (got -42)"): a value must not rename it either.
 */
static void guest_subject(char *out, size_t len, const char *node,
			  const char *text)
{
	size_t end = strlen(text);
	int depth = 0;

	while (end && text[end - 1] == ' ')
		end--;
	if (end && text[end - 1] == ')') {
		size_t i = end;

		while (i--) {
			depth += text[i] == ')' ? 1 : text[i] == '(' ? -1 : 0;
			if (!depth)
				break;
		}
		/* Unbalanced, or the whole text: kept as it is. */
		if (!depth && i > 0)
			end = i;
		while (end && text[end - 1] == ' ')
			end--;
	}
	snprintf(out, len, "%s: %.*s", node, (int)end, text);
}

/* One check per TAP line; a failure's message is the comment after it. */
static void one_file(struct result_run *r, struct result_scenario *sc,
		     const char *path, const char *label, const char *node)
{
	char line[1024], next[1024], text[1400], subject[1100];
	const char *t, *why;
	FILE *f = fopen(path, "re");
	bool ok, have_next;

	if (!f)
		return;
	have_next = fgets(next, sizeof(next), f) != NULL;
	while (have_next) {
		memcpy(line, next, sizeof(line));
		line[strcspn(line, "\n")] = 0;
		have_next = fgets(next, sizeof(next), f) != NULL;
		if (!tap_line(line, &ok, &t))
			continue;
		why = NULL;
		if (!ok) {
			why = "the guest suite says not ok";
			if (have_next && next[0] == '#') {
				next[strcspn(next, "\n")] = 0;
				why = next + 1 + (next[1] == ' ');
			}
		}
		snprintf(text, sizeof(text), "%s: %s", label, t);
		guest_subject(subject, sizeof(subject), node, t);
		result_add_check_on(r, sc, "guest", RESULT_NO_TREE, NULL,
				    subject, ok, text, why);
	}
	fclose(f);
}

/* "<scenario>-step<N>-<node>.txt": a label "step N on node" and the
 * node, or false. */
static bool exec_label(const char *file, const char *prefix, char *label,
		       size_t size, char *node, size_t node_size)
{
	size_t plen = strlen(prefix), len = strlen(file);
	const char *rest = file + plen, *dash;

	if (strncmp(file, prefix, plen) || len <= plen + 4 ||
	    strcmp(file + len - 4, ".txt") || rest[0] < '0' || rest[0] > '9')
		return false;
	dash = strchr(rest, '-');
	if (!dash)
		return false;
	snprintf(node, node_size, "%.*s", (int)(file + len - 4 - dash - 1),
		 dash + 1);
	snprintf(label, size, "step %.*s on %s", (int)(dash - rest), rest,
		 node);
	return true;
}

void steps_exec_tap(struct result_run *r, struct result_scenario *sc,
		    const char *run_dir, const char *name)
{
	char dir[4200], path[4600], prefix[300], label[400], node[256];
	struct dirent **ents;
	int n;

	snprintf(dir, sizeof(dir), "%s/exec", run_dir);
	snprintf(prefix, sizeof(prefix), "%s-step", name);
	n = scandir(dir, &ents, NULL, by_step);
	for (int i = 0; i < n; i++) {
		if (exec_label(ents[i]->d_name, prefix, label, sizeof(label),
			       node, sizeof(node))) {
			snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
			one_file(r, sc, path, label, node);
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}
