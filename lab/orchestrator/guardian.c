// SPDX-License-Identifier: MIT
#include "guardian.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "registry.h"

/* What the command says, a line each: its run folder, then "stay" when
 * it releases the lab. */
#define GUARDIAN_STAY "stay"

/*
 * Reads the pipe to its end (EOF: the command exited or was killed, the
 * kernel closed its end). The run folder the command sent, if any; false
 * when there is none or the command released the lab.
 */
static bool wait_run(int end, char *run_dir, size_t len)
{
	char line[PATH_MAX];
	bool stay = false;
	size_t n = 0;
	ssize_t r;
	char c;

	run_dir[0] = '\0';
	while ((r = read(end, &c, 1)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (c != '\n') {
			if (n + 1 < sizeof(line))
				line[n++] = c;
			continue;
		}
		line[n] = '\0';
		if (!strcmp(line, GUARDIAN_STAY))
			stay = true;
		else if (!run_dir[0] && n < len)
			memcpy(run_dir, line, n + 1);
		n = 0;
	}
	return !stay && run_dir[0];
}

static void guard(int end, const char *lab, const char *uri)
{
	char *argv[] = { "mstlab", "down", "--uri", (char *)uri, (char *)lab,
			 NULL };
	char log[PATH_MAX + 16], run_dir[PATH_MAX], cur[PATH_MAX];
	int fd;

	prctl(PR_SET_NAME, "mstlab-guardian");
	/* A run that tore itself down left no entry for its folder; one
	 * killed before it registered made nothing. */
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
	fprintf(stderr, "mstlab: guardian: the mstlab that brought %s up "
		"ended without tearing down: mstlab down %s\n", lab, lab);
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

	/* A socket pair rather than a pipe: the command's words to it go
	 * with MSG_NOSIGNAL, so a guardian killed meanwhile costs the
	 * command no SIGPIPE. */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		/* Its own session, away from the terminal's Ctrl-C (the
		 * command handles that itself) and from a kill of the
		 * command's process group; a grandchild, so the command
		 * never waits for it. */
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

static void say(int fd, const char *line)
{
	size_t len = strlen(line), done = 0;
	ssize_t n;

	while (done < len) {
		n = send(fd, line + done, len - done, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "mstlab: guardian: %s\n",
				strerror(errno));
			return;
		}
		done += (size_t)n;
	}
}

void guardian_arm(int fd, const char *run_dir)
{
	char line[PATH_MAX + 2];

	if (fd < 0)
		return;
	snprintf(line, sizeof(line), "%s\n", run_dir);
	say(fd, line);
}

void guardian_release(int *fd)
{
	if (*fd < 0)
		return;
	say(*fd, GUARDIAN_STAY "\n");
	close(*fd);
	*fd = -1;
}
