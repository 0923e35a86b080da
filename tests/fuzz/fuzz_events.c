// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the event log's reader (event_parse): every line
 * of events.log goes through it when a run is judged, replayed or
 * watched. The input is split into lines at '\n', each in a buffer of
 * its own length for ASan. A parsed line has ns > 0, a known kind or
 * EVENT_OTHER, a word without space, one line of arguments, and every
 * field within its array.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"

#define FITS(a) (strnlen((a), sizeof(a)) < sizeof(a))

static void check(const struct event *e)
{
	const char *name = event_kind_name(e->kind);

	if (e->ns <= 0 || (unsigned)e->kind >= EVENT_KINDS ||
	    !FITS(e->word) || !FITS(e->arg) || !FITS(e->deaf) ||
	    !FITS(e->from) || !FITS(e->to) || !e->word[0] ||
	    strchr(e->arg, '\n') || e->text_at > strlen(e->arg))
		abort();
	for (const char *w = e->word; *w; w++)
		if (isspace((unsigned char)*w))
			abort();
	/* A known kind is the word that names it. */
	if (e->kind != EVENT_OTHER && (!name || strcmp(name, e->word)))
		abort();
	if (e->kind == EVENT_OTHER && event_kind_of(e->word) != EVENT_OTHER)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct event e;

	while (size) {
		const uint8_t *nl = memchr(data, '\n', size);
		size_t n = nl ? (size_t)(nl - data) + 1 : size;
		char *line = malloc(n + 1);

		if (!line)
			abort();
		memcpy(line, data, n);
		line[n] = 0;
		if (event_parse(line, &e) == 0)
			check(&e);
		free(line);
		data += n;
		size -= n;
	}
	return 0;
}
