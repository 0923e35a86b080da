/* SPDX-License-Identifier: MIT */
/*
 * Every program's options, one way: a table gives getopt_long(3) its
 * short and long options and --help its lines. With a usage text, -h and
 * --help print the help on stdout (OPT_HELP); a bad option or a missing
 * value prints getopt's complaint and the help on stderr (OPT_BAD),
 * unless OPT_QUIET. getopt's state is global: one parse at a time.
 *
 *	struct opts o;
 *	int c;
 *
 *	opts_start(&o, &spec, argc, argv);
 *	while ((c = opts_next(&o)) > 0)
 *		switch (c) { case 'c': conf = o.arg; break; ... }
 *	if (c != OPT_END)
 *		return c == OPT_HELP ? 0 : 2;
 *	the words: argv[o.ind] .. argv[argc - 1]
 */
#ifndef MSTLAB_OPTS_H
#define MSTLAB_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* Options in one table at the most (--help not counted). */
#define OPTS_MAX 24

struct opt {
	const char *name;	/* --name, or NULL */
	int key;		/* -key when a letter (else >= 256: long
				 * only); what opts_next() returns */
	bool arg;		/* takes a value, in opts.arg */
	const char *help;	/* its line of --help after "  ", or NULL */
};

/* Options without a help line: a switch, and one that takes a value. */
#define OPT_FLAG(name, key) { name, key, false, NULL }
#define OPT_VALUE(name, key) { name, key, true, NULL }

enum {
	OPT_IN_ORDER = 1 << 0,	/* words come back as OPT_WORD in place */
	OPT_STOP = 1 << 1,	/* the first word ends the options */
	OPT_LONG_ONLY = 1 << 2,	/* -name is --name too */
	OPT_QUIET = 1 << 3,	/* a bad option prints nothing: the caller
				 * says what is wrong */
};

struct opt_spec {
	const char *usage;	/* first in --help; NULL: no -h, --help */
	const struct opt *opts;	/* ends with { 0 }; may be NULL */
	const char *shorts;	/* more options, letters only and no help
				 * line, as getopt writes them: "i:d:u" */
	const char *tail;	/* last in --help, or NULL */
	unsigned flags;		/* OPT_* */
	/* Words after the options: fewer or more is OPT_BAD (the help on
	 * stderr unless OPT_QUIET). Both 0: none. */
	int min_words, max_words;	/* max_words OPT_ANY: no limit */
};

#define OPT_ANY (-1)

/* What opts_next() returns besides an option's key. */
#define OPT_WORD 1		/* OPT_IN_ORDER: a word, in opts.arg */
#define OPT_END (-1)		/* no more options: the words from opts.ind */
#define OPT_HELP (-2)		/* -h or --help: the help is printed */
#define OPT_BAD (-3)		/* not an option, or its value missing */

struct opts {
	const struct opt_spec *spec;
	int argc;
	char **argv;		/* argv[0] names the program, as for main */
	const char *arg;	/* the option's value, or the word */
	const char *bad;	/* OPT_BAD with OPT_IN_ORDER or OPT_STOP: the
				 * word not understood */
	int ind;		/* the next word to read */
	char short_bad[3];	/* "-x": a bad short option */
	struct option longopts[OPTS_MAX + 2];
	char shortopts[3 * OPTS_MAX + 8];
};

/* Starts reading argv. */
void opts_start(struct opts *o, const struct opt_spec *spec, int argc,
		char **argv);
/* The next option's key, OPT_WORD, or OPT_END, OPT_HELP, OPT_BAD. */
int opts_next(struct opts *o);
/*
 * After OPT_BAD: what was wrong, in buf ("unknown option '-x'", "'--uri'
 * needs a value", "unexpected argument 'extra'", "an argument is
 * missing"), for the caller that speaks for itself (OPT_QUIET).
 */
const char *opts_why(const struct opts *o, char *buf, size_t len);
/* Prints the help: usage, each option's line, tail. */
void opts_help(const struct opt_spec *spec, FILE *f);

#endif
