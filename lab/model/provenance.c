// SPDX-License-Identifier: MIT
#include "provenance.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void provenance_kernel(struct provenance_node *n, const char *bzimage)
{
	char id[BUILD_ID_LEN];
	size_t rel;

	n->release[0] = n->series[0] = '\0';
	if (build_id_kernel(bzimage, id, sizeof(id)))
		return;
	/* "6.1.158 #1a2b3c4d": the release, then the series if any. */
	rel = strcspn(id, " ");
	snprintf(n->release, sizeof(n->release), "%.*s", (int)rel, id);
	if (id[rel])
		snprintf(n->series, sizeof(n->series), "%s", id + rel + 1);
}

static json_t *str_or_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

json_t *provenance_json(const struct provenance *pv)
{
	json_t *nodes = json_array();

	for (size_t i = 0; i < pv->n_nodes; i++) {
		const struct provenance_node *n = &pv->nodes[i];

		json_array_append_new(nodes, json_pack(
			"{s:s, s:o, s:o, s:o, s:o, s:o, s:o}", "name", n->name,
			"host", str_or_null(n->host), "virt",
			str_or_null(n->virt), "kernel", str_or_null(n->kernel),
			"release", str_or_null(n->release), "series",
			str_or_null(n->series), "image", str_or_null(n->image)));
	}
	return json_pack("{s:o, s:o}", "mstlab", str_or_null(pv->mstlab),
			 "nodes", nodes);
}

int provenance_save(const struct provenance *pv, const char *run_dir,
		    struct errbuf *err)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	json_t *o = provenance_json(pv);
	int rc;

	snprintf(path, sizeof(path), "%s/%s", run_dir, PROVENANCE_FILE);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (!o)
		return errbuf_set(err, "%s: out of memory", path);
	rc = json_dump_file(o, tmp, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (rc || rename(tmp, path)) {
		unlink(tmp);
		return errbuf_set(err, "%s: could not write it", path);
	}
	return 0;
}

/* A string member of o into buf ("" for null or absent); false when it
 * is something else or too long. */
static bool member(json_t *o, const char *key, char *buf, size_t len)
{
	json_t *v = json_object_get(o, key);

	buf[0] = '\0';
	if (!v || json_is_null(v))
		return true;
	if (!json_is_string(v) || json_string_length(v) >= len)
		return false;
	snprintf(buf, len, "%s", json_string_value(v));
	return true;
}

#define MEMBER(o, key, field) member(o, key, field, sizeof(field))

int provenance_load(struct provenance *pv, const char *run_dir,
		    struct errbuf *err)
{
	char path[PATH_MAX];
	json_error_t je;
	json_t *o, *nodes, *n;
	size_t i;
	bool ok;

	memset(pv, 0, sizeof(*pv));
	snprintf(path, sizeof(path), "%s/%s", run_dir, PROVENANCE_FILE);
	o = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!o && je.line < 1)
		return errbuf_set(err, "%s", je.text);	/* names the file */
	if (!o)
		return errbuf_set(err, "%s:%d:%d: %s", path, je.line,
				  je.column, je.text);
	nodes = json_object_get(o, "nodes");
	ok = MEMBER(o, "mstlab", pv->mstlab) && json_is_array(nodes) &&
	     json_array_size(nodes) <= TOPO_MAX_NODES;
	json_array_foreach(nodes, i, n) {
		struct provenance_node *pn = &pv->nodes[i];

		if (!ok)
			break;
		ok = json_is_object(n) && MEMBER(n, "name", pn->name) &&
		     MEMBER(n, "host", pn->host) &&
		     MEMBER(n, "virt", pn->virt) &&
		     MEMBER(n, "kernel", pn->kernel) &&
		     MEMBER(n, "release", pn->release) &&
		     MEMBER(n, "series", pn->series) &&
		     MEMBER(n, "image", pn->image);
		pv->n_nodes = i + 1;
	}
	json_decref(o);
	if (!ok) {
		memset(pv, 0, sizeof(*pv));
		return errbuf_set(err, "%s: not what mstlab writes there",
				  path);
	}
	return 0;
}
