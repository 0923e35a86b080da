// SPDX-License-Identifier: MIT
#include "tools_share.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

const char *tools_share_dir(const char *initrd, char *buf, size_t len)
{
	const char *slash = strrchr(initrd, '/');
	const char *name = slash ? slash + 1 : initrd;
	size_t stem = strcspn(name, ".");
	struct stat st;
	int n;

	n = snprintf(buf, len, "%.*s%.*s.tools", (int)(name - initrd), initrd,
		     (int)stem, name);
	if (n < 0 || (size_t)n >= len || stat(buf, &st) || !S_ISDIR(st.st_mode))
		return NULL;
	return buf;
}
