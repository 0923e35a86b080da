// SPDX-License-Identifier: MIT
#include "opts.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
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
	int c, n;

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
		/* A short option names itself in optopt (the word may hold
		 * more); a long one is the word just read, which getopt
		 * may have moved (it permutes argv). */
		if (optopt > 0 && optopt < 256) {
			snprintf(o->short_bad, sizeof(o->short_bad), "-%c",
				 optopt);
			return bad(o, o->short_bad);
		}
		return bad(o, optind > 0 && optind <= o->argc ?
			   o->argv[optind - 1] : "");
	case 'h':
		if (s->usage) {
			opts_help(s, stdout);
			return OPT_HELP;
		}
	}
	return c;
}

/* Does the option word w (-x, --name) take a value in this table? */
static bool takes_value(const struct opt_spec *s, const char *w)
{
	for (const struct opt *p = s->opts; p && p->key; p++) {
		if (!p->arg)
			continue;
		if (w[1] == '-' ? p->name && !strcmp(w + 2, p->name) :
				  p->key < 256 && w[1] == p->key && !w[2])
			return true;
	}
	for (const char *c = s->shorts; c && *c; c++)
		if (c[1] == ':' && w[1] == *c && !w[2])
			return true;
	return false;
}

const char *opts_why(const struct opts *o, char *buf, size_t len)
{
	const char *w = o->bad ? o->bad : "";

	if (!w[0])
		snprintf(buf, len, "an argument is missing");
	else if (w[0] != '-' || !w[1])
		snprintf(buf, len, "unexpected argument '%s'", w);
	else if (takes_value(o->spec, w))
		snprintf(buf, len, "'%s' needs a value", w);
	else
		snprintf(buf, len, "unknown option '%s'", w);
	return buf;
}
