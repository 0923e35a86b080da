// SPDX-License-Identifier: MIT
#include "reaper.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"

/* The reaper's life: start the command, tell its exit status, then reap
 * whatever is left to it until nothing is. Never returns. */
static void reaper_main(char *const argv[], int (*prepare)(void *),
			void *ctx, int report)
{
	int status, code = -1;
	pid_t pid;

	prctl(PR_SET_NAME, "mstlab-reaper");
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		_exit(1);
	/* Nothing of mstlab's (its libvirt socket, its captures' files, its
	 * caller's locks) stays open in a process that outlives it: only
	 * the report pipe, at 3, until the daemon's foreground part exits. */
	report = fds_keep_only(report);
	if (report < 0)
		_exit(1);
	signal(SIGPIPE, SIG_IGN);
	pid = fork();
	if (pid == 0) {
		close(report);
		if (prepare && prepare(ctx))
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		code = WEXITSTATUS(status);
	if (write(report, &code, sizeof(code)) < 0)
		code = -1;
	close(report);
	for (;;)
		if (wait(NULL) < 0 && errno == ECHILD)
			_exit(0);
}

int reaper_run_daemon(char *const argv[], int (*prepare)(void *ctx),
		      void *ctx, unsigned timeout_ms)
{
	struct pollfd pfd;
	int fds[2], code = -1;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		/* Its own session (no terminal's Ctrl-C), and a grandchild of
		 * ours: the middle process exits at once, so mstlab never
		 * waits for the reaper. */
		close(fds[0]);
		if (setsid() < 0)
			_exit(1);
		pid = fork();
		if (pid == 0)
			reaper_main(argv, prepare, ctx, fds[1]);
		_exit(pid < 0);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return -1;
	}
	waitpid(pid, NULL, 0);
	pfd = (struct pollfd){ .fd = fds[0], .events = POLLIN };
	if (poll(&pfd, 1, (int)timeout_ms) != 1 ||
	    read(fds[0], &code, sizeof(code)) != (ssize_t)sizeof(code))
		code = -1;
	close(fds[0]);
	return code;
}
