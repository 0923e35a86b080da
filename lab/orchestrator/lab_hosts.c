// SPDX-License-Identifier: MIT
#include "lab_hosts.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child.h"
#include "clock_sync.h"
#include "kernels.h"
#include "remote.h"
#include "seed.h"

bool lab_spans_hosts(const struct lab *l)
{
	for (size_t h = 1; h < l->t->n_hosts; h++)
		if (topo_host_used(l->t, h))
			return true;
	return false;
}

/* A file of the run folder, whole (malloc'd), or NULL. */
static char *slurp(const char *dir, const char *name, size_t *len)
{
	char path[PATH_MAX + 64], *buf;
	struct stat sb;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = fstat(fd, &sb) || sb.st_size > (1 << 20) ? NULL :
	      malloc((size_t)sb.st_size + 1);
	if (buf && read(fd, buf, (size_t)sb.st_size) != sb.st_size) {
		free(buf);
		buf = NULL;
	}
	if (buf) {
		buf[sb.st_size] = 0;
		*len = (size_t)sb.st_size;
	}
	close(fd);
	return buf;
}

static const char *base_name(const char *run_dir)
{
	const char *s = strrchr(run_dir, '/');

	return s ? s + 1 : run_dir;
}

/* Its part of the run: opened (new) or attached. */
static int open_part(const char *run_dir, struct remote *rc, bool attach,
		     struct errbuf *err)
{
	size_t len = 0;
	char *text = slurp(run_dir, "topology.yaml", &len);
	int rc2;

	if (!text)
		return errbuf_set(err, "cannot read %s/topology.yaml",
				  run_dir);
	rc2 = remote_open_run(rc, text, len, base_name(run_dir), attach, err);
	free(text);
	return rc2;
}

/*
 * Host h's plan_params: this host's but for its run folder there and its
 * own guest files (its agent's images). Without them (an attached run:
 * no domain is defined then) this host's stand in.
 */
static void host_params(struct lab *l, unsigned h, const struct remote *rc)
{
	const struct remote_images *im = &rc->images;

	l->hpp[h] = l->pp;
	l->hpp[h].run_dir = rc->run_dir;
	snprintf(l->hoverlay[h], sizeof(l->hoverlay[h]), "%s/overlay",
		 rc->run_dir);
	l->hpp[h].overlay_root = l->hoverlay[h];
	if (!im->initrd[0])
		return;
	for (int k = 0; k < TOPO_KERNEL_COUNT; k++)
		l->hpp[h].kernel[k] = im->kernel[k];
	l->hpp[h].initrd = im->initrd;
	l->hpp[h].tools = im->tools[0] ? im->tools : NULL;
}

/* Its own guest files, asked before anything is defined there: each
 * kernel its nodes boot must be named. */
static int host_images(struct lab *l, unsigned h, struct remote *rc,
		       struct errbuf *err)
{
	const struct remote_images *im = &rc->images;

	if (remote_images(rc, err))
		return -1;
	for (size_t i = 0; i < l->t->n_nodes; i++) {
		enum topo_kernel k = l->t->nodes[i].kernel;

		if (l->t->nodes[i].host == h && !im->kernel[k][0])
			return errbuf_set(err, "host %s: its mstlab names no "
					  "%s kernel, which %s boots", rc->host,
					  topo_kernel_name(k),
					  l->t->nodes[i].name);
	}
	fprintf(l->log, "mstlab: host %s: guest kernel %s, image %s%s%s\n",
		rc->host, im->kernel[kernel_probe(l->t, h)], im->initrd,
		im->tools[0] ? ", tools " : " (no tools share)", im->tools);
	return 0;
}

/* A link's two ends are set in two threads: a host is opened once. */
static pthread_mutex_t hops_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct lab_ops *host_ops(struct lab *l, unsigned h,
				      struct errbuf *err)
{
	const struct lab_ops *o;

	if (l->hops[h])
		return l->hops[h];
	if (!l->ops->host) {
		errbuf_set(err, "host %s: this mstlab reaches no other host",
			   l->t->hosts[h].name);
		return NULL;
	}
	o = l->ops->host(l->ops->host_ctx, l->t->hosts[h].name, err);
	if (!o)
		return NULL;
	if (!o->remote->run_dir[0] && open_part(l->run_dir, o->remote, true,
						 err))
		return NULL;
	host_params(l, h, o->remote);
	l->hops[h] = o;
	return o;
}

/* Without --virt, each host's guests run under what its own boot test
 * found there: one host may have KVM and another not. */
static int host_virt(struct lab *l, unsigned h, struct remote *rc,
		     struct errbuf *err)
{
	if (remote_virt(rc, &l->hpp[h].virt, err))
		return -1;
	fprintf(l->log, "mstlab: host %s: guests run under %s\n", rc->host,
		l->hpp[h].virt == PLAN_VIRT_KVM ? "KVM" : "TCG");
	return 0;
}

const struct lab_ops *lab_host_ops(struct lab *l, unsigned h,
				   struct errbuf *err)
{
	const struct lab_ops *o;

	if (h == TOPO_LOCAL_HOST)
		return l->ops;
	pthread_mutex_lock(&hops_lock);
	o = host_ops(l, h, err);
	pthread_mutex_unlock(&hops_lock);
	return o;
}

const struct lab_ops *lab_node_ops(struct lab *l, size_t i,
				   struct errbuf *err)
{
	return lab_host_ops(l, l->t->nodes[i].host, err);
}

/* One measurement into the run folder's clock file. */
static int clock_note(const char *run_dir, struct remote *rc, bool end,
		      FILE *log, struct errbuf *err)
{
	char path[PATH_MAX + 16], line[256];
	struct clock_est e;
	FILE *f;

	if (remote_clock(rc, LAB_CLOCK_SAMPLES, &e, err))
		return -1;
	clock_format(line, sizeof(line), rc->host, end, &e);
	snprintf(path, sizeof(path), "%s/clock", run_dir);
	f = fopen(path, "ae");
	if (!f || fputs(line, f) == EOF || fclose(f))
		return errbuf_set(err, "cannot write %s", path);
	if (log)
		fprintf(log, "mstlab: host %s: clock %+.3f ms, within %.3f ms "
			"(%s of the run)\n", rc->host, (double)e.offset / 1e6,
			(double)e.bound / 1e6, end ? "end" : "start");
	return 0;
}

/* The run folder's file rel put at rel there (gone here, drop). */
static int put_file(struct lab *l, struct remote *rc, const char *rel,
		    bool drop, struct errbuf *err)
{
	char n[24];
	const char *put[] = { "put", rel, n };
	struct remote_msg ans;
	size_t len = 0;
	char *data = slurp(l->run_dir, rel, &len);
	int rc2;

	if (drop) {
		char path[PATH_MAX + 64];

		snprintf(path, sizeof(path), "%s/%s", l->run_dir, rel);
		unlink(path);
	}
	if (!data)
		return errbuf_set(err, "cannot read %s/%s", l->run_dir, rel);
	if (len > REMOTE_PUT_MAX) {
		free(data);
		return errbuf_set(err, "%s is %zu MiB: host %s takes %u at "
				  "most", rel, len >> 20, rc->host,
				  REMOTE_PUT_MAX >> 20);
	}
	snprintf(n, sizeof(n), "%zu", len);
	rc2 = remote_call(rc, put, 3, data, len, &ans, err);
	free(data);
	return rc2;
}

/* Its nodes' seed images, made here, put there. */
static int put_seeds(struct lab *l, unsigned h, struct remote *rc,
		     struct errbuf *err)
{
	char rel[TOPO_NODE_NAME_MAX + 16];

	if (seed_make_all(l->p, l->run_dir, h, err))
		return -1;
	for (size_t i = 0; i < l->t->n_nodes; i++) {
		if (l->t->nodes[i].host != h)
			continue;
		snprintf(rel, sizeof(rel), "seed/%s.img", l->t->nodes[i].name);
		if (put_file(l, rc, rel, false, err))
			return -1;
	}
	return 0;
}

/*
 * Its nodes' overlay folders (this machine's), each sent as a tar that
 * its agent unpacks into its run folder's overlay/NODE: what that
 * node's domain there shares.
 */
static int put_overlays(struct lab *l, unsigned h, struct remote *rc,
			struct errbuf *err)
{
	char dir[PATH_MAX + 16], rel[TOPO_NODE_NAME_MAX + 16], tar[PATH_MAX + 64];
	char *argv[] = { "tar", "--create", "--file", tar, "--directory",
			 NULL, "--numeric-owner", ".", NULL };

	snprintf(dir, sizeof(dir), "%s/overlay", l->run_dir);
	for (size_t i = 0; i < l->t->n_nodes; i++) {
		const struct topo_node *n = &l->t->nodes[i];

		if (n->host != h || !n->overlay[0])
			continue;
		snprintf(rel, sizeof(rel), "overlay/%s.tar", n->name);
		snprintf(tar, sizeof(tar), "%s/%s", l->run_dir, rel);
		argv[5] = (char *)n->overlay;
		if ((mkdir(dir, 0755) && errno != EEXIST) ||
		    spawn_run(argv, NULL, 120000))
			return errbuf_set(err, "%s: cannot pack its overlay %s "
					  "for host %s", n->name, n->overlay,
					  rc->host);
		if (put_file(l, rc, rel, true, err))
			return -1;
	}
	return 0;
}

/*
 * The path between two hosts of a crossing link must carry a 1500-byte
 * guest frame and VXLAN's 50 bytes (70 over IPv6): else the outer
 * packets are fragmented (VXLAN's default: DF not set), which works but
 * costs. Said, not refused: mstlab cannot see the whole path.
 */
static void check_mtu(struct lab *l, unsigned h)
{
	const struct topo_host *a = &l->t->hosts[TOPO_LOCAL_HOST],
			       *b = &l->t->hosts[h];
	unsigned need = b->family == AF_INET6 ? 1570 : 1550, mtu[2] = { 0 };
	const struct lab_ops *o[2] = { l->ops, l->hops[h] };
	const char *to[2] = { b->address, a->address };
	struct errbuf err;

	if (!a->address[0] || !b->address[0])
		return;
	for (int i = 0; i < 2; i++)
		if (o[i] && o[i]->link->path_mtu &&
		    !o[i]->link->path_mtu(o[i]->link_ctx, to[i], &mtu[i], &err) &&
		    mtu[i] < need)
			fprintf(l->log, "mstlab: warning: %s reaches %s over an "
				"MTU of %u: 1500-byte frames in a tunnel need "
				"%u, so they will be fragmented\n",
				i ? b->name : a->name, to[i], mtu[i], need);
}

int lab_hosts_up(struct lab *l, struct errbuf *err)
{
	for (unsigned h = 1; h < l->t->n_hosts; h++) {
		const char *name = l->t->hosts[h].name;
		const struct lab_ops *o;

		if (!topo_host_used(l->t, h))
			continue;
		if (!l->ops->host)
			return errbuf_set(err, "host %s: this mstlab reaches no "
					  "other host", name);
		/* Reached, then on record before anything is made there. */
		o = l->ops->host(l->ops->host_ctx, name, err);
		if (!o || state_add(&l->st, err, "host %s %s", name,
				    base_name(l->run_dir)) ||
		    open_part(l->run_dir, o->remote, false, err))
			return -1;
		fprintf(l->log, "mstlab: host %s: run folder %s\n", name,
			o->remote->run_dir);
		if (host_images(l, h, o->remote, err))
			return -1;
		host_params(l, h, o->remote);
		if (l->virt_auto && host_virt(l, h, o->remote, err))
			return -1;
		l->hops[h] = o;
		if (clock_note(l->run_dir, o->remote, false, l->log, err) ||
		    put_seeds(l, h, o->remote, err) ||
		    put_overlays(l, h, o->remote, err))
			return -1;
		check_mtu(l, h);
	}
	return 0;
}

int lab_hosts_templates(struct lab *l, struct errbuf *err)
{
	int failed = 0;

	for (unsigned h = 1; h < l->t->n_hosts; h++) {
		struct errbuf why;
		const struct lab_ops *o;
		size_t i;

		if (!topo_host_used(l->t, h))
			continue;
		o = lab_host_ops(l, h, &why);
		for (i = 0; o && i < l->t->n_nodes; i++) {
			struct lab_node_rt *n = &l->nodes[i];

			if (l->t->nodes[i].host != h ||
			    !plan_node_templated(l->p, (int)i))
				continue;
			if (remote_template(o->remote, l->t->nodes[i].name,
					    l->hpp[h].virt, l->log, n->tpl,
					    n->tpl_ram, &why))
				break;
		}
		if (o && i == l->t->n_nodes)
			continue;
		/* That host's nodes all boot cold then. */
		for (i = 0; i < l->t->n_nodes; i++)
			if (l->t->nodes[i].host == h)
				l->nodes[i].tpl[0] = l->nodes[i].tpl_ram[0] = 0;
		if (!failed++)
			*err = why;
	}
	return failed;
}

int lab_hosts_seed_status(struct lab *l, size_t i)
{
	char rel[TOPO_NODE_NAME_MAX + 32], *text;
	const struct lab_ops *o = lab_node_ops(l, i, &(struct errbuf){ "" });
	struct errbuf err;
	size_t len;
	int status = -1;

	if (!o)
		return -1;
	snprintf(rel, sizeof(rel), "share/%s/user-data.status",
		 l->t->nodes[i].name);
	/* Absent until the guest wrote it. */
	if (remote_get(o->remote, rel, 64, &text, &len, &err))
		return -1;
	/* Written but not complete yet: asked again next time. */
	if (text[0] >= '0' && text[0] <= '9' && strchr(text, '\n'))
		status = atoi(text);
	free(text);
	return status;
}

/* "host NAME RUN" lines of the run's state. */
static size_t state_hosts(const char *run_dir, char names[][TOPO_HOST_NAME_MAX + 1],
			  size_t max)
{
	size_t len = 0, n = 0;
	char *text = slurp(run_dir, "state", &len), *line, *save = NULL;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line && n < max;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[TOPO_HOST_NAME_MAX + 2];
		bool seen = false;

		if (sscanf(line, "host %16s", name) != 1 ||
		    strlen(name) > TOPO_HOST_NAME_MAX)
			continue;
		for (size_t k = 0; k < n; k++)
			seen |= !strcmp(names[k], name);
		if (!seen)
			strcpy(names[n++], name);
	}
	free(text);
	return n;
}

void lab_hosts_attach(const char *run_dir, const struct lab_ops *ops)
{
	char names[TOPO_MAX_HOSTS][TOPO_HOST_NAME_MAX + 1];
	size_t n = state_hosts(run_dir, names, TOPO_MAX_HOSTS);

	for (size_t k = 0; k < n && ops->host; k++) {
		struct errbuf err;
		const struct lab_ops *o = ops->host(ops->host_ctx, names[k],
						    &err);

		/* Unreachable: said by whoever needs it. */
		if (o && !o->remote->run_dir[0])
			open_part(run_dir, o->remote, true, &err);
	}
}

int lab_hosts_down(const char *run_dir, const struct lab_ops *ops, FILE *log)
{
	char names[TOPO_MAX_HOSTS][TOPO_HOST_NAME_MAX + 1];
	size_t n = state_hosts(run_dir, names, TOPO_MAX_HOSTS);
	int left = 0;

	for (size_t k = 0; k < n; k++) {
		const struct lab_ops *o = ops->host ?
			ops->host(ops->host_ctx, names[k], &(struct errbuf){ "" }) :
			NULL;
		struct errbuf err = { "" };
		int l2, got;

		if (o && !o->remote->run_dir[0] &&
		    open_part(run_dir, o->remote, true, &err))
			o = NULL;
		if (!o) {
			if (!err.msg[0] && ops->host)
				ops->host(ops->host_ctx, names[k], &err);
			fprintf(log, "mstlab: host %s cannot be reached%s%s: what "
				"the lab made there is left; 'mstlab down' again "
				"once it is back\n", names[k],
				err.msg[0] ? ": " : "", err.msg);
			left++;
			continue;
		}
		if (clock_note(run_dir, o->remote, true, log, &err))
			fprintf(log, "mstlab: %s\n", err.msg);
		l2 = remote_down(o->remote, log, &err);
		if (l2 < 0) {
			fprintf(log, "mstlab: %s\n", err.msg);
			left++;
			continue;
		}
		left += l2;
		got = remote_fetch(o->remote, run_dir, &err);
		if (got < 0)
			fprintf(log, "mstlab: host %s: fetching its files: %s\n",
				names[k], err.msg);
		else
			fprintf(log, "mstlab: host %s: %d files fetched\n",
				names[k], got);
	}
	return left;
}
