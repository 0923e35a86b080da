// SPDX-License-Identifier: MIT
#include "console.h"

#include <errno.h>
#include <fcntl.h>
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

/* The console to the terminal, in a thread of its own: libvirt's
 * blocking receive. Ends the session when the console ends. */
struct pump {
	virStreamPtr st;
	int out_fd, wake_fd;
};

static void *console_to_terminal(void *arg)
{
	struct pump *p = arg;
	char buf[4096];
	int n;

	while ((n = virStreamRecv(p->st, buf, sizeof(buf))) > 0)
		for (int off = 0; off < n;) {
			ssize_t w = write(p->out_fd, buf + off, (size_t)(n - off));

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				break;
			off += (int)w;
		}
	/* Wakes the input loop: the console is gone. */
	if (write(p->wake_fd, "x", 1) < 0)
		n = -1;
	return NULL;
}

/* The terminal to the console, until the escape or end of input. */
static void terminal_to_console(virStreamPtr st, int in_fd, int wake_fd)
{
	struct pollfd pfd[2] = { { .fd = in_fd, .events = POLLIN },
				 { .fd = wake_fd, .events = POLLIN } };
	char buf[1024];

	for (;;) {
		ssize_t n;
		char *esc;

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (pfd[1].revents)
			return;
		n = read(in_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		esc = memchr(buf, CONSOLE_ESCAPE, (size_t)n);
		if (esc)
			n = esc - buf;
		if (n > 0 && virStreamSend(st, buf, (size_t)n) < 0)
			return;
		if (esc)
			return;
	}
}

int console_attach(struct hv_libvirt *h, const char *domain, int in_fd,
		   int out_fd, struct errbuf *err)
{
	struct termios saved, raw;
	bool tty = tcgetattr(in_fd, &saved) == 0;
	virDomainPtr dom = virDomainLookupByName(h->conn, domain);
	virStreamPtr st = NULL;
	struct pump p;
	pthread_t thread;
	int wake[2] = { -1, -1 }, rc = -1;

	if (!dom)
		return errbuf_set(err, "%s: %s", domain,
				  virGetLastErrorMessage());
	st = virStreamNew(h->conn, 0);
	if (!st || virDomainOpenConsole(dom, NULL, st,
					VIR_DOMAIN_CONSOLE_SAFE) < 0) {
		errbuf_set(err, "%s: its console: %s", domain,
			   virGetLastErrorMessage());
		goto out;
	}
	if (pipe2(wake, O_CLOEXEC)) {
		errbuf_set(err, "pipe2: %s", strerror(errno));
		goto out;
	}
	if (tty) {
		raw = saved;
		cfmakeraw(&raw);
		tcsetattr(in_fd, TCSANOW, &raw);
	}
	p = (struct pump){ st, out_fd, wake[1] };
	if (pthread_create(&thread, NULL, console_to_terminal, &p) == 0) {
		/* Enter: the guest's shell starts on it (askfirst). */
		virStreamSend(st, "\r", 1);
		terminal_to_console(st, in_fd, wake[0]);
		virStreamAbort(st);
		pthread_join(thread, NULL);
		rc = 0;
	} else {
		errbuf_set(err, "thread: %s", strerror(errno));
	}
	if (tty)
		tcsetattr(in_fd, TCSANOW, &saved);
out:
	if (wake[0] >= 0) {
		close(wake[0]);
		close(wake[1]);
	}
	if (st)
		virStreamFree(st);
	virDomainFree(dom);
	return rc;
}
