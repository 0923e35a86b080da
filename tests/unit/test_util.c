// SPDX-License-Identifier: MIT
/*
 * util: the option helper every program parses with (no program needed:
 * a table and argv), the error buffer, children started, fed and read
 * the one way (sh, cat and sleep as the children), folders made and
 * removed.
 */
#include "unit.h"
#include "child.h"
#include "errbuf.h"
#include "files.h"
#include "graphviz.h"
#include "opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { O_LONG = 256 };

static const struct opt table[] = {
	{ "conf", 'c', true, "-c FILE  the file" },
	{ NULL, 'f', false, "-f       stay" },
	{ "only-long", O_LONG, false, NULL },
	{ 0 },
};

/* Every key opts_next() gives for argv, as text ("c=x f L W=w E2"). */
static void parse(const struct opt_spec *spec, char **argv, char *out,
		  size_t len, struct opts *o)
{
	int argc = 0, c;
	size_t at = 0;

	while (argv[argc])
		argc++;
	opts_start(o, spec, argc, argv);
	out[0] = 0;
	do {
		c = opts_next(o);
		if (c == 'c')
			at += (size_t)snprintf(out + at, len - at, "c=%s ", o->arg);
		else if (c == 'f')
			at += (size_t)snprintf(out + at, len - at, "f ");
		else if (c == O_LONG)
			at += (size_t)snprintf(out + at, len - at, "L ");
		else if (c == OPT_WORD)
			at += (size_t)snprintf(out + at, len - at, "W=%s ", o->arg);
		else if (c == OPT_END)
			at += (size_t)snprintf(out + at, len - at, "E%d",
					       o->ind);
		else if (c == OPT_BAD)
			at += (size_t)snprintf(out + at, len - at, "B=%s",
					       o->bad);
	} while (c > 0);
}

TEST(opts_short_long_and_clusters)
{
	static const struct opt_spec spec = {
		.opts = table, .flags = OPT_QUIET, .max_words = OPT_ANY,
	};
	char *a1[] = { "p", "-fcx", "--conf", "y", "--conf=z", "--only-long",
		       "w", NULL };
	char *a2[] = { "p", "w", "-f", NULL };	/* permuted */
	char out[128];
	struct opts o;

	parse(&spec, a1, out, sizeof(out), &o);
	CHECK_STR(out, "f c=x c=y c=z L E6");
	CHECK_STR(a1[o.ind], "w");
	parse(&spec, a2, out, sizeof(out), &o);
	CHECK_STR(out, "f E2");
	CHECK_STR(a2[o.ind], "w");
}

TEST(opts_in_order_and_stop)
{
	static const struct opt_spec in_order = {
		.opts = table, .flags = OPT_IN_ORDER | OPT_QUIET,
	};
	static const struct opt_spec stop = {
		.opts = table, .flags = OPT_STOP | OPT_QUIET,
		.max_words = OPT_ANY,
	};
	char *a1[] = { "p", "t", "-f", "n", "-c", "-x", NULL };
	char *a2[] = { "p", "-f", "cmd", "-c", NULL };
	char out[128];
	struct opts o;

	/* a value may start with '-' */
	parse(&in_order, a1, out, sizeof(out), &o);
	CHECK_STR(out, "W=t f W=n c=-x E6");
	parse(&stop, a2, out, sizeof(out), &o);
	CHECK_STR(out, "f E2");
}

TEST(opts_bad_options_and_words)
{
	static const struct opt_spec one_word = {
		.opts = table, .flags = OPT_QUIET, .min_words = 1,
		.max_words = 1,
	};
	static const struct opt_spec stop = {
		.opts = table, .flags = OPT_STOP | OPT_QUIET,
		.max_words = OPT_ANY,
	};
	char *a1[] = { "p", "-f", NULL };
	char *a2[] = { "p", "a", "b", NULL };
	char *a3[] = { "p", "-c", NULL };	/* no value */
	char *a4[] = { "p", "-fx", "cmd", NULL };
	char *a5[] = { "p", "--nope", "cmd", NULL };
	char *a6[] = { "p", "-h", NULL };	/* no usage: no -h */
	char out[128];
	struct opts o;

	parse(&one_word, a1, out, sizeof(out), &o);
	CHECK_STR(out, "f B=");
	parse(&one_word, a2, out, sizeof(out), &o);
	CHECK_STR(out, "B=b");
	parse(&stop, a3, out, sizeof(out), &o);
	CHECK_STR(out, "B=-c");
	parse(&stop, a4, out, sizeof(out), &o);
	CHECK_STR(out, "f B=-x");	/* the letter, not the word */
	parse(&stop, a5, out, sizeof(out), &o);
	CHECK_STR(out, "B=--nope");
	parse(&stop, a6, out, sizeof(out), &o);
	CHECK_STR(out, "B=-h");
}

TEST(opts_long_only)
{
	static const struct opt json[] = {
		{ "json", 'j', false, NULL },
		{ 0 },
	};
	static const struct opt_spec spec = {
		.opts = json, .flags = OPT_STOP | OPT_LONG_ONLY | OPT_QUIET,
		.max_words = OPT_ANY,
	};
	char *a[] = { "p", "-j", "-json", "--json", "show", NULL };
	struct opts o;
	int n = 0, c;

	opts_start(&o, &spec, 5, a);
	while ((c = opts_next(&o)) == 'j')
		n++;
	CHECK_INT(c, OPT_END);
	CHECK_INT(n, 3);
	CHECK_STR(a[o.ind], "show");
}

TEST(opts_help_prints_the_table)
{
	static const struct opt_spec spec = {
		.usage = "usage: p [-f] [-c FILE]\n", .opts = table,
		.tail = "that is all\n",
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	opts_help(&spec, f);
	fclose(f);
	CHECK_STR(buf, "usage: p [-f] [-c FILE]\n"
		       "  -c FILE  the file\n"
		       "  -f       stay\n"
		       "that is all\n");
	free(buf);
}

TEST(errbuf_formats_and_fails)
{
	struct errbuf e;

	CHECK_INT(errbuf_set(&e, "cannot %s %d", "count to", 3), -1);
	CHECK_STR(e.msg, "cannot count to 3");
	CHECK(sizeof(e.msg) > 4096);	/* a path and a sentence */
}

TEST(spawn_capture_feeds_and_reads)
{
	char *cat[] = { "cat", NULL };
	char *fail[] = { "sh", "-c", "echo no >&2; exit 3", NULL };
	char *slow[] = { "sleep", "5", NULL };
	char *none[] = { "/nonexistent/program", NULL };
	struct spawn_result r;

	CHECK_INT(spawn_capture(cat, "graph {}\n", NULL, 5000, &r), 0);
	CHECK_STR(r.out, "graph {}\n");
	free(r.out);
	CHECK_INT(spawn_capture(cat, NULL, NULL, 5000, &r), 0);	/* stdin */
	CHECK_STR(r.out, "");					/* empty */
	free(r.out);
	CHECK_INT(spawn_capture(fail, "", NULL, 5000, &r), -1);
	CHECK(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 3);
	CHECK(!r.out && !r.start_errno && !r.timed_out);
	CHECK_INT(spawn_capture(slow, NULL, NULL, 100, &r), -1);
	CHECK(r.timed_out);
	CHECK_INT(spawn_capture(none, NULL, NULL, 5000, &r), -1);
	CHECK_INT(r.start_errno, ENOENT);
}

TEST(graphviz_draws_or_says_why)
{
	char *probe[] = { "dot", "-V", NULL };
	struct errbuf e;
	char *svg;

	if (spawn_run(probe, NULL, 10000))
		SKIP("graphviz is not installed (deps.txt: graphviz)");
	CHECK_INT(graphviz_svg("dot", "graph { a -- b }", &svg, &e), 0);
	CHECK(strstr(svg, "<svg") != NULL);
	free(svg);
	CHECK_INT(graphviz_svg("dot", "graph { a -- ", &svg, &e), -1);
	CHECK(strncmp(e.msg, "dot: failed (status ", 20) == 0);
	CHECK(svg == NULL);
}

TEST(folders_are_made_and_removed_whole)
{
	char dir[] = "/tmp/mstlab-files-XXXXXX", path[64], link[64];
	struct errbuf err = { "" };
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	CHECK_INT(files_mkdir(dir, "a", &err), 0);
	CHECK_INT(files_mkdir(dir, "a", &err), 0);	/* there already */
	snprintf(path, sizeof(path), "%s/a/b", dir);
	CHECK_INT(files_mkdir(path, NULL, &err), 0);
	snprintf(path, sizeof(path), "%s/a/b/file", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fclose(f);
	/* A link is removed, never followed. */
	snprintf(link, sizeof(link), "%s/a/up", dir);
	CHECK_INT(symlink(dir, link), 0);
	snprintf(path, sizeof(path), "%s/a", dir);
	CHECK_INT(files_rm_tree(path), 0);
	CHECK(access(path, F_OK) != 0);
	CHECK(access(dir, F_OK) == 0);
	CHECK_INT(files_rm_tree(path), 0);	/* not there: fine */
	snprintf(path, sizeof(path), "%s/no/such", dir);
	CHECK_INT(files_mkdir(path, NULL, &err), -1);
	CHECK(strstr(err.msg, "cannot create ") && strstr(err.msg, "/no/such"));
	CHECK_INT(rmdir(dir), 0);
}
