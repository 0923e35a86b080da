// SPDX-License-Identifier: MIT
#include "chan.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int chan_connect(void *ctx, const char *path, struct errbuf *err)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd;

	(void)ctx;
	if (strlen(path) >= sizeof(sun.sun_path))
		return errbuf_set(err, "%s: path too long", path);
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errbuf_set(err, "socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun))) {
		errbuf_set(err, "cannot connect to %s: %s", path,
			   strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static int chan_send(void *ctx, int fd, const char *text, struct errbuf *err)
{
	size_t len = strlen(text);

	(void)ctx;
	while (len) {
		ssize_t n = send(fd, text, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return errbuf_set(err, "cannot send: %s",
					  strerror(errno));
		text += n;
		len -= (size_t)n;
	}
	return 0;
}

static void chan_close(void *ctx, int fd)
{
	(void)ctx;
	if (fd >= 0)
		close(fd);
}

const struct chan_ops chan_unix_ops = {
	.connect = chan_connect,
	.send = chan_send,
	.close = chan_close,
};
