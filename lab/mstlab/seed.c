// SPDX-License-Identifier: MIT
#include "seed.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "spawn.h"

static int write_file(const char *path, const struct sbuf *sb, char *err)
{
	FILE *f = fopen(path, "we");

	if (!f || fputs(sbuf_str(sb), f) < 0 || fclose(f)) {
		ops_fail(err, "cannot write %s: %s", path,
			 strerror(errno));
		return -1;
	}
	return 0;
}

int seed_make(const struct plan *p, int node, const char *run_dir, char *err)
{
	const char *name = p->topo->nodes[node].name;
	char dir[PATH_MAX], ud[PATH_MAX + 16], md[PATH_MAX + 16];
	char img[PATH_MAX + 16], log[PATH_MAX + 32];
	struct sbuf u, m;
	int rc = -1;

	snprintf(dir, sizeof(dir), "%s/seed/%s", run_dir, name);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		ops_fail(err, "cannot create %s: %s", dir,
			 strerror(errno));
		return -1;
	}
	snprintf(ud, sizeof(ud), "%s/user-data", dir);
	snprintf(md, sizeof(md), "%s/meta-data", dir);
	snprintf(img, sizeof(img), "%s.img", dir);
	snprintf(log, sizeof(log), "%s/cloud-localds.log", dir);
	sbuf_init(&u);
	sbuf_init(&m);
	if (plan_user_data(p, node, &u) || plan_meta_data(p, node, &m)) {
		ops_fail(err, "%s: cannot plan the seed", name);
	} else if (!write_file(ud, &u, err) && !write_file(md, &m, err)) {
		char *argv[] = { "cloud-localds", "--filesystem", "vfat", img,
				 ud, md, NULL };
		int st = spawn_run(argv, log, 30000);

		if (st == 0)
			rc = 0;
		else
			ops_fail(err, "cloud-localds failed for "
				 "%s (see %s)%s", name, log, st < 0 && errno ==
				 ENOENT ? ": not installed, run 'make deps'" :
				 "");
	}
	sbuf_free(&u);
	sbuf_free(&m);
	return rc;
}
