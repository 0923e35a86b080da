// SPDX-License-Identifier: MIT
#include "state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "child.h"

int state_open(struct state *st, const char *run_dir, struct errbuf *err)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/state", run_dir);
	st->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (st->fd < 0) {
		errbuf_set(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

void state_close(struct state *st)
{
	if (st->fd >= 0)
		close(st->fd);
	st->fd = -1;
}

int state_add(struct state *st, struct errbuf *err, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line) - 1) {
		errbuf_set(err, "state line too long");
		return -1;
	}
	line[n++] = '\n';
	if (write(st->fd, line, (size_t)n) != n || fdatasync(st->fd) < 0) {
		errbuf_set(err, "cannot write the state file: %s",
			   strerror(errno));
		return -1;
	}
	return 0;
}

/* A capture recorded without its pid (killed between the two lines):
 * the tcpdump writing exactly that file, found by its argv. */
static pid_t find_capture(const char *pcap, uint64_t *start)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		char path[300], argv[8192];
		size_t n;
		FILE *f;
		int pid = atoi(e->d_name);

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
		f = fopen(path, "re");
		if (!f)
			continue;
		n = fread(argv, 1, sizeof(argv) - 1, f);
		fclose(f);
		argv[n] = 0;
		if (strcmp(argv, "tcpdump") != 0)
			continue;
		for (size_t i = 0; i + 1 < n; i += strlen(argv + i) + 1)
			if (strcmp(argv + i, "-w") == 0 &&
			    i + 3 <= n && strcmp(argv + i + 3, pcap) == 0)
				found = pid;
	}
	closedir(d);
	if (found)
		*start = proc_start_time(found);
	return found;
}

struct rec {
	char kind[16], a[256], b[4096];
	uint64_t pid, start;
};

static int undo(const struct rec *r, const struct rec *all, size_t n,
		const struct lab_ops *ops, FILE *log)
{
	struct errbuf err = { "" };
	int rc = 0;

	/* "domain NAME HOST", "tap NAME HOST": another host's, through its
	 * tables (ops.h: host). */
	if (r->b[0] && (!strcmp(r->kind, "domain") || !strcmp(r->kind, "tap"))) {
		ops = ops->host ? ops->host(ops->host_ctx, r->b, &err) : NULL;
		if (!ops) {
			fprintf(log, "mstlab: could not remove %s %s on host "
				"%s: %s\n", r->kind, r->a, r->b,
				err.msg[0] ? err.msg : "no way to reach it");
			return 1;
		}
	}
	if (strcmp(r->kind, "domain") == 0) {
		rc = ops->hv->destroy(ops->hv_ctx, r->a, &err);
	} else if (strcmp(r->kind, "bridge") == 0 ||
		   strcmp(r->kind, "tunnel") == 0 ||
		   strcmp(r->kind, "tap") == 0) {
		rc = ops->link->remove(ops->link_ctx, r->a, &err);
	} else if (strcmp(r->kind, "capture-pid") == 0) {
		rc = ops->cap->stop(ops->cap_ctx, (pid_t)r->pid, r->start,
				    &err);
	} else if (strcmp(r->kind, "capture") == 0) {
		uint64_t start = 0;
		pid_t pid;

		for (size_t i = 0; i < n; i++)
			if (strcmp(all[i].kind, "capture-pid") == 0 &&
			    strcmp(all[i].a, r->a) == 0)
				return 0;	/* stopped by its pid line */
		pid = find_capture(r->b, &start);
		if (pid)
			rc = ops->cap->stop(ops->cap_ctx, pid, start, &err);
	} else {
		return 0;	/* said once, by undo_phases() */
	}
	if (rc)
		fprintf(log, "mstlab: could not remove %s %s: %s\n", r->kind,
			r->a, err.msg);
	return rc ? 1 : 0;
}

/*
 * Teardown goes in phases, each last-created first: the domains (with
 * them go the taps libvirt made), then the captures (they saw the
 * domains' last frames), then the links' interfaces. Domains and
 * captures are stopped all at once, each in a thread: each waits on
 * something else (libvirt, a process's exit). One progress line a phase.
 */
enum phase { PHASE_DOMAINS, PHASE_CAPTURES, PHASE_LINKS, PHASES };

static int phase_of(const struct rec *r)
{
	if (!strcmp(r->kind, "domain"))
		return PHASE_DOMAINS;
	if (!strcmp(r->kind, "capture") || !strcmp(r->kind, "capture-pid"))
		return PHASE_CAPTURES;
	if (!strcmp(r->kind, "bridge") || !strcmp(r->kind, "tunnel") ||
	    !strcmp(r->kind, "tap"))
		return PHASE_LINKS;
	return -1;
}

/* "forget KIND NAME" follows a record whose creation failed: the name
 * may belong to someone else (another lab of the same name). */
static bool forgotten(struct rec *recs, size_t n, size_t i)
{
	for (size_t k = i + 1; k < n; k++)
		if (!strcmp(recs[k].kind, "forget") &&
		    !strcmp(recs[k].a, recs[i].kind) &&
		    !strcmp(recs[k].b, recs[i].a)) {
			recs[k].kind[0] = 0;	/* used up */
			return true;
		}
	return false;
}

struct undo_job {
	pthread_t thread;
	bool threaded;
	const struct rec *r, *all;
	size_t n;
	const struct lab_ops *ops;
	FILE *log;
	int failed;
};

static void *undo_thread(void *arg)
{
	struct undo_job *j = arg;

	j->failed = undo(j->r, j->all, j->n, j->ops, j->log);
	return NULL;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int undo_phases(struct rec *recs, size_t n, const struct lab_ops *ops,
		       FILE *log)
{
	static const char *const done[PHASES] = {
		"domain%s destroyed", "capture%s stopped",
		"interface%s removed" };
	struct undo_job *jobs = calloc(n ? n : 1, sizeof(*jobs));
	bool *skip = calloc(n ? n : 1, sizeof(*skip));
	int failed = 0;

	if (!jobs || !skip) {
		free(jobs);
		free(skip);
		return -1;
	}
	/* Decided once, last first, as the records were made. */
	for (size_t i = n; i-- > 0;)
		skip[i] = !strcmp(recs[i].kind, "forget") ||
			  !recs[i].kind[0] || forgotten(recs, n, i);
	for (int ph = 0; ph < PHASES; ph++) {
		size_t m = 0, count = 0, not_done = 0;
		long long t0 = now_ms();

		for (size_t i = n; i-- > 0;) {
			struct undo_job *j = &jobs[m];

			if (skip[i] || phase_of(&recs[i]) != ph)
				continue;
			*j = (struct undo_job){ .r = &recs[i], .all = recs,
						.n = n, .ops = ops, .log = log };
			/* Links one after the other, in order; the others
			 * at once. */
			j->threaded = ph != PHASE_LINKS &&
				      !pthread_create(&j->thread, NULL,
						      undo_thread, j);
			if (!j->threaded)
				undo_thread(j);
			m++;
		}
		for (size_t k = 0; k < m; k++) {
			if (jobs[k].threaded)
				pthread_join(jobs[k].thread, NULL);
			failed += jobs[k].failed;
			/* A capture's process is its capture's part. */
			if (strcmp(jobs[k].r->kind, "capture-pid"))
				*(jobs[k].failed ? &not_done : &count) += 1;
		}
		/* What was undone, not what was tried: the rest is said
		 * above, one line each. */
		if (count || not_done) {
			fprintf(log, "mstlab: down: %zu ", count);
			fprintf(log, done[ph], count == 1 ? "" : "s");
			if (not_done)
				fprintf(log, ", %zu not", not_done);
			fprintf(log, " (%.1f s)\n", (now_ms() - t0) / 1000.0);
		}
	}
	for (size_t i = 0; i < n; i++)
		if (!skip[i] && phase_of(&recs[i]) < 0 &&
		    strcmp(recs[i].kind, "host"))	/* lab_hosts_down's */
			fprintf(log, "mstlab: state: unknown record '%s' "
				"ignored\n", recs[i].kind);
	free(jobs);
	free(skip);
	return failed;
}

int state_teardown(const char *run_dir, const struct lab_ops *ops, FILE *log)
{
	char path[PATH_MAX], line[4500];
	struct rec *recs = NULL;
	size_t n = 0, cap = 0;
	int failed = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/state", run_dir);
	f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT)
			return 0;	/* nothing was ever created */
		fprintf(log, "mstlab: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct rec r = { 0 };
		int got;

		line[strcspn(line, "\n")] = 0;
		got = sscanf(line, "%15s %255s %4095s", r.kind, r.a, r.b);
		if (got < 2)
			continue;	/* a torn last line: never created */
		if (strcmp(r.kind, "capture-pid") == 0 &&
		    sscanf(line, "%*s %*s %" SCNu64 " %" SCNu64, &r.pid,
			   &r.start) != 2)
			continue;
		if (n == cap) {
			struct rec *m;

			cap = cap ? cap * 2 : 32;
			m = realloc(recs, cap * sizeof(*recs));
			if (!m) {
				fclose(f);
				free(recs);
				return -1;
			}
			recs = m;
		}
		recs[n++] = r;
	}
	fclose(f);
	failed = undo_phases(recs, n, ops, log);
	free(recs);
	return failed;
}
