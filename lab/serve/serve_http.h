/* SPDX-License-Identifier: MIT */
/*
 * mstlab serve's HTTP side, over libmicrohttpd (no parser of our own):
 * a fixed table of routes, the page's files built into the binary, a
 * Server-Sent Events stream per browser, and one control action at a
 * time run in a thread of its own. It knows nothing of trees: what it
 * serves comes from the application's callbacks (struct serve_app).
 *
 * Single-threaded: the caller's loop waits in serve_http_poll(), which
 * serves what is due; every callback but control() runs in that
 * thread, so the application needs no locks around its engine.
 *
 * What a client can and cannot do:
 * - only the routes of the table, each with its methods (else 404,
 *   405); no path from a request reaches the file system: the page's
 *   files are in memory, and a path with "..", "//", a backslash or a
 *   control character is refused (400) before any lookup;
 * - every request shows a token (random, printed at start, or
 *   --token-file), given once as ?token= on the page's address (it
 *   becomes an HttpOnly, SameSite=Strict cookie named after the port)
 *   or as "Authorization: Bearer"; compared in constant time. No token
 *   (--no-auth) is for a loopback address only. On loopback, the Host
 *   header must name the listening address (no DNS rebinding);
 * - a link action must come from the page's own origin: an Origin
 *   header naming it, or none and Sec-Fetch-Site: same-origin;
 * - a query has no control character (%00 included), no name twice;
 * - request line and headers fit in SERVE_MEM_LIMIT, no request has a
 *   body (413); a connection that has not shown the token has a cap of
 *   its own and SERVE_HEAD_MS for its request head (serve_conns.h);
 *   the others are closed when idle for the timeout;
 * - event streams are capped in all and per address; each queues at
 *   most client_buf octets: a client that reads slower than the lab
 *   speaks is dropped, never waited for; one whose peer went is ended
 *   at once.
 */
#ifndef MSTLAB_SERVE_HTTP_H
#define MSTLAB_SERVE_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>

#include "errbuf.h"

#define SERVE_DEFAULT_LISTEN "127.0.0.1:8470"
#define SERVE_TOKEN_MIN 16		/* octets of a --token-file token */
#define SERVE_TOKEN_MAX 128
#define SERVE_MEM_LIMIT (32 * 1024)	/* request line and headers */
#define SERVE_TIMEOUT_S 30
#define SERVE_MAX_STREAMS 128
#define SERVE_STREAMS_PER_ADDR 32
#define SERVE_CLIENT_BUF (512 * 1024)	/* queued per event stream */

/* What a request asks for (the routes' table, serve_http.c). */
enum serve_route {
	SERVE_ASSET,		/* one of the page's files */
	SERVE_LAB,		/* GET /api/lab */
	SERVE_STATE,		/* GET /api/state?t=NS */
	SERVE_EVENTS,		/* GET /api/events: the stream */
	SERVE_LINK,		/* POST /api/link?end=&action=&mode= */
	SERVE_NOT_FOUND,
	SERVE_BAD_METHOD,
	SERVE_BAD_PATH,		/* traversal and the like */
};

/* The route of method and path (the path without its query). */
enum serve_route serve_route_of(const char *method, const char *path);

/* A file of the page, built into the binary (serve_assets.c). */
struct serve_asset {
	const char *path;	/* "/", "/app.js" */
	const char *type;	/* Content-Type */
	const unsigned char *data;
	size_t len;
};

/* The file at path, or NULL. */
const struct serve_asset *serve_asset_find(const char *path);

/* Whether given equals want: time depends on want's length only. */
bool serve_token_equal(const char *given, size_t given_len,
		       const char *want);
/* A token of 32 hex digits from getrandom(2): 0, or -1 with err. */
int serve_token_new(char out[33], struct errbuf *err);
/* The first line of a file only its owner can read, at least
 * SERVE_TOKEN_MIN printable octets with no space: 0, or -1 with err. */
int serve_token_read(const char *path, char *out, size_t len,
		     struct errbuf *err);

/* "ADDR:PORT" (IPv4, [IPv6] or localhost; port 0: any free one) into
 * addr: 0, or -1 with err. */
int serve_listen_parse(const char *s, struct sockaddr_storage *addr,
		       socklen_t *len, struct errbuf *err);
bool serve_addr_loopback(const struct sockaddr_storage *addr);
/* The address as a Host header names it: "127.0.0.2", "[::1]". */
void serve_addr_name(const struct sockaddr_storage *addr, char *out,
		     size_t len);
/* Whether a Host header names addr (serve_addr_name's) or localhost,
 * on port. */
bool serve_host_is(const char *host, const char *addr, unsigned port);
/* Why the query of a raw URI is refused, into why ("" if it is not):
 * a control character in it (escaped or not), a name given twice. */
void serve_query_check(const char *uri, char *why, size_t len);

/* The arguments of a request (its query), as the routes read them. */
struct serve_args {
	const char *t;			/* state */
	const char *end, *action, *mode;	/* link */
};

/* What a route answers: a status and a body (malloc'd, or static). */
struct serve_reply {
	unsigned status;
	const char *type;		/* Content-Type; NULL: JSON */
	char *body;
	size_t len;
	bool body_static;		/* not freed */
};

/* Sets r to a JSON object {"error": msg}. */
void serve_reply_error(struct serve_reply *r, unsigned status,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

struct serve_client;

/* The application: what each route answers. */
struct serve_app {
	void *ctx;
	/* SERVE_LAB and SERVE_STATE. */
	void (*get)(void *ctx, enum serve_route route,
		    const struct serve_args *a, struct serve_reply *r);
	/* SERVE_EVENTS: false refuses the stream (r says why); else the
	 * first messages go to c with serve_http_send(). */
	bool (*stream)(void *ctx, struct serve_client *c,
		       struct serve_reply *r);
	/* SERVE_LINK, first in the server's thread: false answers at once
	 * with r (a bad argument, control off). */
	bool (*control_check)(void *ctx, const struct serve_args *a,
			      struct serve_reply *r);
	/* Then in a thread of its own, one at a time: it may take as long
	 * as libvirt does, and must touch nothing the server's thread
	 * does. The arguments are copies. */
	void (*control)(void *ctx, const struct serve_args *a,
			struct serve_reply *r);
};

struct serve_cfg {
	struct sockaddr_storage addr;
	socklen_t addr_len;
	const char *token;		/* NULL: none (loopback only) */
	unsigned timeout_s;		/* idle connections; 0: default */
	unsigned head_ms;		/* a request head's deadline; 0:
					 * SERVE_HEAD_MS */
	size_t client_buf;		/* per stream; 0: default */
};

struct serve_stats {
	unsigned connections;		/* open now */
	unsigned anonymous;		/* of them, no token shown yet */
	unsigned clients;		/* event streams now */
	unsigned long cut_over;		/* anonymous ones closed: over a cap */
	unsigned long cut_late;		/* anonymous ones closed: head late */
	unsigned long dropped;		/* streams dropped as too slow */
	unsigned long refused;		/* requests answered 4xx */
};

struct serve_http;

/* Listens: NULL with err (the address in use, ...). */
struct serve_http *serve_http_start(const struct serve_cfg *cfg,
				    const struct serve_app *app,
				    struct errbuf *err);
/* Stops: every stream ends, every connection closes. */
void serve_http_stop(struct serve_http *h);
/* The port it listens on (the one picked for port 0). */
unsigned serve_http_port(const struct serve_http *h);
/*
 * Waits at most timeout_ms (-1: as long as the server may) for a client
 * or for input on one of the caller's n fds (at most 4), then does what
 * is due: requests, streams, a finished control action. The sockets
 * are watched level-triggered, so a client that went away is seen at
 * once. fds' revents say which had input.
 */
void serve_http_poll(struct serve_http *h, struct pollfd *fds, size_t n,
		     int timeout_ms);

/*
 * One message to one stream ("event: EVENT", each line of data as
 * "data: ...", a blank line), or to every stream (broadcast); a client
 * whose queue cannot take it is dropped. A NULL event sends data as a
 * comment (a keep-alive).
 */
void serve_http_send(struct serve_client *c, const char *event,
		     const char *data, size_t len);
void serve_http_broadcast(struct serve_http *h, const char *event,
			  const char *data, size_t len);

struct serve_stats serve_http_stats(const struct serve_http *h);

#endif
