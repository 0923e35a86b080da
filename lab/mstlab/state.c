// SPDX-License-Identifier: MIT
#include "state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
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

	if (strcmp(r->kind, "domain") == 0) {
		rc = ops->hv->destroy(ops->hv_ctx, r->a, &err);
	} else if (strcmp(r->kind, "bridge") == 0 ||
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
		fprintf(log, "mstlab: state: unknown record '%s' ignored\n",
			r->kind);
		return 0;
	}
	if (rc)
		fprintf(log, "mstlab: could not remove %s %s: %s\n", r->kind,
			r->a, err.msg);
	return rc ? 1 : 0;
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
	/* "forget KIND NAME" follows a record whose creation failed: the
	 * name may belong to someone else (another lab of the same name). */
	for (size_t i = n; i-- > 0;) {
		bool forgotten = false;

		if (!strcmp(recs[i].kind, "forget"))
			continue;
		for (size_t k = i + 1; k < n && !forgotten; k++)
			if (!strcmp(recs[k].kind, "forget") &&
			    !strcmp(recs[k].a, recs[i].kind) &&
			    !strcmp(recs[k].b, recs[i].a)) {
				forgotten = true;
				recs[k].kind[0] = 0;	/* used up */
			}
		if (!forgotten)
			failed += undo(&recs[i], recs, n, ops, log);
	}
	free(recs);
	return failed;
}
