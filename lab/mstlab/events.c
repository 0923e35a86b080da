// SPDX-License-Identifier: MIT
#include "events.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <time.h>

int events_open(struct events *ev, const char *run_dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/events", run_dir);
	ev->f = fopen(path, "ae");
	return ev->f ? 0 : -1;
}

void events_close(struct events *ev)
{
	if (ev->f)
		fclose(ev->f);
	ev->f = NULL;
}

void events_log(struct events *ev, const char *kind, const char *fmt, ...)
{
	struct timespec ts;
	va_list ap;

	if (!ev->f)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	fprintf(ev->f, "%lld %s",
		(long long)ts.tv_sec * 1000000000LL + ts.tv_nsec, kind);
	if (fmt && *fmt) {
		fputc(' ', ev->f);
		va_start(ap, fmt);
		vfprintf(ev->f, fmt, ap);
		va_end(ap);
	}
	fputc('\n', ev->f);
	fflush(ev->f);
}
