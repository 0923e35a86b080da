// SPDX-License-Identifier: MIT
/* The event log's writer: one function per kind, one format each. */
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

/* "<ns> <kind> <args>\n", flushed: a watcher reads it at once. */
static void put(struct events *ev, int64_t ns, enum event_kind kind,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void put(struct events *ev, int64_t ns, enum event_kind kind,
		const char *fmt, ...)
{
	va_list ap;

	if (!ev->f)
		return;
	fprintf(ev->f, "%lld %s ", (long long)ns, event_kind_name(kind));
	va_start(ap, fmt);
	vfprintf(ev->f, fmt, ap);
	va_end(ap);
	fputc('\n', ev->f);
	fflush(ev->f);
}

void events_run_start(struct events *ev, const char *lab)
{
	put(ev, events_now(), EVENT_RUN_START, "%s", lab);
}

void events_ready(struct events *ev, double seconds)
{
	put(ev, events_now(), EVENT_READY, "%.3f", seconds);
}

void events_link_down(struct events *ev, int64_t ns, unsigned link,
		      enum topo_fail_mode mode)
{
	put(ev, ns, EVENT_LINK_DOWN, "link%u %s", link,
	    mode == TOPO_FAIL_SILENT ? "silent" : "carrier");
}

void events_link_down_oneway(struct events *ev, int64_t ns, unsigned link,
			     const char *deaf)
{
	put(ev, ns, EVENT_LINK_DOWN, "link%u silent deaf %s", link, deaf);
}

void events_link_up(struct events *ev, int64_t ns, unsigned link)
{
	put(ev, ns, EVENT_LINK_UP, "link%u", link);
}

void events_converged(struct events *ev, double seconds)
{
	put(ev, events_now(), EVENT_CONVERGED, "%.3f", seconds);
}

void events_impair(struct events *ev, unsigned link, const char *delay,
		   const char *loss)
{
	put(ev, events_now(), EVENT_IMPAIR, "link%u delay %s loss %s", link,
	    delay, loss);
}

void events_probe_start(struct events *ev, unsigned flow, const char *from,
			const char *to, unsigned vid, unsigned pps)
{
	put(ev, events_now(), EVENT_PROBE_START, "%u %s %s %u %u", flow, from,
	    to, vid, pps);
}

void events_probe_stop(struct events *ev, unsigned flow)
{
	put(ev, events_now(), EVENT_PROBE_STOP, "%u", flow);
}

void events_mark(struct events *ev, const char *label)
{
	put(ev, events_now(), EVENT_MARK, "%s", label);
}

void events_scenario(struct events *ev, const char *name)
{
	put(ev, events_now(), EVENT_SCENARIO, "%s", name);
}

void events_step(struct events *ev, size_t n, const char *text)
{
	put(ev, events_now(), EVENT_STEP, "%zu %s", n, text);
}

void events_step_failed(struct events *ev, size_t n)
{
	put(ev, events_now(), EVENT_STEP_FAILED, "%zu", n);
}

void events_run_end(struct events *ev, bool failed)
{
	put(ev, events_now(), EVENT_RUN_END, "%s", failed ? "fail" : "ok");
}
