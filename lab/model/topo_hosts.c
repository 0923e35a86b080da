// SPDX-License-Identifier: MIT
/*
 * hosts: the machines a lab spans, and host: of each node. A host other
 * than this one ("local") is reached through its libvirt URI for the
 * domains and, over SSH to the same place, through an mstlab agent for
 * everything else (docs/design/orchestrator.md#labs-across-hosts); its
 * address is the end of the tunnels that carry links to other hosts.
 * Every word here may end up on another host's command line or in a
 * path there: each is checked to need no quoting. A topology is shared
 * and downloaded: nothing in it may choose a program to run, here or
 * there, or a file of this host; that is the user's host settings'
 * (host_settings.h).
 */
#include "topo_priv.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define URI_SCHEME "qemu+ssh://"
#define USER_CHARS "abcdefghijklmnopqrstuvwxyz0123456789_.-"

static bool only(const char *s, size_t n, const char *set)
{
	for (size_t i = 0; i < n; i++)
		if (!s[i] || !strchr(set, s[i]))
			return false;
	return true;
}

static bool alnum(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9');
}

/* A DNS name or an IPv4 address: dot-separated labels of letters,
 * digits and inner '-' (never a leading '-': ssh would read an option). */
static bool plain_host(const char *s, size_t n)
{
	size_t label = 0;

	if (!n || n > 253)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.') {
			if (!label || s[i - 1] == '-')
				return false;
			label = 0;
		} else if (alnum(s[i]) || (s[i] == '-' && label)) {
			if (++label > 63)
				return false;
		} else {
			return false;
		}
	}
	return label && s[n - 1] != '-';
}

/* A uri being read: its errors point at the character at fault. */
struct uri_walk {
	struct ty_ctx *c;
	const yaml_node_t *n;
	const char *text;
	struct topo_host *h;
};

__attribute__((format(printf, 3, 4)))
static int uri_fail(const struct uri_walk *w, const char *at, const char *fmt,
		    ...)
{
	char msg[sizeof(w->c->err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ty_fail_at(w->c, ty_mark_in(w->n, (size_t)(at - w->text)),
			  "host %s: %s", w->h->name, msg);
}

/* "[USER@]HOST[:PORT]" of the URI, in h->ssh. */
static int uri_authority(const struct uri_walk *w, const char *a, size_t len)
{
	struct topo_host *h = w->h;
	const char *at = memchr(a, '@', len), *host, *colon;
	size_t hl;

	if (at) {
		size_t ul = (size_t)(at - a);

		if (!ul || ul >= sizeof(h->ssh.user) || !strchr(
			    "abcdefghijklmnopqrstuvwxyz_", a[0]) ||
		    !only(a, ul, USER_CHARS))
			return uri_fail(w, a, "the user in its uri must be "
					"1-32 of a-z, 0-9, '_', '.', '-', "
					"starting with a-z or '_'");
		memcpy(h->ssh.user, a, ul);
		len -= ul + 1;
		a = at + 1;
	}
	host = a;
	if (a[0] == '[') {
		const char *end = memchr(a, ']', len);
		unsigned char bin[sizeof(struct in6_addr)];
		char v6[TOPO_ADDR_MAX] = "";

		if (!end)
			return uri_fail(w, a, "'[' without ']' in its uri");
		host = a + 1;
		hl = (size_t)(end - host);
		colon = end + 1 < a + len ? end + 1 : NULL;
		if (colon && *colon != ':')
			return uri_fail(w, colon, "junk after ']' in its uri");
		if (hl < sizeof(v6))
			memcpy(v6, host, hl);
		if (inet_pton(AF_INET6, v6, bin) != 1)
			return uri_fail(w, host, "'%.*s' is no IPv6 address",
					(int)(hl < 60 ? hl : 60), host);
	} else {
		colon = memchr(a, ':', len);
		hl = colon ? (size_t)(colon - a) : len;
		if (!plain_host(host, hl))
			return uri_fail(w, host, "the host in its uri must "
					"be a plain name or address (labels of "
					"a-z, 0-9, inner '-', joined by '.')");
	}
	if (hl >= sizeof(h->ssh.host))
		return uri_fail(w, host, "its uri's host name is too long");
	memcpy(h->ssh.host, host, hl);
	if (colon) {
		size_t pl = (size_t)(a + len - colon - 1);
		char port[8] = "";

		if (pl && pl <= 5 && only(colon + 1, pl, "0123456789")) {
			memcpy(port, colon + 1, pl);
			h->ssh.port = (unsigned)atoi(port);
		}
		if (!h->ssh.port || h->ssh.port > 65535)
			return uri_fail(w, colon + 1, "the port in its uri "
					"must be 1-65535");
	}
	return 0;
}

/*
 * What libvirt's ssh transport takes in a uri's query besides mode and
 * proxy, and where it goes instead: each runs a program, names a file
 * or a socket on one of the two machines, or turns a check off. A
 * topology is shared and downloaded: none of it comes from there.
 */
static const struct {
	const char *key, *what, *setting;
} refused[] = {
	{ "command", "names the ssh program run here", "ssh_command" },
	{ "keyfile", "names a key file here", "keyfile" },
	{ "no_verify", "turns ssh's host key check off; put the host's key "
	  "in your known_hosts (checked by hand) instead", NULL },
	{ "known_hosts", "names a file here; ssh's own configuration says "
	  "where host keys are (UserKnownHostsFile in ~/.ssh/config)", NULL },
	{ "known_hosts_verify", "is libssh's host key policy; host keys are "
	  "always checked", NULL },
	{ "sshauth", "is libssh's; ssh's own configuration chooses", NULL },
	{ "netcat", "names a program run on that host", NULL },
	{ "socket", "names a socket on that host (the system daemon's is "
	  "used)", NULL },
	{ "name", "names another libvirt uri on that host", NULL },
	{ "pkipath", "names TLS files here (hosts are reached over ssh)",
	  NULL },
};

/* One "key=value" of the URI's query: libvirt's choice of how the far
 * daemon is reached, from its fixed words, and nothing else. */
static int uri_param(const struct uri_walk *w, const char *p, size_t len)
{
	static const char *const modes[] = { "auto", "legacy", "direct", NULL };
	static const char *const proxies[] = { "auto", "netcat", "native",
					       NULL };
	const char *eq = memchr(p, '=', len);
	size_t kl = eq ? (size_t)(eq - p) : len, vl = eq ? len - kl - 1 : 0;
	const char *const *words = NULL;

#define KEY(k) (kl == strlen(k) && !memcmp(p, k, kl))
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		if (!KEY(refused[i].key))
			continue;
		if (KEY("no_verify") && vl == 1 && eq[1] == '0')
			return 0;	/* libvirt's default */
		if (refused[i].setting)
			return uri_fail(w, p, "a topology's uri may not set "
					"%s (it %s): set %s for %s in "
					"~/.config/mstlab/hosts.yaml",
					refused[i].key, refused[i].what,
					refused[i].setting, w->h->ssh.host);
		return uri_fail(w, p, "a topology's uri may not set %s (it "
				"%s)", refused[i].key, refused[i].what);
	}
	if (KEY("mode"))
		words = modes;
	else if (KEY("proxy"))
		words = proxies;
	if (!words)
		return uri_fail(w, p, "'%.*s' in its uri is no parameter a "
				"topology may set (mode and proxy only)",
				(int)(kl < 40 ? kl : 40), p);
	for (size_t i = 0; eq && words[i]; i++)
		if (vl == strlen(words[i]) && !memcmp(eq + 1, words[i], vl))
			return 0;
	return uri_fail(w, eq ? eq + 1 : p, "%.*s in its uri takes %s, %s or "
			"%s", (int)kl, p, words[0], words[1], words[2]);
#undef KEY
}

/* qemu+ssh://[USER@]HOST[:PORT]/system[?PARAMS]: the agent needs root
 * on that host (netlink, tcpdump), so the system instance only; and
 * ssh, which the agent's session takes too (docs/topology.md#hosts). */
static int parse_uri(struct ty_ctx *c, const yaml_node_t *n,
		     struct topo_host *h)
{
	struct uri_walk w = { c, n, NULL, h };
	const char *u, *path, *q;

	if (ty_cstr(c, n, "uri", &u))
		return -1;
	w.text = u;
	if (strlen(u) >= sizeof(h->uri))
		return ty_fail(c, n, "host %s: uri longer than %zu characters",
			       h->name, sizeof(h->uri) - 1);
	if (strncmp(u, URI_SCHEME, strlen(URI_SCHEME)))
		return uri_fail(&w, u, "its uri must start '" URI_SCHEME "' "
				"(libvirt over ssh, where mstlab's agent goes "
				"too)");
	strcpy(h->uri, u);
	u += strlen(URI_SCHEME);
	path = strchr(u, '/');
	if (!path || path == u)
		return uri_fail(&w, u, "its uri names no host");
	if (uri_authority(&w, u, (size_t)(path - u)))
		return -1;
	q = strchr(path, '?');
	if (strncmp(path, "/system", 7) || (path[7] && path[7] != '?'))
		return uri_fail(&w, path, "its uri's path must be /system (the "
				"agent works as root there)");
	/* libvirt splits the query at '&' and at ';' alike. */
	while (q && q[1]) {
		const char *p = q + 1;
		size_t len = strcspn(p, "&;");

		if (uri_param(&w, p, len))
			return -1;
		q = p[len] ? p + len : NULL;
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
		      const struct topo_host *h, const char *what, char *out,
		      size_t len)
{
	char v[TOPO_TEXT_MAX];

	if (ty_str(c, n, what, v, sizeof(v)))
		return -1;
	if (!topo_safe_word(v) || v[0] != '/')
		return ty_fail(c, n, "host %s: %s must be an absolute path of "
			       "A-Z, a-z, 0-9, '/', '.', '_', '+', '-'",
			       h->name, what);
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
	/* The program the agent's session runs there as root. */
	v = ty_get(c, n, "mstlab");
	if (v)
		return ty_fail(c, v, "host %s: a topology may not say which "
			       "program runs there: set mstlab for %s in "
			       "~/.config/mstlab/hosts.yaml", h->name,
			       h->ssh.host);
	v = ty_get(c, n, "results");
	if (v && parse_path(c, v, h, "results", h->results,
			    sizeof(h->results)))
		return -1;
	return 0;
}

void tp_hosts_init(struct topo *t)
{
	memset(t->hosts, 0, sizeof(t->hosts));
	strcpy(t->hosts[TOPO_LOCAL_HOST].name, "local");
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
