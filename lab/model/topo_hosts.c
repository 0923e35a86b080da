// SPDX-License-Identifier: MIT
/*
 * hosts: the machines a lab spans, and host: of each node. A host other
 * than this one ("local") is reached through its libvirt URI for the
 * domains and, over SSH to the same place, through an mstlab agent for
 * everything else (docs/design/orchestrator.md#labs-across-hosts); its
 * address is the end of the tunnels that carry links to other hosts.
 * Every word here may end up on another host's command line or in a
 * path there: each is checked to need no quoting.
 */
#include "topo_priv.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define URI_SCHEME "qemu+ssh://"
#define HOSTNAME_CHARS "abcdefghijklmnopqrstuvwxyz" \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-"
#define USER_CHARS "abcdefghijklmnopqrstuvwxyz0123456789_.-"

static bool only(const char *s, size_t n, const char *set)
{
	for (size_t i = 0; i < n; i++)
		if (!s[i] || !strchr(set, s[i]))
			return false;
	return true;
}

/* "[USER@]HOST[:PORT]" of the URI, in h->ssh. */
static int uri_authority(struct ty_ctx *c, const yaml_node_t *n,
			 struct topo_host *h, const char *a, size_t len)
{
	const char *at = memchr(a, '@', len), *host, *colon;
	size_t hl;

	if (at) {
		size_t ul = (size_t)(at - a);

		if (!ul || ul >= sizeof(h->ssh.user) || a[0] == '-' ||
		    !only(a, ul, USER_CHARS))
			return ty_fail(c, n, "host %s: the user in its uri "
				       "must be 1-32 of a-z, 0-9, '_', '.', "
				       "'-'", h->name);
		memcpy(h->ssh.user, a, ul);
		len -= ul + 1;
		a = at + 1;
	}
	host = a;
	if (a[0] == '[') {
		const char *end = memchr(a, ']', len);

		if (!end)
			return ty_fail(c, n, "host %s: '[' without ']' in its "
				       "uri", h->name);
		host = a + 1;
		hl = (size_t)(end - host);
		colon = end + 1 < a + len ? end + 1 : NULL;
		if (colon && *colon != ':')
			return ty_fail(c, n, "host %s: junk after ']' in its "
				       "uri", h->name);
		if (!hl || !only(host, hl, "0123456789abcdefABCDEF:."))
			return ty_fail(c, n, "host %s: '%.*s' is no IPv6 "
				       "address", h->name, (int)hl, host);
	} else {
		colon = memchr(a, ':', len);
		hl = colon ? (size_t)(colon - a) : len;
		if (!hl || host[0] == '-' || !only(host, hl, HOSTNAME_CHARS))
			return ty_fail(c, n, "host %s: the host in its uri "
				       "must be a name or an address (a-z, "
				       "0-9, '.', '-')", h->name);
	}
	if (hl >= sizeof(h->ssh.host))
		return ty_fail(c, n, "host %s: its uri's host name is too long",
			       h->name);
	memcpy(h->ssh.host, host, hl);
	if (colon) {
		size_t pl = (size_t)(a + len - colon - 1);
		char port[8] = "";

		if (!pl || pl > 5 || !only(colon + 1, pl, "0123456789"))
			return ty_fail(c, n, "host %s: the port in its uri must "
				       "be 1-65535", h->name);
		memcpy(port, colon + 1, pl);
		h->ssh.port = (unsigned)atoi(port);
		if (!h->ssh.port || h->ssh.port > 65535)
			return ty_fail(c, n, "host %s: the port in its uri must "
				       "be 1-65535", h->name);
	}
	return 0;
}

/* One "key=value" of the URI's query: what libvirt's ssh transport
 * takes and the agent's ssh must take alike, or what only libvirt's
 * far side reads. */
static int uri_param(struct ty_ctx *c, const yaml_node_t *n,
		     struct topo_host *h, const char *p, size_t len)
{
	const char *eq = memchr(p, '=', len);
	size_t kl = eq ? (size_t)(eq - p) : len, vl = eq ? len - kl - 1 : 0;
	char v[TOPO_TEXT_MAX] = "";

	if (!eq || !vl || vl >= sizeof(v))
		return ty_fail(c, n, "host %s: '%.*s' in its uri is not "
			       "KEY=VALUE", h->name, (int)(len < 60 ? len : 60),
			       p);
	memcpy(v, eq + 1, vl);
#define KEY(k) (kl == sizeof(k) - 1 && !memcmp(p, k, kl))
	if (KEY("keyfile") || KEY("command")) {
		char *dst = KEY("keyfile") ? h->ssh.keyfile : h->ssh.command;

		if (v[0] != '/' || !topo_safe_word(v))
			return ty_fail(c, n, "host %s: %.*s must be an absolute "
				       "path of A-Z, a-z, 0-9, '/', '.', '_', "
				       "'+', '-'", h->name, (int)kl, p);
		strcpy(dst, v);
	} else if (KEY("no_verify")) {
		if (strcmp(v, "0") && strcmp(v, "1"))
			return ty_fail(c, n, "host %s: no_verify is 0 or 1",
				       h->name);
		h->ssh.no_verify = v[0] == '1';
	} else if (KEY("mode") || KEY("proxy")) {
		/* libvirt's far end: which daemon, how reached. */
		if (!only(v, vl, "abcdefghijklmnopqrstuvwxyz"))
			return ty_fail(c, n, "host %s: %.*s takes a word of "
				       "a-z", h->name, (int)kl, p);
	} else {
		return ty_fail(c, n, "host %s: its uri may set keyfile, "
			       "command, no_verify, mode and proxy, not "
			       "'%.*s'", h->name, (int)(kl < 40 ? kl : 40), p);
	}
#undef KEY
	return 0;
}

/* qemu+ssh://[USER@]HOST[:PORT]/system[?PARAMS]: the agent needs root
 * on that host (netlink, tcpdump), so the system instance only. */
static int parse_uri(struct ty_ctx *c, const yaml_node_t *n,
		     struct topo_host *h)
{
	const char *u, *path, *q;

	if (ty_cstr(c, n, "uri", &u))
		return -1;
	if (strlen(u) >= sizeof(h->uri))
		return ty_fail(c, n, "host %s: uri longer than %zu characters",
			       h->name, sizeof(h->uri) - 1);
	if (strncmp(u, URI_SCHEME, strlen(URI_SCHEME)))
		return ty_fail(c, n, "host %s: its uri must start '"
			       URI_SCHEME "' (libvirt over SSH, where "
			       "mstlab's agent goes too)", h->name);
	strcpy(h->uri, u);
	u += strlen(URI_SCHEME);
	path = strchr(u, '/');
	if (!path || path == u)
		return ty_fail(c, n, "host %s: its uri names no host",
			       h->name);
	if (uri_authority(c, n, h, u, (size_t)(path - u)))
		return -1;
	q = strchr(path, '?');
	if (strncmp(path, "/system", 7) || (path[7] && path[7] != '?'))
		return ty_fail(c, n, "host %s: its uri's path must be /system "
			       "(the agent works as root there)", h->name);
	while (q && q[1]) {
		const char *p = q + 1, *amp = strchr(p, '&');
		size_t len = amp ? (size_t)(amp - p) : strlen(p);

		if (uri_param(c, n, h, p, len))
			return -1;
		q = amp;
	}
	return 0;
}

/* An IPv4 or IPv6 address, kept in its canonical text. */
static int parse_address(struct ty_ctx *c, const yaml_node_t *n,
			 struct topo_host *h)
{
	unsigned char bin[sizeof(struct in6_addr)];
	char text[TOPO_TEXT_MAX];

	if (ty_str(c, n, "address", text, sizeof(text)))
		return -1;
	if (inet_pton(AF_INET, text, bin) == 1)
		h->family = AF_INET;
	else if (inet_pton(AF_INET6, text, bin) == 1)
		h->family = AF_INET6;
	else
		return ty_fail(c, n, "host %s: address '%.60s' is no IPv4 or "
			       "IPv6 address (a tunnel needs one, not a name)",
			       h->name, text);
	if ((h->family == AF_INET && (bin[0] == 0 || bin[0] >= 224)) ||
	    (h->family == AF_INET6 &&
	     (bin[0] == 0xff || !memcmp(bin, &in6addr_any, 16))))
		return ty_fail(c, n, "host %s: address %s is not a unicast "
			       "address", h->name, text);
	inet_ntop(h->family, bin, h->address, sizeof(h->address));
	return 0;
}

static int parse_path(struct ty_ctx *c, const yaml_node_t *n,
		      const struct topo_host *h, const char *what,
		      bool bare_ok, char *out, size_t len)
{
	char v[TOPO_TEXT_MAX];

	if (ty_str(c, n, what, v, sizeof(v)))
		return -1;
	if (!topo_safe_word(v) || (v[0] != '/' && !bare_ok))
		return ty_fail(c, n, "host %s: %s must be an absolute path of "
			       "A-Z, a-z, 0-9, '/', '.', '_', '+', '-'",
			       h->name, what);
	if (v[0] != '/' && strchr(v, '/'))
		return ty_fail(c, n, "host %s: %s is a program on its PATH or "
			       "an absolute path", h->name, what);
	if (strlen(v) >= len)
		return ty_fail(c, n, "host %s: %s is longer than %zu "
			       "characters%s", h->name, what, len - 1,
			       len == TOPO_RESULTS_MAX + 1 ?
			       " (the guest agent's socket path must fit 108 "
			       "bytes)" : "");
	strcpy(out, v);
	return 0;
}

static int parse_host(struct ty_ctx *c, struct topo_host *h,
		      const yaml_node_t *k, const yaml_node_t *n)
{
	static const char *const keys[] = { "uri", "address", "mstlab",
					    "results", NULL };
	static const char *const local_keys[] = { "address", NULL };
	char name[TOPO_TEXT_MAX];
	yaml_node_t *v;
	bool local;

	if (ty_str(c, k, "a host name", name, sizeof(name)))
		return -1;
	if (!topo_valid_host_name(name))
		return ty_fail(c, k, "host name '%s' must be 1-15 of a-z, 0-9 "
			       "and inner '-', starting with a letter", name);
	strcpy(h->name, name);
	h->mark = ty_mark(k);
	local = !strcmp(name, "local");
	if (ty_check_keys(c, n, local ? local_keys : keys,
			  local ? "host local (this machine: its libvirt is "
				  "--uri)" : "a host"))
		return -1;
	if (!local && (ty_require(c, n, "uri", "a host", &v) ||
		       parse_uri(c, v, h)))
		return -1;
	v = ty_get(c, n, "address");
	if (v && parse_address(c, v, h))
		return -1;
	v = ty_get(c, n, "mstlab");
	if (v && parse_path(c, v, h, "mstlab", true, h->mstlab,
			    sizeof(h->mstlab)))
		return -1;
	v = ty_get(c, n, "results");
	if (v && parse_path(c, v, h, "results", false, h->results,
			    sizeof(h->results)))
		return -1;
	return 0;
}

void tp_hosts_init(struct topo *t)
{
	memset(t->hosts, 0, sizeof(t->hosts));
	strcpy(t->hosts[TOPO_LOCAL_HOST].name, "local");
	strcpy(t->hosts[TOPO_LOCAL_HOST].mstlab, "mstlab");
	t->n_hosts = 1;
}

int tp_hosts(struct ty_ctx *c, struct topo *t, const yaml_node_t *n)
{
	size_t count;

	if (ty_check_keys(c, n, NULL, "hosts"))
		return -1;
	count = (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
	if (count > TOPO_MAX_HOSTS)
		return ty_fail(c, n, "more than %d hosts", TOPO_MAX_HOSTS);
	t->hosts_given = true;
	ty_pairs_foreach(c, n, p) {
		const yaml_node_t *k = ty_node(c, p->key);
		const char *name = ty_text(k);
		struct topo_host *h;

		if (name && !strcmp(name, "local")) {
			h = &t->hosts[TOPO_LOCAL_HOST];
		} else if (t->n_hosts == TOPO_MAX_HOSTS) {
			return ty_fail(c, k, "more than %d hosts with local",
				       TOPO_MAX_HOSTS);
		} else {
			h = &t->hosts[t->n_hosts++];
			strcpy(h->mstlab, "mstlab");
		}
		if (parse_host(c, h, k, ty_node(c, p->value)))
			return -1;
	}
	/* Two hosts with one tunnel address would be one end. */
	for (size_t i = 0; i < t->n_hosts; i++)
		for (size_t j = i + 1; j < t->n_hosts; j++)
			if (t->hosts[i].address[0] &&
			    !strcmp(t->hosts[i].address, t->hosts[j].address))
				return ty_fail_at(c, t->hosts[j].mark, "hosts "
						  "%s and %s have one address, "
						  "%s", t->hosts[i].name,
						  t->hosts[j].name,
						  t->hosts[i].address);
	return 0;
}

int tp_node_host(struct ty_ctx *c, const struct topo *t, const yaml_node_t *n,
		 struct topo_node *node)
{
	char name[TOPO_TEXT_MAX];
	int h;

	if (ty_str(c, n, "host", name, sizeof(name)))
		return -1;
	h = topo_host_find(t, name);
	if (h < 0)
		return ty_fail(c, n, "node %s: no host '%.40s' in hosts:%s",
			       node->name, name, t->hosts_given ? "" :
			       " (the lab has no hosts: section)");
	node->host = (unsigned)h;
	return 0;
}

int tp_check_hosts(struct ty_ctx *c, const struct topo *t)
{
	for (size_t l = 0; l < t->n_links; l++) {
		const struct topo_link *link = &t->links[l];
		const struct topo_host *a, *b;

		if (!topo_link_crosses(t, l))
			continue;
		a = &t->hosts[t->nodes[link->end[0].node].host];
		b = &t->hosts[t->nodes[link->end[1].node].host];
		if (!a->address[0] || !b->address[0])
			return ty_fail_at(c, link->mark, "link%u joins hosts "
					  "%s and %s: a tunnel between them "
					  "needs the address of %s", link->index,
					  a->name, b->name,
					  a->address[0] ? b->name : a->name);
		if (a->family != b->family)
			return ty_fail_at(c, link->mark, "link%u joins hosts "
					  "%s (%s) and %s (%s): a tunnel needs "
					  "two addresses of one family",
					  link->index, a->name, a->address,
					  b->name, b->address);
	}
	return 0;
}
