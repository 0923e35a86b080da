// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for what mstlab serve checks of a request itself
 * (serve_http.h; libmicrohttpd splits the request, its own parser is
 * fuzzed upstream): the route of a method and path, the query's check,
 * the Host header against the listening address, the token compare,
 * and --listen's ADDRESS:PORT. The input is those fields, one a line:
 * method, URI, Host, token, listen address.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "serve_http.h"

#define FIELDS 5

static const char want_token[] = "0123456789abcdef0123456789abcdef";

/* No way up or around, no escape, no control character. */
static bool clean_path(const char *p)
{
	if (p[0] != '/' || strstr(p, "..") || strstr(p, "//"))
		return false;
	for (; *p; p++)
		if (*p == '\\' || *p == '%' || (unsigned char)*p < 0x20 ||
		    *p == 0x7f)
			return false;
	return true;
}

static void route(const char *method, const char *uri)
{
	size_t n = strcspn(uri, "?");
	char *path = strndup(uri, n);
	enum serve_route r;
	const struct serve_asset *as;

	if (!path)
		abort();
	r = serve_route_of(method, path);
	if (r != SERVE_BAD_PATH && r != SERVE_NOT_FOUND &&
	    r != SERVE_BAD_METHOD && !clean_path(path))
		abort();
	as = serve_asset_find(path);
	if (r == SERVE_ASSET && (!as || strcmp(as->path, path)))
		abort();
	free(path);
}

static void query(const char *uri)
{
	const char *q = strchr(uri, '?');
	char why[128];

	serve_query_check(uri, why, sizeof(why));
	if (strnlen(why, sizeof(why)) == sizeof(why))
		abort();
	/* Accepted: no raw control octet in it. */
	for (; !why[0] && q && *q; q++)
		if ((unsigned char)*q < 0x20 || *q == 0x7f)
			abort();
}

static void host(const char *h)
{
	bool is = serve_host_is(h, "127.0.0.1", 8470);

	if (is != (!strcasecmp(h, "127.0.0.1:8470") ||
		   !strcasecmp(h, "localhost:8470")))
		abort();
}

static void token(const char *given)
{
	size_t n = strlen(given);
	bool same = n == strlen(want_token) && !memcmp(given, want_token, n);

	if (serve_token_equal(given, n, want_token) != same)
		abort();
}

/* An address it takes reads back as itself from its own name. */
static void listen_addr(const char *s)
{
	struct sockaddr_storage a, b;
	socklen_t alen, blen;
	struct errbuf err;
	char name[80], again[96];
	unsigned port;

	if (serve_listen_parse(s, &a, &alen, &err)) {
		if (!err.msg[0])
			abort();
		return;
	}
	if ((a.ss_family != AF_INET || alen != sizeof(struct sockaddr_in)) &&
	    (a.ss_family != AF_INET6 || alen != sizeof(struct sockaddr_in6)))
		abort();
	port = ntohs(((struct sockaddr_in *)&a)->sin_port);
	serve_addr_name(&a, name, sizeof(name));
	snprintf(again, sizeof(again), "%s:%u", name, port);
	if (serve_listen_parse(again, &b, &blen, &err) || blen != alen ||
	    memcmp(&a, &b, alen))
		abort();
	if (serve_addr_loopback(&a) != serve_addr_loopback(&b))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *f[FIELDS];
	char *text = malloc(size + 1), *s = text;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = 0;
	for (int i = 0; i < FIELDS; i++) {
		f[i] = s;
		s += strcspn(s, "\n");
		if (*s)
			*s++ = 0;
	}
	route(f[0], f[1]);
	query(f[1]);
	host(f[2]);
	token(f[3]);
	listen_addr(f[4]);
	free(text);
	return 0;
}
