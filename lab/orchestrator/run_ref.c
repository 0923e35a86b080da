// SPDX-License-Identifier: MIT
#include "run_ref.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errbuf.h"
#include "registry.h"

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* TOPO.yaml and LAB name the lab's current run; a run folder can be
 * named itself. */
static int find_dir(struct run_ref *r, const char *what, FILE *err)
{
	char topo[PATH_MAX + 32];
	struct errbuf msg;
	struct topo_error te;
	struct topo *t;
	size_t n = strlen(what);

	snprintf(topo, sizeof(topo), "%s/topology.yaml", what);
	if (is_dir(what) && access(topo, R_OK) == 0) {
		if (realpath(what, r->run_dir))
			return 0;
		fprintf(err, "mstlab: %s: %s\n", what, strerror(errno));
		return 1;
	}
	if ((n > 5 && !strcmp(what + n - 5, ".yaml")) ||
	    (n > 4 && !strcmp(what + n - 4, ".yml")) || strchr(what, '/')) {
		if (topo_parse_file(what, &t, &te)) {
			fprintf(err, "%s\n", topo_error_format(&te, &msg));
			return 1;
		}
		snprintf(r->lab, sizeof(r->lab), "%s", t->name);
		topo_free(t);
	} else {
		snprintf(r->lab, sizeof(r->lab), "%s", what);
	}
	if (!topo_valid_lab_name(r->lab) ||
	    registry_find(r->lab, r->run_dir, sizeof(r->run_dir))) {
		fprintf(err, "mstlab: lab %s is not up: 'mstlab up' or 'mstlab "
			"run' it first\n", r->lab);
		return 1;
	}
	return 0;
}

int run_ref_find(struct run_ref *r, const char *what, FILE *err)
{
	char topo[PATH_MAX + 32];
	struct errbuf msg;
	struct topo_error te;

	memset(r, 0, sizeof(*r));
	if (find_dir(r, what, err))
		return 1;
	snprintf(topo, sizeof(topo), "%s/topology.yaml", r->run_dir);
	if (topo_parse_file(topo, &r->t, &te)) {
		fprintf(err, "%s\n", topo_error_format(&te, &msg));
		return 1;
	}
	snprintf(r->lab, sizeof(r->lab), "%s", r->t->name);
	r->live = run_ref_still_up(r);
	return 0;
}

bool run_ref_still_up(const struct run_ref *r)
{
	char cur[PATH_MAX];

	return registry_find(r->lab, cur, sizeof(cur)) == 0 &&
	       strcmp(cur, r->run_dir) == 0;
}

void run_ref_free(struct run_ref *r)
{
	topo_free(r->t);
	r->t = NULL;
}
