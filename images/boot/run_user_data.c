// SPDX-License-Identifier: MIT
/*
 * Runs the seed's user-data once (busybox init's "once" entry), its
 * output to the console and /run/mstlab/user-data.log. Its exit status
 * goes to /run/mstlab/user-data.status and to the lab share's folder of
 * this node, where mstlab looks for it without asking the agent (renamed
 * into place: never read half written).
 */
#include "boot_log.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define USER_DATA "/run/mstlab/user-data"

/* Starts the user-data with stdout and stderr into a pipe: its read end,
 * or -1. */
static int start(pid_t *pid)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return -1;
	*pid = fork();
	if (*pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (*pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		/* stdin as busybox init gave it, the pipe: nothing else */
		closefrom(3);
		execl(USER_DATA, USER_DATA, (char *)NULL);
		dprintf(2, "mstlab: cannot run the user-data: %s\n",
			strerror(errno));
		_exit(127);
	}
	close(p[1]);
	return p[0];
}

/* Copies the output to the console and the log until every writer has
 * closed it (daemons the user-data starts must not keep it), then reaps
 * the user-data: its exit status, 128 + signal if killed. */
static int relay(int out, pid_t pid)
{
	int con = open("/dev/console", O_WRONLY | O_NOCTTY | O_CLOEXEC);
	int log = open("/run/mstlab/user-data.log",
		       O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	char buf[4096];
	ssize_t n;
	int status;

	while ((n = read(out, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (con >= 0)
			write_all(con, buf, (size_t)n);
		if (log >= 0)
			write_all(log, buf, (size_t)n);
	}
	close(out);
	if (con >= 0)
		close(con);
	if (log >= 0)
		close(log);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 127;
	return WIFEXITED(status) ? WEXITSTATUS(status) :
				   128 + WTERMSIG(status);
}

/* dir/name holds "status\n", renamed into place from dir/.name. */
static int publish(const char *dir, const char *name, int status)
{
	char tmp[PATH_MAX], path[PATH_MAX], line[16];
	int fd, len = snprintf(line, sizeof(line), "%d\n", status), rc;

	snprintf(tmp, sizeof(tmp), "%s/.%s", dir, name);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	rc = write_all(fd, line, (size_t)len);
	if (close(fd) || rc || rename(tmp, path))
		return -1;
	return 0;
}

int main(void)
{
	char host[HOST_NAME_MAX + 1] = "", share[PATH_MAX];
	struct stat st;
	int out, status;
	pid_t pid;

	if (access(USER_DATA, F_OK))
		return 0;
	console_log("mstlab: running user-data");
	out = start(&pid);
	status = out < 0 ? 127 : relay(out, pid);
	if (out < 0)
		console_log("mstlab: cannot start the user-data: %s",
			    strerror(errno));
	if (publish("/run/mstlab", "user-data.status", status))
		console_log("mstlab: cannot write user-data.status: %s",
			    strerror(errno));
	console_log("mstlab: user-data exited %d", status);
	gethostname(host, sizeof(host) - 1);
	snprintf(share, sizeof(share), "/lab/share/%s", host);
	if (host[0] && !stat(share, &st) && S_ISDIR(st.st_mode) &&
	    publish(share, "user-data.status", status))
		console_log("mstlab: cannot write %s/user-data.status: %s",
			    share, strerror(errno));
	return 0;
}
