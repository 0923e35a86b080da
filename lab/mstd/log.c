// SPDX-License-Identifier: MIT
/* mstd's log lines and port lookups: no OS state, so unit tests link it. */
#include "daemon.h"

#include <stdarg.h>
#include <string.h>
#include <time.h>

static const char *const level_name[] = { "error", "info", "debug" };

void mstd_log(struct mstd *d, enum mstp_log_level level, const char *fmt, ...)
{
	struct timespec ts;
	struct tm tm;
	va_list ap;

	if (level > d->log_level || !d->logf)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	fprintf(d->logf, "%02d:%02d:%02d.%03ld mstd[%s] %s: ", tm.tm_hour,
		tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000, d->conf.bridge,
		level_name[level]);
	va_start(ap, fmt);
	vfprintf(d->logf, fmt, ap);
	va_end(ap);
	fputc('\n', d->logf);
	/* Errors at once (an exit may follow); the rest when the event
	 * that caused them is handled (mstd_log_flush): in a lab the log
	 * is a 9p file, and a write per line would delay a failover. */
	if (level == MSTP_LOG_ERR)
		fflush(d->logf);
}

void mstd_log_flush(struct mstd *d)
{
	if (d->logf)
		fflush(d->logf);
}

int mstd_port_by_ifindex(const struct mstd *d, int ifindex)
{
	for (unsigned int i = 0; i < d->nports; i++)
		if (d->ports[i].ifindex == ifindex && ifindex > 0)
			return (int)i;
	return -1;
}

int mstd_port_by_name(const struct mstd *d, const char *name)
{
	for (unsigned int i = 0; i < d->nports; i++)
		if (!strcmp(d->ports[i].name, name))
			return (int)i;
	return -1;
}

