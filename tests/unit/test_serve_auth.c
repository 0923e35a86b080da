// SPDX-License-Identifier: MIT
/*
 * mstlab serve's security model against a real server (serve_fixture.h):
 * a token on loopback too, traded for a cookie; a link action from the
 * page's own origin only; --no-auth on loopback only; connections that
 * have not shown the token capped and given a deadline for their head
 * (a flood or a slow client cannot lock out one that holds the token);
 * event streams capped, and their slot freed as soon as the peer goes;
 * any loopback address; a query with a control character or a name
 * given twice refused.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child.h"
#include "serve_main.h"
#include "lab.h"
#include "serve_conns.h"
#include "serve_fixture.h"
#include "serve_http.h"
#include "unit.h"

static const char tok[] = "0123456789abcdef0123";
static char resp[1 << 16];

/* The cookie header line of the token for s. */
static const char *cookie(const struct srv *s)
{
	static char line[128];

	snprintf(line, sizeof(line), "Cookie: mstlab_%u=%s\r\n", s->port, tok);
	return line;
}

TEST(the_token_is_needed_on_loopback_too_and_becomes_a_cookie)
{
	static const char *const paths[] = {
		"/", "/app.js", "/app.css", "/api/lab", "/api/state?t=5",
		"/api/events",
	};
	char req[512];
	struct srv *s;

	CHECK(srv_start(&s, tok, 5, 0) == 0);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		int code = get(s->port, paths[i], NULL, resp, sizeof(resp));

		if (code != 401)
			unit_fail(__FILE__, __LINE__, "%s: %d", paths[i], code);
		CHECK(strstr(resp, "{\"error\":\"open the address mstlab "
			      "serve printed, with its token\"}"));
		CHECK_INT(get(s->port, paths[i], cookie(s), resp,
			      sizeof(resp)), 200);
	}
	/* The address printed: a cookie, and back to the bare page. */
	snprintf(req, sizeof(req), "/?token=%s", tok);
	CHECK_INT(get(s->port, req, NULL, resp, sizeof(resp)), 303);
	snprintf(req, sizeof(req), "Set-Cookie: mstlab_%u=%s; HttpOnly; "
		 "SameSite=Strict; Path=/", s->port, tok);
	CHECK(strstr(resp, req));
	/* A link action without the token, from the page's origin. */
	snprintf(req, sizeof(req), "POST /api/link?end=sw1:p1&action=fail "
		 "HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nOrigin: http://127.0.0.1:%u"
		 "\r\nConnection: close\r\n\r\n", s->port, s->port);
	CHECK_INT(raw(s->port, req, resp, sizeof(resp)), 401);
	CHECK_INT(__atomic_load_n(&s->controls, __ATOMIC_SEQ_CST), 0);
	srv_stop(s);
}

/* A link action with the token (auth) and extra header lines. */
static int post(const struct srv *s, const char *auth, const char *extra)
{
	char req[1024];

	snprintf(req, sizeof(req), "POST /api/link?end=sw1:p1&action=fail "
		 "HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n%s%sConnection: close"
		 "\r\n\r\n", s->port, auth, extra);
	return raw(s->port, req, resp, sizeof(resp));
}

TEST(a_link_action_needs_the_token_and_the_page_s_own_origin)
{
	static const struct {
		const char *extra;
		int code;
	} asks[] = {
		{ "", 403 },
		{ "Origin: http://evil.example\r\n", 403 },
		{ "Origin: http://127.0.0.1:1\r\n", 403 },
		{ "Origin: null\r\n", 403 },
		{ "Sec-Fetch-Site: same-site\r\n", 403 },
		{ "Sec-Fetch-Site: cross-site\r\n", 403 },
		{ "Sec-Fetch-Site: none\r\n", 403 },
		{ "Origin: http://evil.example\r\nSec-Fetch-Site: "
		  "same-origin\r\n", 403 },
		{ "Sec-Fetch-Site: same-origin\r\n", 200 },
		{ "ORIGIN\r\n", 200 },	/* the page's own, below */
	};
	char origin[64], bearer[64];
	struct srv *s;

	CHECK(srv_start(&s, tok, 5, 0) == 0);
	snprintf(origin, sizeof(origin), "Origin: http://127.0.0.1:%u\r\n",
		 s->port);
	for (size_t i = 0; i < sizeof(asks) / sizeof(asks[0]); i++) {
		const char *x = strcmp(asks[i].extra, "ORIGIN\r\n") ?
			asks[i].extra : origin;
		int code = post(s, cookie(s), x);

		if (code != asks[i].code)
			unit_fail(__FILE__, __LINE__, "%s: %d", x, code);
		CHECK_INT(code, asks[i].code);
		if (code == 403)
			CHECK(strstr(resp, "{\"error\":\"a link action comes "
				      "from the page itself"));
	}
	CHECK_INT(__atomic_load_n(&s->controls, __ATOMIC_SEQ_CST), 2);
	/* A script: the token as a bearer, the page's origin said. */
	snprintf(bearer, sizeof(bearer), "Authorization: Bearer %s\r\n", tok);
	CHECK_INT(post(s, bearer, origin), 200);
	CHECK_INT(post(s, bearer, ""), 403);
	CHECK_INT(post(s, "", origin), 401);
	CHECK_INT(__atomic_load_n(&s->controls, __ATOMIC_SEQ_CST), 3);
	srv_stop(s);
}

TEST(no_auth_is_for_a_loopback_address_only)
{
	char *argv[] = { "serve", "nolab", "--no-auth", "--listen",
			 "0.0.0.0:0", NULL };
	char *argv_lo[] = { "serve", "/nonexistent/run", "--no-auth",
			    "--listen", "127.0.0.9:0", NULL };
	char *text = NULL;
	size_t len = 0;
	struct serve_cfg cfg = { 0 };
	const struct serve_app app = { 0 };
	struct errbuf e;
	FILE *err;

	/* The server itself will not run without a token off loopback. */
	CHECK(serve_listen_parse("0.0.0.0:0", &cfg.addr, &cfg.addr_len,
				 &e) == 0);
	CHECK(!serve_http_start(&cfg, &app, &e));
	CHECK(strstr(e.msg, "only on a loopback address"));
	err = open_memstream(&text, &len);
	CHECK_INT(serve_main(5, argv, stdout, err), 2);
	fclose(err);
	CHECK(strstr(text, "--no-auth is for a loopback address only "
		      "(127.0.0.0/8, [::1]), not 0.0.0.0:0"));
	free(text);
	/* On loopback it is taken (what follows fails: no such run). */
	text = NULL;
	err = open_memstream(&text, &len);
	CHECK(serve_main(5, argv_lo, stdout, err) != 2);
	fclose(err);
	CHECK(!strstr(text, "--no-auth"));
	free(text);
}

static int get_at(const char *addr, unsigned port, const char *host,
		  const char *extra);

/* GET /api/lab from 127.0.0.3, without a token. */
static int get_at_lab(unsigned port, const char *host)
{
	return get_at("127.0.0.3", port, host, "");
}

/* A finished run of a two-bridge lab: what mstlab serve replays. */
static const char lab_yaml[] =
	"name: authrun\n"
	"nodes:\n"
	"  sw1: { role: bridge, priority: 4096 }\n"
	"  sw2: { role: bridge }\n"
	"links:\n"
	"  - [sw1:p1, sw2:p1]\n";

static int put_file(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

struct served {
	char **argv;
	int argc, rc;
	FILE *out;
};

static void *serve_thread(void *arg)
{
	struct served *v = arg;
	FILE *err = fopen("/dev/null", "w");

	v->rc = serve_main(v->argc, v->argv, v->out, err);
	fclose(err);
	fclose(v->out);
	return NULL;
}

/* mstlab serve on a run folder, with extra options: the first line it
 * prints (the address), then it is stopped. */
static int serve_line(const char *dir, const char *extra, char *line,
		      size_t len, int *code)
{
	char *argv[] = { "serve", (char *)dir, "--listen", "127.0.0.3:0",
			 (char *)extra, NULL };
	struct served v = { .argv = argv, .argc = extra ? 5 : 4 };
	unsigned port = 0;
	pthread_t th;
	int p[2];
	FILE *in;

	if (pipe(p))
		return -1;
	v.out = fdopen(p[1], "w");
	in = fdopen(p[0], "r");
	pthread_create(&th, NULL, serve_thread, &v);
	line[0] = 0;
	if (!fgets(line, (int)len, in))
		line[0] = 0;
	if (sscanf(line, "mstlab serve: http://127.0.0.3:%u/", &port) == 1) {
		char host[64];

		snprintf(host, sizeof(host), "127.0.0.3:%u", port);
		*code = get_at_lab(port, host);
	}
	lab_interrupted = 1;
	pthread_join(th, NULL);
	fclose(in);
	return v.rc;
}

TEST(mstlab_serve_takes_a_token_on_loopback_unless_no_auth)
{
	char dir[] = "/tmp/mstlab-serve-auth-XXXXXX", line[256];
	char *rm[] = { "rm", "-rf", dir, NULL };
	int code = 0;

	CHECK(mkdtemp(dir));
	CHECK(put_file(dir, "topology.yaml", lab_yaml) == 0);
	CHECK(put_file(dir, "events", "1000000000 run-start authrun\n"
		       "2000000000 run-end ok\n") == 0);
	CHECK(put_file(dir, "summary.json", "{\"version\":1,"
		       "\"scenarios\":[]}\n") == 0);
	setenv("MSTLAB_RUNTIME_DIR", dir, 1);	/* no lab is up */
	CHECK_INT(serve_line(dir, NULL, line, sizeof(line), &code), 0);
	CHECK(strstr(line, "/?token="));
	CHECK(strlen(strstr(line, "/?token=") + 8) > 32);
	CHECK_INT(code, 401);
	code = 0;
	CHECK_INT(serve_line(dir, "--no-auth", line, sizeof(line), &code), 0);
	CHECK(!strstr(line, "token"));
	CHECK_INT(code, 200);
	spawn_run(rm, NULL, 10000);
}

/* Whether the server closed fd (within ms). */
static bool closed_by_server(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char c;

	return poll(&p, 1, ms) == 1 && recv(fd, &c, 1, MSG_DONTWAIT) <= 0;
}

TEST(anonymous_connections_cannot_lock_out_a_client_with_the_token)
{
	/* More than the server's whole connection limit, from 6 addresses
	 * (each under its per-address share of all connections). */
	enum { ADDRS = 6, EACH = 45, N = ADDRS * EACH };
	static int fds[N];
	struct serve_stats st;
	int closed = 0;
	char src[32];
	struct srv *s;

	CHECK(srv_start_at(&s, "127.0.0.1:0", tok, 30, 0, 60000) == 0);
	for (int i = 0; i < N; i++) {
		snprintf(src, sizeof(src), "127.0.0.%d", 10 + i % ADDRS);
		fds[i] = dial(s->port, src);
		CHECK(fds[i] >= 0);
	}
	usleep(300000);
	st = srv_stats(s);
	CHECK(st.anonymous <= SERVE_ANON_MAX);
	CHECK(st.connections <= SERVE_ANON_MAX);
	/* A client with the token, on a new connection, is served. */
	CHECK_INT(get(s->port, "/api/lab", cookie(s), resp, sizeof(resp)),
		  200);
	/* Each address holds its share at most, the rest were closed. */
	for (int a = 0; a < ADDRS; a++) {
		int held = 0;

		for (int i = a; i < N; i += ADDRS)
			held += !closed_by_server(fds[i], 0);
		CHECK(held <= SERVE_ANON_PER_ADDR);
	}
	for (int i = 0; i < N; i++) {
		closed += closed_by_server(fds[i], 0);
		close(fds[i]);
	}
	CHECK(closed >= N - SERVE_ANON_MAX);
	srv_stop(s);
}

TEST(a_slow_loris_is_dropped_at_the_head_deadline_a_good_client_is_served)
{
	static const char head[] = "GET /api/lab HTTP/1.1\r\nHost: 127.0.0.1";
	char req[256];
	int64_t t0, gone = -1;
	struct srv *s;
	int fd, kept;

	/* An idle timeout of 30 s: what closes it is the deadline. */
	CHECK(srv_start_at(&s, "127.0.0.1:0", tok, 30, 0, 3000) == 0);
	fd = dial(s->port, "127.0.0.2");
	CHECK(fd >= 0);
	t0 = mono_ms();
	for (size_t i = 0; i < sizeof(head) - 1 && gone < 0; i++) {
		if (send(fd, head + i, 1, MSG_NOSIGNAL) != 1 ||
		    closed_by_server(fd, 1000))
			gone = mono_ms() - t0;
		if (i == 1)	/* meanwhile, a client with the token */
			CHECK_INT(get(s->port, "/api/lab", cookie(s), resp,
				      sizeof(resp)), 200);
	}
	close(fd);
	printf("# a byte a second: closed after %lld ms (deadline 3000)\n",
	       (long long)gone);
	if (gone < 2900 || gone > 4500)
		unit_fail(__FILE__, __LINE__, "closed after %lld ms",
			  (long long)gone);
	CHECK(gone >= 2900 && gone <= 4500);
	CHECK_INT(srv_stats(s).cut_late, 1);
	/* A connection that showed the token has no deadline: it idles
	 * past it and is served again. */
	kept = dial(s->port, NULL);
	snprintf(req, sizeof(req), "GET /api/lab HTTP/1.1\r\nHost: "
		 "127.0.0.1:%u\r\n%s\r\n", s->port, cookie(s));
	CHECK(write_all(kept, req, strlen(req)));
	read_for(kept, resp, sizeof(resp), 300);
	CHECK(!strncmp(resp, "HTTP/1.1 200", 12));
	usleep(3500 * 1000);
	CHECK(write_all(kept, req, strlen(req)));
	read_for(kept, resp, sizeof(resp), 300);
	CHECK(!strncmp(resp, "HTTP/1.1 200", 12));
	close(kept);
	srv_stop(s);
}

/* A stream from src, once its first message (or a JSON error) is in:
 * the socket. */
static int stream_from(unsigned port, const char *src, char *out,
		       size_t cap)
{
	int fd = dial(port, src);
	char req[256];

	out[0] = 0;
	if (fd < 0)
		return -1;
	snprintf(req, sizeof(req), "GET /api/events HTTP/1.1\r\nHost: "
		 "127.0.0.1:%u\r\n\r\n", port);
	write_all(fd, req, strlen(req));
	read_until(fd, out, cap, "}\n", 2000);
	return fd;
}

TEST(streams_are_capped_per_address_and_a_closed_one_frees_its_slot)
{
	enum { ADDRS = SERVE_MAX_STREAMS / SERVE_STREAMS_PER_ADDR };
	static int fds[SERVE_MAX_STREAMS];
	struct serve_stats st;
	char src[32], buf[4096];
	struct srv *s;
	int64_t t0;
	int fd;

	CHECK(srv_start(&s, NULL, 30, 0) == 0);
	for (int i = 0; i < SERVE_MAX_STREAMS; i++) {
		snprintf(src, sizeof(src), "127.0.0.%d", 40 + i % ADDRS);
		fds[i] = stream_from(s->port, src, buf, sizeof(buf));
		CHECK(fds[i] >= 0);
		CHECK(strstr(buf, "data: {\"a\":1}\n\n"));
	}
	CHECK_INT(srv_stats(s).clients, SERVE_MAX_STREAMS);
	/* One more from an address at its share, then from another: 503,
	 * and a plain request is still served. */
	fd = stream_from(s->port, "127.0.0.40", buf, sizeof(buf));
	CHECK(strstr(buf, "HTTP/1.1 503"));
	CHECK(strstr(buf, "too many event streams"));
	close(fd);
	fd = stream_from(s->port, "127.0.0.99", buf, sizeof(buf));
	CHECK(strstr(buf, "HTTP/1.1 503"));
	close(fd);
	CHECK_INT(get(s->port, "/api/lab", NULL, resp, sizeof(resp)), 200);
	/* Every stream closed cleanly: every slot free within 1 s. */
	t0 = mono_ms();
	for (int i = 0; i < SERVE_MAX_STREAMS; i++)
		close(fds[i]);
	while (((st = srv_stats(s)).clients || st.connections) &&
	       mono_ms() - t0 < 5000)
		usleep(10000);
	if (mono_ms() - t0 >= 1000)
		unit_fail(__FILE__, __LINE__, "%u streams, %u connections "
			  "after %lld ms", st.clients, st.connections,
			  (long long)(mono_ms() - t0));
	printf("# %d streams closed: every slot free after %lld ms\n",
	       SERVE_MAX_STREAMS, (long long)(mono_ms() - t0));
	CHECK_INT(st.clients, 0);
	CHECK_INT(st.connections, 0);
	CHECK(mono_ms() - t0 < 1000);
	CHECK_INT(st.dropped, 0);
	fd = stream_from(s->port, "127.0.0.40", buf, sizeof(buf));
	CHECK(strstr(buf, "HTTP/1.1 200"));
	close(fd);
	srv_stop(s);
}

/* GET /api/lab on fd (closed then) with a Host header: the status. */
static int ask(int fd, const char *host, const char *extra)
{
	char req[512];
	int code = 0;

	if (fd < 0)
		return -1;
	snprintf(req, sizeof(req), "GET /api/lab HTTP/1.1\r\nHost: %s\r\n%s"
		 "Connection: close\r\n\r\n", host, extra);
	write_all(fd, req, strlen(req));
	read_for(fd, resp, sizeof(resp), 3000);
	close(fd);
	if (!strncmp(resp, "HTTP/1.", 7))
		code = atoi(resp + 9);
	return code;
}

static int get_at(const char *addr, unsigned port, const char *host,
		  const char *extra)
{
	return ask(dial_to(addr, port, NULL), host, extra);
}

/* The same on [::1]. */
static int get_at6(unsigned port, const char *host, const char *extra)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6,
				  .sin6_port = htons((uint16_t)port),
				  .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		fd = -1;
	}
	return ask(fd, host, extra);
}

TEST(any_loopback_address_works_and_its_host_header_is_its_own)
{
	char host[64];
	struct srv *s;

	CHECK(srv_start_at(&s, "127.0.0.2:0", tok, 5, 0, 0) == 0);
	snprintf(host, sizeof(host), "127.0.0.2:%u", s->port);
	CHECK_INT(get_at("127.0.0.2", s->port, host, cookie(s)), 200);
	CHECK_INT(get_at("127.0.0.2", s->port, host, ""), 401);
	snprintf(host, sizeof(host), "localhost:%u", s->port);
	CHECK_INT(get_at("127.0.0.2", s->port, host, cookie(s)), 200);
	/* Another name for it, or another address: no (DNS rebinding). */
	snprintf(host, sizeof(host), "127.0.0.1:%u", s->port);
	CHECK_INT(get_at("127.0.0.2", s->port, host, cookie(s)), 403);
	snprintf(host, sizeof(host), "evil.example:%u", s->port);
	CHECK_INT(get_at("127.0.0.2", s->port, host, cookie(s)), 403);
	srv_stop(s);
	/* IPv6's loopback, where the host has it. */
	if (srv_start_at(&s, "[::1]:0", tok, 5, 0, 0)) {
		unit_skip("no [::1] here");
		return;
	}
	snprintf(host, sizeof(host), "[::1]:%u", s->port);
	CHECK_INT(get_at6(s->port, host, cookie(s)), 200);
	CHECK_INT(get_at6(s->port, host, ""), 401);
	snprintf(host, sizeof(host), "127.0.0.1:%u", s->port);
	CHECK_INT(get_at6(s->port, host, cookie(s)), 403);
	srv_stop(s);
}

TEST(a_control_character_or_a_name_twice_in_a_query_is_refused)
{
	static const struct {
		const char *uri, *why;
	} q[] = {
		{ "/api/state?t=5", "" },
		{ "/api/link?end=sw1:p1&action=fail&mode=carrier", "" },
		{ "/?token=abc", "" },
		{ "/api/state", "" },
		{ "/api/state?", "" },
		{ "/api/state?t=5&", "" },
		{ "/api/link?end=sw1:p1%00x&action=fail",
		  "a control character (0x00) in the query" },
		{ "/api/state?t=1%0a", "a control character (0x0a) in the query" },
		{ "/api/state?t=1%7F", "a control character (0x7f) in the query" },
		{ "/api/state?t%00=1", "a control character (0x00) in the query" },
		{ "/api/state?t=1\x01", "a control character (0x01) in the query" },
		{ "/api/state?t=1&t=2", "t is given twice" },
		{ "/api/link?end=a&e%6Ed=b", "end is given twice" },
		{ "/api/state?t", "" },
		{ "/api/state?t&t", "t is given twice" },
		{ "/api/state?a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&i=9",
		  "more than 8 arguments" },
	};
	char why[96], req[512];
	struct srv *s;

	for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		serve_query_check(q[i].uri, why, sizeof(why));
		if (strcmp(why, q[i].why))
			unit_fail(__FILE__, __LINE__, "%s: '%s'", q[i].uri, why);
		CHECK_STR(why, q[i].why);
	}
	CHECK(srv_start(&s, NULL, 5, 0) == 0);
	CHECK_INT(get(s->port, "/api/state?t=1%00x", NULL, resp,
		      sizeof(resp)), 400);
	CHECK(strstr(resp, "{\"error\":\"a control character (0x00) in the "
		      "query\"}"));
	CHECK_INT(get(s->port, "/api/state?t=1&t=2", NULL, resp,
		      sizeof(resp)), 400);
	CHECK(strstr(resp, "{\"error\":\"t is given twice\"}"));
	CHECK_INT(get(s->port, "/api/state?t=7", NULL, resp, sizeof(resp)),
		  200);
	snprintf(req, sizeof(req), "POST /api/link?end=sw1:p1%%00x&action=fail"
		 " HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nSec-Fetch-Site: "
		 "same-origin\r\nConnection: close\r\n\r\n", s->port);
	CHECK_INT(raw(s->port, req, resp, sizeof(resp)), 400);
	CHECK_INT(__atomic_load_n(&s->controls, __ATOMIC_SEQ_CST), 0);
	srv_stop(s);
}
