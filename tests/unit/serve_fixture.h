/* SPDX-License-Identifier: MIT */
/*
 * For mstlab serve's unit tests: a real server (serve_http.h) on a
 * loopback address with a fake application (GET answers its route and
 * t, a stream says hello, a link action takes 300 ms and counts), run
 * by a thread of its own; raw TCP clients that send what a hostile
 * client would.
 */
#ifndef MSTLAB_SERVE_FIXTURE_H
#define MSTLAB_SERVE_FIXTURE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serve_http.h"

struct srv {
	struct serve_http *h;
	pthread_t th;
	pthread_mutex_t mu;
	volatile int stop;
	void (*task)(struct srv *s);	/* run once in the server's thread */
	int task_ms;			/* how long the last task took */
	int controls;
	unsigned port;
};

int64_t mono_ms(void);

/* A server on 127.0.0.1 (or listen), token NULL: --no-auth. */
int srv_start(struct srv **sp, const char *token, unsigned timeout_s,
	      size_t client_buf);
int srv_start_at(struct srv **sp, const char *listen, const char *token,
		 unsigned timeout_s, size_t client_buf, unsigned head_ms);
void srv_stop(struct srv *s);
/* Runs fn in the server's thread, and waits until it ran. */
void srv_do(struct srv *s, void (*fn)(struct srv *s));
struct serve_stats srv_stats(struct srv *s);

/* A TCP connection to dst (dial: 127.0.0.1) from src (NULL: any). */
int dial_to(const char *dst, unsigned port, const char *src);
int dial(unsigned port, const char *src);
bool write_all(int fd, const char *p, size_t n);
/* Reads until the server closes, or for at most ms; read_until stops
 * as soon as what it read holds until. */
size_t read_for(int fd, char *buf, size_t cap, int ms);
size_t read_until(int fd, char *buf, size_t cap, const char *until,
		  int ms);
/* One raw request (it must close the connection) from src: the status
 * line's code, the whole answer in resp; 0 if none came. */
int raw_from(unsigned port, const char *src, const char *req, size_t len,
	     char *resp, size_t cap);
int raw(unsigned port, const char *req, char *resp, size_t cap);
/* A GET with the right Host, and extra header lines. */
int get(unsigned port, const char *path, const char *extra, char *resp,
	size_t cap);

#endif
