// SPDX-License-Identifier: MIT
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static void nap(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * The one way a child starts. stdin is in (-1: /dev/null); stdout is out
 * and stderr goes to log, or (out -1) both go to log; log NULL is
 * /dev/null, and log is appended to. Nothing else: every descriptor from
 * 3 up is closed in the child before it runs, whatever this process holds
 * and however it came by it (a lock or pipe of whoever started us, one of
 * a library's). glibc closes them with close_range(2), or where the kernel
 * has none by reading /proc/self/fd; if neither works the spawn fails.
 */
static pid_t start(char *const argv[], int in, int out, const char *log)
{
	const char *to = log ? log : "/dev/null";
	int flags = O_WRONLY | O_CREAT | O_APPEND;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, dfl;
	pid_t pid;
	int rc;

	posix_spawn_file_actions_init(&fa);
	if (in >= 0)
		posix_spawn_file_actions_adddup2(&fa, in, 0);
	else
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY,
						 0);
	if (out >= 0) {
		posix_spawn_file_actions_adddup2(&fa, out, 1);
		posix_spawn_file_actions_addopen(&fa, 2, to, flags, 0644);
	} else {
		posix_spawn_file_actions_addopen(&fa, 1, to, flags, 0644);
		posix_spawn_file_actions_adddup2(&fa, 1, 2);
	}
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
	posix_spawnattr_init(&at);
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&at, &none);
	/* An ignored SIGPIPE would survive the exec: the child gets its
	 * default back (a pipe's reader gone ends it, as in a shell). */
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP |
				 POSIX_SPAWN_SETSIGMASK |
				 POSIX_SPAWN_SETSIGDEF);
	rc = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (rc) {
		errno = rc;
		return -1;
	}
	return pid;
}

pid_t spawn_bg(char *const argv[], const char *log)
{
	return start(argv, -1, -1, log);
}

pid_t spawn_pipe(char *const argv[], int *to, int *from, const char *log)
{
	int in[2], out[2];
	pid_t pid;

	if (pipe2(in, O_CLOEXEC))
		return -1;
	if (pipe2(out, O_CLOEXEC)) {
		close(in[0]);
		close(in[1]);
		return -1;
	}
	pid = start(argv, in[0], out[1], log);
	close(in[0]);
	close(out[1]);
	if (pid < 0) {
		int e = errno;

		close(in[1]);
		close(out[0]);
		errno = e;
		return -1;
	}
	*to = in[1];
	*from = out[0];
	return pid;
}

int spawn_wait(pid_t pid, unsigned timeout_ms, int *status)
{
	for (unsigned waited = 0;; waited += 10) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 1;
		if (r < 0 && errno != EINTR) {
			*status = -1;
			return 1;
		}
		if (waited >= timeout_ms)
			return 0;
		nap(10);
	}
}

/* Waits up to timeout_ms for pid, else kills it; 1 exited (*status). */
static int finish(pid_t pid, unsigned timeout_ms, int *status)
{
	if (spawn_wait(pid, timeout_ms, status))
		return 1;
	kill(pid, SIGKILL);
	waitpid(pid, status, 0);
	return 0;
}

int spawn_run(char *const argv[], const char *log, unsigned timeout_ms)
{
	pid_t pid = spawn_bg(argv, log);
	int status;

	if (pid < 0 || !finish(pid, timeout_ms, &status))
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The whole of f from its start, NUL-terminated, or NULL. */
static char *slurp(FILE *f)
{
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[8192];
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	rewind(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	if (fclose(m) || ferror(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* An unnamed file in /tmp, read and written, close-on-exec (tmpfile()'s
 * is not: a child started meanwhile by another thread would keep it). */
static FILE *scratch(void)
{
	char path[] = "/tmp/mstlab-XXXXXX";
	int fd = open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	FILE *f;

	/* A file system without O_TMPFILE: named, then unlinked. */
	if (fd < 0 && (fd = mkostemp(path, O_CLOEXEC)) >= 0)
		unlink(path);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w+");
	if (!f)
		close(fd);
	return f;
}

int spawn_capture(char *const argv[], const char *input, const char *log,
		  unsigned timeout_ms, struct spawn_result *r)
{
	FILE *in = NULL, *out = scratch();
	int rc = -1, saved;
	pid_t pid;

	*r = (struct spawn_result){ .status = -1 };
	if (!out)
		goto done;
	if (input && (!(in = scratch()) || fputs(input, in) == EOF ||
		      fflush(in) || fseek(in, 0, SEEK_SET)))
		goto done;
	pid = start(argv, in ? fileno(in) : -1, fileno(out), log);
	if (pid < 0) {
		r->start_errno = errno;
		goto done;
	}
	if (!finish(pid, timeout_ms, &r->status)) {
		r->timed_out = true;
		r->status = -1;
		goto done;
	}
	if (!WIFEXITED(r->status) || WEXITSTATUS(r->status))
		goto done;
	r->out = slurp(out);
	rc = r->out ? 0 : -1;
done:
	saved = errno;
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	errno = saved;
	return rc;
}

int fds_keep_only(int keep)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	/* Out of the way first: keep may be 0, 1 or 2 when we were started
	 * without them, and /dev/null lands on them. */
	if (keep >= 0 && (keep = fcntl(keep, F_DUPFD_CLOEXEC, 4)) < 0)
		return -1;
	if (null < 0)
		return -1;
	for (int fd = 0; fd < 3; fd++) {
		/* dup2 onto itself would leave it close-on-exec */
		int rc = fd == null ? fcntl(fd, F_SETFD, 0) : dup2(null, fd);

		if (rc < 0)
			return -1;
	}
	if (keep >= 0 && dup3(keep, 3, O_CLOEXEC) < 0)
		return -1;
	/* close_range(2), or /proc/self/fd read where the kernel lacks it */
	closefrom(keep >= 0 ? 4 : 3);
	return keep >= 0 ? 3 : 0;
}

uint64_t proc_start_time(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* comm may hold spaces and parentheses: fields restart after the
	 * last ')'. Field 22 is the 20th after it. */
	p = strrchr(buf, ')');
	/* A zombie has exited: only its reaping is left, which process 1
	 * may do seconds later for an orphan. */
	if (!p || p[1] != ' ' || p[2] == 'Z')
		return 0;
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", &start) != 1)
		return 0;
	return start;
}

static bool same(pid_t pid, uint64_t start_time)
{
	return start_time && proc_start_time(pid) == start_time;
}

void proc_stop(pid_t pid, uint64_t start_time, unsigned timeout_ms)
{
	int status;

	if (!same(pid, start_time))
		return;
	kill(pid, SIGTERM);
	for (unsigned waited = 0; waited < timeout_ms; waited += 10) {
		/* Reap it if it is our child, so that it does not linger as
		 * a zombie that still has a start time. */
		waitpid(pid, &status, WNOHANG);
		if (!same(pid, start_time))
			return;
		nap(10);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

bool file_says(const char *path, const char *text)
{
	char line[512];
	bool yes = false;
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	while (!yes && fgets(line, sizeof(line), f))
		yes = strstr(line, text) != NULL;
	fclose(f);
	return yes;
}
