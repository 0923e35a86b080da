// SPDX-License-Identifier: MIT
#include "serve_http.h"
#include "serve_conns.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The cookie is named after the port: a browser sends a host's cookies
 * to each of its ports, and two servers must not clobber each other's. */
#define COOKIE "mstlab_"
#define PATH_MAX_LEN 256

/* The page and what it loads may come from here alone: no inline
 * script, no other origin (the drawings are inline SVG). */
#define CSP "default-src 'none'; script-src 'self'; style-src 'self'; " \
	    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; " \
	    "form-action 'none'; frame-ancestors 'none'"

struct serve_client {
	struct serve_http *h;
	struct MHD_Connection *conn;
	struct serve_client *prev, *next;
	int fd;			/* its socket, watched for the peer's end */
	unsigned char addr[16];
	char *buf;
	size_t off, len, cap;	/* queued: buf[off, len) */
	bool suspended;		/* nothing queued: MHD is not asking */
	bool dropped;		/* too slow, or gone: its stream ends */
	bool closing;		/* the server stops: its stream ends */
};

/* One request, across MHD's calls of the handler. */
struct request {
	bool started;		/* the handler saw its headers */
	bool nul;		/* its raw path hides a NUL (%00) */
	char bad_query[96];	/* why its raw query is refused; "": fine */
	bool answered;		/* a response is queued (a body came) */
	bool waiting;		/* for the control action */
};

/* The control action running, if any. */
struct job {
	struct serve_http *h;
	pthread_t th;
	bool running;		/* a thread to join */
	struct MHD_Connection *conn;	/* suspended until it is done */
	struct request *rq;
	char end[64], action[16], mode[16];
	struct serve_args args;
	struct serve_reply reply;
	bool replied;		/* reply handed to MHD */
};

struct serve_http {
	struct MHD_Daemon *d;
	struct serve_conns conns;
	struct serve_app app;
	char token[SERVE_TOKEN_MAX + 1];
	char cookie[24];	/* its name */
	char host[INET6_ADDRSTRLEN + 2];	/* the listening address */
	bool need_token, loopback;
	unsigned port;
	size_t client_buf;
	int efd;		/* the control thread says it is done */
	struct serve_client *clients;
	struct job job;
	struct serve_stats st;
};

/* ---- routes ------------------------------------------------------------ */

static const struct {
	const char *path;
	enum serve_route route;
	bool post;		/* POST; else GET and HEAD */
} routes[] = {
	{ "/api/lab", SERVE_LAB, false },
	{ "/api/state", SERVE_STATE, false },
	{ "/api/events", SERVE_EVENTS, false },
	{ "/api/link", SERVE_LINK, true },
};

/* What no path of ours holds: a way up or around, an escape MHD left
 * (a double-encoded one), a control character. */
static bool bad_path(const char *path)
{
	if (path[0] != '/' || strlen(path) > PATH_MAX_LEN ||
	    strstr(path, "..") || strstr(path, "//"))
		return true;
	for (const char *p = path; *p; p++)
		if (*p == '\\' || *p == '%' || (unsigned char)*p < 0x20 ||
		    *p == 0x7f)
			return true;
	return false;
}

static bool is_get(const char *method)
{
	return !strcmp(method, "GET") || !strcmp(method, "HEAD");
}

enum serve_route serve_route_of(const char *method, const char *path)
{
	if (bad_path(path))
		return SERVE_BAD_PATH;
	for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
		if (strcmp(path, routes[i].path))
			continue;
		if (routes[i].post ? strcmp(method, "POST") : !is_get(method))
			return SERVE_BAD_METHOD;
		return routes[i].route;
	}
	if (!serve_asset_find(path))
		return SERVE_NOT_FOUND;
	return is_get(method) ? SERVE_ASSET : SERVE_BAD_METHOD;
}

/* ---- tokens and addresses ---------------------------------------------- */

bool serve_token_equal(const char *given, size_t given_len,
		       const char *want)
{
	size_t n = strlen(want);
	unsigned char d = given_len != n;

	/* Every octet of want is compared, whatever given holds. */
	for (size_t i = 0; i < n; i++)
		d |= (unsigned char)want[i] ^
		     (unsigned char)(i < given_len ? given[i] : 0);
	return d == 0;
}

int serve_token_new(char out[33], struct errbuf *err)
{
	unsigned char r[16];

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		return errbuf_set(err, "no random token: %s", strerror(errno));
	for (size_t i = 0; i < sizeof(r); i++)
		snprintf(out + 2 * i, 3, "%02x", r[i]);
	return 0;
}

int serve_token_read(const char *path, char *out, size_t len,
		     struct errbuf *err)
{
	FILE *f = fopen(path, "re");
	struct stat st;
	size_t n;

	if (!f)
		return errbuf_set(err, "%s: %s", path, strerror(errno));
	/* A token others can read is no secret (ssh's rule for its keys). */
	if (fstat(fileno(f), &st) || (st.st_mode & 077)) {
		fclose(f);
		return errbuf_set(err, "%s: others can read it (chmod 600)",
				  path);
	}
	if (!fgets(out, (int)len, f))
		out[0] = 0;
	fclose(f);
	n = strcspn(out, "\r\n");
	out[n] = 0;
	for (size_t i = 0; i < n; i++)
		if (!isgraph((unsigned char)out[i]))
			return errbuf_set(err, "%s: the token has a space or "
					  "a control character", path);
	if (n < SERVE_TOKEN_MIN || n >= len - 1)
		return errbuf_set(err, "%s: a token is %d to %zu characters "
				  "on the first line", path, SERVE_TOKEN_MIN,
				  len - 2);
	return 0;
}

int serve_listen_parse(const char *s, struct sockaddr_storage *addr,
		       socklen_t *len, struct errbuf *err)
{
	const char *colon = strrchr(s, ':');
	char host[64], *end;
	unsigned long port;
	size_t n;

	memset(addr, 0, sizeof(*addr));
	if (!colon || colon == s)
		return errbuf_set(err, "'%s' is not ADDRESS:PORT", s);
	n = (size_t)(colon - s);
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (!colon[1] || *end || errno || port > 65535 || n >= sizeof(host))
		return errbuf_set(err, "'%s' is not ADDRESS:PORT (a port is "
				  "0 to 65535)", s);
	memcpy(host, s, n);
	host[n] = 0;
	if (!strcmp(host, "localhost"))
		strcpy(host, "127.0.0.1");
	if (host[0] == '[' && n > 2 && host[n - 1] == ']') {
		struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)addr;

		host[n - 1] = 0;
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*a6);
		if (inet_pton(AF_INET6, host + 1, &a6->sin6_addr) == 1)
			return 0;
	} else {
		struct sockaddr_in *a4 = (struct sockaddr_in *)addr;

		a4->sin_family = AF_INET;
		a4->sin_port = htons((uint16_t)port);
		*len = sizeof(*a4);
		if (inet_pton(AF_INET, host, &a4->sin_addr) == 1)
			return 0;
	}
	return errbuf_set(err, "'%s' is no IPv4 address, [IPv6] address or "
			  "localhost", s);
}

bool serve_addr_loopback(const struct sockaddr_storage *addr)
{
	if (addr->ss_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)addr)->sin_addr
				      .s_addr) >> 24) == 127;
	return addr->ss_family == AF_INET6 &&
	       IN6_IS_ADDR_LOOPBACK(
		       &((const struct sockaddr_in6 *)addr)->sin6_addr);
}

void serve_addr_name(const struct sockaddr_storage *addr, char *out,
		     size_t len)
{
	char name[INET6_ADDRSTRLEN] = "?";

	if (addr->ss_family == AF_INET6) {
		inet_ntop(AF_INET6,
			  &((const struct sockaddr_in6 *)addr)->sin6_addr,
			  name, sizeof(name));
		snprintf(out, len, "[%s]", name);
		return;
	}
	inet_ntop(AF_INET, &((const struct sockaddr_in *)addr)->sin_addr,
		  name, sizeof(name));
	snprintf(out, len, "%s", name);
}

bool serve_host_is(const char *host, const char *addr, unsigned port)
{
	const char *names[] = { addr, "localhost" };
	char want[64];

	for (size_t i = 0; host && i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(want, sizeof(want), "%s:%u", names[i], port);
		if (!strcasecmp(host, want))
			return true;
	}
	return false;
}

/* Why a raw query is refused ("" if it is not): a control octet in a
 * name or value, escaped (%00, which would cut the value short) or not,
 * a name given twice (which one would count?), too many of them. */
void serve_query_check(const char *uri, char *why, size_t len)
{
	enum { MAX_ARGS = 8, NAME_MAX_LEN = 32 };
	char names[MAX_ARGS][NAME_MAX_LEN];
	const char *p = strchr(uri, '?');
	size_t n = 0;

	why[0] = 0;
	while (p && *p) {
		char name[NAME_MAX_LEN];
		size_t k = 0;
		bool in_value = false;

		p++;	/* past '?' or '&' */
		for (; *p && *p != '&'; p++) {
			unsigned c = (unsigned char)*p;

			if (c == '%' && isxdigit((unsigned char)p[1]) &&
			    isxdigit((unsigned char)p[2])) {
				char hex[3] = { p[1], p[2], 0 };

				c = (unsigned)strtoul(hex, NULL, 16);
				p += 2;
			}
			if (c < 0x20 || c == 0x7f) {
				snprintf(why, len, "a control character "
					 "(0x%02x) in the query", c);
				return;
			}
			if (c == '=' && !in_value) {
				in_value = true;
				continue;
			}
			if (in_value)
				continue;
			if (k + 1 == sizeof(name)) {
				snprintf(why, len, "a name of more than %d "
					 "characters in the query",
					 NAME_MAX_LEN - 1);
				return;
			}
			name[k++] = (char)c;
		}
		name[k] = 0;
		if (!k)
			continue;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(names[i], name)) {
				snprintf(why, len, "%s is given twice", name);
				return;
			}
		if (n == MAX_ARGS) {
			snprintf(why, len, "more than %d arguments", MAX_ARGS);
			return;
		}
		memcpy(names[n++], name, k + 1);
	}
}

/* ---- replies ------------------------------------------------------------ */

void serve_reply_error(struct serve_reply *r, unsigned status,
		       const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	size_t k;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* A message is ours (no quote, no backslash), but be sure. */
	for (k = 0; msg[k]; k++)
		if (msg[k] == '"' || msg[k] == '\\' ||
		    (unsigned char)msg[k] < 0x20)
			msg[k] = '\'';
	r->status = status;
	r->type = NULL;
	r->body_static = false;
	r->len = 0;
	r->body = malloc(k + 16);
	if (r->body)
		r->len = (size_t)sprintf(r->body, "{\"error\":\"%s\"}\n", msg);
}

static void headers(struct MHD_Response *resp, const char *type)
{
	MHD_add_response_header(resp, "Content-Type",
				type ? type : "application/json");
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(resp, "Cache-Control", "no-store");
	MHD_add_response_header(resp, "Content-Security-Policy", CSP);
}

/* Queues r (its body is MHD's now). */
static enum MHD_Result send_reply(struct serve_http *h,
				  struct MHD_Connection *c,
				  struct serve_reply *r)
{
	struct MHD_Response *resp;
	enum MHD_Result ok;

	if (!r->body) {
		r->len = 0;
		r->body_static = true;
		r->body = (char *)"";
	}
	resp = MHD_create_response_from_buffer(
		r->len, r->body, r->body_static ? MHD_RESPMEM_PERSISTENT :
						  MHD_RESPMEM_MUST_FREE);
	if (!resp) {
		if (!r->body_static)
			free(r->body);
		return MHD_NO;
	}
	headers(resp, r->type);
	if (r->status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(resp, "Allow", "GET, HEAD, POST");
	if (r->status >= 400 && r->status < 500)
		h->st.refused++;
	ok = MHD_queue_response(c, r->status, resp);
	MHD_destroy_response(resp);
	return ok;
}

static enum MHD_Result refuse(struct serve_http *h, struct MHD_Connection *c,
			      unsigned status, const char *why)
{
	struct serve_reply r;

	serve_reply_error(&r, status, "%s", why);
	return send_reply(h, c, &r);
}

/* ---- the checks every request passes ------------------------------------ */

static const char *header(struct MHD_Connection *c, const char *name)
{
	return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

static bool token_ok(const struct serve_http *h, const char *given)
{
	return given && serve_token_equal(given, strlen(given), h->token);
}

static bool authorized(const struct serve_http *h, struct MHD_Connection *c)
{
	const char *auth = header(c, "Authorization");

	if (!h->need_token)
		return true;
	if (auth && !strncmp(auth, "Bearer ", 7))
		return token_ok(h, auth + 7);
	return token_ok(h, MHD_lookup_connection_value(c, MHD_COOKIE_KIND,
						       h->cookie));
}

/* What controls the lab comes from the page we serve: its Origin is
 * ours, or (no Origin) the browser says the request is same-origin. A
 * request with neither is refused, a script's too: it sends the
 * Origin header of the page it acts for. */
static bool same_origin(struct MHD_Connection *c)
{
	const char *origin = header(c, "Origin"), *host = header(c, "Host");
	const char *site = header(c, "Sec-Fetch-Site");

	if (origin)
		return host && !strncmp(origin, "http://", 7) &&
		       !strcasecmp(origin + 7, host);
	return site && !strcmp(site, "same-origin");
}

/* The page opened with ?token=: the token becomes a cookie, and the
 * address bar loses it. */
static enum MHD_Result token_cookie(struct serve_http *h,
				    struct MHD_Connection *c)
{
	struct MHD_Response *resp =
		MHD_create_response_from_buffer(0, (void *)"",
						MHD_RESPMEM_PERSISTENT);
	char cookie[SERVE_TOKEN_MAX + 64];
	enum MHD_Result ok;

	if (!resp)
		return MHD_NO;
	snprintf(cookie, sizeof(cookie), "%s=%s; HttpOnly; "
		 "SameSite=Strict; Path=/", h->cookie, h->token);
	headers(resp, "text/plain");
	MHD_add_response_header(resp, "Set-Cookie", cookie);
	MHD_add_response_header(resp, "Location", "/");
	ok = MHD_queue_response(c, MHD_HTTP_SEE_OTHER, resp);
	MHD_destroy_response(resp);
	return ok;
}

/* ---- event streams -------------------------------------------------------- */

static void client_wake(struct serve_client *cl)
{
	if (cl->suspended) {
		cl->suspended = false;
		MHD_resume_connection(cl->conn);
	}
}

/* Its stream ends now: too slow (its socket is full, so MHD would not
 * ask for more, and end it, before the timeout), or the peer went (a
 * suspended stream is not watched by MHD). */
static void client_end(struct serve_client *cl, bool slow)
{
	cl->dropped = true;
	free(cl->buf);
	cl->buf = NULL;
	cl->off = cl->len = cl->cap = 0;
	if (slow)
		cl->h->st.dropped++;
	shutdown(cl->fd, SHUT_RDWR);
	client_wake(cl);
}

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct serve_client *cl = cls;
	size_t n;

	(void)pos;
	if (cl->dropped)
		return MHD_CONTENT_READER_END_WITH_ERROR;
	if (cl->off == cl->len) {
		if (cl->closing)
			return MHD_CONTENT_READER_END_OF_STREAM;
		/* Woken by the next message (client_wake). */
		cl->suspended = true;
		MHD_suspend_connection(cl->conn);
		return 0;
	}
	n = cl->len - cl->off < max ? cl->len - cl->off : max;
	memcpy(buf, cl->buf + cl->off, n);
	cl->off += n;
	if (cl->off == cl->len)
		cl->off = cl->len = 0;
	return (ssize_t)n;
}

static void stream_free(void *cls)
{
	struct serve_client *cl = cls;

	if (cl->prev)
		cl->prev->next = cl->next;
	else
		cl->h->clients = cl->next;
	if (cl->next)
		cl->next->prev = cl->prev;
	cl->h->st.clients--;
	free(cl->buf);
	free(cl);
}

/* Room for more octets in cl's queue, within its bound. */
static bool client_room(struct serve_client *cl, size_t more)
{
	size_t need;

	if (cl->len - cl->off + more > cl->h->client_buf)
		return false;
	if (cl->off) {
		memmove(cl->buf, cl->buf + cl->off, cl->len - cl->off);
		cl->len -= cl->off;
		cl->off = 0;
	}
	need = cl->len + more;
	if (need > cl->cap) {
		size_t cap = cl->cap ? cl->cap : 4096;
		char *b;

		while (cap < need)
			cap *= 2;
		b = realloc(cl->buf, cap);
		if (!b)
			return false;
		cl->buf = b;
		cl->cap = cap;
	}
	return true;
}

static void put(struct serve_client *cl, const char *s, size_t n)
{
	memcpy(cl->buf + cl->len, s, n);
	cl->len += n;
}

void serve_http_send(struct serve_client *cl, const char *event,
		     const char *data, size_t len)
{
	size_t lines = 1, need;

	if (cl->dropped || cl->closing)
		return;
	while (len && data[len - 1] == '\n')
		len--;
	for (size_t i = 0; i < len; i++)
		lines += data[i] == '\n';
	need = (event ? 8 + strlen(event) : 0) + len + 6 * lines + 2;
	if (!client_room(cl, need)) {
		client_end(cl, true);
		return;
	}
	if (!event) {
		put(cl, ": ", 2);
		put(cl, data, len);
		put(cl, "\n\n", 2);
		client_wake(cl);
		return;
	}
	put(cl, "event: ", 7);
	put(cl, event, strlen(event));
	put(cl, "\n", 1);
	for (size_t i = 0; i <= len;) {
		size_t k = i;

		while (k < len && data[k] != '\n')
			k++;
		put(cl, "data: ", 6);
		put(cl, data + i, k - i);
		put(cl, "\n", 1);
		i = k + 1;
	}
	put(cl, "\n", 1);
	client_wake(cl);
}

void serve_http_broadcast(struct serve_http *h, const char *event,
			  const char *data, size_t len)
{
	for (struct serve_client *cl = h->clients; cl; cl = cl->next)
		serve_http_send(cl, event, data, len);
}

/* Whether a stream from addr is one too many, in all or for its
 * address: those of a few addresses leave room for everyone else. */
static bool streams_full(const struct serve_http *h,
			 const unsigned char addr[16])
{
	unsigned same = 0;

	for (const struct serve_client *cl = h->clients; cl; cl = cl->next)
		same += !memcmp(cl->addr, addr, 16);
	return h->st.clients >= SERVE_MAX_STREAMS ||
	       same >= SERVE_STREAMS_PER_ADDR;
}

static enum MHD_Result stream_start(struct serve_http *h,
				    struct MHD_Connection *c,
				    const struct serve_conn *k)
{
	const union MHD_ConnectionInfo *i =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	struct serve_client *cl;
	struct serve_reply r = { 0 };
	struct MHD_Response *resp;
	enum MHD_Result ok;

	if (!i || !k)
		return MHD_NO;
	if (streams_full(h, k->addr))
		return refuse(h, c, MHD_HTTP_SERVICE_UNAVAILABLE, "too many "
			      "event streams (from this address)");
	cl = calloc(1, sizeof(*cl));
	if (!cl)
		return MHD_NO;
	cl->h = h;
	cl->conn = c;
	cl->fd = i->connect_fd;
	memcpy(cl->addr, k->addr, 16);
	resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384,
						 stream_read, cl, stream_free);
	if (!resp) {
		free(cl);
		return MHD_NO;
	}
	/* Listed before the first messages: stream_free unlinks it. */
	cl->next = h->clients;
	if (h->clients)
		h->clients->prev = cl;
	h->clients = cl;
	h->st.clients++;
	if (!h->app.stream(h->app.ctx, cl, &r)) {
		MHD_destroy_response(resp);	/* frees cl */
		return send_reply(h, c, &r);
	}
	headers(resp, "text/event-stream");
	MHD_add_response_header(resp, "X-Accel-Buffering", "no");
	ok = MHD_queue_response(c, MHD_HTTP_OK, resp);
	MHD_destroy_response(resp);
	return ok;
}

/* ---- the control action ---------------------------------------------------- */

static void *job_main(void *arg)
{
	struct job *j = arg;
	uint64_t one = 1;

	j->h->app.control(j->h->app.ctx, &j->args, &j->reply);
	if (write(j->h->efd, &one, sizeof(one)) < 0)
		abort();	/* an eventfd write of 1 cannot fail */
	return NULL;
}

static void copy_arg(char *dst, size_t len, const char *src,
		     const char **ptr)
{
	*ptr = NULL;
	if (!src)
		return;
	snprintf(dst, len, "%s", src);
	*ptr = dst;
}

static void job_forget_reply(struct job *j)
{
	if (!j->replied && !j->reply.body_static)
		free(j->reply.body);
	j->reply = (struct serve_reply){ 0 };
	j->replied = true;
}

static enum MHD_Result job_start(struct serve_http *h,
				 struct MHD_Connection *c, struct request *rq,
				 const struct serve_args *a)
{
	struct job *j = &h->job;

	if (j->running)
		return refuse(h, c, MHD_HTTP_CONFLICT, "another link action "
			      "is still running");
	job_forget_reply(j);
	j->h = h;
	j->conn = c;
	j->rq = rq;
	j->replied = false;
	copy_arg(j->end, sizeof(j->end), a->end, &j->args.end);
	copy_arg(j->action, sizeof(j->action), a->action, &j->args.action);
	copy_arg(j->mode, sizeof(j->mode), a->mode, &j->args.mode);
	j->args.t = NULL;
	if (pthread_create(&j->th, NULL, job_main, j))
		return refuse(h, c, MHD_HTTP_SERVICE_UNAVAILABLE, "no thread "
			      "for the link action");
	j->running = true;
	rq->waiting = true;
	MHD_suspend_connection(c);
	return MHD_YES;
}

/* The action is done: its connection goes on, to its answer. */
static void job_done(struct serve_http *h)
{
	struct job *j = &h->job;
	uint64_t n;

	if (!j->running || read(h->efd, &n, sizeof(n)) != sizeof(n))
		return;
	pthread_join(j->th, NULL);
	j->running = false;
	MHD_resume_connection(j->conn);
}

static enum MHD_Result job_answer(struct serve_http *h,
				  struct MHD_Connection *c, struct request *rq)
{
	struct job *j = &h->job;

	if (j->running)	/* resumed by the server's stop */
		return MHD_NO;
	rq->waiting = false;
	j->replied = true;
	return send_reply(h, c, &j->reply);
}

/* ---- requests ------------------------------------------------------------- */

static const char *arg(struct MHD_Connection *c, const char *key)
{
	return MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, key);
}

/* The connection's own record (its socket context). */
static struct serve_conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *i = MHD_get_connection_info(
		c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return i ? i->socket_context : NULL;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static enum MHD_Result answer(struct serve_http *h, struct MHD_Connection *c,
			      const char *url, const char *method,
			      struct request *rq)
{
	enum serve_route route = serve_route_of(method, url);
	struct serve_reply r = { 0 };
	struct serve_args a = {
		.t = arg(c, "t"), .end = arg(c, "end"),
		.action = arg(c, "action"), .mode = arg(c, "mode"),
	};
	const struct serve_asset *as;
	const char *token = arg(c, "token");

	if (h->loopback && !serve_host_is(header(c, "Host"), h->host, h->port))
		return refuse(h, c, MHD_HTTP_FORBIDDEN, "the Host header does "
			      "not name this server's loopback address");
	if (route == SERVE_BAD_PATH || rq->nul)
		return refuse(h, c, MHD_HTTP_BAD_REQUEST, "not a path of ours");
	if (rq->bad_query[0])
		return refuse(h, c, MHD_HTTP_BAD_REQUEST, rq->bad_query);
	/* The page opened with its token: it becomes a cookie. */
	if (h->need_token && route == SERVE_ASSET && !strcmp(url, "/") &&
	    token_ok(h, token)) {
		serve_conns_trust(&h->conns, conn_of(c));
		return token_cookie(h, c);
	}
	if (!authorized(h, c))
		return refuse(h, c, MHD_HTTP_UNAUTHORIZED, "open the address "
			      "mstlab serve printed, with its token");
	serve_conns_trust(&h->conns, conn_of(c));
	switch (route) {
	case SERVE_ASSET:
		as = serve_asset_find(url);
		r = (struct serve_reply){ .status = MHD_HTTP_OK,
					  .type = as->type,
					  .body = (char *)as->data,
					  .len = as->len, .body_static = true };
		return send_reply(h, c, &r);
	case SERVE_LAB:
	case SERVE_STATE:
		h->app.get(h->app.ctx, route, &a, &r);
		return send_reply(h, c, &r);
	case SERVE_EVENTS:
		return stream_start(h, c, conn_of(c));
	case SERVE_LINK:
		if (!same_origin(c))
			return refuse(h, c, MHD_HTTP_FORBIDDEN, "a link action "
				      "comes from the page itself (its Origin, "
				      "or Sec-Fetch-Site: same-origin)");
		if (!h->app.control_check(h->app.ctx, &a, &r))
			return send_reply(h, c, &r);
		return job_start(h, c, rq, &a);
	case SERVE_BAD_METHOD:
		return refuse(h, c, MHD_HTTP_METHOD_NOT_ALLOWED, "not a method "
			      "of that path");
	default:
		return refuse(h, c, MHD_HTTP_NOT_FOUND, "no such path");
	}
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **req_cls)
{
	struct serve_http *h = cls;
	struct request *rq = *req_cls;

	(void)version;
	(void)upload;
	if (!rq)
		return MHD_NO;	/* on_uri found no memory */
	if (!rq->started) {
		const char *cl = header(c, "Content-Length");

		rq->started = true;
		serve_conns_head_in(conn_of(c));
		/* No route takes a body: refused before it is read. */
		if ((cl && strcmp(cl, "0")) ||
		    header(c, "Transfer-Encoding")) {
			rq->answered = true;
			return refuse(h, c, MHD_HTTP_CONTENT_TOO_LARGE,
				      "no request here has a body");
		}
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return rq->answered ? MHD_YES : MHD_NO;
	}
	if (rq->waiting)	/* resumed: the action is done */
		return job_answer(h, c, rq);
	if (rq->answered)
		return MHD_YES;
	rq->answered = true;
	return answer(h, c, url, method, rq);
}

/* Each request's state, from its raw URI: MHD's unescaping would hide
 * a NUL (a value, or the path, ends there). */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *c)
{
	struct request *rq = calloc(1, sizeof(*rq));
	const char *q = strchr(uri, '?');
	const char *nul = strstr(uri, "%00");

	(void)cls;
	(void)c;
	if (!rq)
		return NULL;
	rq->nul = nul && (!q || nul < q);
	serve_query_check(uri, rq->bad_query, sizeof(rq->bad_query));
	return rq;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **req_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct serve_http *h = cls;
	struct request *rq = *req_cls;

	(void)toe;
	if (rq && h->job.rq == rq)
		h->job.rq = NULL;
	free(rq);
	*req_cls = NULL;
	serve_conns_answered(&h->conns, conn_of(c), now_ms());
}

/* A new connection: refused when its address holds its share. */
static enum MHD_Result on_accept(void *cls, const struct sockaddr *addr,
				 socklen_t len)
{
	struct serve_http *h = cls;

	(void)len;
	if (serve_conns_admit(&h->conns, addr))
		return MHD_YES;
	h->st.refused++;
	return MHD_NO;
}

static void on_connection(void *cls, struct MHD_Connection *c,
			  void **socket_ctx,
			  enum MHD_ConnectionNotificationCode code)
{
	struct serve_http *h = cls;
	const union MHD_ConnectionInfo *a =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const union MHD_ConnectionInfo *fd =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		if (a && fd)
			*socket_ctx = serve_conns_open(&h->conns,
						       fd->connect_fd,
						       a->client_addr,
						       now_ms());
		return;
	}
	serve_conns_close(&h->conns, *socket_ctx);
	*socket_ctx = NULL;
}

/* ---- the server ------------------------------------------------------------ */

static int listen_on(const struct serve_cfg *cfg, struct errbuf *err)
{
	int fd = socket(cfg->addr.ss_family,
			SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), one = 1;
	char name[INET6_ADDRSTRLEN + 2];

	serve_addr_name(&cfg->addr, name, sizeof(name));
	if (fd < 0)
		return errbuf_set(err, "socket: %s", strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (cfg->addr.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)&cfg->addr, cfg->addr_len) ||
	    listen(fd, 1024)) {
		errbuf_set(err, "cannot listen on %s: %s", name,
			   strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static unsigned bound_port(int fd)
{
	struct sockaddr_storage a;
	socklen_t len = sizeof(a);

	if (getsockname(fd, (struct sockaddr *)&a, &len))
		return 0;
	return ntohs(a.ss_family == AF_INET ?
		     ((struct sockaddr_in *)&a)->sin_port :
		     ((struct sockaddr_in6 *)&a)->sin6_port);
}

struct serve_http *serve_http_start(const struct serve_cfg *cfg,
				    const struct serve_app *app,
				    struct errbuf *err)
{
	struct serve_http *h = calloc(1, sizeof(*h));
	int fd;

	if (!h) {
		errbuf_set(err, "out of memory");
		return NULL;
	}
	h->app = *app;
	h->loopback = serve_addr_loopback(&cfg->addr);
	h->need_token = cfg->token != NULL;
	if (!h->need_token && !h->loopback) {
		errbuf_set(err, "no token: only on a loopback address");
		free(h);
		return NULL;
	}
	serve_addr_name(&cfg->addr, h->host, sizeof(h->host));
	h->conns.head_ms = cfg->head_ms;
	snprintf(h->token, sizeof(h->token), "%s", cfg->token ? cfg->token : "");
	h->client_buf = cfg->client_buf ? cfg->client_buf : SERVE_CLIENT_BUF;
	h->job.replied = true;
	h->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (h->efd < 0) {
		errbuf_set(err, "eventfd: %s", strerror(errno));
		free(h);
		return NULL;
	}
	fd = listen_on(cfg, err);
	if (fd < 0)
		goto fail;
	h->port = bound_port(fd);
	snprintf(h->cookie, sizeof(h->cookie), COOKIE "%u", h->port);
	h->d = MHD_start_daemon(
		MHD_ALLOW_SUSPEND_RESUME, 0, on_accept, h,
		on_request, h, MHD_OPTION_LISTEN_SOCKET, fd,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_MEM_LIMIT,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVE_MAX_CONNS,
		MHD_OPTION_CONNECTION_TIMEOUT,
		cfg->timeout_s ? cfg->timeout_s : (unsigned)SERVE_TIMEOUT_S,
		MHD_OPTION_URI_LOG_CALLBACK, on_uri, h,
		MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
		MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
		MHD_OPTION_END);
	if (h->d)
		return h;
	errbuf_set(err, "libmicrohttpd would not start");
	close(fd);
fail:
	close(h->efd);
	free(h);
	return NULL;
}

void serve_http_stop(struct serve_http *h)
{
	if (!h)
		return;
	if (h->job.running) {	/* a link action finishes first */
		pthread_join(h->job.th, NULL);
		h->job.running = false;
		MHD_resume_connection(h->job.conn);
	}
	for (struct serve_client *cl = h->clients; cl; cl = cl->next) {
		cl->closing = true;
		client_wake(cl);
	}
	/* Resumed connections must be run before the daemon stops. */
	serve_http_poll(h, NULL, 0, 0);
	serve_http_poll(h, NULL, 0, 0);
	MHD_stop_daemon(h->d);
	job_forget_reply(&h->job);
	close(h->efd);
	free(h);
}

unsigned serve_http_port(const struct serve_http *h)
{
	return h->port;
}

/* A stream whose peer went is ended now: suspended, MHD does not
 * watch its socket, and would keep its slot until the next write
 * failed. w: the streams' entries, as serve_http_poll() made them. */
static void streams_gone(struct serve_http *h, const struct pollfd *w,
			 size_t n)
{
	struct serve_client *cl = h->clients;

	for (size_t i = 0; i < n && cl; cl = cl->next) {
		if (cl->dropped || cl->closing)
			continue;
		if (w[i].fd == cl->fd &&
		    (w[i].revents & (POLLRDHUP | POLLHUP | POLLERR)))
			client_end(cl, false);
		i++;
	}
}

void serve_http_poll(struct serve_http *h, struct pollfd *fds, size_t n,
		     int timeout_ms)
{
	struct pollfd p[FD_SETSIZE + SERVE_MAX_STREAMS + 8];
	fd_set rs, ws, es;
	MHD_socket max = -1;
	MHD_UNSIGNED_LONG_LONG to;
	size_t k = 0, mhd_n;
	int due;

	FD_ZERO(&rs);
	FD_ZERO(&ws);
	FD_ZERO(&es);
	/* MHD's sockets as it wants them watched (level-triggered: a peer
	 * that closed is seen at once), then the caller's, then ours. */
	MHD_get_fdset2(h->d, &rs, &ws, &es, &max, FD_SETSIZE);
	for (int fd = 0; fd <= max; fd++) {
		short ev = (short)((FD_ISSET(fd, &rs) ? POLLIN : 0) |
				   (FD_ISSET(fd, &ws) ? POLLOUT : 0));

		if (ev || FD_ISSET(fd, &es))
			p[k++] = (struct pollfd){ .fd = fd, .events = ev };
	}
	mhd_n = k;
	for (struct serve_client *cl = h->clients; cl; cl = cl->next)
		if (!cl->dropped && !cl->closing)
			p[k++] = (struct pollfd){ .fd = cl->fd,
						  .events = POLLRDHUP };
	for (size_t i = 0; i < n; i++)
		p[k++] = (struct pollfd){ .fd = fds[i].fd, .events = POLLIN };
	p[k++] = (struct pollfd){ .fd = h->efd, .events = POLLIN };
	if (MHD_get_timeout(h->d, &to) == MHD_YES &&
	    (timeout_ms < 0 || to < (MHD_UNSIGNED_LONG_LONG)timeout_ms))
		timeout_ms = (int)to;
	due = serve_conns_expire(&h->conns, now_ms());
	if (due >= 0 && (timeout_ms < 0 || due < timeout_ms))
		timeout_ms = due;
	if (poll(p, k, timeout_ms) < 0)
		for (size_t i = 0; i < k; i++)
			p[i].revents = 0;	/* a signal: run what is due */
	streams_gone(h, p + mhd_n, k - n - 1 - mhd_n);
	serve_conns_expire(&h->conns, now_ms());
	FD_ZERO(&rs);
	FD_ZERO(&ws);
	FD_ZERO(&es);
	for (size_t i = 0; i < mhd_n; i++) {
		if (p[i].revents & (POLLIN | POLLHUP | POLLERR))
			FD_SET(p[i].fd, &rs);
		if (p[i].revents & (POLLOUT | POLLERR))
			FD_SET(p[i].fd, &ws);
		if (p[i].revents & POLLPRI)
			FD_SET(p[i].fd, &es);
	}
	for (size_t i = 0; i < n; i++)
		fds[i].revents = p[k - 1 - n + i].revents;
	job_done(h);
	MHD_run_from_select(h->d, &rs, &ws, &es);
}

struct serve_stats serve_http_stats(const struct serve_http *h)
{
	struct serve_stats st = h->st;

	st.connections = h->conns.open;
	st.anonymous = h->conns.n_anon;
	st.cut_over = h->conns.cut_over;
	st.cut_late = h->conns.cut_late;
	return st;
}
