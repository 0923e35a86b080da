// SPDX-License-Identifier: MIT
#include "seed.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "child.h"

static int write_file(const char *path, const struct sbuf *sb,
		      struct errbuf *err)
{
	FILE *f = fopen(path, "we");

	if (!f || fputs(sbuf_str(sb), f) < 0 || fclose(f)) {
		errbuf_set(err, "cannot write %s: %s", path,
			   strerror(errno));
		return -1;
	}
	return 0;
}

/* Writes node's user-data and meta-data; fills the cloud-localds argv. */
static int seed_files(const struct plan *p, int node, const char *run_dir,
		      char paths[4][PATH_MAX + 32], struct errbuf *err)
{
	const char *name = p->topo->nodes[node].name;
	struct sbuf u, m;
	int rc = -1;

	snprintf(paths[0], sizeof(paths[0]), "%s/seed/%s", run_dir, name);
	if (mkdir(paths[0], 0755) && errno != EEXIST)
		return errbuf_set(err, "cannot create %s: %s", paths[0],
				  strerror(errno));
	snprintf(paths[1], sizeof(paths[1]), "%s/seed/%s.img", run_dir, name);
	snprintf(paths[2], sizeof(paths[2]), "%s/seed/%s/user-data", run_dir,
		 name);
	snprintf(paths[3], sizeof(paths[3]), "%s/seed/%s/meta-data", run_dir,
		 name);
	sbuf_init(&u);
	sbuf_init(&m);
	if (plan_user_data(p, node, &u) || plan_meta_data(p, node, &m))
		errbuf_set(err, "%s: cannot plan the seed", name);
	else if (!write_file(paths[2], &u, err) &&
		 !write_file(paths[3], &m, err))
		rc = 0;
	sbuf_free(&u);
	sbuf_free(&m);
	return rc;
}

int seed_make_all(const struct plan *p, const char *run_dir, struct errbuf *err)
{
	size_t n = p->topo->n_nodes;
	pid_t *pids = calloc(n ? n : 1, sizeof(*pids));
	char paths[4][PATH_MAX + 32], log[PATH_MAX + 64];
	int rc = 0, status;

	if (!pids)
		return errbuf_set(err, "out of memory");
	/* cloud-localds is a shell script around mkfs.vfat and mcopy: run
	 * one per node at once. */
	for (size_t i = 0; i < n && !rc; i++) {
		char *argv[] = { "cloud-localds", "--filesystem", "vfat",
				 paths[1], paths[2], paths[3], NULL };

		rc = seed_files(p, (int)i, run_dir, paths, err);
		if (rc)
			break;
		snprintf(log, sizeof(log), "%s/seed/%s/cloud-localds.log",
			 run_dir, p->topo->nodes[i].name);
		pids[i] = spawn_bg(argv, log);
		if (pids[i] < 0)
			rc = errbuf_set(err, "cannot run cloud-localds: %s%s",
					strerror(errno), errno == ENOENT ?
					" (run 'make deps')" : "");
	}
	for (size_t i = 0; i < n; i++) {
		if (pids[i] <= 0)
			continue;
		if (!spawn_wait(pids[i], 30000, &status)) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], &status, 0);
		}
		if (!rc && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
			rc = errbuf_set(err, "cloud-localds failed for %s (see "
					"%s/seed/%s/cloud-localds.log)",
					p->topo->nodes[i].name, run_dir,
					p->topo->nodes[i].name);
	}
	free(pids);
	return rc;
}
