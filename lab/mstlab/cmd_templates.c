// SPDX-License-Identifier: MIT
/* mstlab templates: the cache of guest templates (template.h). */
#include "cmd_templates.h"

#include <stdlib.h>
#include <string.h>

#include "lab_args.h"
#include "paths.h"
#include "runtime.h"
#include "template.h"

static int usage(FILE *err, const char *why)
{
	fprintf(err, "mstlab templates: %s\nusage: mstlab " TEMPLATES_USAGE
		"\n", why);
	return 2;
}

/* The cache of this mstlab (paths.h), without a topology. */
static int cache_dir(char *out, size_t len, FILE *err)
{
	struct paths ps;
	int r = paths_find(&ps);

	if (r) {
		fprintf(err, "mstlab: cannot work out the build folder: %s\n",
			strerror(-r));
		return -1;
	}
	snprintf(out, len, "%s/templates", ps.cache);
	return 0;
}

/* Every template the topology's nodes come from, the missing ones built
 * (autodestroy: a template being built never outlives us); each node's
 * on out. */
static int build_for(struct runtime *rt, FILE *out)
{
	size_t n = rt->t->n_nodes;
	char (*keys)[TPL_KEY_LEN + 1] = calloc(n ? n : 1, sizeof(*keys));
	char cache[PATH_MAX + 16];
	struct plan_params pp;
	struct plan *p = NULL;
	struct errbuf why;
	int rc = 1;

	if (keys && !runtime_start(rt, true, &pp) && !plan_build(rt->t, &p)) {
		runtime_template_cache(rt, cache, sizeof(cache));
		/* Another host's nodes come from its own templates, which
		 * its agent builds there at up. */
		rc = tpl_prepare(&rt->ops, p, &pp, cache, TOPO_LOCAL_HOST, NULL,
				 rt->err, keys, &why) ? 1 : 0;
		if (rc)
			fprintf(rt->err, "mstlab: %s\n", why.msg);
		for (size_t i = 0; !rc && i < n; i++) {
			unsigned h = rt->t->nodes[i].host;

			if (h != TOPO_LOCAL_HOST &&
			    plan_node_templated(p, (int)i))
				fprintf(out, "%s: on host %s (its template is "
					"built there by up)\n",
					rt->t->nodes[i].name,
					rt->t->hosts[h].name);
			else
				fprintf(out, "%s: %s\n", rt->t->nodes[i].name,
					keys[i][0] ? keys[i] :
					"boots cold (no template)");
		}
	}
	free(keys);
	plan_free(p);
	return rc;
}

/* templates build: its messages name it so. */
static int build(int argc, char **argv, FILE *out, FILE *err)
{
	char **v = calloc((size_t)argc + 1, sizeof(*v));
	struct runtime rt;
	int rc;

	if (!v)
		return 1;
	memcpy(v, argv, (size_t)argc * sizeof(*v));
	v[0] = "templates build";
	rc = lab_args_parse(&rt, argc, v, out, err, "templates build TOPO.yaml "
			   "[--virt auto|qemu|kvm]");
	if (!rc)
		rc = build_for(&rt, out);
	runtime_free(&rt);
	free(v);
	return rc;
}

int cmd_templates(int argc, char **argv, FILE *out, FILE *err)
{
	char cache[PATH_MAX + 16];
	int n;

	if (argc < 2)
		return usage(err, "list, build or clear?");
	if (!strcmp(argv[1], "build"))
		return build(argc - 1, argv + 1, out, err);
	if (strcmp(argv[1], "list") && strcmp(argv[1], "clear"))
		return usage(err, "list, build or clear?");
	if (argc > 2)
		return usage(err, "list and clear take nothing more");
	if (cache_dir(cache, sizeof(cache), err))
		return 1;
	if (!strcmp(argv[1], "list"))
		return tpl_list(cache, out) ? 1 : 0;
	n = tpl_clear(cache, err);
	if (n < 0)
		return 1;
	fprintf(out, "%d template%s removed from %s\n", n, n == 1 ? "" : "s",
		cache);
	return 0;
}
