// SPDX-License-Identifier: MIT
#include "unit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct unit_case {
	const char *name;
	unit_fn fn;
};

static struct unit_case cases[512];
static size_t ncases;
static bool current_failed;
static const char *current_skip;
static const char *current_name = "";

const char *unit_current(void)
{
	return current_name;
}

char *unit_capture(int (*fn)(int, char **, FILE *, FILE *), int argc,
		   char **argv, int *rc, char **err)
{
	char *out = NULL;
	size_t olen = 0, elen = 0;
	FILE *o = open_memstream(&out, &olen), *e = open_memstream(err, &elen);

	*rc = fn(argc, argv, o, e);
	fclose(o);
	fclose(e);
	return out;
}

void unit_skip(const char *why)
{
	current_skip = why;
}

void unit_register(const char *name, unit_fn fn)
{
	if (ncases == sizeof(cases) / sizeof(cases[0])) {
		fprintf(stderr, "unit: too many tests\n");
		exit(2);
	}
	cases[ncases++] = (struct unit_case){ name, fn };
}

void unit_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	current_failed = true;
	printf("# %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void dump(const char *label, const unsigned char *p, size_t n)
{
	printf("# %s (%zu bytes):", label, n);
	for (size_t i = 0; i < n; i++)
		printf("%s%02x", i % 16 ? " " : "\n#   ", p[i]);
	printf("\n");
}

void unit_fail_mem(const char *file, int line, const char *expr,
		   const void *got, size_t got_len,
		   const void *want, size_t want_len)
{
	const unsigned char *g = got, *w = want;
	size_t i = 0;

	while (i < got_len && i < want_len && g[i] == w[i])
		i++;
	unit_fail(file, line, "%s differs at byte %zu", expr, i);
	dump("got", g, got_len);
	dump("want", w, want_len);
}

int main(int argc, char **argv)
{
	size_t failed = 0, run = 0;

	printf("TAP version 14\n1..%zu\n", ncases);
	for (size_t i = 0; i < ncases; i++) {
		if (argc > 1 && strstr(cases[i].name, argv[1]) == NULL) {
			printf("ok %zu - %s # SKIP filtered\n", i + 1,
			       cases[i].name);
			continue;
		}
		current_failed = false;
		current_skip = NULL;
		current_name = cases[i].name;
		fflush(stdout);
		cases[i].fn();
		run++;
		if (current_failed)
			failed++;
		printf("%sok %zu - %s%s%s\n", current_failed ? "not " : "",
		       i + 1, cases[i].name,
		       current_skip && !current_failed ? " # SKIP " : "",
		       current_skip && !current_failed ? current_skip : "");
	}
	fflush(stdout);
	return failed ? 1 : 0;
}
