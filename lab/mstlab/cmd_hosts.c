// SPDX-License-Identifier: MIT
#include "cmd_hosts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hosts_check.h"
#include "opts.h"
#include "print.h"
#include "topo.h"

enum { O_URI = 256, O_JSON };

static const struct opt hosts_opts[] = {
	OPT_VALUE("uri", O_URI), OPT_FLAG("json", O_JSON),
	{ 0 },
};

static const struct opt_spec hosts_spec = {
	.opts = hosts_opts, .shorts = "j", .flags = OPT_QUIET,
	.min_words = 2, .max_words = OPT_ANY,
};

/* The report as JSON: {"items":[{host, what, verdict, seen, fix}],
 * "failed":bool}, for a CI step that reads it. */
static void print_json(const struct hc_report *r, FILE *out)
{
	static const char *const verdict[] = { "ok", "warn", "fail" };
	struct printer pr;

	print_init(&pr, out, true);
	print_open_object(&pr, NULL);
	print_open_array(&pr, "items");
	for (size_t i = 0; i < r->n; i++) {
		const struct hc_item *it = &r->item[i];

		print_open_object(&pr, NULL);
		print_string(&pr, PRINT_JSON, "host", NULL, it->host);
		print_string(&pr, PRINT_JSON, "what", NULL, it->what);
		print_string(&pr, PRINT_JSON, "verdict", NULL,
			     verdict[it->v]);
		print_string(&pr, PRINT_JSON, "seen", NULL, it->seen);
		if (it->fix[0])
			print_string(&pr, PRINT_JSON, "fix", NULL, it->fix);
		print_close_object(&pr);
	}
	print_close_array(&pr);
	print_bool(&pr, PRINT_JSON, "failed", NULL, hc_failed(r));
	print_close_object(&pr);
	fputc('\n', out);
}

/* The file whole (its agent is sent the same bytes): malloc'd, or NULL. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n == cap) {
			char *b = cap < (1u << 20) ? realloc(buf, cap + 65536)
						   : NULL;

			if (!b) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
			cap += 65536;
		}
		size_t got = fread(buf + n, 1, cap - n, f);

		n += got;
		if (!got)
			break;
	}
	fclose(f);
	*len = n;
	return buf;
}

int cmd_hosts(int argc, char **argv, FILE *out, FILE *err)
{
	const char *uri = getenv("MSTLAB_URI"), *path;
	bool want[TOPO_MAX_HOSTS] = { false };
	struct hc_report *r;
	struct topo_error te;
	struct errbuf msg;
	struct topo *t;
	struct opts o;
	char why[160], *text;
	size_t len = 0;
	bool json = false;
	int k, rc;

	opts_start(&o, &hosts_spec, argc, argv);
	while ((k = opts_next(&o)) > 0)
		if (k == O_URI)
			uri = o.arg;
		else
			json = true;	/* --json, -j */
	if (k == OPT_BAD || strcmp(argv[o.ind], "check")) {
		fprintf(err, "mstlab hosts: %s\nusage: mstlab %s\n",
			k == OPT_BAD ? opts_why(&o, why, sizeof(why)) :
			"the one subcommand is check", HOSTS_USAGE);
		return 2;
	}
	path = argv[o.ind + 1];
	text = slurp(path, &len);
	if (!text) {
		fprintf(err, "mstlab hosts check: cannot read %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	if (topo_parse_buffer(path, text, len, &t, &te)) {
		fprintf(err, "%s\n", topo_error_format(&te, &msg));
		free(text);
		return 1;
	}
	/* HOST words: only those; none: every host the lab uses. */
	for (int i = o.ind + 2; i < argc; i++) {
		int h = topo_host_find(t, argv[i]);

		if (h < 0) {
			fprintf(err, "mstlab hosts check: lab %s has no host "
				"%s\n", t->name, argv[i]);
			topo_free(t);
			free(text);
			return 2;
		}
		want[h] = true;
	}
	if (o.ind + 2 == argc)
		for (size_t h = 0; h < t->n_hosts; h++)
			want[h] = h == TOPO_LOCAL_HOST ||
				  topo_host_used(t, h);
	r = malloc(sizeof(*r));
	if (!r) {
		topo_free(t);
		free(text);
		return 1;
	}
	hosts_check(t, text, len, want, uri && *uri ? uri : "qemu:///system",
		    r, err);
	rc = hc_failed(r);
	if (json) {
		print_json(r, out);
	} else {
		hc_print(r, out);
		fprintf(out, "%s\n", rc ? "something a lab across these "
			"hosts needs is missing: FAIL above" :
			"nothing missing");
	}
	free(r);
	topo_free(t);
	free(text);
	return rc;
}
