// SPDX-License-Identifier: MIT
#include "hosts_check.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "hostnet.h"
#include "hv_libvirt.h"
#include "kernels.h"
#include "plan.h"
#include "remote.h"
#include "version.h"

/* Exchanges of the clock measurement (as a run's). */
#define HC_CLOCK_SAMPLES 16

static void set(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

#define SEEN(it, ...) set((it)->seen, sizeof((it)->seen), __VA_ARGS__)
#define FIX(it, ...) set((it)->fix, sizeof((it)->fix), __VA_ARGS__)

enum hc_ssh hc_ssh_classify(int exit_status, const char *text)
{
	static const char *const gone[] = {
		"Could not resolve hostname", "Connection refused",
		"timed out", "No route to host", "Network is unreachable",
		"Connection closed by", "Connection reset",
	};

	if (!exit_status)
		return HC_SSH_OK;
	if (strstr(text, "REMOTE HOST IDENTIFICATION HAS CHANGED"))
		return HC_SSH_HOST_KEY_CHANGED;
	if (strstr(text, "Host key verification failed"))
		return HC_SSH_HOST_KEY_UNKNOWN;
	if (strstr(text, "Permission denied"))
		return HC_SSH_AUTH;
	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		if (strstr(text, gone[i]))
			return HC_SSH_UNREACHABLE;
	return HC_SSH_OTHER;
}

/* The last line of text that says something, without its newline. */
static void last_line(const char *text, char *out, size_t len)
{
	const char *end = text + strlen(text), *s;

	while (end > text && strchr(" \t\r\n", end[-1]))
		end--;
	for (s = end; s > text && s[-1] != '\n'; s--)
		;
	set(out, len, "%.*s", (int)(end - s), s);
}

void hc_ssh_item(const struct topo_host *th, const struct host_settings *s,
		 int exit_status, const char *text, struct hc_item *it)
{
	const struct topo_ssh *ss = &th->ssh;
	char dest[300], port[16] = "", said[200];

	set(dest, sizeof(dest), "%s%s%s", ss->user, ss->user[0] ? "@" : "",
	    ss->host);
	if (ss->port)
		set(port, sizeof(port), "-p %u ", ss->port);
	last_line(text, said, sizeof(said));
	it->fix[0] = 0;
	switch (hc_ssh_classify(exit_status, text)) {
	case HC_SSH_OK:
		it->v = HC_OK;
		SEEN(it, "%s reached without a prompt, its host key known",
		     dest);
		return;
	case HC_SSH_HOST_KEY_UNKNOWN:
		SEEN(it, "%s: its host key is not known (ssh: %s)", dest,
		     said);
		FIX(it, "ssh-keyscan %s%s >> ~/.ssh/known_hosts (the "
		    "known_hosts your ssh%s reads), after comparing "
		    "the fingerprint `ssh-keyscan %s%s | ssh-keygen -lf -` "
		    "prints with `ssh-keygen -lf /etc/ssh/ssh_host_ed25519_"
		    "key.pub` on %s itself", port, ss->host,
		    s->ssh_command[0] ? " command" : "", port, ss->host,
		    ss->host);
		break;
	case HC_SSH_HOST_KEY_CHANGED:
		SEEN(it, "%s: its host key is not the one known (ssh: %s)",
		     dest, said);
		FIX(it, "only if %s was reinstalled (else this may be an "
		    "attack): ssh-keygen -R %s, then ssh-keyscan %s%s >> "
		    "~/.ssh/known_hosts after comparing the fingerprint with "
		    "`ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub` "
		    "on it", ss->host, ss->host, port, ss->host);
		break;
	case HC_SSH_AUTH:
		SEEN(it, "%s refused the login (ssh: %s)", dest, said);
		FIX(it, "ssh-copy-id %s%s%s%s (or add your public key to "
		    "~%s/.ssh/authorized_keys on %s)",
		    s->keyfile[0] ? "-i " : "", s->keyfile,
		    s->keyfile[0] ? " " : "", dest,
		    ss->user[0] ? ss->user : "", ss->host);
		if (ss->port) {
			char more[sizeof(it->fix)];

			set(more, sizeof(more), "%s", it->fix);
			FIX(it, "%s; ssh-copy-id takes %s", more, port);
		}
		break;
	case HC_SSH_UNREACHABLE:
		SEEN(it, "%s is not reachable (ssh: %s)", dest, said);
		FIX(it, "check the address in the host's uri; on %s: "
		    "systemctl enable --now ssh", ss->host);
		break;
	default:
		SEEN(it, "%s: ssh exited %d (%s)", dest, exit_status,
		     said[0] ? said : "it said nothing");
		FIX(it, "ssh %s%s true, and read what it says", port, dest);
		break;
	}
	it->v = HC_FAIL;
}

void hc_tool_item(const char *host, enum host_tool tool, const char *path,
		  struct hc_item *it)
{
	static const char *const package[HOST_TOOLS] = {
		"qemu-system-x86", "tcpdump", "cloud-image-utils",
	};

	it->fix[0] = 0;
	if (path && path[0] && strcmp(path, "-")) {
		it->v = HC_OK;
		SEEN(it, "%s", path);
		return;
	}
	it->v = HC_FAIL;
	SEEN(it, "no %s in the PATH there", host_tool_name[tool]);
	FIX(it, "on %s: apt-get install %s", host, package[tool]);
}

void hc_clock_item(const struct clock_est *e, struct hc_item *it)
{
	double off = (double)e->offset / 1e6, bound = (double)e->bound / 1e6;

	it->fix[0] = 0;
	SEEN(it, "offset %+.3f ms, within %.3f ms", off, bound);
	it->v = HC_OK;
	if (e->bound > HC_CLOCK_WARN_NS) {
		it->v = HC_WARN;
		FIX(it, "the captures of the two hosts are merged this "
		    "uncertainly: a slower or busier path than %.0f ms "
		    "round trip", (double)e->rtt / 1e6);
	} else if (e->offset > HC_CLOCK_WARN_NS ||
		   e->offset < -HC_CLOCK_WARN_NS) {
		/* Measured and corrected, but it drifts apart during a
		 * run if nothing keeps it. */
		it->v = HC_WARN;
		FIX(it, "keep both clocks synchronised: apt-get install "
		    "chrony (or systemctl enable --now systemd-timesyncd)");
	}
}

void hc_mtu_item(const char *from, const char *to, int family, unsigned mtu,
		 struct hc_item *it)
{
	unsigned need = family == AF_INET6 ? 1570 : 1550;

	it->fix[0] = 0;
	SEEN(it, "%u towards %s (a tunnel's 1500-byte frames need %u)", mtu,
	     to, need);
	it->v = mtu >= need ? HC_OK : HC_WARN;
	if (mtu < need)
		FIX(it, "on %s: ip link set dev IFACE mtu %u (the interface "
		    "towards %s, and so on the whole path), or frames are "
		    "fragmented", from, need, to);
}

void hc_udp_item(const char *from_host, const char *from,
		 const char *to_host, const char *to, int family,
		 const char *answer, struct hc_item *it)
{
	const char *ip = family == AF_INET6 ? "ip6" : "ip";

	it->fix[0] = 0;
	if (!strncmp(answer, "received ", 9)) {
		it->v = HC_OK;
		SEEN(it, "a datagram from %s (%s) reached %s:%d", from,
		     from_host, to, PLAN_VXLAN_PORT);
		return;
	}
	if (!strncmp(answer, "busy", 4)) {
		const char *dev = answer[4] == ' ' ? answer + 5 : "-";

		it->v = HC_WARN;
		if (strcmp(dev, "-"))
			SEEN(it, "UDP %d on %s (%s) is held by VXLAN device "
			     "%s: a lab is up there; not probed",
			     PLAN_VXLAN_PORT, to, to_host, dev);
		else
			SEEN(it, "UDP %d on %s (%s) is in use by another "
			     "program; not probed", PLAN_VXLAN_PORT, to,
			     to_host);
		return;
	}
	it->v = HC_FAIL;
	SEEN(it, "no datagram from %s (%s) reached %s:%d (%s) in %d s: UDP "
	     "%d is blocked", from, from_host, to, PLAN_VXLAN_PORT, to_host,
	     HC_PROBE_MS / 1000, PLAN_VXLAN_PORT);
	FIX(it, "on %s: nft insert rule inet filter input %s saddr %s udp "
	    "dport %d accept (or: %s -I INPUT -s %s -p udp --dport %d -j "
	    "ACCEPT), and let %s send it out", to_host, ip, from,
	    PLAN_VXLAN_PORT, family == AF_INET6 ? "ip6tables" : "iptables",
	    from, PLAN_VXLAN_PORT, from_host);
}

static struct hc_item *add(struct hc_report *r, const char *host,
			   const char *what)
{
	struct hc_item *it = &r->item[r->n < HC_ITEMS_MAX ? r->n++ :
				      HC_ITEMS_MAX - 1];

	memset(it, 0, sizeof(*it));
	set(it->host, sizeof(it->host), "%s", host);
	set(it->what, sizeof(it->what), "%s", what);
	return it;
}

static void fail(struct hc_item *it, const char *seen, const char *fix)
{
	it->v = HC_FAIL;
	SEEN(it, "%s", seen);
	FIX(it, "%s", fix);
}

/* A file's text (at most 16 KiB; "" when none). */
static void read_text(const char *path, char *out, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? 0 : read(fd, out, len - 1);

	out[n > 0 ? n : 0] = 0;
	if (fd >= 0)
		close(fd);
}

/* ssh alone: its argv with `true` for the agent. */
static void check_ssh(struct remote *rc, const struct topo_host *th,
		      struct hc_report *r, bool *ok)
{
	char *argv[REMOTE_ARGV_MAX], log[] = "/tmp/mstlab-hc-XXXXXX";
	char text[16384];
	struct spawn_result res = { 0 };
	struct hc_item *it = add(r, th->name, "ssh");
	int fd = mkostemp(log, O_CLOEXEC), status;
	size_t n = 0;

	if (fd >= 0)
		close(fd);
	while (rc->argv[n] && strcmp(rc->argv[n], "--"))
		argv[n] = rc->argv[n], n++;
	argv[n] = rc->argv[n], n++;
	argv[n] = rc->argv[n], n++;
	argv[n++] = "true";
	argv[n] = NULL;
	spawn_capture(argv, NULL, fd >= 0 ? log : NULL, 30000, &res);
	free(res.out);
	text[0] = 0;
	if (fd >= 0) {
		read_text(log, text, sizeof(text));
		unlink(log);
	}
	if (res.start_errno) {
		char seen[300];

		set(seen, sizeof(seen), "cannot run %s: %s", argv[0],
		    strerror(res.start_errno));
		fail(it, seen, "apt-get install openssh-client (or fix "
		     "ssh_command in your host settings)");
		return;
	}
	status = res.timed_out ? 255 : WIFEXITED(res.status) ?
		 WEXITSTATUS(res.status) : 255;
	if (res.timed_out)
		set(text, sizeof(text), "no answer within 30 s: Connection "
		    "timed out");
	hc_ssh_item(th, &rc->settings, status, text, it);
	*ok = it->v == HC_OK;
}

/* Its agent, answering hello, then told the lab and which host it is. */
static void check_agent(struct remote *rc, const struct topo *t, unsigned h,
			const char *text, size_t len, struct hc_report *r,
			bool *ok)
{
	const struct topo_host *th = &t->hosts[h];
	struct hc_item *it = add(r, th->name, "agent");
	char log[] = "/tmp/mstlab-hc-XXXXXX", said[16384], last[300], n[24];
	const char *topo[] = { "topology", n }, *host[] = { "host", th->name };
	int fd = mkostemp(log, O_CLOEXEC);
	struct remote_msg ans;
	struct errbuf err;

	if (fd >= 0)
		close(fd);
	set(n, sizeof(n), "%zu", len);
	*ok = !remote_start(rc, th->name, NULL, fd >= 0 ? log : NULL, &err);
	said[0] = 0;
	if (fd >= 0) {
		read_text(log, said, sizeof(said));
		unlink(log);
	}
	last_line(said, last, sizeof(last));
	if (!*ok) {
		char seen[sizeof(it->seen)];

		set(seen, sizeof(seen), "%s%s%s%s", err.msg,
		    last[0] ? " (ssh: " : "", last, last[0] ? ")" : "");
		if (strstr(err.msg, "speaks version"))
			fail(it, seen, "install the same mstlab on both hosts "
			     "(mstlab --version on each)");
		else
			fail(it, seen, "install mstlab there (make install, "
			     "or its Debian package), or name it: "
			     "`mstlab: PATH` under the host in "
			     "~/.config/mstlab/hosts.yaml");
		remote_stop(rc);
		return;
	}
	if (remote_call(rc, topo, 2, text, len, &ans, &err) ||
	    remote_call(rc, host, 2, NULL, 0, &ans, &err)) {
		fail(it, err.msg, "install the same mstlab on both hosts "
		     "(mstlab --version on each)");
		remote_stop(rc);
		*ok = false;
		return;
	}
	it->v = HC_OK;
	SEEN(it, "mstlab agent, protocol %d", REMOTE_PROTO_VERSION);
}

static void check_libvirt(const char *host, const char *uri, bool remote,
			  struct hc_report *r)
{
	struct hc_item *it = add(r, host, "libvirt");
	struct hv_libvirt hv;
	struct errbuf err;

	memset(&hv, 0, sizeof(hv));
	if (!hv_libvirt_open(&hv, uri, false, &err)) {
		hv_libvirt_close(&hv);
		it->v = HC_OK;
		SEEN(it, "%s answers", uri);
		return;
	}
	SEEN(it, "%s: %s", uri, err.msg);
	it->v = HC_FAIL;
	if (!remote && !strcmp(uri, "qemu:///system") && !geteuid()) {
		char path[4096];

		/* up starts this host's daemons itself (services.h). */
		if (host_which("libvirtd", path, sizeof(path))) {
			it->v = HC_WARN;
			SEEN(it, "%s: libvirtd is not running (up starts it)",
			     uri);
			return;
		}
	}
	FIX(it, "on %s: apt-get install libvirt-daemon-system; systemctl "
	    "enable --now libvirtd", host);
}

static void check_tools_here(struct hc_report *r, const char *host)
{
	for (int i = 0; i < HOST_TOOLS; i++) {
		char path[4096];
		bool have = host_which(host_tool_name[i], path, sizeof(path));

		hc_tool_item(host, (enum host_tool)i, have ? path : NULL,
			     add(r, host, host_tool_name[i]));
	}
}

static void check_tools_there(struct remote *rc, const char *host,
			      struct hc_report *r)
{
	const char *w[] = { "tools" };
	struct remote_msg ans;
	struct errbuf err;

	if (remote_call(rc, w, 1, NULL, 0, &ans, &err) ||
	    ans.n != 1 + HOST_TOOLS) {
		fail(add(r, host, "tools"), err.msg, "");
		return;
	}
	/* Seed images are made on this host (cloud-localds here) and put
	 * there: that host needs QEMU and tcpdump. */
	for (int i = 0; i < HOST_TOOL_CLOUD_LOCALDS; i++)
		hc_tool_item(host, (enum host_tool)i, ans.word[1 + i],
			     add(r, host, host_tool_name[i]));
}

static void check_images(struct remote *rc, const char *host,
			 struct hc_report *r)
{
	struct hc_item *it = add(r, host, "guest files");
	bool have[TOPO_KERNEL_COUNT];
	char kernels[128];
	struct errbuf err;

	if (remote_images(rc, &err)) {
		fail(it, err.msg, "make kernel image in the mstlab checkout "
		     "there (or install its Debian package, which has "
		     "them)");
		return;
	}
	for (int k = 0; k < TOPO_KERNEL_COUNT; k++)
		have[k] = rc->images.kernel[k][0] != 0;
	kernel_set_text(have, kernels, sizeof(kernels));
	it->v = HC_OK;
	SEEN(it, "kernels %s, image %s", kernels, rc->images.initrd);
}

static void check_clock(struct remote *rc, const char *host,
			struct hc_report *r)
{
	struct hc_item *it = add(r, host, "clock");
	struct clock_est e;
	struct errbuf err;

	if (remote_clock(rc, HC_CLOCK_SAMPLES, &e, &err))
		fail(it, err.msg, "");
	else
		hc_clock_item(&e, it);
}

static void check_mtu(struct remote *rc, const struct topo_host *a,
		      const struct topo_host *b, struct hc_report *r)
{
	const char *w[] = { "mtu", a->address };
	struct remote_msg ans;
	struct errbuf err;
	uint64_t v;
	unsigned mtu;

	if (hostnet_ops.path_mtu(NULL, b->address, &mtu, &err))
		fail(add(r, a->name, "mtu"), err.msg, "");
	else
		hc_mtu_item(a->name, b->address, b->family, mtu,
			    add(r, a->name, "mtu"));
	if (remote_call(rc, w, 2, NULL, 0, &ans, &err) || ans.n != 2 ||
	    remote_number(ans.word[1], 1 << 20, &v))
		fail(add(r, b->name, "mtu"), err.msg, "");
	else
		hc_mtu_item(b->name, a->address, a->family, (unsigned)v,
			    add(r, b->name, "mtu"));
}

struct sender {
	const char *src, *dst, *token;
	atomic_bool stop;
	pthread_t thread;
};

static void *send_loop(void *arg)
{
	struct sender *s = arg;
	char why[160];

	/* Until the listener there answers (at most its 2 s and more). */
	host_probe_send(s->src, s->dst, PLAN_VXLAN_PORT, s->token,
			HC_PROBE_MS / 100 + 20, 100, &s->stop, why, sizeof(why));
	return NULL;
}

/* UDP 4789 both ways between this host (a) and that one (b). */
static void check_udp(struct remote *rc, const struct topo_host *a,
		      const struct topo_host *b, struct hc_report *r)
{
	char token[HOST_PROBE_TOKEN_MAX + 1], busy[256], why[200], from[64];
	char answer[300];
	const char *listen[] = { "udp-probe", "listen", b->address, token };
	const char *send[] = { "udp-probe", "send", a->address, token };
	struct sender s = { .src = a->address, .dst = b->address,
			    .token = token };
	struct remote_msg ans;
	struct errbuf err;
	int fd, got;

	if (host_probe_token(token)) {
		fail(add(r, b->name, "udp 4789 in"), "no random token", "");
		return;
	}
	/* a to b: b listens while a sends. */
	if (pthread_create(&s.thread, NULL, send_loop, &s)) {
		fail(add(r, b->name, "udp 4789 in"), "no thread", "");
		return;
	}
	got = remote_call(rc, listen, 4, NULL, 0, &ans, &err);
	atomic_store(&s.stop, true);
	pthread_join(s.thread, NULL);
	if (got || ans.n < 2) {
		fail(add(r, b->name, "udp 4789 in"), err.msg, "");
	} else {
		set(answer, sizeof(answer), "%s%s%s", ans.word[1],
		    ans.n > 2 ? " " : "", ans.n > 2 ? ans.word[2] : "");
		hc_udp_item(a->name, a->address, b->name, b->address,
			    b->family, answer, add(r, b->name, "udp 4789 in"));
	}
	/* b to a: a listens (bound before b sends). */
	host_probe_token(token);
	fd = host_probe_bind(a->address, PLAN_VXLAN_PORT, busy, sizeof(busy),
			     why, sizeof(why));
	if (fd == -1) {
		fail(add(r, a->name, "udp 4789 in"), why, "");
		return;
	}
	if (fd == -2) {
		set(answer, sizeof(answer), "busy %s", busy[0] ? busy : "-");
	} else if (remote_call(rc, send, 4, NULL, 0, &ans, &err)) {
		close(fd);
		fail(add(r, a->name, "udp 4789 in"), err.msg, "");
		return;
	} else {
		got = host_probe_wait(fd, token, HC_PROBE_MS, from,
				      sizeof(from));
		set(answer, sizeof(answer), got > 0 ? "received %s" : "none",
		    from);
	}
	hc_udp_item(b->name, b->address, a->name, a->address, a->family,
		    answer, add(r, a->name, "udp 4789 in"));
}

static void check_far(const struct topo *t, unsigned h, const char *text,
		      size_t len, struct hc_report *r)
{
	const struct topo_host *a = &t->hosts[TOPO_LOCAL_HOST],
			       *b = &t->hosts[h];
	struct remote rc;
	char uri[TOPO_TEXT_MAX * 3 + 32];
	struct errbuf err;
	bool ok = false;

	memset(&rc, 0, sizeof(rc));
	rc.to = rc.from = -1;
	if (remote_ssh_argv(&rc, t, h, &err)) {
		fail(add(r, b->name, "settings"), err.msg,
		     "correct ~/.config/mstlab/hosts.yaml");
		return;
	}
	check_ssh(&rc, b, r, &ok);
	if (!ok)
		return;
	check_agent(&rc, t, h, text, len, r, &ok);
	if (host_settings_uri(b, &rc.settings, uri, sizeof(uri)))
		fail(add(r, b->name, "libvirt"), "its uri with the host "
		     "settings is too long", "");
	else
		check_libvirt(b->name, uri, true, r);
	if (!ok)
		return;
	check_tools_there(&rc, b->name, r);
	check_images(&rc, b->name, r);
	check_clock(&rc, b->name, r);
	if (a->address[0] && b->address[0]) {
		check_mtu(&rc, a, b, r);
		check_udp(&rc, a, b, r);
	} else {
		fail(add(r, b->name, "address"), "the tunnels to it need "
		     "an address on both hosts",
		     "give both hosts an `address:` in the topology");
	}
	remote_stop(&rc);
}

void hosts_check(const struct topo *t, const char *text, size_t len,
		 const bool want[TOPO_MAX_HOSTS], const char *local_uri,
		 struct hc_report *r, FILE *log)
{
	const char *local = t->hosts[TOPO_LOCAL_HOST].name;

	r->n = 0;
	if (want[TOPO_LOCAL_HOST]) {
		if (log)
			fprintf(log, "mstlab: checking %s (this host)\n", local);
		check_tools_here(r, local);
		check_libvirt(local, local_uri, false, r);
	}
	for (unsigned h = 1; h < t->n_hosts; h++) {
		if (!want[h])
			continue;
		if (log)
			fprintf(log, "mstlab: checking %s\n", t->hosts[h].name);
		check_far(t, h, text, len, r);
	}
}

void hc_print(const struct hc_report *r, FILE *out)
{
	static const char *const word[] = { "ok", "warn", "FAIL" };

	for (size_t i = 0; i < r->n; i++) {
		const struct hc_item *it = &r->item[i];

		fprintf(out, "%-10s %-18s %-4s  %s\n", it->host, it->what,
			word[it->v], it->seen);
		if (it->fix[0] && it->v != HC_OK)
			fprintf(out, "%-10s %-18s       fix: %s\n", "", "",
				it->fix);
	}
}

bool hc_failed(const struct hc_report *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->item[i].v == HC_FAIL)
			return true;
	return false;
}
