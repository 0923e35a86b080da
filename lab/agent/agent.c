// SPDX-License-Identifier: MIT
/*
 * `mstlab agent`: the far end of remote_proto.h. One request at a time:
 * parsed, each word judged against the plan of the topology it was sent,
 * then done through this host's ops tables (remote_agent.h).
 */
#include "agent.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "files.h"
#include "host_probe.h"
#include "kernels.h"
#include "paths.h"
#include "sbuf.h"
#include "version.h"

static int64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void remote_agent_init(struct remote_agent *a, const struct lab_ops *ops,
		       const char *results)
{
	memset(a, 0, sizeof(*a));
	a->ops = ops;
	a->clock_ns = realtime_ns;
	a->probe_port = PLAN_VXLAN_PORT;
	a->st.fd = -1;
	snprintf(a->results, sizeof(a->results), "%s", results);
}

void remote_agent_fini(struct remote_agent *a)
{
	struct errbuf err;
	const struct agent_tpl *o = NULL;

	for (size_t i = 0; a->chan && a->t && i < a->t->n_nodes; i++) {
		if (a->chan[i] < 0)
			continue;
		if (!o && a->tpl_ops)
			o = a->tpl_ops(a->tpl_ctx, &err);
		if (o)
			o->chan->close(o->chan_ctx, a->chan[i]);
	}
	free(a->chan);
	free(a->tpl);
	a->chan = NULL;
	a->tpl = NULL;
	state_close(&a->st);
	plan_free(a->p);
	topo_free(a->t);
	a->p = NULL;
	a->t = NULL;
	a->have_run = false;
	a->have_host = false;
}

/* One answer line; printable ASCII only, cut to a line. */
static int say(int out, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int say(int out, const char *kind, const char *fmt, ...)
{
	char text[REMOTE_LINE_MAX - 16], clean[REMOTE_LINE_MAX - 16];
	char line[REMOTE_LINE_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	remote_text(text, clean, sizeof(clean));
	n = snprintf(line, sizeof(line), clean[0] ? "%s %s\n" : "%s\n", kind,
		     clean);
	return remote_write_all(out, line, (size_t)n) ? -1 : 0;
}

#define OK(...) say(out, "ok", __VA_ARGS__)
#define ERR(...) say(out, "err", __VA_ARGS__)

/* ---- what the plan puts on this host ---- */

static bool link_here(const struct remote_agent *a, size_t l)
{
	return plan_link_on_host(a->p, l, a->host);
}

/* The link whose bridge is name and which has an end here, or -1. */
static int bridge_link(const struct remote_agent *a, const char *name)
{
	for (size_t l = 0; l < a->t->n_links; l++)
		if (link_here(a, l) && !strcmp(a->p->links[l].bridge, name))
			return (int)l;
	return -1;
}

/* A port of a link bridge here: a tap of an end here, or the tunnel of a
 * link that crosses to here. */
static bool port_here(const struct remote_agent *a, const char *name)
{
	int end, l = plan_link_of_ifname(a->p, name, &end);
	const struct plan_link *pl;

	if (l < 0 || !link_here(a, (size_t)l))
		return false;
	pl = &a->p->links[l];
	if (end >= 0)
		return pl->host[end] == a->host;
	return pl->crosses && !strcmp(pl->tunnel, name);
}

/* Where this host captures link l (relative), or NULL. */
static const char *pcap_here(const struct remote_agent *a, size_t l)
{
	const struct plan_link *pl = &a->p->links[l];

	if (pl->capture_host == a->host)
		return pl->pcap;
	if (pl->crosses && pl->far_host == a->host)
		return pl->pcap_far;
	return NULL;
}

static bool cap_known(const struct remote_agent *a, pid_t pid, uint64_t start)
{
	for (size_t i = 0; i < a->n_caps; i++)
		if (a->caps[i].pid == pid && a->caps[i].start == start)
			return true;
	return false;
}

static void cap_add(struct remote_agent *a, pid_t pid, uint64_t start)
{
	if (a->n_caps < REMOTE_AGENT_CAPTURES && !cap_known(a, pid, start)) {
		a->caps[a->n_caps].pid = pid;
		a->caps[a->n_caps].start = start;
		a->n_caps++;
	}
}

/* The captures an earlier session of this run started (its state). */
static void caps_from_state(struct remote_agent *a)
{
	char path[PATH_MAX + 8], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/state", a->run_dir);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		uint64_t pid, start;

		if (sscanf(line, "capture-pid %*s %" SCNu64 " %" SCNu64, &pid,
			   &start) == 2 && pid > 1 && pid < INT32_MAX)
			cap_add(a, (pid_t)pid, start);
	}
	fclose(f);
}

/* ---- the verbs ---- */

static int v_hello(struct remote_agent *a, const struct remote_msg *m,
		   int out)
{
	uint64_t v;

	(void)a;
	if (remote_number(m->word[1], 1000, &v) || v != REMOTE_PROTO_VERSION)
		return ERR("this agent speaks version %d, not %s",
			   REMOTE_PROTO_VERSION, m->word[1]);
	return OK("mstlab-agent %d %s", REMOTE_PROTO_VERSION,
		  remote_word_ok(mstlab_version) ? mstlab_version : "unknown");
}

static int v_topology(struct remote_agent *a, const struct remote_msg *m,
		      int out)
{
	struct topo_error te;
	struct errbuf why;
	struct topo *t = NULL;
	struct plan *p = NULL;
	uint64_t len;
	char *buf;

	/* The bytes are read whatever is wrong, or the stream is lost:
	 * only a length out of bounds ends the session. */
	if (remote_number(m->word[1], REMOTE_TOPOLOGY_MAX, &len)) {
		ERR("topology: LEN must be 1-%u", REMOTE_TOPOLOGY_MAX);
		return -1;
	}
	buf = malloc(len + 1);
	if (!buf)
		return -1;
	if (remote_read_bytes(a->in, buf, len, &why)) {
		free(buf);
		return -1;
	}
	if (a->have_run) {
		free(buf);
		return ERR("a run is open: the topology is set");
	}
	if (topo_parse_buffer("topology", buf, len, &t, &te)) {
		free(buf);
		return ERR("%s", topo_error_format(&te, &why));
	}
	free(buf);
	if (plan_build(t, &p) != PLAN_OK) {
		topo_free(t);
		return ERR("topology: cannot plan lab %s", t->name);
	}
	plan_free(a->p);
	topo_free(a->t);
	a->t = t;
	a->p = p;
	a->have_host = false;
	return OK("%s", t->name);
}

/* RUN: LAB-YYYYmmdd-HHMMSS[-N], nothing else. */
static bool run_name_ok(const struct remote_agent *a, const char *run)
{
	size_t n = strlen(a->t->name);

	return !strncmp(run, a->t->name, n) && run[n] == '-' &&
	       strlen(run + n + 1) >= 15 && strlen(run + n + 1) <= 18 &&
	       strspn(run + n + 1, "0123456789-") == strlen(run + n + 1);
}

/* One of the lab's other hosts named: its index; -1 when it is none
 * (said), -2 when saying it failed. */
static int other_host(const struct remote_agent *a, const char *name,
		      int out)
{
	int h = topo_host_find(a->t, name);

	if (h >= 0 && h != TOPO_LOCAL_HOST)
		return h;
	return ERR("'%s' is not one of the lab's other hosts", name) ? -2 :
	       -1;
}

/* run or attach. */
static int v_run(struct remote_agent *a, const struct remote_msg *m, int out)
{
	bool attach = !strcmp(m->word[0], "attach");
	struct errbuf err;
	int h;

	if (!a->t)
		return ERR("no topology yet");
	if (a->have_run)
		return ERR("a run is open already");
	h = other_host(a, m->word[1], out);
	if (h < 0)
		return h == -1 ? 0 : -1;
	if (!run_name_ok(a, m->word[2]))
		return ERR("'%s' is not a run of lab %s (LAB-YYYYmmdd-HHMMSS"
			   "[-N])", m->word[2], a->t->name);
	if (!a->results[0])
		return ERR("this agent has no results folder");
	snprintf(a->run_dir, sizeof(a->run_dir), "%s/%s", a->results,
		 m->word[2]);
	if (attach) {
		struct stat sb;

		if (lstat(a->run_dir, &sb) || !S_ISDIR(sb.st_mode))
			return ERR("no run %s here", m->word[2]);
	} else {
		if (files_mkdir(a->results, NULL, &err))
			return ERR("%s", err.msg);
		if (mkdir(a->run_dir, 0755))
			return ERR("cannot create %s: %s", a->run_dir,
				   strerror(errno));
	}
	a->host = (unsigned)h;
	a->have_host = true;
	if (files_mkdir(a->run_dir, "pcap", &err) ||
	    state_open(&a->st, a->run_dir, &err))
		return ERR("%s", err.msg);
	{
		static const char *const subs[] = { "console", "seed", "qga",
						    "share" };
		char sub[TOPO_NODE_NAME_MAX + 16];

		snprintf(sub, sizeof(sub), "pcap/%s", a->t->hosts[h].name);
		if (files_mkdir(a->run_dir, sub, &err))
			return ERR("%s", err.msg);
		/* What its nodes' domains write (plan_domain_xml). */
		for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
			if (files_mkdir(a->run_dir, subs[i], &err))
				return ERR("%s", err.msg);
		for (size_t i = 0; i < a->t->n_nodes; i++) {
			if (a->t->nodes[i].host != (unsigned)h)
				continue;
			snprintf(sub, sizeof(sub), "share/%s",
				 a->t->nodes[i].name);
			if (files_mkdir(a->run_dir, sub, &err))
				return ERR("%s", err.msg);
		}
	}
	a->tpl = calloc(a->t->n_nodes ? a->t->n_nodes : 1, sizeof(*a->tpl));
	a->chan = calloc(a->t->n_nodes ? a->t->n_nodes : 1, sizeof(*a->chan));
	if (!a->tpl || !a->chan)
		return ERR("out of memory");
	for (size_t i = 0; i < a->t->n_nodes; i++)
		a->chan[i] = -1;
	a->have_run = true;
	a->n_caps = 0;
	if (attach)
		caps_from_state(a);
	return OK("%s", a->run_dir);
}

static int record(struct remote_agent *a, int out, const char *kind,
		  const char *name)
{
	struct errbuf err;

	if (state_add(&a->st, &err, "%s %s", kind, name))
		return ERR("%s", err.msg) ? -1 : 1;
	return 0;
}

static void forget(struct remote_agent *a, const char *kind, const char *name)
{
	struct errbuf err;

	state_add(&a->st, &err, "forget %s %s", kind, name);
}

static int v_bridge(struct remote_agent *a, const struct remote_msg *m,
		    int out)
{
	const struct lab_ops *o = a->ops;
	char owner[TOPO_LAB_NAME_MAX + 16];
	struct errbuf err;
	int rc;

	if (bridge_link(a, m->word[1]) < 0)
		return ERR("%s is no link bridge of lab %s on this host",
			   m->word[1], a->t->name);
	rc = record(a, out, "bridge", m->word[1]);
	if (rc)
		return rc < 0 ? -1 : 0;
	snprintf(owner, sizeof(owner), "mstlab lab %s", a->t->name);
	rc = o->link->create(o->link_ctx, m->word[1], owner, &err);
	if (rc < 0) {
		forget(a, "bridge", m->word[1]);
		return ERR("%s", err.msg);
	}
	return OK(rc == 1 ? "replaced" : "created");
}

static int v_tunnel(struct remote_agent *a, const struct remote_msg *m,
		    int out)
{
	const struct lab_ops *o = a->ops;
	const struct plan_link *pl = NULL;
	const char *local, *remote;
	struct errbuf err;
	int rc;

	for (size_t l = 0; l < a->t->n_links && !pl; l++)
		if (link_here(a, l) && a->p->links[l].crosses &&
		    !strcmp(a->p->links[l].tunnel, m->word[1]))
			pl = &a->p->links[l];
	if (!pl)
		return ERR("%s is no tunnel of lab %s on this host", m->word[1],
			   a->t->name);
	local = a->t->hosts[a->host].address;
	remote = a->t->hosts[pl->host[0] == a->host ? pl->host[1] :
						       pl->host[0]].address;
	if (!local[0] || !remote[0])
		return ERR("tunnel %s: both hosts need an address", m->word[1]);
	rc = record(a, out, "tunnel", m->word[1]);
	if (rc)
		return rc < 0 ? -1 : 0;
	if (o->link->tunnel(o->link_ctx, pl->tunnel, pl->bridge, pl->vni,
			    local, remote, &err)) {
		forget(a, "tunnel", m->word[1]);
		return ERR("%s", err.msg);
	}
	return OK("%" PRIu32 " %s %s", pl->vni, local, remote);
}

static int v_port(struct remote_agent *a, const struct remote_msg *m, int out)
{
	struct errbuf err;

	if (!port_here(a, m->word[1]))
		return ERR("%s is no port of a link of lab %s on this host",
			   m->word[1], a->t->name);
	if (a->ops->link->setup_port(a->ops->link_ctx, m->word[1], &err))
		return ERR("%s", err.msg);
	return OK("%s", "");
}

static int v_forward(struct remote_agent *a, const struct remote_msg *m,
		     int out)
{
	const char *ports[2];
	struct errbuf err;
	size_t n = m->n - 2;
	bool on = !strcmp(m->word[1], "on");
	/* deaf: frames towards this one port only are dropped (one way). */
	bool deaf = !strcmp(m->word[1], "deaf");

	if (!on && !deaf && strcmp(m->word[1], "off"))
		return ERR("forward on|off|deaf IFNAME [IFNAME], not '%s'",
			   m->word[1]);
	if (deaf && n != 1)
		return ERR("forward deaf takes one port, not %zu", n);
	for (size_t i = 0; i < n; i++) {
		if (!port_here(a, m->word[2 + i]))
			return ERR("%s is no port of a link of lab %s on this "
				   "host", m->word[2 + i], a->t->name);
		ports[i] = m->word[2 + i];
	}
	if (a->ops->link->port_forward(a->ops->link_ctx, ports, n, on,
				       deaf ? 0 : -1, &err))
		return ERR("%s", err.msg);
	return OK("%s", "");
}

static int v_remove(struct remote_agent *a, const struct remote_msg *m,
		    int out)
{
	struct errbuf err;

	if (bridge_link(a, m->word[1]) < 0 && !port_here(a, m->word[1]))
		return ERR("%s is no interface of lab %s on this host",
			   m->word[1], a->t->name);
	if (a->ops->link->remove(a->ops->link_ctx, m->word[1], &err))
		return ERR("%s", err.msg);
	return OK("%s", "");
}

/* The host of lab a whose address is address, or -1. */
static int host_of_address(const struct remote_agent *a, const char *address)
{
	for (size_t h = 0; h < a->t->n_hosts; h++)
		if (a->t->hosts[h].address[0] &&
		    !strcmp(a->t->hosts[h].address, address))
			return (int)h;
	return -1;
}

static int v_mtu(struct remote_agent *a, const struct remote_msg *m, int out)
{
	struct errbuf err;
	unsigned mtu;

	if (host_of_address(a, m->word[1]) < 0)
		return ERR("%s is the address of no host of lab %s", m->word[1],
			   a->t->name);
	if (a->ops->link->path_mtu(a->ops->link_ctx, m->word[1], &mtu, &err))
		return ERR("%s", err.msg);
	return OK("%u", mtu);
}

static int pcap_path(struct remote_agent *a, const struct remote_msg *m,
		     int out, char *path, size_t len, const char **rel)
{
	int l = bridge_link(a, m->word[1]);

	*rel = l < 0 ? NULL : pcap_here(a, (size_t)l);
	if (!*rel)
		return ERR("%s is no link captured on this host", m->word[1]) ?
			       -1 : 1;
	snprintf(path, len, "%s/%s", a->run_dir, *rel);
	return 0;
}

static int v_capture(struct remote_agent *a, const struct remote_msg *m,
		     int out)
{
	const struct lab_ops *o = a->ops;
	char path[PATH_MAX + 200];
	const char *rel;
	struct errbuf err;
	uint64_t start;
	pid_t pid;
	int rc = pcap_path(a, m, out, path, sizeof(path), &rel);

	if (rc)
		return rc < 0 ? -1 : 0;
	if (a->n_caps == REMOTE_AGENT_CAPTURES)
		return ERR("too many captures");
	if (state_add(&a->st, &err, "capture %s %s", m->word[1], path))
		return ERR("%s", err.msg);
	if (o->cap->start(o->cap_ctx, m->word[1], path, &pid, &start, &err))
		return ERR("%s", err.msg);
	if (state_add(&a->st, &err, "capture-pid %s %d %" PRIu64, m->word[1],
		      (int)pid, start)) {
		o->cap->stop(o->cap_ctx, pid, start, &err);
		return ERR("%s", err.msg);
	}
	cap_add(a, pid, start);
	return OK("%d %" PRIu64 " %s", (int)pid, start, rel);
}

/* PID START of a capture this agent started: 0, or 1 (said). */
static int capture_words(struct remote_agent *a, const char *pw,
			 const char *sw, int out, pid_t *pid, uint64_t *start)
{
	uint64_t p;

	if (remote_number(pw, INT32_MAX, &p) ||
	    remote_number(sw, UINT64_MAX, start) ||
	    !cap_known(a, (pid_t)p, *start))
		return ERR("%s %s is no capture of this run", pw, sw) ? -1 : 1;
	*pid = (pid_t)p;
	return 0;
}

static int v_listening(struct remote_agent *a, const struct remote_msg *m,
		       int out)
{
	char path[PATH_MAX + 200];
	const char *rel;
	struct errbuf err;
	uint64_t start;
	pid_t pid;
	int rc = pcap_path(a, m, out, path, sizeof(path), &rel);

	if (!rc)
		rc = capture_words(a, m->word[2], m->word[3], out, &pid,
				   &start);
	if (rc)
		return rc < 0 ? -1 : 0;
	if (a->ops->cap->listening(a->ops->cap_ctx, m->word[1], path, pid,
				   start, &err))
		return ERR("%s", err.msg);
	return OK("%s", "");
}

/* alive or stop. */
static int v_alive_stop(struct remote_agent *a, const struct remote_msg *m,
			int out)
{
	bool stop = !strcmp(m->word[0], "stop");
	struct errbuf err;
	uint64_t start;
	pid_t pid;
	int rc = capture_words(a, m->word[1], m->word[2], out, &pid, &start);

	if (rc)
		return rc < 0 ? -1 : 0;
	if (!stop)
		return OK("%d", a->ops->cap->alive(a->ops->cap_ctx, pid, start)
			  == 1);
	if (a->ops->cap->stop(a->ops->cap_ctx, pid, start, &err))
		return ERR("%s", err.msg);
	return OK("%s", "");
}

/* A path answered as one word: remote_path_ok, or "-" when none. */
static int path_word(int out, const char *what, const char *path,
		     bool have, const char **word)
{
	*word = have ? path : "-";
	if (have && !remote_path_ok(path))
		return ERR("this host's %s %s cannot be named to another host "
			   "(an absolute path of A-Z a-z 0-9 / . _ + -, at most "
			   "%d bytes)", what, path, REMOTE_PATH_MAX - 1) ? -1 : 1;
	return 0;
}

/* This host's files that its nodes need are there: 0, or -1 with why;
 * which kernels it has into have, its tools share (or "") into tools. */
static int own_files(const struct remote_agent *a,
		     bool have[TOPO_KERNEL_COUNT], char tools[PATH_MAX],
		     char *why, size_t len)
{
	bool need[TOPO_KERNEL_COUNT];

	tools[0] = 0;
	if (!a->initrd[0])
		return snprintf(why, len, "this agent knows no guest files"),
		       -1;
	kernel_needed(a->t, a->host, need);
	for (int k = 0; k < TOPO_KERNEL_COUNT; k++) {
		have[k] = !paths_need_kernel(a->kernel[k], (enum topo_kernel)k,
					     why, len);
		if (need[k] && !have[k])
			return -1;
	}
	if (paths_need_initrd(a->initrd, why, len))
		return -1;
	if (!paths_tools_share(a->initrd, tools, PATH_MAX))
		tools[0] = 0;
	return 0;
}

/* images: this host's own kernels, image and tools share, those its
 * nodes need checked to be there (paths.h says how they are found). */
static int v_images(struct remote_agent *a, const struct remote_msg *m,
		    int out)
{
	char msg[PATH_MAX + 128], tools[PATH_MAX];
	const char *w[2 + TOPO_KERNEL_COUNT];
	bool have[TOPO_KERNEL_COUNT];
	struct sbuf line;
	int rc;

	(void)m;
	if (own_files(a, have, tools, msg, sizeof(msg)))
		return ERR("%s", msg);
	rc = path_word(out, "initramfs", a->initrd, true, &w[0]);
	if (!rc)
		rc = path_word(out, "tools share", tools, tools[0] != 0, &w[1]);
	for (int k = 0; k < TOPO_KERNEL_COUNT && !rc; k++) {
		char what[32];

		snprintf(what, sizeof(what), "%s kernel", topo_kernel_name(k));
		rc = path_word(out, what, a->kernel[k], have[k], &w[2 + k]);
	}
	if (rc)
		return rc < 0 ? -1 : 0;
	sbuf_init(&line);
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		sbuf_printf(&line, "%s%s", i ? " " : "", w[i]);
	rc = sbuf_failed(&line) ? ERR("%s", "out of memory") :
				  OK("%s", sbuf_str(&line));
	sbuf_free(&line);
	return rc;
}

/* virt: KVM only where a guest of its own files boots with it there. */
static int v_virt(struct remote_agent *a, const struct remote_msg *m,
		  int out)
{
	char msg[PATH_MAX + 128], tools[PATH_MAX];
	bool have[TOPO_KERNEL_COUNT];

	(void)m;
	if (!a->virt)
		return ERR("%s", "this agent cannot tell KVM from TCG");
	if (own_files(a, have, tools, msg, sizeof(msg)))
		return ERR("%s", msg);
	return OK("%s", a->virt(a) == PLAN_VIRT_KVM ? "kvm" : "qemu");
}

/* ---- its nodes' templates ---- */

/* A node of this host: its index, or -1 (said). */
static int node_here(const struct remote_agent *a, const char *name, int out)
{
	int i = topo_node_find(a->t, name);

	if (i < 0 || a->t->nodes[i].host != a->host)
		return ERR("%s is no node of lab %s on this host", name,
			   a->t->name), -1;
	return i;
}

/* A build's progress lines, each an info line as it is written. */
static ssize_t info_write(void *c, const char *buf, size_t n)
{
	int out = *(const int *)c;

	for (size_t k = 0; k < n;) {
		size_t len = strcspn(buf + k, "\n");

		if (len > n - k)
			len = n - k;
		if (len)
			say(out, "info", "%.*s", (int)len, buf + k);
		k += len + 1;
	}
	return (ssize_t)n;
}

/* cache/KEY/file (template.h: tpl_path). */
static void tpl_file(const struct remote_agent *a, const char *key,
		     const char *file, char *out, size_t len)
{
	int n = snprintf(out, len, "%s/%s/%s", a->tpl_cache, key, file);

	/* Too long: no path (remote_path_ok refuses it), never a cut one. */
	if (n < 0 || (size_t)n >= len)
		out[0] = 0;
}

/* Its libvirt and channels for templates: NULL (said). */
static const struct agent_tpl *tpl_ops(struct remote_agent *a, int out)
{
	const struct agent_tpl *o;
	struct errbuf err;

	if (!a->tpl_ops)
		return ERR("this agent builds no templates"), NULL;
	o = a->tpl_ops(a->tpl_ctx, &err);
	if (!o)
		ERR("%s", err.msg);
	return o;
}

/* template NODE qemu|kvm: its template in this host's cache, built from
 * this host's files if missing; only a node of its plan on this host. */
static int v_template(struct remote_agent *a, const struct remote_msg *m,
		      int out)
{
	char msg[PATH_MAX + 128], tools[PATH_MAX], key[TPL_KEY_LEN + 1];
	char ram[PATH_MAX], st[PATH_MAX], overlay[PATH_MAX + 16];
	const char *w[2];
	const struct agent_tpl *o;
	struct plan_params pp;
	struct errbuf err;
	bool have[TOPO_KERNEL_COUNT], kvm = !strcmp(m->word[2], "kvm");
	int i = node_here(a, m->word[1], out), rc;
	FILE *log;

	if (i < 0)
		return 0;
	if (!kvm && strcmp(m->word[2], "qemu"))
		return ERR("template NODE qemu|kvm, not '%s'", m->word[2]);
	if (own_files(a, have, tools, msg, sizeof(msg)))
		return ERR("%s", msg);
	o = tpl_ops(a, out);
	if (!o)
		return 0;
	pp = (struct plan_params){
		.virt = kvm ? PLAN_VIRT_KVM : PLAN_VIRT_QEMU,
		.run_dir = a->run_dir,
		.initrd = a->initrd, .tools = tools[0] ? tools : NULL,
		/* Its overlay's copy here (put overlay/NODE.tar). */
		.overlay_root = overlay,
	};
	for (int k = 0; k < TOPO_KERNEL_COUNT; k++)
		pp.kernel[k] = a->kernel[k];
	snprintf(overlay, sizeof(overlay), "%s/overlay", a->run_dir);
	log = fopencookie(&out, "w", (cookie_io_functions_t){
				  .write = info_write });
	if (!log)
		return ERR("out of memory");
	setvbuf(log, NULL, _IOLBF, 0);
	rc = o->ensure(o->ctx, a->p, &pp, a->tpl_cache, i, log, key, &err);
	fclose(log);
	if (rc)
		return ERR("%s", err.msg);
	if (strlen(key) != TPL_KEY_LEN)
		return ERR("%s: no template key", m->word[1]);
	/* What it answers is in its cache, or it answers nothing. */
	tpl_file(a, key, "ram", ram, sizeof(ram));
	tpl_file(a, key, "state", st, sizeof(st));
	rc = path_word(out, "template RAM file", ram, true, &w[0]);
	if (!rc)
		rc = path_word(out, "template state", st, true, &w[1]);
	if (rc)
		return rc < 0 ? -1 : 0;
	memcpy(a->tpl[i], key, sizeof(key));
	return OK("%s %s %s", key, ram, st);
}

/* clone NODE: its domain, started paused from its template's RAM, gets
 * its identity channel connected and the template's state loaded. */
static int v_clone(struct remote_agent *a, const struct remote_msg *m,
		   int out)
{
	char path[PATH_MAX + 300];
	const struct agent_tpl *o;
	struct errbuf err;
	int i = node_here(a, m->word[1], out);

	if (i < 0)
		return 0;
	if (!a->tpl[i][0])
		return ERR("%s: ask for its template first", m->word[1]);
	if (a->chan[i] >= 0)
		return ERR("%s is loaded already", m->word[1]);
	o = tpl_ops(a, out);
	if (!o)
		return 0;
	snprintf(path, sizeof(path), "%s/qga/%s.id", a->run_dir, m->word[1]);
	a->chan[i] = o->chan->connect(o->chan_ctx, path, &err);
	if (a->chan[i] < 0)
		return ERR("%s", err.msg);
	tpl_file(a, a->tpl[i], "state", path, sizeof(path));
	if (o->load(o->ctx, a->p->nodes[i].domain, path, &err)) {
		o->chan->close(o->chan_ctx, a->chan[i]);
		a->chan[i] = -1;
		return ERR("%s", err.msg);
	}
	return OK("%s", "");
}

/* awaken NODE: a loaded clone runs and is told who it is. */
static int v_awaken(struct remote_agent *a, const struct remote_msg *m,
		    int out)
{
	const struct agent_tpl *o;
	struct errbuf err;
	int i = node_here(a, m->word[1], out), rc;

	if (i < 0)
		return 0;
	if (a->chan[i] < 0)
		return ERR("%s: no clone of it is loaded", m->word[1]);
	o = tpl_ops(a, out);
	if (!o)
		return 0;
	rc = o->awaken(o->ctx, a->p, i, a->chan[i], &err);
	o->chan->close(o->chan_ctx, a->chan[i]);
	a->chan[i] = -1;
	return rc ? ERR("%s", err.msg) : OK("%s", "");
}

/* ---- files of the run folder ---- */

/* put seed/NODE.img LEN + bytes: a seed image of a node of this host,
 * made by the controller (cloud-localds there). */
/* The node of this host that rel (DIR/NODE.EXT) is for: its index, or
 * -1. */
static int put_node(const struct remote_agent *a, const char *rel,
		    const char *dir, const char *ext)
{
	size_t d = strlen(dir);

	for (size_t i = 0; i < a->t->n_nodes; i++) {
		size_t n = strlen(a->t->nodes[i].name);

		if (a->t->nodes[i].host == a->host && !strncmp(rel, dir, d) &&
		    rel[d] == '/' && !strncmp(rel + d + 1,
					      a->t->nodes[i].name, n) &&
		    !strcmp(rel + d + 1 + n, ext))
			return (int)i;
	}
	return -1;
}

/*
 * A node's overlay arrives as a tar of its folder: unpacked into
 * overlay/NODE (which its domain shares), then dropped. GNU tar keeps
 * every member inside that folder (no leading '/', no '..'), and owns
 * what it writes (no owner from the archive).
 */
static int unpack_overlay(const struct remote_agent *a, const char *tar,
			  int node)
{
	char dir[PATH_MAX + 64];
	char *argv[] = { "tar", "--extract", "--no-same-owner", "--file",
			 (char *)tar, "--directory", dir, NULL };
	int rc;

	snprintf(dir, sizeof(dir), "%s/overlay/%s", a->run_dir,
		 a->t->nodes[node].name);
	files_rm_tree(dir);
	rc = mkdir(dir, 0755) ? -1 : spawn_run(argv, NULL, 120000);
	unlink(tar);
	return rc;
}

static int v_put(struct remote_agent *a, const struct remote_msg *m, int out)
{
	char path[PATH_MAX + 64], buf[65536];
	const char *rel = m->word[1];
	int seed = put_node(a, rel, "seed", ".img");
	int overlay = put_node(a, rel, "overlay", ".tar");
	bool ok = seed >= 0 || overlay >= 0;
	struct errbuf why;
	uint64_t left;
	int fd = -1;

	if (remote_number(m->word[2], REMOTE_PUT_MAX, &left)) {
		ERR("put: LEN must be 0-%u", REMOTE_PUT_MAX);
		return -1;	/* the bytes cannot be told from requests */
	}
	if (overlay >= 0) {
		snprintf(path, sizeof(path), "%s/overlay", a->run_dir);
		if (mkdir(path, 0755) && errno != EEXIST)
			ok = false;
	}
	if (ok) {
		snprintf(path, sizeof(path), "%s/%s", a->run_dir, rel);
		unlink(path);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_CLOEXEC, 0644);
	}
	/* The bytes are read whatever is wrong. */
	while (left) {
		size_t take = left < sizeof(buf) ? (size_t)left : sizeof(buf);

		if (remote_read_bytes(a->in, buf, take, &why))
			return -1;
		if (fd >= 0 && write(fd, buf, take) != (ssize_t)take) {
			close(fd);
			fd = -1;
			ok = false;
		}
		left -= take;
	}
	if (fd >= 0 && close(fd))
		ok = false;
	if (!ok)
		return ERR("put: %s is no seed image or overlay of a node of "
			   "this host, or cannot be written", rel);
	if (overlay >= 0 && unpack_overlay(a, path, overlay))
		return ERR("put: %s: tar cannot unpack it", rel);
	return OK("%s", "");
}

/* A path relative to the run folder: words of REMOTE_WORD_CHARS, no
 * empty, "." or ".." component. */
static bool rel_ok(const char *rel)
{
	const char *p = rel;

	if (!remote_word_ok(rel) || rel[0] == '/')
		return false;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (!n || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += n;
		if (*p == '/' && !*++p)
			return false;
	}
	return true;
}

/* Opens rel under dir, following no link on the way. */
static int open_beneath(const char *dir, const char *rel)
{
	char buf[REMOTE_WORD_MAX + 1], *save = NULL, *part;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);

	snprintf(buf, sizeof(buf), "%s", rel);
	for (part = strtok_r(buf, "/", &save); part && fd >= 0;) {
		char *next = strtok_r(NULL, "/", &save);
		int flags = O_RDONLY | O_NOFOLLOW |
			    (next ? O_DIRECTORY : O_NONBLOCK);
		int sub = openat(fd, part, flags | O_CLOEXEC);

		close(fd);
		fd = sub;
		part = next;
	}
	return fd;
}

/* get PATH [OFFSET MAX]: the file, or at most MAX of its bytes from
 * OFFSET (none past its end): a file that grows is read in parts. */
static int v_get(struct remote_agent *a, const struct remote_msg *m, int out)
{
	uint64_t off = 0, max = REMOTE_DATA_MAX;
	struct stat sb;
	char buf[65536];
	off_t left;
	int fd;

	if (!rel_ok(m->word[1]))
		return ERR("'%s' is no path inside the run folder", m->word[1]);
	if (m->n == 3 || (m->n == 4 &&
	    (remote_number(m->word[2], INT64_MAX, &off) ||
	     remote_number(m->word[3], REMOTE_DATA_MAX, &max))))
		return ERR("usage: get PATH [OFFSET MAX] (MAX at most %u)",
			   REMOTE_DATA_MAX);
	fd = open_beneath(a->run_dir, m->word[1]);
	if (fd < 0)
		return ERR("%s: %s", m->word[1], strerror(errno));
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) ||
	    (m->n == 2 && (uint64_t)sb.st_size > REMOTE_DATA_MAX)) {
		close(fd);
		return ERR("%s is no regular file of at most %u bytes",
			   m->word[1], REMOTE_DATA_MAX);
	}
	/* The size is fixed now; a file that grows is cut there. */
	left = (uint64_t)sb.st_size <= off ? 0 : sb.st_size - (off_t)off;
	if ((uint64_t)left > max)
		left = (off_t)max;
	if (OK("%lld", (long long)left) ||
	    (left && lseek(fd, (off_t)off, SEEK_SET) < 0)) {
		close(fd);
		return -1;
	}
	while (left > 0) {
		ssize_t n = read(fd, buf, (size_t)left < sizeof(buf) ?
					  (size_t)left : sizeof(buf));

		if (n <= 0) {		/* shrunk: zeros, the count holds */
			memset(buf, 0, sizeof(buf));
			n = left < (off_t)sizeof(buf) ? left :
							(off_t)sizeof(buf);
		}
		if (remote_write_all(out, buf, (size_t)n)) {
			close(fd);
			return -1;
		}
		left -= n;
	}
	close(fd);
	return 0;
}

/* unlink share/NODE/exec-PID.out|err: what `mstlab exec` left in the
 * share of a node of this host, and nothing else. */
static int v_unlink(struct remote_agent *a, const struct remote_msg *m,
		    int out)
{
	const char *rel = m->word[1], *name, *ext;
	char dir[TOPO_NODE_NAME_MAX + 8];
	bool node = false;
	size_t n, digits;
	int fd, rc;

	name = strrchr(rel, '/');
	n = name ? (size_t)(name - rel) : 0;
	for (size_t i = 0; i < a->t->n_nodes && !node; i++)
		node = a->t->nodes[i].host == a->host && n > 6 &&
		       !strncmp(rel, "share/", 6) &&
		       strlen(a->t->nodes[i].name) == n - 6 &&
		       !strncmp(rel + 6, a->t->nodes[i].name, n - 6);
	digits = node ? strspn(name + 1 + 5, "0123456789") : 0;
	ext = node ? name + 1 + 5 + digits : "";
	if (!node || strncmp(name + 1, "exec-", 5) || !digits ||
	    digits > 10 || (strcmp(ext, ".out") && strcmp(ext, ".err")))
		return ERR("'%s' is no exec output of a node of this host "
			   "(share/NODE/exec-PID.out|err)", rel);
	snprintf(dir, sizeof(dir), "%.*s", (int)n, rel);
	fd = open_beneath(a->run_dir, dir);
	rc = fd < 0 ? -1 : unlinkat(fd, name + 1, 0);
	if (rc) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return ERR("%s: %s", rel, strerror(e));
	}
	close(fd);
	return OK("%s", "");
}

static struct {
	int out, failed;
	size_t n, skip;
} walk;

static int walk_one(const char *path, const struct stat *sb, int type,
		    struct FTW *ftw)
{
	const char *rel = path + walk.skip;

	(void)ftw;
	if (type != FTW_F || !S_ISREG(sb->st_mode) || !rel_ok(rel))
		return 0;
	if (say(walk.out, "info", "file %lld %s", (long long)sb->st_size,
		rel)) {
		walk.failed = 1;
		return 1;
	}
	walk.n++;
	return 0;
}

static int v_files(struct remote_agent *a, const struct remote_msg *m,
		   int out)
{
	(void)m;
	walk.out = out;
	walk.failed = 0;
	walk.n = 0;
	walk.skip = strlen(a->run_dir) + 1;
	if (nftw(a->run_dir, walk_one, 16, FTW_PHYS) && !walk.failed)
		return ERR("cannot list %s: %s", a->run_dir, strerror(errno));
	return walk.failed ? -1 : OK("%zu", walk.n);
}

/* Teardown's lines, each as info. */
static int v_down(struct remote_agent *a, const struct remote_msg *m,
		  int out)
{
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *log = open_memstream(&text, &len);
	int left;

	(void)m;
	if (!log)
		return ERR("out of memory");
	left = state_teardown(a->run_dir, a->ops, log);
	fclose(log);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (say(out, "info", "%s", line)) {
			free(text);
			return -1;
		}
	free(text);
	a->n_caps = 0;
	if (left < 0)
		return ERR("cannot read %s/state", a->run_dir);
	return OK("%d", left);
}

/* ---- what hosts check asks (host_probe.h) ---- */

/* host: which of the lab's hosts this one is, without a run (a check). */
static int v_host(struct remote_agent *a, const struct remote_msg *m,
		  int out)
{
	int h;

	if (a->have_run)
		return ERR("a run is open: its host is set");
	h = other_host(a, m->word[1], out);
	if (h < 0)
		return h == -1 ? 0 : -1;
	a->host = (unsigned)h;
	a->have_host = true;
	return OK("%s", "");
}

/* tools: where the programs a lab runs here are in this agent's PATH. */
static int v_tools(struct remote_agent *a, const struct remote_msg *m,
		   int out)
{
	char path[HOST_TOOLS][PATH_MAX];

	(void)a;
	(void)m;
	for (int i = 0; i < HOST_TOOLS; i++)
		if (!host_which(host_tool_name[i], path[i], sizeof(path[i])) ||
		    !remote_word_ok(path[i]))
			snprintf(path[i], sizeof(path[i]), "%s",
				 path[i][0] ? "found" : "-");
	return OK("%s %s %s", path[0], path[1], path[2]);
}

/*
 * udp-probe listen ADDRESS TOKEN: this host's address bound at the VXLAN
 * port for 2 s at most, waiting for TOKEN; udp-probe send ADDRESS TOKEN:
 * TOKEN ten times in 1 s from this host's address to another host's.
 */
static int v_udp_probe(struct remote_agent *a, const struct remote_msg *m,
		       int out)
{
	const char *own = a->t->hosts[a->host].address, *to = m->word[2];
	bool listen = !strcmp(m->word[1], "listen");
	char why[160], busy[256], from[64];
	int h = host_of_address(a, to), fd, n;

	if (!listen && strcmp(m->word[1], "send"))
		return ERR("usage: udp-probe listen|send ADDRESS TOKEN");
	if (!host_probe_token_ok(m->word[3]))
		return ERR("a token is 16-%d lowercase hex digits",
			   HOST_PROBE_TOKEN_MAX);
	if (!own[0])
		return ERR("host %s has no address in lab %s",
			   a->t->hosts[a->host].name, a->t->name);
	if (listen && h != (int)a->host)
		return ERR("%s is not this host's address (%s)", to, own);
	if (!listen && (h < 0 || h == (int)a->host))
		return ERR("%s is the address of no other host of lab %s", to,
			   a->t->name);
	if (!a->probe_port)
		return ERR("%s", "this agent probes nothing");
	if (!listen) {
		n = host_probe_send(own, to, a->probe_port, m->word[3], 10,
				    100, NULL, why, sizeof(why));
		return n < 0 ? ERR("%s", why) : OK("sent %d", n);
	}
	fd = host_probe_bind(own, a->probe_port, busy, sizeof(busy), why,
			     sizeof(why));
	if (fd == -2)
		return OK("busy %s", busy[0] && remote_word_ok(busy) ? busy :
			  "-");
	if (fd < 0)
		return ERR("%s", why);
	n = host_probe_wait(fd, m->word[3], 2000, from, sizeof(from));
	if (n < 0)
		return ERR("receiving on %s:%u: %s", own, a->probe_port,
			   strerror(errno));
	return n ? OK("received %s", from) : OK("%s", "none");
}

/* ---- dispatch ---- */

static int v_clock(struct remote_agent *a, const struct remote_msg *m,
		   int out)
{
	(void)m;
	return OK("%" PRId64, a->clock_ns());
}

/* The end: 1 after its answer. */
static int v_bye(struct remote_agent *a, const struct remote_msg *m, int out)
{
	(void)m;
	a->done = true;
	return OK("%s", "") ? -1 : 1;
}

struct verb {
	const char *name;
	size_t min, max;	/* words after the verb */
	/* What it needs first: the topology, which host this is (host,
	 * run or attach: a check asks these without a run), a run. */
	bool topology, host, run;
	int (*fn)(struct remote_agent *a, const struct remote_msg *m, int out);
	const char *usage;
};

static const struct verb verbs[] = {
	{ "hello", 1, 1, false, false, false, v_hello, "hello VERSION" },
	{ "topology", 1, 1, false, false, false, v_topology, "topology LEN" },
	{ "run", 2, 2, true, false, false, v_run, "run HOST RUN" },
	{ "attach", 2, 2, true, false, false, v_run, "attach HOST RUN" },
	{ "bridge", 1, 1, true, false, true, v_bridge, "bridge NAME" },
	{ "tunnel", 1, 1, true, false, true, v_tunnel, "tunnel NAME" },
	{ "port", 1, 1, true, false, true, v_port, "port NAME" },
	{ "forward", 2, 3, true, false, true, v_forward,
	  "forward on|off|deaf IFNAME [IFNAME]" },
	{ "remove", 1, 1, true, false, true, v_remove, "remove NAME" },
	{ "mtu", 1, 1, true, true, false, v_mtu, "mtu ADDRESS" },
	{ "capture", 1, 1, true, false, true, v_capture, "capture BRIDGE" },
	{ "listening", 3, 3, true, false, true, v_listening,
	  "listening BRIDGE PID START" },
	{ "alive", 2, 2, true, false, true, v_alive_stop, "alive PID START" },
	{ "stop", 2, 2, true, false, true, v_alive_stop, "stop PID START" },
	{ "images", 0, 0, true, true, false, v_images, "images" },
	{ "virt", 0, 0, true, false, true, v_virt, "virt" },
	{ "template", 2, 2, true, false, true, v_template,
	  "template NODE qemu|kvm" },
	{ "clone", 1, 1, true, false, true, v_clone, "clone NODE" },
	{ "awaken", 1, 1, true, false, true, v_awaken, "awaken NODE" },
	{ "clock", 0, 0, false, false, false, v_clock, "clock" },
	{ "files", 0, 0, true, false, true, v_files, "files" },
	{ "get", 1, 3, true, false, true, v_get, "get PATH [OFFSET MAX]" },
	{ "unlink", 1, 1, true, false, true, v_unlink,
	  "unlink share/NODE/exec-PID.out|err" },
	{ "put", 2, 2, true, false, true, v_put,
	  "put seed/NODE.img|overlay/NODE.tar LEN" },
	{ "down", 0, 0, true, false, true, v_down, "down" },
	{ "host", 1, 1, true, false, false, v_host, "host HOST" },
	{ "tools", 0, 0, false, false, false, v_tools, "tools" },
	{ "udp-probe", 3, 3, true, true, false, v_udp_probe,
	  "udp-probe listen|send ADDRESS TOKEN" },
	{ "bye", 0, 0, false, false, false, v_bye, "bye" },
};

int remote_agent_line(struct remote_agent *a, struct remote_reader *r,
		      const char *line, size_t len, int out)
{
	const struct verb *v = NULL;
	struct remote_msg m;
	struct errbuf why;
	const char *w;

	if (remote_parse_request(line, len, &m, &why))
		return ERR("%s", why.msg);
	w = m.word[0];
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (!strcmp(verbs[i].name, w))
			v = &verbs[i];
	if (!v)
		return ERR("unknown verb '%.40s'", w);
	if (m.n - 1 < v->min || m.n - 1 > v->max) {
		/* A payload follows topology's and put's LEN: without
		 * it, the stream cannot be followed. */
		ERR("usage: %s", v->usage);
		return !strcmp(w, "topology") || !strcmp(w, "put") ? -1 : 0;
	}
	if (v->topology && !a->t && strcmp(w, "topology")) {
		ERR("%s: send the topology first", w);
		return !strcmp(w, "put") ? -1 : 0;
	}
	if (v->host && !a->have_host) {
		ERR("%s: say which host this is first (host, run or attach)",
		    w);
		return 0;
	}
	if (v->run && !a->have_run) {
		ERR("%s: open a run first (run or attach)", w);
		return !strcmp(w, "put") ? -1 : 0;
	}
	a->in = r;
	return v->fn(a, &m, out);
}

int remote_agent_serve(struct remote_agent *a, int in, int out,
		       int timeout_ms)
{
	struct remote_reader r;
	char line[REMOTE_LINE_MAX];
	struct errbuf why;

	remote_reader_init(&r, in, timeout_ms);
	for (;;) {
		long n = remote_read_line(&r, line, &why);
		int rc;

		if (n < 0) {
			bool eof = !strcmp(why.msg, "end of input");

			if (!eof)
				say(out, "err", "%s: the session ends",
				    why.msg);
			return eof ? 0 : -1;
		}
		rc = remote_agent_line(a, &r, line, (size_t)n, out);
		if (rc)
			return rc > 0 ? 0 : -1;
	}
}
