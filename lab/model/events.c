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

int64_t events_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void vlog(struct events *ev, int64_t ns, const char *kind,
		 const char *fmt, va_list ap)
{
	if (!ev->f)
		return;
	fprintf(ev->f, "%lld %s", (long long)ns, kind);
	if (fmt && *fmt) {
		fputc(' ', ev->f);
		vfprintf(ev->f, fmt, ap);
	}
	fputc('\n', ev->f);
	fflush(ev->f);
}

void events_log(struct events *ev, const char *kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(ev, events_now(), kind, fmt, ap);
	va_end(ap);
}

void events_log_at(struct events *ev, int64_t ns, const char *kind,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(ev, ns, kind, fmt, ap);
	va_end(ap);
}
