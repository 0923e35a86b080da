// SPDX-License-Identifier: MIT
/*
 * mstlab serve without a lab: the routes, tokens and addresses; a real
 * server on 127.0.0.1 (libmicrohttpd) with a fake application, driven
 * by raw sockets the way a hostile client would (traversal, bad
 * methods, oversized headers, a body, foreign Host and Origin, 1,000
 * connections opened and abandoned, idle ones, an event stream that
 * never reads); the page's data from a run folder (the lab, its
 * drawing, the trees at an instant, live and replayed, summary.json's
 * checks); the live probe flows and their flooding.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <netinet/in.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analyze.h"
#include "bpdu.h"
#include "checks_fixture.h"
#include "child.h"
#include "events.h"
#include "follow.h"
#include "probe_wire.h"
#include "run_ref.h"
#include "serve_conns.h"
#include "serve_fixture.h"
#include "serve_flows.h"
#include "serve_http.h"
#include "serve_model.h"
#include "unit.h"
#include "watch_render.h"

/* ---- routes, tokens, addresses ------------------------------------------ */

TEST(routes_take_their_own_methods_and_refuse_paths_that_climb)
{
	CHECK_INT(serve_route_of("GET", "/"), SERVE_ASSET);
	CHECK_INT(serve_route_of("HEAD", "/app.js"), SERVE_ASSET);
	CHECK_INT(serve_route_of("GET", "/app.css"), SERVE_ASSET);
	CHECK_INT(serve_route_of("GET", "/api/lab"), SERVE_LAB);
	CHECK_INT(serve_route_of("GET", "/api/state"), SERVE_STATE);
	CHECK_INT(serve_route_of("GET", "/api/events"), SERVE_EVENTS);
	CHECK_INT(serve_route_of("POST", "/api/link"), SERVE_LINK);
	CHECK_INT(serve_route_of("GET", "/api/link"), SERVE_BAD_METHOD);
	CHECK_INT(serve_route_of("POST", "/api/lab"), SERVE_BAD_METHOD);
	CHECK_INT(serve_route_of("PUT", "/"), SERVE_BAD_METHOD);
	CHECK_INT(serve_route_of("DELETE", "/api/link"), SERVE_BAD_METHOD);
	CHECK_INT(serve_route_of("GET", "/index.html.bak"), SERVE_NOT_FOUND);
	CHECK_INT(serve_route_of("GET", "/api"), SERVE_NOT_FOUND);
	CHECK_INT(serve_route_of("GET", "/../etc/passwd"), SERVE_BAD_PATH);
	CHECK_INT(serve_route_of("GET", "/app.js/../../x"), SERVE_BAD_PATH);
	CHECK_INT(serve_route_of("GET", "//etc/passwd"), SERVE_BAD_PATH);
	CHECK_INT(serve_route_of("GET", "/..\\..\\x"), SERVE_BAD_PATH);
	CHECK_INT(serve_route_of("GET", "/%2e%2e/x"), SERVE_BAD_PATH);
	CHECK_INT(serve_route_of("GET", "/a\tb"), SERVE_BAD_PATH);
	CHECK_INT(serve_route_of("GET", "etc/passwd"), SERVE_BAD_PATH);
	/* The page's files are in the binary, whole. */
	CHECK(serve_asset_find("/")->len > 200);
	CHECK(strstr((const char *)serve_asset_find("/")->data, "/app.js"));
	CHECK(serve_asset_find("/app.js")->len > 1000);
	CHECK(!serve_asset_find("/serve_http.c"));
}

TEST(tokens_compare_whole_and_come_from_a_file_or_getrandom)
{
	static const char want[] = "0123456789abcdef0123";
	char tok[33], buf[SERVE_TOKEN_MAX + 1], path[64];
	struct errbuf e;
	FILE *f;

	CHECK(serve_token_equal(want, strlen(want), want));
	CHECK(!serve_token_equal("0123456789abcdef012", 19, want));
	CHECK(!serve_token_equal("0123456789abcdef01234", 21, want));
	CHECK(!serve_token_equal("0123456789abcdef0124", 20, want));
	CHECK(!serve_token_equal("", 0, want));
	CHECK(serve_token_new(tok, &e) == 0);
	CHECK_INT(strlen(tok), 32);
	CHECK_INT(strspn(tok, "0123456789abcdef"), 32);
	CHECK(serve_token_new(buf, &e) == 0 && strcmp(tok, buf));
	snprintf(path, sizeof(path), "/tmp/mstlab-token-XXXXXX");
	CHECK(mkstemp(path) >= 0);
	f = fopen(path, "w");
	fputs("short\n", f);
	fclose(f);
	CHECK(serve_token_read(path, buf, sizeof(buf), &e) == -1);
	CHECK(strstr(e.msg, "16 to"));
	f = fopen(path, "w");
	fputs("has a space in it ok\n", f);
	fclose(f);
	CHECK(serve_token_read(path, buf, sizeof(buf), &e) == -1);
	f = fopen(path, "w");
	fprintf(f, "%s\nsecond line\n", want);
	fclose(f);
	CHECK(serve_token_read(path, buf, sizeof(buf), &e) == 0);
	CHECK_STR(buf, want);
	/* Readable by others: no secret. */
	chmod(path, 0640);
	CHECK(serve_token_read(path, buf, sizeof(buf), &e) == -1);
	CHECK(strstr(e.msg, "others can read it (chmod 600)"));
	chmod(path, 0600);
	unlink(path);
	CHECK(serve_token_read(path, buf, sizeof(buf), &e) == -1);
}

TEST(listen_addresses_and_loopback)
{
	struct sockaddr_storage a;
	socklen_t len;
	struct errbuf e;

	CHECK(serve_listen_parse("127.0.0.1:0", &a, &len, &e) == 0);
	CHECK(serve_addr_loopback(&a));
	CHECK(serve_listen_parse("localhost:8470", &a, &len, &e) == 0);
	CHECK(serve_addr_loopback(&a));
	CHECK_INT(ntohs(((struct sockaddr_in *)&a)->sin_port), 8470);
	CHECK(serve_listen_parse("[::1]:80", &a, &len, &e) == 0);
	CHECK(serve_addr_loopback(&a) && a.ss_family == AF_INET6);
	CHECK(serve_listen_parse("0.0.0.0:8470", &a, &len, &e) == 0);
	CHECK(!serve_addr_loopback(&a));
	CHECK(serve_listen_parse("192.0.2.7:1", &a, &len, &e) == 0);
	CHECK(!serve_addr_loopback(&a));
	CHECK(serve_listen_parse("127.0.0.1", &a, &len, &e) == -1);
	CHECK(serve_listen_parse("127.0.0.1:70000", &a, &len, &e) == -1);
	CHECK(serve_listen_parse("127.0.0.1:8x", &a, &len, &e) == -1);
	CHECK(serve_listen_parse("example.org:80", &a, &len, &e) == -1);
	CHECK(serve_listen_parse(":80", &a, &len, &e) == -1);
	CHECK(serve_host_is("127.0.0.1:8470", "127.0.0.1", 8470));
	CHECK(serve_host_is("LOCALHOST:8470", "127.0.0.1", 8470));
	CHECK(serve_host_is("[::1]:8470", "[::1]", 8470));
	CHECK(serve_host_is("127.0.0.2:8470", "127.0.0.2", 8470));
	CHECK(!serve_host_is("127.0.0.1:8470", "127.0.0.2", 8470));
	CHECK(!serve_host_is("127.0.0.1:8471", "127.0.0.1", 8470));
	CHECK(!serve_host_is("evil.example:8470", "127.0.0.1", 8470));
	CHECK(!serve_host_is(NULL, "127.0.0.1", 8470));
}

static char resp[1 << 20];

/* GET / from another loopback address. */
static int get_from(unsigned port, const char *src, char *out)
{
	char req[256];

	snprintf(req, sizeof(req), "GET / HTTP/1.1\r\nHost: 127.0.0.1:%u"
		 "\r\nConnection: close\r\n\r\n", port);
	return raw_from(port, src, req, strlen(req), out, sizeof(resp));
}

TEST(the_server_answers_its_routes_with_safe_headers)
{
	struct srv *s;

	CHECK(srv_start(&s, NULL, 5, 0) == 0);
	CHECK_INT(get(s->port, "/", NULL, resp, sizeof(resp)), 200);
	CHECK(strstr(resp, "Content-Type: text/html"));
	CHECK(strstr(resp, "Content-Security-Policy: default-src 'none'; "
		      "script-src 'self'"));
	CHECK(strstr(resp, "X-Content-Type-Options: nosniff"));
	CHECK(strstr(resp, "<script src=\"/app.js\""));
	CHECK_INT(get(s->port, "/app.js", NULL, resp, sizeof(resp)), 200);
	CHECK(strstr(resp, "text/javascript"));
	CHECK_INT(get(s->port, "/api/state?t=1700000000123456789", NULL, resp,
		      sizeof(resp)), 200);
	CHECK(strstr(resp, "{\"route\":2,\"t\":\"1700000000123456789\"}"));
	CHECK_INT(get(s->port, "/nothing-here", NULL, resp, sizeof(resp)), 404);
	CHECK_INT(srv_stats(s).refused, 1);
	srv_stop(s);
}

TEST(hostile_requests_are_refused_and_the_server_keeps_serving)
{
	static const char *const climbs[] = {
		"/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
		"/app.js/..%2f..%2f..%2fetc%2fpasswd", "/%252e%252e/etc/passwd",
		"//etc/passwd", "/..%5c..%5cetc%5cpasswd", "/api/lab%00.js",
	};
	static const char *const methods[] = { "PUT", "DELETE", "PATCH",
					       "OPTIONS", "BREW", "TRACE" };
	char *big = malloc(70000), req[1024];
	struct srv *s;
	int code;

	CHECK(big);
	CHECK(srv_start(&s, NULL, 5, 0) == 0);
	for (size_t i = 0; i < sizeof(climbs) / sizeof(climbs[0]); i++) {
		code = get(s->port, climbs[i], NULL, resp, sizeof(resp));
		if (code != 400 && code != 404)
			unit_fail(__FILE__, __LINE__, "%s: %d", climbs[i], code);
		CHECK(code == 400 || code == 404);
		CHECK(!strstr(resp, "root:"));
	}
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		snprintf(req, sizeof(req), "%s /api/lab HTTP/1.1\r\nHost: "
			 "127.0.0.1:%u\r\nConnection: close\r\n\r\n",
			 methods[i], s->port);
		code = raw(s->port, req, resp, sizeof(resp));
		if (code != 405)
			unit_fail(__FILE__, __LINE__, "%s: %d", methods[i], code);
		CHECK_INT(code, 405);
	}
	/* Not HTTP at all. */
	CHECK(raw(s->port, "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\r\n\r\n", resp,
		  sizeof(resp)) != 200);
	/* A header of 64 KiB: refused before it is all read. */
	memset(big, 'a', 69000);
	memcpy(big, "GET / HTTP/1.1\r\nHost: 127.0.0.1:", 32);
	snprintf(req, sizeof(req), "%u\r\nX-Big: ", s->port);
	memcpy(big + 32, req, strlen(req));
	memcpy(big + 69000 - 4, "\r\n\r\n", 4);
	code = raw_from(s->port, NULL, big, 69000, resp, sizeof(resp));
	CHECK(code >= 400 && code < 500);
	/* A request line of 40 KiB. */
	memset(big, 'b', 41000);
	memcpy(big, "GET /", 5);
	memcpy(big + 41000 - 15, " HTTP/1.1\r\n\r\n\0", 15);
	code = raw_from(s->port, NULL, big, 40999, resp, sizeof(resp));
	CHECK(code >= 400 && code < 500);
	/* A body, where no route takes one. */
	snprintf(req, sizeof(req), "GET /api/lab HTTP/1.1\r\nHost: 127.0.0.1:%u"
		 "\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
		 s->port);
	CHECK_INT(raw(s->port, req, resp, sizeof(resp)), 413);
	/* DNS rebinding: another name for this address. */
	CHECK_INT(raw(s->port, "GET /api/lab HTTP/1.1\r\nHost: evil.example:80"
		      "\r\nConnection: close\r\n\r\n", resp, sizeof(resp)), 403);
	CHECK_INT(raw(s->port, "GET /api/lab HTTP/1.0\r\n\r\n", resp,
		      sizeof(resp)), 403);
	/* After all that, the page. */
	CHECK_INT(get(s->port, "/", NULL, resp, sizeof(resp)), 200);
	free(big);
	srv_stop(s);
}

TEST(a_thousand_connections_opened_and_abandoned_leave_nothing_behind)
{
	struct serve_stats st;
	struct srv *s;
	int64_t t0;

	/* A timeout far longer than the test: what closes them is the
	 * server seeing each peer go. */
	CHECK(srv_start(&s, NULL, 60, 0) == 0);
	for (int i = 0; i < 1000; i++) {
		int fd = dial(s->port, NULL);

		CHECK(fd >= 0);
		write_all(fd, "GET /api/lab HTTP/1.1\r\nHost: 127.0", 34);
		close(fd);
	}
	CHECK_INT(get_from(s->port, "127.0.0.2", resp), 200);
	t0 = mono_ms();
	while ((st = srv_stats(s)).connections && mono_ms() - t0 < 5000)
		usleep(10000);
	CHECK_INT(st.connections, 0);
	CHECK(mono_ms() - t0 < 2000);
	/* The address they came from is served again. */
	CHECK_INT(get(s->port, "/", NULL, resp, sizeof(resp)), 200);
	srv_stop(s);
}

TEST(idle_connections_hold_at_most_their_anonymous_share_and_go)
{
	enum { IDLE = 150 };
	int fds[IDLE], closed = 0;
	struct serve_stats st;
	struct srv *s;
	int64_t t0;

	CHECK(srv_start_at(&s, "127.0.0.1:0", NULL, 30, 0, 2000) == 0);
	for (int i = 0; i < IDLE; i++) {
		fds[i] = dial(s->port, NULL);
		CHECK(fds[i] >= 0);
	}
	usleep(300000);
	st = srv_stats(s);
	CHECK_INT(st.connections, SERVE_ANON_PER_ADDR);
	CHECK_INT(st.anonymous, SERVE_ANON_PER_ADDR);
	CHECK_INT(st.cut_over, IDLE - SERVE_ANON_PER_ADDR);
	/* Another address is served meanwhile. */
	CHECK_INT(get_from(s->port, "127.0.0.2", resp), 200);
	t0 = mono_ms();
	while ((st = srv_stats(s)).connections && mono_ms() - t0 < 8000)
		usleep(20000);
	CHECK_INT(st.connections, 0);
	CHECK_INT(st.cut_late, SERVE_ANON_PER_ADDR);
	/* Every one is closed by the server: the ones over the share at
	 * once, the others at the head's deadline. */
	for (int i = 0; i < IDLE; i++) {
		struct pollfd p = { .fd = fds[i], .events = POLLIN };
		char c;

		if (poll(&p, 1, 1000) == 1 && read(fds[i], &c, 1) <= 0)
			closed++;
		close(fds[i]);
	}
	CHECK_INT(closed, IDLE);
	srv_stop(s);
}

/* ---- event streams ------------------------------------------------------ */

static char chunk[16384];

static void broadcast_chunk(struct srv *s)
{
	serve_http_broadcast(s->h, "change", chunk, sizeof(chunk) - 1);
}

struct reader {
	int fd;
	size_t got;
	volatile int stop;
};

static void *read_stream(void *arg)
{
	struct reader *r = arg;
	char buf[65536];

	while (!r->stop) {
		struct pollfd p = { .fd = r->fd, .events = POLLIN };
		ssize_t k;

		if (poll(&p, 1, 50) <= 0)
			continue;
		k = read(r->fd, buf, sizeof(buf));
		if (k <= 0)
			break;
		r->got += (size_t)k;
	}
	return NULL;
}

static int open_stream(unsigned port, int rcvbuf)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port) };
	char req[256];

	if (rcvbuf)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)))
		return -1;
	snprintf(req, sizeof(req), "GET /api/events HTTP/1.1\r\nHost: "
		 "127.0.0.1:%u\r\n\r\n", port);
	write_all(fd, req, strlen(req));
	return fd;
}

TEST(a_stream_that_does_not_read_is_dropped_and_stalls_nobody)
{
	struct reader good = { 0 };
	struct serve_stats st;
	pthread_t th;
	struct srv *s;
	int slow, worst = 0;
	char head[4096];

	memset(chunk, 'x', sizeof(chunk) - 1);
	CHECK(srv_start(&s, NULL, 30, 64 * 1024) == 0);
	slow = open_stream(s->port, 4096);
	good.fd = open_stream(s->port, 0);
	CHECK(slow >= 0 && good.fd >= 0);
	/* Both have their first message. */
	read_for(slow, head, sizeof(head), 500);
	CHECK(strstr(head, "HTTP/1.1 200"));
	CHECK(strstr(head, "text/event-stream"));
	CHECK(strstr(head, "event: hello\r\n") || strstr(head, "event: hello\n"));
	CHECK(strstr(head, "data: {\"a\":1}\n\n"));
	CHECK_INT(srv_stats(s).clients, 2);
	pthread_create(&th, NULL, read_stream, &good);
	/* 16 MiB to each, 16 KiB at a time: more than the slow one's
	 * socket buffers and queue hold. */
	for (int i = 0; i < 1024; i++) {
		srv_do(s, broadcast_chunk);
		if (s->task_ms > worst)
			worst = s->task_ms;
		if (i % 64 == 0)
			usleep(5000);
	}
	for (int64_t t0 = mono_ms(); (st = srv_stats(s)).clients > 1 &&
	     mono_ms() - t0 < 2000;)
		usleep(10000);
	good.stop = 1;
	pthread_join(th, NULL);
	CHECK_INT(st.dropped, 1);
	CHECK_INT(st.clients, 1);
	/* The reader got every octet (SSE framing around each chunk). */
	CHECK(good.got >= 1024 * (sizeof(chunk) - 1));
	CHECK(worst < 100);
	close(slow);
	close(good.fd);
	srv_stop(s);
}

/* ---- tokens and control ----------------------------------------------------- */

TEST(a_token_is_needed_when_one_is_set)
{
	static const char tok[] = "0123456789abcdef0123";
	static const struct {
		const char *path, *header;
		int code;
	} asks[] = {
		{ "/api/lab", NULL, 401 },
		{ "/", NULL, 401 },
		{ "/api/lab", "Authorization: Bearer 0123456789abcdef0124\r\n", 401 },
		{ "/api/lab", "Cookie: mstlab_token=0123456789abcdef0123\r\n",
		  401 },
		{ "/?token=0123456789abcdef0124", NULL, 401 },
		{ "/api/lab", "Authorization: Bearer 0123456789abcdef0123\r\n", 200 },
		/* The page opened with its token: a cookie, and the address
		 * bar loses it. */
		{ "/?token=0123456789abcdef0123", NULL, 303 },
	};
	char want[128];
	struct srv *s;

	CHECK(srv_start(&s, tok, 5, 0) == 0);
	for (size_t i = 0; i < sizeof(asks) / sizeof(asks[0]); i++) {
		int code = get(s->port, asks[i].path, asks[i].header, resp,
			       sizeof(resp));

		if (code != asks[i].code)
			unit_fail(__FILE__, __LINE__, "%s %s: %d", asks[i].path,
				  asks[i].header ? asks[i].header : "", code);
		CHECK_INT(code, asks[i].code);
	}
	snprintf(want, sizeof(want), "Set-Cookie: mstlab_%u="
		 "0123456789abcdef0123; HttpOnly; SameSite=Strict; Path=/",
		 s->port);
	CHECK(strstr(resp, want));
	CHECK(strstr(resp, "Location: /\r\n"));
	/* The cookie, under its port's name only. */
	snprintf(want, sizeof(want), "Cookie: mstlab_%u=0123456789abcdef012"
		 "\r\n", s->port);
	CHECK_INT(get(s->port, "/api/lab", want, resp, sizeof(resp)), 401);
	snprintf(want, sizeof(want), "Cookie: a=b; mstlab_%u="
		 "0123456789abcdef0123\r\n", s->port);
	CHECK_INT(get(s->port, "/api/lab", want, resp, sizeof(resp)), 200);
	srv_stop(s);
}

struct post {
	unsigned port;
	const char *origin;
	int code;
	char resp[4096];
};

static void *do_post(void *arg)
{
	struct post *p = arg;
	char req[512];

	snprintf(req, sizeof(req), "POST /api/link?end=sw1:p1&action=fail "
		 "HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n%s%s%sConnection: close"
		 "\r\n\r\n", p->port, p->origin ? "Origin: " : "",
		 p->origin ? p->origin : "", p->origin ? "\r\n" : "");
	p->code = raw(p->port, req, p->resp, sizeof(p->resp));
	return NULL;
}

TEST(a_link_action_runs_apart_one_at_a_time_from_the_page_only)
{
	struct post a = { 0 }, b = { 0 }, evil = { 0 };
	char origin[64];
	pthread_t th;
	struct srv *s;
	int64_t t0;

	CHECK(srv_start(&s, NULL, 5, 0) == 0);
	snprintf(origin, sizeof(origin), "http://127.0.0.1:%u", s->port);
	a = (struct post){ .port = s->port, .origin = origin };
	b = a;
	evil = (struct post){ .port = s->port, .origin = "http://evil.example" };
	do_post(&evil);
	CHECK_INT(evil.code, 403);
	CHECK_INT(__atomic_load_n(&s->controls, __ATOMIC_SEQ_CST), 0);
	t0 = mono_ms();
	pthread_create(&th, NULL, do_post, &a);
	usleep(100000);
	/* While it runs: the server answers, and refuses a second one. */
	CHECK_INT(get(s->port, "/api/lab", NULL, resp, sizeof(resp)), 200);
	CHECK(mono_ms() - t0 < 250);
	do_post(&b);
	CHECK_INT(b.code, 409);
	pthread_join(th, NULL);
	CHECK_INT(a.code, 200);
	CHECK(strstr(a.resp, "{\"end\":\"sw1:p1\"}"));
	CHECK_INT(__atomic_load_n(&s->controls, __ATOMIC_SEQ_CST), 1);
	/* Without an Origin (curl): refused; with a bad argument. */
	b = (struct post){ .port = s->port };
	do_post(&b);
	CHECK_INT(b.code, 403);
	CHECK(strstr(b.resp, "{\"error\":\"a link action comes from the "
		     "page itself"));
	CHECK_INT(raw(s->port, "POST /api/link?action=fail HTTP/1.1\r\nHost: "
		      "127.0.0.1:0\r\n\r\n", resp, sizeof(resp)), 403);
	{
		char req[256];

		snprintf(req, sizeof(req), "POST /api/link?action=fail HTTP/1.1"
			 "\r\nHost: 127.0.0.1:%u\r\nSec-Fetch-Site: "
			 "same-origin\r\nConnection: close\r\n\r\n",
			 s->port);
		CHECK_INT(raw(s->port, req, resp, sizeof(resp)), 400);
	}
	srv_stop(s);
}

/* ---- the page's data from a run folder ----------------------------------------- */

/* The triangle with a host on sw1 and one on sw3. */
#define TRI_HOSTS_LAB							\
	FX_TRI_NODES							\
	"  h1: { role: host }\n"					\
	"  h2: { role: host }\n"					\
	FX_TRI_LINKS							\
	"  - { ends: [h1:eth1, sw1:p3], edge: true }\n"			\
	"  - { ends: [h2:eth1, sw3:p3], edge: true }\n"

#define S(x) ((int64_t)(x) * 1000000000LL)

static const struct fx_adv DF = { BPDU_ROLE_DESIGNATED, true, false };
static const struct fx_adv AD = { BPDU_ROLE_ALT_BACKUP, false, false };
static const struct fx_adv RF = { BPDU_ROLE_ROOT, true, false };

struct run {
	char dir[64];
	struct topo *t;
	struct plan *p;
	pcap_dumper_t *dump[8];
	pcap_t *dead;
};

static int run_make(struct run *r)
{
	struct topo_error te;
	char path[256];
	FILE *f;

	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "/tmp/mstlab-serve-XXXXXX");
	if (!mkdtemp(r->dir) ||
	    topo_parse_buffer("t.yaml", TRI_HOSTS_LAB, strlen(TRI_HOSTS_LAB),
			      &r->t, &te) ||
	    plan_build(r->t, &r->p))
		return -1;
	fx_write_file(r->dir, "topology.yaml", TRI_HOSTS_LAB);
	snprintf(path, sizeof(path), "%s/pcap", r->dir);
	mkdir(path, 0755);
	r->dead = pcap_open_dead_with_tstamp_precision(
		DLT_EN10MB, 65535, PCAP_TSTAMP_PRECISION_NANO);
	for (size_t l = 0; l < r->t->n_links; l++) {
		snprintf(path, sizeof(path), "%s/%s", r->dir, r->p->links[l].pcap);
		f = fopen(path, "w");
		if (!f)
			return -1;
		r->dump[l] = pcap_dump_fopen(r->dead, f);
	}
	return 0;
}

static void run_frame(struct run *r, int link, int64_t ns, const uint8_t *fr,
		      size_t len)
{
	struct pcap_pkthdr h = { .caplen = (bpf_u_int32)len,
				 .len = (bpf_u_int32)len };

	h.ts.tv_sec = ns / 1000000000LL;
	h.ts.tv_usec = ns % 1000000000LL;	/* ns precision */
	pcap_dump((u_char *)r->dump[link], &h, fr);
}

static void run_bpdu(struct run *r, int64_t ns, int node, int port,
		     struct fx_adv a0, struct fx_adv a1, struct fx_adv a2)
{
	const struct fx_adv adv[3] = { a0, a1, a2 };
	uint8_t buf[BPDU_FRAME_MAX_LEN];
	size_t len = fx_mst_bpdu(r->p, node, port, 0, (const int[2]){ 0, 1 },
				 adv, buf, sizeof(buf));

	run_frame(r, r->t->nodes[node].ports[port].link, ns, buf, len);
}

static void run_close(struct run *r)
{
	for (size_t l = 0; l < r->t->n_links; l++)
		pcap_dump_close(r->dump[l]);
	pcap_close(r->dead);
}

static void run_free(struct run *r)
{
	char *argv[] = { "rm", "-rf", r->dir, NULL };

	plan_free(r->p);
	topo_free(r->t);
	spawn_run(argv, NULL, 10000);
}

/* The triangle converged, then link3 (sw3-sw1) down at 5 s. */
static void converged_then_link3_down(struct run *r)
{
	for (int s = 1; s <= 3; s++) {
		run_bpdu(r, S(s), 0, 0, DF, DF, RF);	/* sw1:p1 */
		run_bpdu(r, S(s), 0, 1, DF, DF, DF);	/* sw1:p2 */
		run_bpdu(r, S(s), 1, 0, RF, RF, DF);	/* sw2:p1 */
		run_bpdu(r, S(s), 1, 1, DF, DF, DF);	/* sw2:p2 */
		run_bpdu(r, S(s), 2, 0, AD, RF, RF);	/* sw3:p1 */
		run_bpdu(r, S(s), 2, 1, RF, AD, AD);	/* sw3:p2 */
	}
	run_close(r);
	fx_write_file(r->dir, "events", "1000000000 run-start tri\n"
		      "5000000000 link-down link3 carrier\n"
		      "9000000000 run-end ok\n");
}

/* The state objects of a /api/state answer, each as "tree node:port
 * role/state" lines, sorted, for comparing. */
static char *roles(const char *states_json)
{
	json_t *o = json_loads(states_json, 0, NULL), *st, *p;
	size_t i, j, n = 0;
	char *out = calloc(1, 8192);

	json_array_foreach(json_object_get(o, "states"), i, st)
		json_array_foreach(json_object_get(st, "ports"), j, p)
			n += (size_t)snprintf(out + n, 8192 - n, "%s %s:%s %s/%s\n",
				json_string_value(json_object_get(st, "tree")),
				json_string_value(json_object_get(p, "node")),
				json_string_value(json_object_get(p, "port")),
				json_string_value(json_object_get(p, "role")),
				json_string_value(json_object_get(p, "state")));
	json_decref(o);
	return out;
}

TEST(the_page_data_is_the_engine_at_the_instant_asked)
{
	struct serve_model m;
	struct run_ref ref;
	struct errbuf e;
	struct run r;
	size_t len;
	char *lab, *at4, *at6, *r4, *r6;
	json_t *o;

	CHECK(run_make(&r) == 0);
	setenv("MSTLAB_RUNTIME_DIR", r.dir, 1);	/* no lab is up */
	converged_then_link3_down(&r);
	fx_write_file(r.dir, "summary.json",
		      "{\"version\":1,\"scenarios\":[{\"name\":\"s\",\"result\":"
		      "\"fail\",\"start_ns\":1000000000,\"end_ns\":9000000000,"
		      "\"checks\":[{\"name\":\"settle-link-down\",\"id\":"
		      "\"settle-link-down[link3]\",\"tree\":"
		      "\"cist\",\"link\":\"link3\",\"result\":\"fail\","
		      "\"message\":\"too slow\",\"at_ns\":5000000000,"
		      "\"evidence\":[{\"pcap\":\"pcap/x\",\"frame\":3,"
		      "\"time_ns\":1796599695854705046}]}]}]}\n");
	fx_write_file(r.dir, "provenance.json",
		      "{\"mstlab\":\"v9\",\"nodes\":[{\"name\":\"sw1\","
		      "\"release\":\"6.1.158\"}]}\n");
	CHECK(run_ref_find(&ref, r.dir, stderr) == 0);
	CHECK(!ref.live);
	CHECK(serve_model_open(&m, &ref, true, &e) == 0);
	lab = serve_model_lab(&m, false, false, &len);
	CHECK(lab && len == strlen(lab));
	o = json_loads(lab, 0, NULL);
	CHECK(o);
	CHECK_STR(json_string_value(json_object_get(o, "mode")), "replay");
	CHECK_INT(json_array_size(json_object_get(o, "trees")), 3);
	CHECK_INT(json_array_size(json_object_get(o, "nodes")), 5);
	CHECK_INT(json_array_size(json_object_get(o, "links")), 5);
	CHECK_INT(json_integer_value(json_object_get(o, "start_ns")), S(1));
	CHECK_INT(json_integer_value(json_object_get(o, "end_ns")), S(9));
	CHECK_INT(json_array_size(json_object_get(o, "events")), 3);
	/* The drawing: every link end and node classed for the page, and
	 * nothing that runs. */
	CHECK(strstr(json_string_value(json_object_get(o, "svg")),
		     "class=\"edge port e&#45;2&#45;1\""));
	CHECK(strstr(json_string_value(json_object_get(o, "svg")),
		     "n&#45;4"));
	CHECK(!strstr(json_string_value(json_object_get(o, "svg")), "<script"));
	/* A check's evidence instant, exact to the ns. */
	CHECK(strstr(lab, "\"evidence_ns\":1796599695854705046"));
	CHECK(strstr(lab, "\"result\":\"fail\""));
	CHECK(strstr(lab, "\"id\":\"settle-link-down[link3]\""));
	/* What produced the run, from its folder. */
	CHECK_STR(json_string_value(json_object_get(json_object_get(o,
		  "provenance"), "mstlab")), "v9");
	CHECK(strstr(lab, "\"release\":\"6.1.158\""));
	json_decref(o);
	free(lab);
	/* Before the failure sw3:p2 is the CIST's root port, after it the
	 * port is down and sw3:p1 is alternate still (nothing new said). */
	at4 = serve_model_states(&m, S(4), &len);
	at6 = serve_model_states(&m, S(6), &len);
	CHECK(at4 && at6);
	CHECK(strstr(at4, "{\"ns\":4000000000,\"states\":[{\"time\":"));
	r4 = roles(at4);
	r6 = roles(at6);
	CHECK(strstr(r4, "cist sw3:p2 root/forwarding\n"));
	CHECK(strstr(r4, "cist sw3:p1 alternate/discarding\n"));
	CHECK(strstr(r4, "msti 1 sw3:p2 alternate/discarding\n"));
	CHECK(strstr(r6, "cist sw3:p2 disabled/down\n"));
	CHECK(strstr(r6, "cist sw1:p2 disabled/down\n"));
	CHECK(!strstr(r4, "h1:"));	/* hosts have no bridge ports */
	serve_model_close(&m);
	free(at4);
	free(r4);
	/* Live, the engine fed by the follower up to the end shows what the
	 * history shows there. */
	CHECK(serve_model_open(&m, &ref, false, &e) == 0);
	while (follow_pump(&m.fw, &m.live, 4096, INT64_MAX))
		;
	lab = serve_model_states(&m, 0, &len);
	{
		char *live = roles(lab);

		CHECK_STR(live, r6);
		free(live);
	}
	free(lab);
	free(at6);
	free(r6);
	serve_model_close(&m);
	run_ref_free(&ref);
	run_free(&r);
}

/* ---- live probe flows ---------------------------------------------------------- */

static size_t probe_frame(uint8_t *buf, unsigned flow, unsigned vid,
			  unsigned seq)
{
	struct probe_hdr h = { .flow = (uint16_t)flow, .vid = (uint16_t)vid,
			       .seq = seq };

	memset(buf, 0, 64);
	memcpy(buf, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01", 12);
	buf[12] = 0x81;
	buf[14] = (uint8_t)(vid >> 8);
	buf[15] = (uint8_t)vid;
	buf[16] = PROBE_ETHERTYPE >> 8;
	buf[17] = PROBE_ETHERTYPE & 0xff;
	probe_hdr_encode(&h, buf + 18);
	return 64;
}

TEST(flows_show_their_outage_and_flooding_off_their_path_live)
{
	struct serve_model m;
	struct run_ref ref;
	struct errbuf e;
	struct run r;
	uint8_t fr[64];
	size_t len;
	char *j;
	json_t *o, *f0, *fd;

	CHECK(run_make(&r) == 0);
	setenv("MSTLAB_RUNTIME_DIR", r.dir, 1);
	/* The converged triangle: MSTI 1 (VLAN 10) blocks sw3:p2, so
	 * h1 -> h2 goes sw1, sw2, sw3. */
	for (int s = 1; s <= 3; s++) {
		run_bpdu(&r, S(s), 0, 0, DF, DF, RF);
		run_bpdu(&r, S(s), 0, 1, DF, DF, DF);
		run_bpdu(&r, S(s), 1, 0, RF, RF, DF);
		run_bpdu(&r, S(s), 1, 1, DF, DF, DF);
		run_bpdu(&r, S(s), 2, 0, AD, RF, RF);
		run_bpdu(&r, S(s), 2, 1, RF, AD, AD);
	}
	/* 100 frames/s from 4 s: h1's link (3), on the path (0, 1) and at
	 * h2 (4), with a gap of 0.5 s at h2 from 5 s; from 6 s, 20 frames
	 * flooded onto link3 (2), off the path. */
	for (int k = 0; k < 300; k++) {
		int64_t ns = S(4) + (int64_t)k * 10000000;

		len = probe_frame(fr, 7, 10, (unsigned)k);
		run_frame(&r, 3, ns, fr, len);
		run_frame(&r, 0, ns + 1000, fr, len);
		run_frame(&r, 1, ns + 2000, fr, len);
		if (ns < S(5) || ns >= S(5) + 500000000)
			run_frame(&r, 4, ns + 3000, fr, len);
		if (ns >= S(6) && ns < S(6) + 200000000)
			run_frame(&r, 2, ns + 1500, fr, len);
	}
	run_close(&r);
	fx_write_file(r.dir, "events", "1000000000 run-start tri\n"
		      "3900000000 probe-start 7 h1 h2 10 100\n");
	CHECK(run_ref_find(&ref, r.dir, stderr) == 0);
	CHECK(serve_model_open(&m, &ref, false, &e) == 0);
	/* The model wires probe-start through the engine's events and the
	 * probe frames through the follower: every frame counted once. */
	while (follow_pump(&m.fw, &m.live, 4096, INT64_MAX))
		;
	CHECK_INT(m.flows.version, 1 + 300 * 4 - 50 + 20);
	j = serve_model_flows(&m, S(7) - 5000000, &len);
	o = json_loads(j, 0, NULL);
	CHECK(o);
	f0 = json_array_get(json_object_get(o, "flows"), 0);
	fd = json_array_get(json_object_get(o, "floods"), 0);
	CHECK_INT(json_integer_value(json_object_get(f0, "flow")), 7);
	CHECK_STR(json_string_value(json_object_get(f0, "tree")), "msti 1");
	CHECK_INT(json_integer_value(json_object_get(f0, "rx")), 250);
	CHECK_INT(json_integer_value(json_object_get(f0, "longest_ms")), 510);
	CHECK_INT(json_integer_value(json_object_get(f0, "outage_ms")), 0);
	CHECK(json_integer_value(json_object_get(f0, "rx_per_s")) >= 99);
	CHECK_INT(json_integer_value(json_object_get(fd, "vid")), 10);
	CHECK_INT(json_integer_value(json_object_get(fd, "total")), 20);
	CHECK_STR(json_string_value(json_object_get(fd, "tree")), "msti 1");
	json_decref(o);
	free(j);
	/* Long after its last frame, the flow is out now. */
	j = serve_model_flows(&m, S(8), &len);
	o = json_loads(j, 0, NULL);
	f0 = json_array_get(json_object_get(o, "flows"), 0);
	CHECK_INT(json_integer_value(json_object_get(f0, "outage_ms")), 1009);
	fd = json_array_get(json_object_get(o, "floods"), 0);
	CHECK_INT(json_integer_value(json_object_get(fd, "per_s")), 0);
	json_decref(o);
	free(j);
	serve_model_close(&m);
	run_ref_free(&ref);
	run_free(&r);
}
