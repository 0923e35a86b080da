// SPDX-License-Identifier: MIT
#include "lab.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "lab_hosts.h"
#include "lab_provenance.h"
#include "remote.h"
#include "registry.h"
#include "seed.h"
#include "test_hook.h"

volatile sig_atomic_t lab_interrupted;

static int copy_file(const char *from, const char *to, struct errbuf *err)
{
	char buf[8192];
	size_t n;
	FILE *in = fopen(from, "re"), *out = in ? fopen(to, "we") : NULL;
	int rc = 0;

	if (!in || !out)
		rc = errbuf_set(err, "cannot copy %s to %s: %s", from, to,
				strerror(errno));
	while (!rc && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = errbuf_set(err, "cannot write %s", to);
	if (in)
		fclose(in);
	if (out && fclose(out) && !rc)
		rc = errbuf_set(err, "cannot write %s", to);
	return rc;
}

/* results/<lab>-YYYYmmdd-HHMMSS[-N], created empty. */
static int new_run_dir(struct lab *l, struct errbuf *err)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	for (int i = 1; i < 100; i++) {
		if (i == 1)
			snprintf(l->run_dir, sizeof(l->run_dir), "%s/%s-%s",
				 l->results, l->t->name, stamp);
		else
			snprintf(l->run_dir, sizeof(l->run_dir), "%s/%s-%s-%d",
				 l->results, l->t->name, stamp, i);
		if (mkdir(l->run_dir, 0755) == 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	l->run_dir[0] = 0;	/* none: the run never started */
	return errbuf_set(err, "cannot create a run folder in %s: %s",
			  l->results, strerror(errno));
}

/* The run folder's state file and event log, opened for appending. */
static int open_run_files(struct lab *l, struct errbuf *err)
{
	if (state_open(&l->st, l->run_dir, err))
		return -1;
	if (events_open(&l->ev, l->run_dir))
		return errbuf_set(err, "cannot write %s/events", l->run_dir);
	l->pp.run_dir = l->run_dir;
	return 0;
}

/* What a new run and an attached one both start from. */
static int lab_base(struct lab *l, const struct topo *t,
		    const struct lab_ops *ops, const char *results, FILE *log,
		    struct errbuf *err)
{
	l->t = t;
	l->ops = ops;
	l->log = log;
	l->st.fd = -1;
	l->ev.f = NULL;
	snprintf(l->results, sizeof(l->results), "%s", results);
	if (plan_build(t, &l->p))
		return errbuf_set(err, "cannot plan lab %s", t->name);
	l->links = calloc(t->n_links ? t->n_links : 1, sizeof(*l->links));
	l->nodes = calloc(t->n_nodes ? t->n_nodes : 1, sizeof(*l->nodes));
	if (!l->links || !l->nodes)
		return errbuf_set(err, "out of memory");
	for (size_t i = 0; i < t->n_nodes; i++)
		l->nodes[i].chan = -1;
	return 0;
}

int lab_init(struct lab *l, const struct topo *t, const struct lab_ops *ops,
	     const char *results, FILE *log, struct errbuf *err)
{
	static const char *const subs[] = { "pcap", "console", "seed", "qga",
					    "share" };
	char path[PATH_MAX + 32];

	if (lab_base(l, t, ops, results, log, err) || files_mkdir(results, NULL, err) ||
	    new_run_dir(l, err))
		return -1;
	if (l->on_run_dir)
		l->on_run_dir(l->on_run_dir_ctx, l->run_dir);
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (files_mkdir(l->run_dir, subs[i], err))
			return -1;
	for (size_t i = 0; i < t->n_nodes; i++) {
		snprintf(path, sizeof(path), "share/%s", t->nodes[i].name);
		if (files_mkdir(l->run_dir, path, err))
			return -1;
	}
	snprintf(path, sizeof(path), "%s/topology.yaml", l->run_dir);
	if (copy_file(t->file, path, err) ||
	    registry_claim(t->name, l->run_dir, err) ||
	    open_run_files(l, err))
		return -1;
	test_hook_pause("registered");
	return 0;
}

int lab_find_run(const struct topo *t, const struct plan *p,
		 const struct lab_ops *ops, char *run_dir, size_t len)
{
	size_t label = strlen(PLAN_RUN_LABEL), lab = strlen(t->name);
	char text[PATH_MAX + 64];
	struct errbuf err;

	if (registry_find(t->name, run_dir, len) == 0)
		return 0;
	for (size_t i = 0; i < t->n_nodes; i++) {
		const char *dir = text + label, *base;

		if (ops->hv->running(ops->hv_ctx, p->nodes[i].domain,
				     &err) != 1 ||
		    ops->hv->description(ops->hv_ctx, p->nodes[i].domain,
					 text, sizeof(text), &err) ||
		    strncmp(text, PLAN_RUN_LABEL, label))
			continue;
		base = strrchr(dir, '/');
		if (dir[0] == '/' && base && !strncmp(base + 1, t->name, lab) &&
		    base[1 + lab] == '-' && strlen(dir) < len) {
			strcpy(run_dir, dir);
			return 0;
		}
	}
	return -1;
}

int lab_attach(struct lab *l, const struct topo *t, const struct lab_ops *ops,
	       FILE *log, struct errbuf *err)
{
	if (lab_base(l, t, ops, "", log, err))
		return -1;
	if (lab_find_run(t, l->p, ops, l->run_dir, sizeof(l->run_dir)))
		return errbuf_set(err, "lab %s is not up", t->name);
	return open_run_files(l, err);
}

/* A clone's identity channel, once it took its identity. */
static void close_chan(struct lab *l, size_t i)
{
	if (l->nodes && l->nodes[i].chan >= 0)
		l->ops->chan->close(l->ops->chan_ctx, l->nodes[i].chan);
	if (l->nodes)
		l->nodes[i].chan = -1;
}

void lab_fini(struct lab *l)
{
	for (size_t i = 0; l->t && l->nodes && i < l->t->n_nodes; i++)
		close_chan(l, i);
	state_close(&l->st);
	events_close(&l->ev);
	plan_free(l->p);
	l->p = NULL;
	free(l->links);
	l->links = NULL;
	free(l->nodes);
	l->nodes = NULL;
}

static void console_tail(struct lab *l, const char *node);

/* A recorded resource that could not be created (see state.h). */
static void forget(struct lab *l, const char *kind, const char *name)
{
	struct errbuf err;

	state_add(&l->st, &err, "forget %s %s", kind, name);
}

/* On host h of link i: its bridge, and its tunnel when it crosses. A
 * record on this host's state for this host's; another host's agent
 * records its own. */
static int link_on_host(struct lab *l, size_t i, unsigned h,
			struct errbuf *err)
{
	const struct plan_link *pl = &l->p->links[i];
	const struct lab_ops *o = lab_host_ops(l, h, err);
	char owner[TOPO_LAB_NAME_MAX + 16];
	bool here = h == TOPO_LOCAL_HOST;
	int rc;

	if (!o)
		return -1;
	snprintf(owner, sizeof(owner), "mstlab lab %s", l->t->name);
	if (here && state_add(&l->st, err, "bridge %s", pl->bridge))
		return -1;
	rc = o->link->create(o->link_ctx, pl->bridge, owner, err);
	if (rc < 0) {
		if (here)
			forget(l, "bridge", pl->bridge);
		return -1;
	}
	if (rc == 1)
		fprintf(l->log, "mstlab: %s was left by a run of %s "
			"that died with its state: replaced\n",
			pl->bridge, l->t->name);
	if (!pl->crosses)
		return 0;
	{
		unsigned other = pl->host[0] == h ? pl->host[1] : pl->host[0];
		const char *local = l->t->hosts[h].address,
			   *remote = l->t->hosts[other].address;

		if (here && state_add(&l->st, err, "tunnel %s", pl->tunnel))
			return -1;
		if (o->link->tunnel(o->link_ctx, pl->tunnel, pl->bridge,
				    pl->vni, local, remote, err)) {
			if (here)
				forget(l, "tunnel", pl->tunnel);
			return -1;
		}
	}
	return 0;
}

/* A capture of link i on host h into rel (this host's run folder; the
 * agent's for another host). */
static int capture_on(struct lab *l, size_t i, unsigned h, const char *rel,
		      pid_t *pid, uint64_t *start, struct errbuf *err)
{
	const struct plan_link *pl = &l->p->links[i];
	const struct lab_ops *o = lab_host_ops(l, h, err);
	char pcap[PATH_MAX + 200];

	if (!o)
		return -1;
	snprintf(pcap, sizeof(pcap), "%s/%s", l->run_dir, rel);
	if (h != TOPO_LOCAL_HOST)
		return o->cap->start(o->cap_ctx, pl->bridge, pcap, pid, start,
				     err);
	if (state_add(&l->st, err, "capture %s %s", pl->bridge, pcap) ||
	    o->cap->start(o->cap_ctx, pl->bridge, pcap, pid, start, err) ||
	    state_add(&l->st, err, "capture-pid %s %d %llu", pl->bridge,
		      (int)*pid, (unsigned long long)*start))
		return -1;
	return 0;
}

static int listening_on(struct lab *l, size_t i, unsigned h, const char *rel,
			pid_t pid, uint64_t start, struct errbuf *err)
{
	const struct lab_ops *o = lab_host_ops(l, h, err);
	char pcap[PATH_MAX + 200];

	snprintf(pcap, sizeof(pcap), "%s/%s", l->run_dir, rel);
	return !o ? -1 : o->cap->listening(o->cap_ctx, l->p->links[i].bridge,
					   pcap, pid, start, err);
}

static int up_links(struct lab *l, struct errbuf *err)
{
	for (size_t i = 0; i < l->t->n_links; i++) {
		const struct plan_link *pl = &l->p->links[i];
		struct lab_link_rt *rt = &l->links[i];

		if (link_on_host(l, i, pl->host[0], err) ||
		    (pl->crosses && link_on_host(l, i, pl->host[1], err)) ||
		    capture_on(l, i, pl->capture_host, pl->pcap, &rt->cap_pid,
			       &rt->cap_start, err) ||
		    (pl->crosses &&
		     capture_on(l, i, pl->far_host, pl->pcap_far, &rt->far_pid,
				&rt->far_start, err)))
			return -1;
	}
	test_hook_pause("captures");
	/* Started all at once, as tcpdump takes a while to listen. */
	for (size_t i = 0; i < l->t->n_links; i++) {
		const struct plan_link *pl = &l->p->links[i];
		struct lab_link_rt *rt = &l->links[i];

		if (listening_on(l, i, pl->capture_host, pl->pcap, rt->cap_pid,
				 rt->cap_start, err) ||
		    (pl->crosses &&
		     listening_on(l, i, pl->far_host, pl->pcap_far,
				  rt->far_pid, rt->far_start, err)))
			return -1;
	}
	fprintf(l->log, "mstlab: %zu link%s up, each captured to %s/pcap/\n",
		l->t->n_links, l->t->n_links == 1 ? "" : "s", l->run_dir);
	return 0;
}

/* A node's template, by its shape (template.h). */
static const char *node_tpl(const struct lab *l, size_t i)
{
	return l->nodes[i].tpl[0] ? l->nodes[i].tpl : NULL;
}

/* Without a template: cold, or (--boot template) an error. */
static int no_template(struct lab *l, const char *why, struct errbuf *err)
{
	if (l->boot == LAB_BOOT_TEMPLATE)
		return errbuf_set(err, "%s", why);
	fprintf(l->log, "mstlab: warning: %s: booting cold instead\n", why);
	return 0;
}

/* The template of every templated node, a missing one built: this
 * host's here, each other host's there (its own cache and files). */
static int lab_templates(struct lab *l, struct errbuf *err)
{
	char (*keys)[TPL_KEY_LEN + 1] = calloc(l->t->n_nodes ? l->t->n_nodes :
					       1, sizeof(*keys));
	struct errbuf why, far;
	int rc;

	if (!keys)
		return errbuf_set(err, "out of memory");
	rc = tpl_prepare(l->ops, l->p, &l->pp, l->tpl_cache, TOPO_LOCAL_HOST,
			 &l->st, l->log, keys, &why);
	for (size_t i = 0; i < l->t->n_nodes; i++)
		if (l->t->nodes[i].host == TOPO_LOCAL_HOST)
			memcpy(l->nodes[i].tpl, keys[i], sizeof(keys[i]));
	free(keys);
	if (rc && no_template(l, why.msg, err))
		return -1;
	if (lab_spans_hosts(l) && lab_hosts_templates(l, &far))
		return no_template(l, far.msg, err);
	return 0;
}

struct starter {
	struct lab *l;
	size_t node;
	struct sbuf xml;
	struct errbuf err;
	bool started;		/* the domain is ours, whatever came after */
	pthread_t thread;
	int rc;
};

/* The node's taps become wire ports (ops.h: setup_port). */
static int setup_ports(struct lab *l, size_t i, struct errbuf *err)
{
	const struct lab_ops *o = lab_node_ops(l, i, err);

	if (!o)
		return -1;
	for (size_t j = 0; j < l->t->nodes[i].n_ports; j++)
		if (o->link->setup_port(o->link_ctx, l->p->nodes[i].nic[j].tap,
					err))
			return -1;
	return 0;
}

/*
 * A cold node starts. A clone starts paused, its identity channel
 * connected, loads its template's state, has its ports set up, then runs
 * and is told who it is: each clone on its own, while the other domains
 * are still starting.
 */
static void *start_domain(void *arg)
{
	struct starter *s = arg;
	struct lab *l = s->l;
	const struct lab_ops *o = lab_node_ops(l, s->node, &s->err);
	const char *tpl = node_tpl(l, s->node);
	char path[PATH_MAX + 300];

	if (!o) {
		s->rc = -1;
		return NULL;
	}
	s->rc = o->hv->start(o->hv_ctx, sbuf_str(&s->xml),
			     tpl ? HV_START_PAUSED : 0, &s->err);
	s->started = !s->rc;
	if (s->started)
		test_hook_pause("domain-started");
	if (s->rc || !tpl)
		return NULL;
	/* Another host's clone: its agent loads it and tells it who it
	 * is (its channel and the state file are there). */
	if (o->remote) {
		const char *name = l->t->nodes[s->node].name;

		if (remote_clone(o->remote, name, false, &s->err) ||
		    setup_ports(l, s->node, &s->err) ||
		    remote_clone(o->remote, name, true, &s->err))
			s->rc = -1;
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/qga/%s.id", l->run_dir,
		 l->t->nodes[s->node].name);
	l->nodes[s->node].chan = o->chan->connect(o->chan_ctx, path, &s->err);
	tpl_path(l->tpl_cache, tpl, "state", path, sizeof(path));
	if (l->nodes[s->node].chan < 0 ||
	    tpl_load(o, l->p->nodes[s->node].domain, path, &s->err) ||
	    setup_ports(l, s->node, &s->err) ||
	    tpl_awaken(o, l->p, (int)s->node, l->nodes[s->node].chan,
		       &s->err))
		s->rc = -1;
	return NULL;
}

/* Every node's taps and domain go on record first. */
static int record_nodes(struct lab *l, struct starter *s, struct errbuf *err)
{
	for (size_t i = 0; i < l->t->n_nodes; i++) {
		const struct topo_node *tn = &l->t->nodes[i];
		const struct plan_node *pn = &l->p->nodes[i];
		struct plan_params pp = tn->host == TOPO_LOCAL_HOST ? l->pp :
					l->hpp[tn->host];
		/* Another host's: its name after (state.h). */
		const char *at = tn->host == TOPO_LOCAL_HOST ? "" :
				 l->t->hosts[tn->host].name;
		char ram[PATH_MAX];
		enum plan_err pe;

		for (size_t j = 0; j < tn->n_ports; j++)
			if (state_add(&l->st, err, "tap %s%s%s", pn->nic[j].tap,
				      at[0] ? " " : "", at))
				return -1;
		if (state_add(&l->st, err, "domain %s%s%s", pn->domain,
			      at[0] ? " " : "", at))
			return -1;
		if (node_tpl(l, i)) {
			if (at[0])
				snprintf(ram, sizeof(ram), "%s",
					 l->nodes[i].tpl_ram);
			else
				tpl_path(l->tpl_cache, node_tpl(l, i), "ram",
					 ram, sizeof(ram));
			pp.boot = PLAN_BOOT_CLONE;
			pp.template_ram = ram;
		}
		pe = plan_domain_xml(l->p, &pp, (int)i, &s[i].xml);
		if (pe)
			return errbuf_set(err, "%s: %s", tn->name,
					  plan_strerror(pe));
	}
	return 0;
}

/* Runs fn on every starter, each in a thread. */
static void run_all(struct starter *s, size_t n, void *(*fn)(void *))
{
	bool *threaded = calloc(n ? n : 1, sizeof(*threaded));

	for (size_t i = 0; i < n; i++) {
		if (threaded)
			threaded[i] = !pthread_create(&s[i].thread, NULL, fn,
						      &s[i]);
		if (!threaded || !threaded[i])
			fn(&s[i]);
	}
	for (size_t i = 0; threaded && i < n; i++)
		if (threaded[i])
			pthread_join(s[i].thread, NULL);
	free(threaded);
}

/*
 * Starts the domains all at once: libvirt takes a while per domain
 * (QEMU start, QMP handshake) and its API is thread-safe.
 */
static int up_nodes(struct lab *l, struct errbuf *err)
{
	size_t n = l->t->n_nodes;
	struct starter *s = calloc(n ? n : 1, sizeof(*s));
	int rc = 0;

	if (!s)
		return errbuf_set(err, "out of memory");
	for (size_t i = 0; i < n; i++) {
		s[i].l = l;
		s[i].node = i;
		sbuf_init(&s[i].xml);
	}
	rc = record_nodes(l, s, err);
	if (!rc)
		test_hook_pause("domains");
	for (size_t i = 0; !rc && i < n; i++) {
		unsigned h = l->t->nodes[i].host;

		if (node_tpl(l, i))
			fprintf(l->log, "mstlab: %s from template %s%s%s (%s)\n",
				l->t->nodes[i].name, node_tpl(l, i),
				h ? " on host " : "", h ? l->t->hosts[h].name : "",
				l->p->nodes[i].domain);
		else
			fprintf(l->log, "mstlab: %s booting (%s)\n",
				l->t->nodes[i].name, l->p->nodes[i].domain);
	}
	if (!rc)
		run_all(s, n, start_domain);
	for (size_t i = 0; i < n; i++) {
		const struct plan_node *pn = &l->p->nodes[i];

		if (!s[i].started) {
			/* Not started: its name and taps are not ours to
			 * remove. */
			forget(l, "domain", pn->domain);
			for (size_t j = 0; j < l->t->nodes[i].n_ports; j++)
				forget(l, "tap", pn->nic[j].tap);
		}
		if (!rc && s[i].rc)
			rc = errbuf_set(err, "%s: %s", l->t->nodes[i].name,
					s[i].err.msg);
	}
	for (size_t i = 0; i < n; i++)
		sbuf_free(&s[i].xml);
	free(s);
	return rc;
}

int lab_up(struct lab *l, struct errbuf *err)
{
	const struct lab_ops *o = l->ops;

	events_run_start(&l->ev, l->t->name);
	if (lab_hosts_up(l, err))
		return -1;
	/* Each host's accelerator is known now: before anything can fail,
	 * so that the verdicts of a lab that did not come up say it too. */
	if (lab_provenance_save(l, err))
		return -1;
	if (seed_make_all(l->p, l->run_dir, TOPO_LOCAL_HOST, err))
		return -1;
	if (up_links(l, err))
		return -1;
	test_hook_pause("links");
	if (lab_interrupted)
		return errbuf_set(err, "interrupted");
	if (l->boot != LAB_BOOT_COLD && lab_templates(l, err))
		return -1;
	if (up_nodes(l, err))
		return -1;
	/* The taps exist once their domains run; a guest that died at once
	 * (libvirt then removes its taps) is the likelier story. A clone's
	 * were set up before it ran (start_domain). */
	for (size_t i = 0; i < l->t->n_nodes; i++) {
		struct errbuf why;

		if (node_tpl(l, i) || !setup_ports(l, i, err))
			continue;
		o = lab_node_ops(l, i, &why);
		if (!o || o->hv->running(o->hv_ctx, l->p->nodes[i].domain,
					 &why) == 1)
			return -1;
		console_tail(l, l->t->nodes[i].name);
		return errbuf_set(err, "%s stopped right after it started "
				  "(its console is above)", l->t->nodes[i].name);
	}
	return 0;
}

static void console_tail(struct lab *l, const char *node)
{
	char path[PATH_MAX + 64], lines[8][256];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/console/%s.log", l->run_dir, node);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(lines[n % 8], sizeof(lines[0]), f))
		n++;
	fclose(f);
	for (int i = n > 8 ? n - 8 : 0; i < n; i++)
		fprintf(l->log, "  %s| %s", node, lines[i % 8]);
	fprintf(l->log, "  (whole console: %s)\n", path);
}

/*
 * The guest's user-data exit status, which it also writes to the share
 * (images/boot/run_user_data.c): -1 while there is none. Reading it
 * here costs the booting guests nothing, where asking
 * the agent to run cat forks a process in a guest and polls for it.
 */
static int seed_status(const struct lab *l, const char *node)
{
	char path[PATH_MAX + 300], line[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/share/%s/user-data.status",
		 l->run_dir, node);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f) || line[0] < '0' || line[0] > '9')
		line[0] = 0;
	fclose(f);
	/* Written but not complete yet: asked again next time. */
	return line[0] && strchr(line, '\n') ? atoi(line) : -1;
}

/* 1 ready, 0 not yet, -1 failed (reported). Whether the domain still
 * runs is asked only when @check_running (a libvirt call per node). */
static int node_ready(struct lab *l, size_t i, bool check_running)
{
	static char *const ud_log[] = { "tail", "-n", "15",
					"/run/mstlab/user-data.log", NULL };
	const char *dom = l->p->nodes[i].domain, *name = l->t->nodes[i].name;
	const struct lab_ops *o = lab_node_ops(l, i, &(struct errbuf){ "" });
	struct exec_result res;
	struct errbuf err;
	int status;

	if (!o) {
		fprintf(l->log, "mstlab: %s: its host cannot be reached\n",
			name);
		return -1;
	}
	if (check_running && o->hv->running(o->hv_ctx, dom, &err) != 1) {
		fprintf(l->log, "mstlab: %s stopped while booting\n", name);
		console_tail(l, name);
		return -1;
	}
	status = l->t->nodes[i].host == TOPO_LOCAL_HOST ?
		 seed_status(l, name) : lab_hosts_seed_status(l, i);
	/* Ready once configured and the agent answers. */
	if (status < 0 || agent_ping(o, dom, &err))
		return 0;
	if (status == 0)
		return 1;
	fprintf(l->log, "mstlab: %s: its configuration failed (exit %d):\n",
		name, status);
	if (!agent_exec(o, dom, ud_log, 5000, NULL, &res, &err))
		fprintf(l->log, "%s", res.out);
	exec_result_free(&res);
	return -1;
}

int lab_wait_ready(struct lab *l, unsigned timeout_ms, struct errbuf *err)
{
	const struct lab_ops *o = l->ops;
	long long start = o->now_ms(o->clock_ctx);
	size_t n = l->t->n_nodes, left = n;
	signed char *state = calloc(n ? n : 1, 1);
	unsigned pass = 0;

	err->msg[0] = 0;
	if (!state)
		return errbuf_set(err, "out of memory");
	/* Every 50 ms for the guest's word (a file), every 500 ms whether
	 * the domains still run. */
	while (left) {
		long long now = o->now_ms(o->clock_ctx);
		bool check_running = pass++ % 10 == 0;

		for (size_t i = 0; i < n && !lab_interrupted; i++) {
			if (state[i])
				continue;
			state[i] = (signed char)node_ready(l, i,
							   check_running);
			if (state[i] == 0)
				continue;
			left--;
			close_chan(l, i);
			if (state[i] > 0)
				fprintf(l->log, "mstlab: %s ready in %.1f s\n",
					l->t->nodes[i].name,
					(double)(o->now_ms(o->clock_ctx) -
						 start) / 1000);
		}
		if (lab_interrupted || !left || now - start > timeout_ms)
			break;
		if (pass == 1)
			test_hook_pause("booting");
		o->sleep_ms(o->clock_ctx, 50);
	}
	for (size_t i = 0; i < n; i++)
		if (state[i] <= 0 && !err->msg[0])
			errbuf_set(err, lab_interrupted ? "interrupted" :
				   state[i] < 0 ? "%s failed to come up" :
				   "%s not ready after %u s",
				   l->t->nodes[i].name, timeout_ms / 1000);
	free(state);
	if (err->msg[0])
		return -1;
	events_ready(&l->ev, (double)(o->now_ms(o->clock_ctx) - start) / 1000);
	fprintf(l->log, "mstlab: all %zu nodes ready in %.1f s\n", n,
		(double)(o->now_ms(o->clock_ctx) - start) / 1000);
	return 0;
}

int lab_health(struct lab *l)
{
	struct errbuf err;
	int bad = 0;

	for (size_t i = 0; i < l->t->n_links; i++) {
		const struct lab_ops *c = lab_host_ops(l,
			l->p->links[i].capture_host, &err);

		if (!c || !c->cap->alive(c->cap_ctx, l->links[i].cap_pid,
					 l->links[i].cap_start)) {
			fprintf(l->log, "mstlab: the capture of link %zu (%s) "
				"died: see %s/%s.log\n", i + 1,
				l->p->links[i].bridge, l->run_dir,
				l->p->links[i].pcap);
			bad++;
		}
	}
	for (size_t i = 0; i < l->t->n_nodes; i++) {
		const struct lab_ops *o = lab_node_ops(l, i, &err);

		if (!o || o->hv->running(o->hv_ctx, l->p->nodes[i].domain,
					 &err) != 1) {
			fprintf(l->log, "mstlab: node %s is no longer running\n",
				l->t->nodes[i].name);
			console_tail(l, l->t->nodes[i].name);
			bad++;
		}
	}
	return bad;
}

int lab_down(const char *lab, const char *run_dir, const struct lab_ops *ops,
	     FILE *log)
{
	int left;

	/* Its other hosts' parts open first: their domains and taps are
	 * this state's too. */
	lab_hosts_attach(run_dir, ops);
	left = state_teardown(run_dir, ops, log);

	/* Then the other hosts: their captures saw the domains' last
	 * frames; their files come back into this run folder. */
	if (left < 0 || left + lab_hosts_down(run_dir, ops, log))
		return -1;
	registry_release(lab, run_dir);
	return 0;
}

static int set_carrier(struct lab *l, const struct topo_end *e, bool up,
		       struct errbuf *err)
{
	struct sbuf x;
	int rc;

	sbuf_init(&x);
	rc = plan_nic_xml(l->p, e->node, e->port, up, &x);
	if (rc)
		errbuf_set(err, "%s", plan_strerror(rc));
	else {
		const struct lab_ops *o = lab_node_ops(l, (size_t)e->node,
						       err);

		rc = !o ? -1 : o->hv->set_link(o->hv_ctx,
					       l->p->nodes[e->node].domain,
					       sbuf_str(&x), err);
	}
	sbuf_free(&x);
	return rc ? -1 : 0;
}

struct carrier_job {
	struct lab *l;
	const struct topo_end *e;
	bool up;
	struct errbuf err;
	int rc;
};

static void *carrier_thread(void *arg)
{
	struct carrier_job *j = arg;

	j->rc = set_carrier(j->l, j->e, j->up, &j->err);
	return NULL;
}

/*
 * Both ends at once, like a cable pulled: one after the other, the far
 * end would stop sending tens of ms before the near end sees its carrier
 * go, and every failover would be measured that much slower.
 */
static int set_carriers(struct lab *l, const struct topo_link *tl, bool up,
			struct errbuf *err)
{
	struct carrier_job far = { l, &tl->end[1], up, { "" }, 0 };
	pthread_t tid;
	bool threaded = !pthread_create(&tid, NULL, carrier_thread, &far);
	int rc = set_carrier(l, &tl->end[0], up, err);

	if (threaded)
		pthread_join(tid, NULL);
	else
		far.rc = set_carrier(l, &tl->end[1], up, &far.err);
	if (!rc && far.rc)
		*err = far.err;
	return rc || far.rc ? -1 : 0;
}

static const char *end_tap(struct lab *l, const struct topo_end *e)
{
	return l->p->nodes[e->node].nic[e->port].tap;
}

/* What injecting took: the lab's share of a measured failover. */
static void took(struct lab *l, const struct topo_link *tl, const char *what,
		 int64_t start)
{
	fprintf(l->log, "mstlab: link%u %s at both ends in %.1f ms\n",
		tl->index, what, (double)(events_now() - start) / 1e6);
}

/*
 * A link's ports forwarding or not (silent failure), on each host of it:
 * both taps at once on one host; on two, one tap each, at once (the far
 * end in a thread), as set_carriers does. deaf: the end (0, 1) that
 * stops hearing the other (one way), -1 both ways.
 */
struct forward_job {
	struct lab *l;
	const struct topo_end *e;
	bool on;
	int deaf;		/* -1, or 0: this end's tap is the deaf one */
	bool skip;		/* one way, and this end is not deaf */
	struct errbuf err;
	int rc;
};

static void *forward_thread(void *arg)
{
	struct forward_job *j = arg;
	const struct lab_ops *o;
	const char *tap = end_tap(j->l, j->e);

	if (j->skip)
		return NULL;
	o = lab_node_ops(j->l, (size_t)j->e->node, &j->err);
	j->rc = !o ? -1 : o->link->port_forward(o->link_ctx, &tap, 1, j->on,
						 j->deaf, &j->err);
	return NULL;
}

static int link_forward(struct lab *l, const struct topo_link *tl, bool on,
			int deaf, struct errbuf *err)
{
	struct forward_job far = { .l = l, .e = &tl->end[1], .on = on,
				   .deaf = deaf == 1 ? 0 : -1,
				   .skip = deaf == 0 };
	struct forward_job near = { .l = l, .e = &tl->end[0], .on = on,
				    .deaf = deaf == 0 ? 0 : -1,
				    .skip = deaf == 1 };
	pthread_t tid;
	bool threaded;

	if (l->t->nodes[tl->end[0].node].host ==
	    l->t->nodes[tl->end[1].node].host) {
		const struct lab_ops *o = lab_node_ops(l, tl->end[0].node, err);
		const char *taps[2] = { end_tap(l, &tl->end[0]),
					end_tap(l, &tl->end[1]) };

		return !o ? -1 : o->link->port_forward(o->link_ctx, taps, 2, on,
						       deaf, err);
	}
	threaded = !pthread_create(&tid, NULL, forward_thread, &far);
	forward_thread(&near);
	if (threaded)
		pthread_join(tid, NULL);
	else
		forward_thread(&far);
	if (near.rc || far.rc)
		*err = near.rc ? near.err : far.err;
	return near.rc || far.rc ? -1 : 0;
}

int lab_link_at(const struct topo *t, const char *end, struct errbuf *why)
{
	char node[TOPO_NODE_NAME_MAX + 1];
	const char *colon = strchr(end, ':');
	int n, p;

	if (!colon || (size_t)(colon - end) >= sizeof(node))
		return errbuf_set(why, "'%.60s' is not NODE:PORT", end);
	memcpy(node, end, (size_t)(colon - end));
	node[colon - end] = 0;
	n = topo_node_find(t, node);
	if (n < 0)
		return errbuf_set(why, "%s has no node '%s'", t->file, node);
	p = topo_port_find(&t->nodes[n], colon + 1);
	if (p < 0)
		return errbuf_set(why, "node %s has no port '%.60s'", node,
				  colon + 1);
	if (t->nodes[n].ports[p].link < 0)
		return errbuf_set(why, "%s has no link", end);
	return t->nodes[n].ports[p].link;
}

int lab_link_words(const char *action, const char *mode, bool *fail,
		   enum topo_fail_mode *m, struct errbuf *why)
{
	*fail = strcmp(action, "fail") == 0;
	*m = mode && !strcmp(mode, "silent") ? TOPO_FAIL_SILENT :
					       TOPO_FAIL_CARRIER;
	if (!*fail && strcmp(action, "restore"))
		return errbuf_set(why, "'%.60s' is not fail or restore",
				  action);
	if (mode && !*fail)
		return errbuf_set(why, "restore takes no mode ('%.60s')",
				  mode);
	if (mode && strcmp(mode, "carrier") && strcmp(mode, "silent"))
		return errbuf_set(why, "'%.60s' is not carrier or silent",
				  mode);
	return 0;
}

/* deaf: the end (0, 1) that stops hearing the other, -1 both (silent). */
static int link_fail(struct lab *l, int link, enum topo_fail_mode mode,
		     int deaf, struct errbuf *err)
{
	const struct topo_link *tl = &l->t->links[link];
	struct lab_link_rt *rt = &l->links[link];
	int64_t start = events_now();

	if (mode == TOPO_FAIL_CARRIER) {
		if (set_carriers(l, tl, false, err))
			return -1;
	} else if (link_forward(l, tl, false, deaf, err)) {
		return -1;
	}
	/* Stamped when it started going down. */
	if (deaf >= 0) {
		const struct topo_end *e = &tl->end[deaf];
		char end[TOPO_NODE_NAME_MAX + TOPO_PORT_NAME_MAX + 2];

		snprintf(end, sizeof(end), "%s:%s", l->t->nodes[e->node].name,
			 l->t->nodes[e->node].ports[e->port].name);
		events_link_down_oneway(&l->ev, start, tl->index, end);
	} else {
		events_link_down(&l->ev, start, tl->index, mode);
	}
	took(l, tl, "down", start);
	if (mode == TOPO_FAIL_CARRIER)
		rt->carrier_down = true;
	else
		rt->silent = true;
	return 0;
}

int lab_link_fail(struct lab *l, int link, enum topo_fail_mode mode,
		  struct errbuf *err)
{
	return link_fail(l, link, mode, -1, err);
}

int lab_link_fail_oneway(struct lab *l, int link, int deaf,
			 struct errbuf *err)
{
	return link_fail(l, link, TOPO_FAIL_SILENT, deaf, err);
}

int lab_link_restore(struct lab *l, int link, struct errbuf *err)
{
	const struct topo_link *tl = &l->t->links[link];
	int64_t start = events_now();

	/* Undoes either kind of failure, and is harmless on a link that
	 * never failed: a later process need not know which it was. */
	if (link_forward(l, tl, true, -1, err) ||
	    set_carriers(l, tl, true, err))
		return -1;
	l->links[link].silent = l->links[link].carrier_down = false;
	/* Stamped when it started coming up: the guests may send their
	 * first BPDUs across it before the restore returns, and those are
	 * the restore's doing, not the failure's. */
	events_link_up(&l->ev, start, tl->index);
	took(l, tl, "up", start);
	return 0;
}

int lab_exec(struct lab *l, int node, char *const argv[], unsigned timeout_ms,
	     struct exec_result *res, struct errbuf *err)
{
	const struct lab_ops *o = lab_node_ops(l, (size_t)node, err);

	if (!o)
		return -1;
	return agent_exec(o, l->p->nodes[node].domain, argv, timeout_ms,
			  NULL, res, err);
}

int lab_wait_converged(struct lab *l, unsigned timeout_ms, struct errbuf *err)
{
	static char *const mst_show[] = { "mstctl", "-j", "show", NULL };
	/* A kernel-STP bridge has no MST state: its ports' own state. */
	static char *const stp_show[] = { "bridge", "-j", "link", "show",
					  NULL };
	const struct lab_ops *o = l->ops;
	long long start = o->now_ms(o->clock_ctx), stable_since = start;
	/* Two hello times without a change, and nothing in transition. */
	const long long quiet = 2000LL * (l->t->mst.hello_s ? l->t->mst.hello_s : 2);
	size_t n = l->t->n_nodes;
	char **last = calloc(n ? n : 1, sizeof(*last));
	int rc = -1;

	if (!last)
		return errbuf_set(err, "out of memory");
	while (!lab_interrupted) {
		long long now = o->now_ms(o->clock_ctx);
		bool settled = true;

		for (size_t i = 0; i < n; i++) {
			const struct topo_node *tn = &l->t->nodes[i];
			char *const *show = tn->kernel_stp ? stp_show :
							     mst_show;
			struct exec_result res;

			if (!topo_role_is_bridge(tn->role))
				continue;
			if (lab_exec(l, (int)i, show, 5000, &res, err))
				goto out;
			if (res.exit_code) {
				errbuf_set(err, "%s: %s failed: %s", tn->name,
					   tn->kernel_stp ? "bridge link show" :
					   "mstctl show", res.err);
				exec_result_free(&res);
				goto out;
			}
			if (strstr(res.out, "learning") ||
			    strstr(res.out, "listening"))
				settled = false;
			if (!last[i] || strcmp(last[i], res.out)) {
				free(last[i]);
				last[i] = res.out;
				res.out = NULL;
				stable_since = now;
			}
			exec_result_free(&res);
		}
		if (!settled)
			stable_since = now;
		if (now - stable_since >= quiet) {
			events_converged(&l->ev,
					 (double)(stable_since - start) / 1000);
			fprintf(l->log, "mstlab: converged (no change for "
				"%.1f s)\n", (double)quiet / 1000);
			rc = 0;
			goto out;
		}
		if (now - start > timeout_ms) {
			errbuf_set(err, "not converged after %u s",
				   timeout_ms / 1000);
			goto out;
		}
		o->sleep_ms(o->clock_ctx, 500);
	}
	errbuf_set(err, "interrupted");
out:
	for (size_t i = 0; i < n; i++)
		free(last[i]);
	free(last);
	return rc;
}
