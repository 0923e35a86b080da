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

/* Writes the seed's two files into dir/seed/name/ and names the image
 * dir/seed/name.img: paths = { folder, image, user-data, meta-data }. */
static int seed_files(const char *dir, const char *name, const struct sbuf *u,
		      const struct sbuf *m, char paths[4][PATH_MAX + 32],
		      struct errbuf *err)
{
	snprintf(paths[0], sizeof(paths[0]), "%s/seed/%s", dir, name);
	if (mkdir(paths[0], 0755) && errno != EEXIST)
		return errbuf_set(err, "cannot create %s: %s", paths[0],
				  strerror(errno));
	snprintf(paths[1], sizeof(paths[1]), "%s/seed/%s.img", dir, name);
	snprintf(paths[2], sizeof(paths[2]), "%s/seed/%s/user-data", dir,
		 name);
	snprintf(paths[3], sizeof(paths[3]), "%s/seed/%s/meta-data", dir,
		 name);
	if (write_file(paths[2], u, err) || write_file(paths[3], m, err))
		return -1;
	return 0;
}

/* cloud-localds is a shell script around mkfs.vfat and mcopy: started
 * in the background, one per seed. */
static pid_t localds_start(char paths[4][PATH_MAX + 32], struct errbuf *err)
{
	char *argv[] = { "cloud-localds", "--filesystem", "vfat", paths[1],
			 paths[2], paths[3], NULL };
	char log[PATH_MAX + 64];
	pid_t pid;

	snprintf(log, sizeof(log), "%s/cloud-localds.log", paths[0]);
	pid = spawn_bg(argv, log);
	if (pid < 0)
		errbuf_set(err, "cannot run cloud-localds: %s%s",
			   strerror(errno), errno == ENOENT ?
			   " (run 'make deps')" : "");
	return pid;
}

/* 0 when it made the image; -1 (said in err) otherwise. */
static int localds_wait(pid_t pid, const char *dir, const char *name,
			struct errbuf *err)
{
	int status;

	if (!spawn_wait(pid, 30000, &status)) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	return errbuf_set(err, "cloud-localds failed for %s (see "
			  "%s/seed/%s/cloud-localds.log)", name, dir, name);
}

int seed_make_all(const struct plan *p, const char *run_dir, unsigned host,
		  struct errbuf *err)
{
	size_t n = p->topo->n_nodes;
	pid_t *pids = calloc(n ? n : 1, sizeof(*pids));
	char paths[4][PATH_MAX + 32];
	struct errbuf why;
	int rc = 0;

	if (!pids)
		return errbuf_set(err, "out of memory");
	for (size_t i = 0; i < n && !rc; i++) {
		const char *name = p->topo->nodes[i].name;
		struct sbuf u, m;

		if (p->topo->nodes[i].host != host)
			continue;
		sbuf_init(&u);
		sbuf_init(&m);
		if (plan_user_data(p, (int)i, &u) ||
		    plan_meta_data(p, (int)i, &m))
			rc = errbuf_set(err, "%s: cannot plan the seed", name);
		else
			rc = seed_files(run_dir, name, &u, &m, paths, err);
		sbuf_free(&u);
		sbuf_free(&m);
		if (!rc)
			pids[i] = localds_start(paths, err);
		if (pids[i] < 0)
			rc = -1;
	}
	for (size_t i = 0; i < n; i++)
		if (pids[i] > 0 &&
		    localds_wait(pids[i], run_dir, p->topo->nodes[i].name,
				 &why) && !rc)
			rc = errbuf_set(err, "%s", why.msg);
	free(pids);
	return rc;
}

int seed_make_blank(const char *dir, const char *name, struct errbuf *err)
{
	char paths[4][PATH_MAX + 32], seed[PATH_MAX + 8];
	struct sbuf u, m;
	pid_t pid;
	int rc;

	snprintf(seed, sizeof(seed), "%s/seed", dir);
	if (mkdir(seed, 0755) && errno != EEXIST)
		return errbuf_set(err, "cannot create %s: %s", seed,
				  strerror(errno));
	sbuf_init(&u);
	sbuf_init(&m);
	sbuf_puts(&u, "#!/bin/sh\n");
	sbuf_printf(&m, "instance-id: %s\n", name);
	rc = seed_files(dir, name, &u, &m, paths, err);
	sbuf_free(&u);
	sbuf_free(&m);
	if (rc)
		return -1;
	pid = localds_start(paths, err);
	return pid < 0 ? -1 : localds_wait(pid, dir, name, err);
}
