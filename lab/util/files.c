// SPDX-License-Identifier: MIT
#include "files.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int files_mkdir(const char *base, const char *sub, struct errbuf *err)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s%s%s", base, sub ? "/" : "",
		 sub ? sub : "");
	if (mkdir(path, 0755) && errno != EEXIST)
		return errbuf_set(err, "cannot create %s: %s", path,
				  strerror(errno));
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

int files_rm_tree(const char *path)
{
	if (access(path, F_OK))
		return 0;
	return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}
