// SPDX-License-Identifier: MIT
#include "opts.h"

#include <stddef.h>
#include <string.h>

void opts_start(struct opts *o, const struct opt_spec *spec, int argc,
		char **argv)
{
	struct option *lo = o->longopts;
	char *so = o->shortopts;
	size_t n = 0;

	memset(o, 0, sizeof(*o));
	o->spec = spec;
	o->argc = argc;
	o->argv = argv;
	o->ind = 1;
	optind = 0;	/* getopt starts afresh */
	opterr = !(spec->flags & OPT_QUIET);	/* its own complaint */
	if (spec->flags & OPT_IN_ORDER)
		*so++ = '-';
	else if (spec->flags & OPT_STOP)
		*so++ = '+';
	for (const struct opt *p = spec->opts; p && p->key && n < OPTS_MAX;
	     p++, n++) {
		if (p->name)
			*lo++ = (struct option){ p->name, p->arg ?
				required_argument : no_argument, NULL, p->key };
		if (p->key < 256) {
			*so++ = (char)p->key;
			if (p->arg)
				*so++ = ':';
		}
	}
	for (const char *c = spec->shorts; c && *c &&
	     so < o->shortopts + sizeof(o->shortopts) - 2; c++)
		*so++ = *c;
	if (spec->usage) {
		*lo++ = (struct option){ "help", no_argument, NULL, 'h' };
		*so++ = 'h';
	}
	*lo = (struct option){ 0 };
	*so = 0;
}

void opts_help(const struct opt_spec *spec, FILE *f)
{
	if (spec->usage)
		fputs(spec->usage, f);
	for (const struct opt *p = spec->opts; p && p->key; p++)
		if (p->help)
			fprintf(f, "  %s\n", p->help);
	if (spec->tail)
		fputs(spec->tail, f);
}

/* The help on stderr, unless the caller speaks for itself. */
static int bad(struct opts *o, const char *word)
{
	o->bad = word;
	if (!(o->spec->flags & OPT_QUIET))
		opts_help(o->spec, stderr);
	return OPT_BAD;
}

int opts_next(struct opts *o)
{
	const struct opt_spec *s = o->spec;
	int c, n, at = optind ? optind : 1;

	c = s->flags & OPT_LONG_ONLY ?
		getopt_long_only(o->argc, o->argv, o->shortopts, o->longopts,
				 NULL) :
		getopt_long(o->argc, o->argv, o->shortopts, o->longopts, NULL);
	o->ind = optind;
	o->arg = optarg;
	switch (c) {
	case -1:
		n = o->argc - o->ind;
		if (n < s->min_words)
			return bad(o, "");
		if (s->max_words != OPT_ANY && n > s->max_words)
			return bad(o, o->argv[o->ind + s->max_words]);
		return OPT_END;
	case 1:
		return OPT_WORD;
	case '?':
		return bad(o, at < o->argc ? o->argv[at] : "");
	case 'h':
		if (s->usage) {
			opts_help(s, stdout);
			return OPT_HELP;
		}
	}
	return c;
}
