// SPDX-License-Identifier: MIT
#include "cmd_list.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lab_list.h"
#include "opts.h"
#include "print.h"

enum { O_JSON = 256 };

static const struct opt list_opts[] = {
	OPT_FLAG("json", O_JSON),
	{ 0 },
};

static const struct opt_spec list_spec = {
	.opts = list_opts, .shorts = "j", .flags = OPT_QUIET,
	.min_words = 0, .max_words = 0,
};

/* 45s, 12m, 3h, 2d: how long ago, to the unit that reads best. */
static void age_text(long long s, char *out, size_t len)
{
	if (s < 0)
		s = 0;
	if (s < 120)
		snprintf(out, len, "%llds", s);
	else if (s < 2 * 3600)
		snprintf(out, len, "%lldm", s / 60);
	else if (s < 2 * 86400)
		snprintf(out, len, "%lldh", s / 3600);
	else
		snprintf(out, len, "%lldd", s / 86400);
}

/* "a b c" as a JSON array of words (text mode: as it is). */
static void words(struct printer *pr, const char *key, const char *text,
		  const char *fmt)
{
	char copy[512], *save = NULL;

	print_string(pr, PRINT_FP, NULL, fmt, text[0] ? text : "-");
	print_open_array(pr, key);
	snprintf(copy, sizeof(copy), "%s", text);
	for (char *w = strtok_r(copy, " ", &save); w;
	     w = strtok_r(NULL, " ", &save))
		print_string(pr, PRINT_JSON, NULL, NULL, w);
	print_close_array(pr);
}

int cmd_list(int argc, char **argv, FILE *out, FILE *err)
{
	struct lab_entry *v;
	struct printer pr;
	struct errbuf e;
	struct opts o;
	bool json = false;
	char why[160], age[24];
	time_t now = time(NULL);
	size_t n;
	int k;

	opts_start(&o, &list_spec, argc, argv);
	while ((k = opts_next(&o)) > 0)
		json |= k == O_JSON || k == 'j';
	if (k == OPT_BAD) {
		fprintf(err, "mstlab list: %s\nusage: mstlab %s\n",
			opts_why(&o, why, sizeof(why)), LIST_USAGE);
		return 2;
	}
	if (lab_list(&v, &n, &e)) {
		fprintf(err, "mstlab list: %s\n", e.msg);
		return 1;
	}
	print_init(&pr, out, json);
	if (!json && n)
		fprintf(out, "%-12s %-24s %5s %-16s %-14s %5s  %s\n", "LAB",
			"STATE", "NODES", "HOSTS", "KERNELS", "AGE", "RUN");
	print_open_array(&pr, NULL);
	for (size_t i = 0; i < n; i++) {
		age_text((long long)(now - v[i].since), age, sizeof(age));
		print_open_object(&pr, NULL);
		print_string(&pr, PRINT_ANY, "lab", "%-12s", v[i].name);
		print_string(&pr, PRINT_ANY, "state", " %-24s", v[i].state);
		print_uint(&pr, PRINT_ANY, "nodes", " %5u",
			   (unsigned)v[i].nodes);
		words(&pr, "hosts", v[i].hosts, " %-16s");
		words(&pr, "kernels", v[i].kernels, " %-14s");
		print_string(&pr, PRINT_FP, NULL, " %5s", age);
		print_u64(&pr, PRINT_JSON, "since", NULL,
			  (uint64_t)v[i].since);
		print_string(&pr, PRINT_ANY, "run", "  %s\n",
			     v[i].run_dir[0] ? v[i].run_dir : "-");
		print_close_object(&pr);
	}
	print_close_array(&pr);
	if (!json && !n)
		fprintf(out, "no lab is up on this host\n");
	free(v);
	return 0;
}
