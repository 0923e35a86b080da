// SPDX-License-Identifier: MIT
#include "guardian.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "registry.h"

/* The run folder the run sent, then its end (EOF); false when it ended
 * before sending one. */
static bool wait_run(int end, char *run_dir, size_t len)
{
	size_t n = 0;
	char c;
	ssize_t r;

	while ((r = read(end, &c, 1)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (c == '\n' || n + 1 >= len)
			continue;
		run_dir[n++] = c;
	}
	run_dir[n] = '\0';
	return n > 0;
}

static void guard(int end, const char *lab, const char *uri)
{
	char *argv[] = { "mstlab", "down", "--uri", (char *)uri, (char *)lab,
			 NULL };
	char log[PATH_MAX + 16], run_dir[PATH_MAX], cur[PATH_MAX];
	int fd;

	/* A run that tore itself down left no entry for its folder. */
	if (!wait_run(end, run_dir, sizeof(run_dir)) ||
	    registry_find(lab, cur, sizeof(cur)) || strcmp(cur, run_dir))
		_exit(0);
	snprintf(log, sizeof(log), "%s/guardian.log", run_dir);
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	if (!uri) {
		argv[2] = (char *)lab;
		argv[3] = NULL;
	}
	fprintf(stderr, "mstlab: guardian: the run of %s ended without "
		"tearing down: mstlab down %s\n", lab, lab);
	fflush(stderr);
	execv("/proc/self/exe", argv);
	fprintf(stderr, "mstlab: guardian: cannot run mstlab: %s\n",
		strerror(errno));
	_exit(127);
}

int guardian_start(const char *lab, const char *uri)
{
	int fds[2], status;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		/* Its own session, away from the terminal's Ctrl-C (the run
		 * handles that itself); a grandchild, so the run never
		 * waits for it. */
		close(fds[1]);
		if (setsid() < 0 || (pid = fork()) < 0)
			_exit(1);
		if (pid == 0) {
			/* It outlives the run: nothing of the run's (its
			 * caller's lock, say) stays open in it but its end of
			 * the pipe, at 3; down, run later, gets 0 to 2 only. */
			int end = fds_keep_only(fds[0]);

			if (end < 0)
				_exit(1);
			guard(end, lab, uri);
		}
		_exit(0);
	}
	close(fds[0]);
	if (pid < 0) {
		close(fds[1]);
		return -1;
	}
	waitpid(pid, &status, 0);
	return fds[1];
}

void guardian_arm(int fd, const char *run_dir)
{
	if (fd >= 0 && dprintf(fd, "%s\n", run_dir) < 0)
		fprintf(stderr, "mstlab: guardian: %s\n", strerror(errno));
}
