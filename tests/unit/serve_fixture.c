// SPDX-License-Identifier: MIT
/* A real mstlab serve HTTP server with a fake application, in a thread
 * of its own, and raw clients for it (serve_fixture.h). */
#include "serve_fixture.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}


static void fake_get(void *ctx, enum serve_route route,
		     const struct serve_args *a, struct serve_reply *r)
{
	(void)ctx;
	r->status = 200;
	r->type = NULL;
	r->body_static = false;
	r->len = (size_t)asprintf(&r->body, "{\"route\":%d,\"t\":\"%s\"}",
				  (int)route, a->t ? a->t : "");
}

static bool fake_stream(void *ctx, struct serve_client *c,
			struct serve_reply *r)
{
	(void)ctx;
	(void)r;
	serve_http_send(c, "hello", "{\"a\":1}\n", 8);
	return true;
}

static bool fake_check(void *ctx, const struct serve_args *a,
		       struct serve_reply *r)
{
	(void)ctx;
	if (a->end)
		return true;
	serve_reply_error(r, 400, "no end");
	return false;
}

static void fake_control(void *ctx, const struct serve_args *a,
			 struct serve_reply *r)
{
	struct srv *s = ctx;

	usleep(300 * 1000);	/* as libvirt may take */
	__atomic_add_fetch(&s->controls, 1, __ATOMIC_SEQ_CST);
	r->status = 200;
	r->type = NULL;
	r->body_static = false;
	r->len = (size_t)asprintf(&r->body, "{\"end\":\"%s\"}", a->end);
}

static void *srv_main(void *arg)
{
	struct srv *s = arg;

	while (!s->stop) {
		serve_http_poll(s->h, NULL, 0, 10);
		pthread_mutex_lock(&s->mu);
		if (s->task) {
			int64_t t0 = mono_ms();

			s->task(s);
			s->task_ms = (int)(mono_ms() - t0);
			s->task = NULL;
		}
		pthread_mutex_unlock(&s->mu);
		serve_http_poll(s->h, NULL, 0, 0);
	}
	return NULL;
}

/* s is the heap's: a test that fails and returns leaves its server
 * thread running on it. */
int srv_start_at(struct srv **sp, const char *listen, const char *token,
		 unsigned timeout_s, size_t client_buf, unsigned head_ms)
{
	struct srv *s = *sp = calloc(1, sizeof(*s));
	struct serve_cfg cfg = { .token = token, .timeout_s = timeout_s,
				 .client_buf = client_buf, .head_ms = head_ms };
	const struct serve_app app = {
		.ctx = s, .get = fake_get, .stream = fake_stream,
		.control_check = fake_check, .control = fake_control,
	};
	struct errbuf e;

	if (!s)
		return -1;
	pthread_mutex_init(&s->mu, NULL);
	if (!serve_listen_parse(listen, &cfg.addr, &cfg.addr_len, &e))
		s->h = serve_http_start(&cfg, &app, &e);
	if (!s->h) {
		pthread_mutex_destroy(&s->mu);
		free(s);
		*sp = NULL;
		return -1;
	}
	s->port = serve_http_port(s->h);
	return pthread_create(&s->th, NULL, srv_main, s) ? -1 : 0;
}

int srv_start(struct srv **sp, const char *token, unsigned timeout_s,
	      size_t client_buf)
{
	return srv_start_at(sp, "127.0.0.1:0", token, timeout_s, client_buf, 0);
}

void srv_stop(struct srv *s)
{
	s->stop = 1;
	pthread_join(s->th, NULL);
	serve_http_stop(s->h);
	pthread_mutex_destroy(&s->mu);
	free(s);
}

/* Runs fn in the server's thread, and waits until it ran. */
void srv_do(struct srv *s, void (*fn)(struct srv *s))
{
	pthread_mutex_lock(&s->mu);
	s->task = fn;
	pthread_mutex_unlock(&s->mu);
	for (;;) {
		bool done;

		pthread_mutex_lock(&s->mu);
		done = !s->task;
		pthread_mutex_unlock(&s->mu);
		if (done)
			return;
		usleep(1000);
	}
}

static struct serve_stats stats_now;

static void take_stats(struct srv *s)
{
	stats_now = serve_http_stats(s->h);
}

struct serve_stats srv_stats(struct srv *s)
{
	srv_do(s, take_stats);
	return stats_now;
}

int dial_to(const char *dst, unsigned port, const char *src)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (src) {
		struct sockaddr_in b = { .sin_family = AF_INET };

		inet_pton(AF_INET, src, &b.sin_addr);
		if (bind(fd, (struct sockaddr *)&b, sizeof(b))) {
			close(fd);
			return -1;
		}
	}
	inet_pton(AF_INET, dst, &a.sin_addr);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	return fd;
}

int dial(unsigned port, const char *src)
{
	return dial_to("127.0.0.1", port, src);
}

bool write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);

		if (k <= 0)
			return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
}

size_t read_until(int fd, char *buf, size_t cap, const char *until,
		  int ms)
{
	int64_t end = mono_ms() + ms;
	size_t n = 0;

	buf[0] = 0;
	while (n + 1 < cap && !(until && strstr(buf, until))) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t left = end - mono_ms();
		ssize_t k;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			break;
		k = read(fd, buf + n, cap - 1 - n);
		if (k <= 0)
			break;
		n += (size_t)k;
		buf[n] = 0;
	}
	return n;
}

size_t read_for(int fd, char *buf, size_t cap, int ms)
{
	return read_until(fd, buf, cap, NULL, ms);
}

/* One raw request (it must close the connection) from src: the status
 * line's code, the whole answer in resp; 0 if none came. */
int raw_from(unsigned port, const char *src, const char *req,
		    size_t len, char *resp, size_t cap)
{
	int fd = dial(port, src), code = 0;

	resp[0] = 0;
	if (fd < 0)
		return -1;
	if (write_all(fd, req, len)) {
		shutdown(fd, SHUT_WR);
		read_for(fd, resp, cap, 5000);
	}
	close(fd);
	if (!strncmp(resp, "HTTP/1.", 7))
		code = atoi(resp + 9);
	return code;
}

int raw(unsigned port, const char *req, char *resp, size_t cap)
{
	return raw_from(port, NULL, req, strlen(req), resp, cap);
}

/* A GET with the right Host, and extra header lines. */
int get(unsigned port, const char *path, const char *extra,
	       char *resp, size_t cap)
{
	char req[4096];

	snprintf(req, sizeof(req), "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
		 "%sConnection: close\r\n\r\n", path, port, extra ? extra : "");
	return raw(port, req, resp, cap);
}
