// SPDX-License-Identifier: MIT
/* The report files of a run folder, each written whole or not at all. */
#include "report.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *name;
	int (*render)(const struct result_run *r, FILE *out);
} files[] = {
	{ "summary.json", report_json },
	{ "junit.xml", report_junit },
	{ "report.md", report_md },
	{ "report.html", report_html },
};

/* Into a temporary name, then renamed: a reader (CI picking up
 * junit.xml) never sees half a file. */
static int write_one(const struct result_run *r, const char *dir,
		     size_t i, struct errbuf *err)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f;
	int rc, e;

	snprintf(path, sizeof(path), "%s/%s", dir, files[i].name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f) {
		errbuf_set(err, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	/* Say why (a full disk, most often): the first write that failed
	 * left its errno, else the flush at fclose does. */
	errno = 0;
	rc = files[i].render(r, f);
	e = rc || ferror(f) ? errno : 0;
	if (fclose(f) && !e)
		e = errno;
	if (rc || e) {
		errbuf_set(err, "%s: could not write it: %s", tmp,
			   strerror(e ? e : EIO));
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path)) {
		errbuf_set(err, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int report_write_files(const struct result_run *r, const char *dir,
		       struct errbuf *err)
{
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (write_one(r, dir, i, err))
			return -1;
	return 0;
}
