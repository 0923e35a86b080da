// SPDX-License-Identifier: MIT
#include "registry.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topo.h"

static void labs_dir(char *out, size_t len)
{
	const char *top = getenv("MSTLAB_RUNTIME_DIR");

	snprintf(out, len, "%s/labs", top && top[0] ? top : "/run/mstlab");
}

static void entry_path(const char *lab, char *out, size_t len)
{
	char dir[PATH_MAX - 32];

	labs_dir(dir, sizeof(dir));
	snprintf(out, len, "%s/%s", dir, lab);
}

/* mkdir -p of the labs folder (two levels at most below an existing
 * parent: /run/mstlab/labs). */
static int make_labs_dir(struct errbuf *err)
{
	char dir[PATH_MAX], *slash;

	labs_dir(dir, sizeof(dir));
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return errbuf_set(err, "cannot create %s: %s", dir,
					  strerror(errno));
		*slash = '/';
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		return errbuf_set(err, "cannot create %s: %s", dir,
				  strerror(errno));
	return 0;
}

int registry_find(const char *lab, char *run_dir, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;

	entry_path(lab, path, sizeof(path));
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return -1;
	target[n] = '\0';
	/* Only an absolute path to a run folder of this lab. */
	base = strrchr(target, '/');
	if (target[0] != '/' || !base || strncmp(base + 1, lab, strlen(lab)) ||
	    base[1 + strlen(lab)] != '-' || (size_t)n >= len)
		return -1;
	memcpy(run_dir, target, (size_t)n + 1);
	return 0;
}

int registry_claim(const char *lab, const char *run_dir, struct errbuf *err)
{
	char path[PATH_MAX], cur[PATH_MAX];

	if (run_dir[0] != '/')
		return errbuf_set(err, "run folder %s is not absolute",
				  run_dir);
	if (make_labs_dir(err))
		return -1;
	entry_path(lab, path, sizeof(path));
	if (symlink(run_dir, path) == 0)
		return 0;
	if (errno != EEXIST)
		return errbuf_set(err, "cannot create %s: %s", path,
				  strerror(errno));
	if (registry_find(lab, cur, sizeof(cur)))
		snprintf(cur, sizeof(cur), "%s", path);
	return errbuf_set(err, "lab %s is already up (run %s): 'mstlab down "
			  "%s' first", lab, cur, lab);
}

void registry_release(const char *lab, const char *run_dir)
{
	char path[PATH_MAX], cur[PATH_MAX];

	if (registry_find(lab, cur, sizeof(cur)) == 0 &&
	    strcmp(cur, run_dir) == 0) {
		entry_path(lab, path, sizeof(path));
		unlink(path);
	}
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int registry_each(void (*fn)(void *ctx, const char *lab, const char *run_dir,
			     time_t since),
		  void *ctx)
{
	char dir[PATH_MAX - 32], path[PATH_MAX], run_dir[PATH_MAX];
	struct dirent **names;
	struct stat st;
	int n;

	labs_dir(dir, sizeof(dir));
	n = scandir(dir, &names, NULL, by_name);
	if (n < 0)
		return errno == ENOENT ? 0 : -1;
	for (int i = 0; i < n; i++) {
		const char *lab = names[i]->d_name;

		if (lab[0] != '.' && strlen(lab) <= TOPO_LAB_NAME_MAX &&
		    (size_t)snprintf(path, sizeof(path), "%s/%.*s", dir,
				     TOPO_LAB_NAME_MAX, lab) < sizeof(path) &&
		    lstat(path, &st) == 0 &&
		    S_ISLNK(st.st_mode)) {
			if (registry_find(lab, run_dir, sizeof(run_dir)))
				run_dir[0] = '\0';
			fn(ctx, lab, run_dir, st.st_mtime);
		}
		free(names[i]);
	}
	free(names);
	return 0;
}
