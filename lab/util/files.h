/* SPDX-License-Identifier: MIT */
/* Folders the host side makes and removes: run folders, the template
 * cache. */
#ifndef MSTLAB_FILES_H
#define MSTLAB_FILES_H

#include "errbuf.h"

/* base, or base/sub, mode 0755; one that exists already is fine. 0, or
 * -1 with why in err. */
int files_mkdir(const char *base, const char *sub, struct errbuf *err);
/* Removes path and all below it, links not followed; a path that is not
 * there is fine. 0, or -1 with errno set. */
int files_rm_tree(const char *path);

#endif
