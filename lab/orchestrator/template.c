// SPDX-License-Identifier: MIT
#include "template.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "build_id.h"
#include "child.h"
#include "files.h"
#include "seed.h"

/* Bumped when what a template holds changes (its folder's layout, the
 * identity protocol): older ones are then never found. */
#define TPL_FORMAT 1
/* libvirt's emulator for x86_64 guests: a new build may save and load
 * a guest's state differently. */
#define QEMU_BINARY "/usr/bin/qemu-system-x86_64"
/* What /init says once it waits for its identity (images/boot). */
#define WAITING "mstlab-init: waiting for identity"
#define BOOT_TIMEOUT_MS 180000
#define MIGRATE_TIMEOUT_MS 60000
/* The name QEMU gives the state file's descriptor (getfd). */
#define STATE_FD "mstlab-state"

static int content_id(const char *path, char out[BUILD_ID_LEN],
		      struct errbuf *err)
{
	int r = build_id_file(path, out, BUILD_ID_LEN);

	if (r)
		return errbuf_set(err, "cannot read %s: %s", path,
				  strerror(-r));
	return 0;
}

int tpl_inputs_read(const struct plan_params *pp, struct tpl_inputs *in,
		    struct errbuf *err)
{
	struct stat st;

	memset(in, 0, sizeof(*in));
	for (int k = 0; k < TOPO_KERNEL_COUNT; k++)
		if (pp->kernel[k] && !access(pp->kernel[k], R_OK) &&
		    content_id(pp->kernel[k], in->kernel[k], err))
			return -1;
	if (content_id(pp->initrd, in->initrd, err))
		return -1;
	if (!stat(QEMU_BINARY, &st))
		snprintf(in->qemu, sizeof(in->qemu), "%s %lld %lld",
			 QEMU_BINARY, (long long)st.st_size,
			 (long long)st.st_mtime);
	return 0;
}

/* What the key hashes: the shape, then what it boots, by content. */
static int key_text(const struct plan *p, const struct plan_params *pp,
		    int node, const struct tpl_inputs *in, struct sbuf *out)
{
	sbuf_printf(out, "mstlab template %d\n", TPL_FORMAT);
	if (plan_template_shape(p, pp, node, out))
		return -1;
	sbuf_printf(out, "kernel %s\ninitrd %s\nqemu %s\n",
		    in->kernel[p->topo->nodes[node].kernel], in->initrd,
		    in->qemu);
	return sbuf_failed(out) ? -1 : 0;
}

int tpl_key(const struct plan *p, const struct plan_params *pp, int node,
	    const struct tpl_inputs *in, char key[TPL_KEY_LEN + 1])
{
	unsigned char md[SHA256_DIGEST_LENGTH];
	struct sbuf text;
	int rc;

	sbuf_init(&text);
	rc = key_text(p, pp, node, in, &text);
	if (!rc) {
		SHA256((const unsigned char *)sbuf_str(&text),
		       strlen(sbuf_str(&text)), md);
		for (int i = 0; i < TPL_KEY_LEN / 2; i++)
			sprintf(key + 2 * i, "%02x", md[i]);
	}
	sbuf_free(&text);
	return rc;
}

void tpl_path(const char *cache, const char *key, const char *file,
	      char *out, size_t len)
{
	snprintf(out, len, "%s/%s%s%s", cache, key, file ? "/" : "",
		 file ? file : "");
}

bool tpl_ready(const char *cache, const char *key)
{
	char path[PATH_MAX];

	tpl_path(cache, key, "state", path, sizeof(path));
	return access(path, R_OK) == 0;
}

/* The reply's "return" object's "status" into out; "" if it has none. */
static int migration_status(const char *reply, char *out, size_t len,
			    char *why, size_t why_len)
{
	json_t *j = json_loads(reply, 0, NULL), *ret, *v;

	out[0] = why[0] = 0;
	if (!j)
		return -1;
	ret = json_object_get(j, "return");
	v = json_object_get(ret, "status");
	if (json_is_string(v))
		snprintf(out, len, "%s", json_string_value(v));
	v = json_object_get(ret, "error-desc");
	if (json_is_string(v))
		snprintf(why, why_len, "%s", json_string_value(v));
	json_decref(j);
	return 0;
}

/* One QMP command that must succeed ({"return": ...}). */
static int qmp(const struct lab_ops *ops, const char *domain,
	       const char *cmd, int fd, struct errbuf *err)
{
	char *reply = NULL;
	int rc = ops->hv->monitor(ops->hv_ctx, domain, cmd, fd, &reply, err);

	if (!rc && (!reply || !strstr(reply, "\"return\"")))
		rc = errbuf_set(err, "%s: QEMU refused %s: %s", domain, cmd,
				reply ? reply : "no reply");
	free(reply);
	return rc;
}

/* Waits until the domain's migration (out or in) completed. */
static int wait_migration(const struct lab_ops *ops, const char *domain,
			  struct errbuf *err)
{
	long long start = ops->now_ms(ops->clock_ctx);
	char status[32], why[256];

	for (;;) {
		char *reply = NULL;

		if (ops->hv->monitor(ops->hv_ctx, domain,
				     "{\"execute\":\"query-migrate\"}", -1,
				     &reply, err))
			return -1;
		migration_status(reply, status, sizeof(status), why,
				 sizeof(why));
		free(reply);
		if (!strcmp(status, "completed"))
			return 0;
		if (!strcmp(status, "failed") || !strcmp(status, "cancelled"))
			return errbuf_set(err, "%s: the migration %s%s%s",
					  domain, status, why[0] ? ": " : "",
					  why);
		if (ops->now_ms(ops->clock_ctx) - start > MIGRATE_TIMEOUT_MS)
			return errbuf_set(err, "%s: the migration is still "
					  "'%s' after %d s", domain, status,
					  MIGRATE_TIMEOUT_MS / 1000);
		ops->sleep_ms(ops->clock_ctx, 10);
	}
}

static const char ignore_shared[] =
	"{\"execute\":\"migrate-set-capabilities\",\"arguments\":"
	"{\"capabilities\":[{\"capability\":\"x-ignore-shared\","
	"\"state\":true}]}}";
static const char getfd[] =
	"{\"execute\":\"getfd\",\"arguments\":{\"fdname\":\"" STATE_FD "\"}}";

/* QEMU gets the state file's descriptor, then migrates to or from it. */
static int migrate_file(const struct lab_ops *ops, const char *domain,
			const char *path, bool save, struct errbuf *err)
{
	int fd = save ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			     0644) :
			open(path, O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return errbuf_set(err, "cannot open %s: %s", path,
				  strerror(errno));
	rc = qmp(ops, domain, ignore_shared, -1, err) ||
	     qmp(ops, domain, getfd, fd, err);
	close(fd);
	if (!rc)
		rc = qmp(ops, domain, save ?
			 "{\"execute\":\"migrate\",\"arguments\":"
			 "{\"uri\":\"fd:" STATE_FD "\"}}" :
			 "{\"execute\":\"migrate-incoming\",\"arguments\":"
			 "{\"uri\":\"fd:" STATE_FD "\"}}", -1, err);
	return rc ? -1 : wait_migration(ops, domain, err);
}

int tpl_load(const struct lab_ops *ops, const char *domain,
	     const char *state, struct errbuf *err)
{
	return migrate_file(ops, domain, state, false, err);
}

int tpl_awaken(const struct lab_ops *ops, const struct plan *p, int node,
	       int chan_fd, struct errbuf *err)
{
	const char *domain = p->nodes[node].domain;
	uint8_t entropy[32];
	struct timespec now;
	struct errbuf why;
	struct sbuf msg;
	int rc;

	if (ops->hv->resume(ops->hv_ctx, domain, err))
		return -1;
	if (getrandom(entropy, sizeof(entropy), 0) != sizeof(entropy))
		return errbuf_set(err, "getrandom: %s", strerror(errno));
	/* Taken last: the guest sets its clock as it reads this. */
	clock_gettime(CLOCK_REALTIME, &now);
	sbuf_init(&msg);
	rc = plan_identity(p, node, &now, entropy, &msg) ?
	     errbuf_set(&why, "out of memory") :
	     ops->chan->send(ops->chan_ctx, chan_fd, sbuf_str(&msg), &why);
	sbuf_free(&msg);
	if (rc)
		errbuf_set(err, "%s: cannot send its identity: %s", domain,
			   why.msg);
	return rc;
}

/* Until the template's /init waits for its identity. */
static int wait_identity_point(const struct lab_ops *ops, const char *domain,
			       const char *console, struct errbuf *err)
{
	long long start = ops->now_ms(ops->clock_ctx);

	for (unsigned pass = 0; !file_says(console, WAITING); pass++) {
		if (pass % 10 == 0 &&
		    ops->hv->running(ops->hv_ctx, domain, err) != 1)
			return errbuf_set(err, "%s stopped while booting "
					  "(its console: %s)", domain,
					  console);
		if (ops->now_ms(ops->clock_ctx) - start > BOOT_TIMEOUT_MS)
			return errbuf_set(err, "%s did not wait for an "
					  "identity within %d s (its console: "
					  "%s)", domain, BOOT_TIMEOUT_MS / 1000,
					  console);
		ops->sleep_ms(ops->clock_ctx, 50);
	}
	return 0;
}

/* The template's RAM file, as large as the guest's memory (sparse). */
static int make_ram(const char *path, unsigned mib, struct errbuf *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int rc = 0;

	if (fd < 0)
		return errbuf_set(err, "cannot create %s: %s", path,
				  strerror(errno));
	if (ftruncate(fd, (off_t)mib << 20))
		rc = errbuf_set(err, "cannot size %s: %s", path,
				strerror(errno));
	close(fd);
	return rc;
}

/* The template's description, first its summary (tpl_list). */
static int write_shape(const char *dir, const struct plan *p,
		       const struct plan_params *pp, int node,
		       const struct tpl_inputs *in, const char *key,
		       double secs, struct errbuf *err)
{
	const struct topo_node *n = &p->topo->nodes[node];
	char path[PATH_MAX + 16], when[32];
	time_t now = time(NULL);
	struct sbuf text;
	struct tm tm;
	FILE *f;
	int rc = 0;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	sbuf_init(&text);
	sbuf_printf(&text, "key %s\nbuilt %s UTC in %.1f s\nshape %u MiB, %u "
		    "vCPU%s, %zu NIC%s, %s kernel (first for %s of lab %s, "
		    "%s)\n", key, when, secs, n->memory_mib, n->vcpus,
		    n->vcpus == 1 ? "" : "s", n->n_ports,
		    n->n_ports == 1 ? "" : "s", topo_kernel_name(n->kernel),
		    n->name, p->topo->name, topo_role_name(n->role));
	key_text(p, pp, node, in, &text);
	snprintf(path, sizeof(path), "%s/shape", dir);
	f = fopen(path, "we");
	if (!f || fputs(sbuf_str(&text), f) < 0)
		rc = errbuf_set(err, "cannot write %s", path);
	if (f && fclose(f) && !rc)
		rc = errbuf_set(err, "cannot write %s", path);
	sbuf_free(&text);
	return rc;
}

/* What the template saves, and how. */
static int boot_and_save(const struct lab_ops *ops, const char *domain,
			 const char *dir, int *chan, struct errbuf *err)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/qga/" PLAN_TEMPLATE_NODE ".id", dir);
	/* Connected before the guest runs: its /init then blocks in its
	 * read (and its clones, whose channel is connected before they
	 * load this state, in the same read). */
	*chan = ops->chan->connect(ops->chan_ctx, path, err);
	if (*chan < 0 || ops->hv->resume(ops->hv_ctx, domain, err))
		return -1;
	snprintf(path, sizeof(path), "%s/console/" PLAN_TEMPLATE_NODE ".log",
		 dir);
	if (wait_identity_point(ops, domain, path, err) ||
	    ops->hv->pause(ops->hv_ctx, domain, err))
		return -1;
	snprintf(path, sizeof(path), "%s/state", dir);
	return migrate_file(ops, domain, path, true, err);
}

static int build_in(const struct lab_ops *ops, const struct plan *p,
		    const struct plan_params *pp, int node, const char *dir,
		    const char *domain, struct state *st, struct errbuf *err)
{
	char ram[PATH_MAX + 8];
	struct plan_params tp = *pp;
	struct sbuf xml;
	int chan = -1, rc;

	snprintf(ram, sizeof(ram), "%s/ram", dir);
	if (files_mkdir(dir, NULL, err) || files_mkdir(dir, "qga", err) ||
	    files_mkdir(dir, "console", err) ||
	    seed_make_blank(dir, PLAN_TEMPLATE_NODE, err) ||
	    make_ram(ram, p->topo->nodes[node].memory_mib, err))
		return -1;
	tp.boot = PLAN_BOOT_TEMPLATE;
	tp.run_dir = dir;
	tp.template_ram = ram;
	tp.template_name = domain;
	sbuf_init(&xml);
	rc = plan_domain_xml(p, &tp, node, &xml) ?
	     errbuf_set(err, "cannot plan the template's domain") : 0;
	if (!rc && st)
		rc = state_add(st, err, "domain %s", domain);
	if (!rc)
		rc = ops->hv->start(ops->hv_ctx, sbuf_str(&xml),
				    HV_START_PAUSED | HV_START_AUTODESTROY,
				    err);
	sbuf_free(&xml);
	if (rc) {
		if (st)
			state_add(st, &(struct errbuf){ "" }, "forget domain %s",
				  domain);
		return -1;
	}
	rc = boot_and_save(ops, domain, dir, &chan, err);
	if (ops->hv->destroy(ops->hv_ctx, domain, rc ? &(struct errbuf){ "" } :
				   err))
		rc = -1;
	else if (st)
		state_add(st, &(struct errbuf){ "" }, "forget domain %s",
			  domain);
	if (chan >= 0)
		ops->chan->close(ops->chan_ctx, chan);
	return rc;
}

int tpl_build(const struct lab_ops *ops, const struct plan *p,
	      const struct plan_params *pp, int node,
	      const struct tpl_inputs *in, const char *cache, const char *key,
	      struct state *st, struct errbuf *err)
{
	char dir[PATH_MAX], final[PATH_MAX], domain[64], path[PATH_MAX + 16];
	long long start = ops->now_ms(ops->clock_ctx);
	int rc;

	/* Two processes may build one template at once: each in a domain
	 * and a folder of its own, and the first one complete is kept. */
	snprintf(domain, sizeof(domain), TPL_DOMAIN_PREFIX "%s-%d", key,
		 (int)getpid());
	snprintf(dir, sizeof(dir), "%s/.build-%s-%d", cache, key,
		 (int)getpid());
	tpl_path(cache, key, NULL, final, sizeof(final));
	/* The cache's own folder may be new too (/var/cache/mstlab of an
	 * installed mstlab that never probed KVM). */
	snprintf(path, sizeof(path), "%s", cache);
	if (strrchr(path, '/') && strrchr(path, '/') != path)
		*strrchr(path, '/') = 0;
	if (files_mkdir(path, NULL, err) || files_mkdir(cache, NULL, err))
		return -1;
	files_rm_tree(dir);
	rc = build_in(ops, p, pp, node, dir, domain, st, err);
	if (!rc && !(rc = write_shape(dir, p, pp, node, in, key,
				    (double)(ops->now_ms(ops->clock_ctx) -
					     start) / 1000, err))) {
		/* What only the build needed. */
		snprintf(path, sizeof(path), "%s/seed", dir);
		files_rm_tree(path);
		snprintf(path, sizeof(path), "%s/qga", dir);
		files_rm_tree(path);
		/* Complete, or not there: a build of the same key that
		 * finished first stays (its clones may run). */
		if (rename(dir, final) && errno != EEXIST &&
		    errno != ENOTEMPTY)
			rc = errbuf_set(err, "cannot rename %s to %s: %s", dir,
					final, strerror(errno));
	}
	files_rm_tree(dir);
	return rc;
}

/* "128 MiB, 1 vCPU, 2 NICs": a shape for people. */
static void shape_words(const struct topo_node *n, char *out, size_t len)
{
	snprintf(out, len, "%u MiB, %u vCPU%s, %zu NIC%s", n->memory_mib,
		 n->vcpus, n->vcpus == 1 ? "" : "s", n->n_ports,
		 n->n_ports == 1 ? "" : "s");
}

struct build_job {
	const struct lab_ops *ops;
	const struct plan *p;
	const struct plan_params *pp;
	const struct tpl_inputs *in;
	const char *cache, *key;
	struct state *st;
	int node;		/* the first node of the shape */
	pthread_t thread;
	bool threaded;
	struct errbuf err;
	int rc;
};

static void *build_thread(void *arg)
{
	struct build_job *j = arg;

	j->rc = tpl_build(j->ops, j->p, j->pp, j->node, j->in, j->cache,
			  j->key, j->st, &j->err);
	return NULL;
}

/* The keys, and a job for each missing template: their count. */
static int plan_jobs(const struct plan *p, const struct plan_params *pp,
		     const struct tpl_inputs *in, const char *cache, int host,
		     char (*keys)[TPL_KEY_LEN + 1], struct build_job *jobs,
		     size_t *m, struct errbuf *err)
{
	for (size_t i = 0; i < p->topo->n_nodes; i++) {
		bool first = true;

		keys[i][0] = 0;
		if (!plan_node_templated(p, (int)i) ||
		    (host >= 0 && p->topo->nodes[i].host != (unsigned)host))
			continue;
		if (tpl_key(p, pp, (int)i, in, keys[i]))
			return errbuf_set(err, "%s: cannot work out its shape",
					  p->topo->nodes[i].name);
		for (size_t k = 0; k < *m && first; k++)
			first = strcmp(jobs[k].key, keys[i]) != 0;
		if (first && !tpl_ready(cache, keys[i]))
			jobs[(*m)++] = (struct build_job){ .node = (int)i,
							   .key = keys[i] };
	}
	return 0;
}

int tpl_prepare(const struct lab_ops *ops, const struct plan *p,
		const struct plan_params *pp, const char *cache, int host,
		struct state *st, FILE *log, char (*keys)[TPL_KEY_LEN + 1],
		struct errbuf *err)
{
	size_t n = p->topo->n_nodes, m = 0;
	struct build_job *jobs = calloc(n ? n : 1, sizeof(*jobs));
	struct tpl_inputs in;
	int failed = 0;
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		keys[i][0] = 0;
		any |= plan_node_templated(p, (int)i) &&
		       (host < 0 || p->topo->nodes[i].host == (unsigned)host);
	}
	if (!jobs)
		return errbuf_set(err, "out of memory");
	/* None of its nodes has a template: its files are not read. */
	if (!any) {
		free(jobs);
		return 0;
	}
	if (tpl_inputs_read(pp, &in, err) ||
	    plan_jobs(p, pp, &in, cache, host, keys, jobs, &m, err)) {
		free(jobs);
		for (size_t i = 0; i < n; i++)
			keys[i][0] = 0;
		return -1;
	}
	for (size_t k = 0; k < m; k++) {
		struct build_job *j = &jobs[k];
		char shape[64];

		shape_words(&p->topo->nodes[j->node], shape, sizeof(shape));
		fprintf(log, "mstlab: template %s (%s, as %s): building\n",
			j->key, shape, p->topo->nodes[j->node].name);
		j->ops = ops;
		j->p = p;
		j->pp = pp;
		j->in = &in;
		j->cache = cache;
		j->st = st;
		j->threaded = !pthread_create(&j->thread, NULL, build_thread,
					      j);
		if (!j->threaded)
			build_thread(j);
	}
	for (size_t k = 0; k < m; k++) {
		if (jobs[k].threaded)
			pthread_join(jobs[k].thread, NULL);
		if (!jobs[k].rc) {
			fprintf(log, "mstlab: template %s built\n", jobs[k].key);
		} else if (!failed++) {
			errbuf_set(err, "template %s: %s", jobs[k].key,
				   jobs[k].err.msg);
		}
	}
	free(jobs);
	/* The nodes of a template that could not be built have none. */
	for (size_t i = 0; i < n; i++)
		if (keys[i][0] && !tpl_ready(cache, keys[i]))
			keys[i][0] = 0;
	return failed;
}

int tpl_ensure(const struct lab_ops *ops, const struct plan *p,
	       const struct plan_params *pp, const char *cache, int node,
	       FILE *log, char key[TPL_KEY_LEN + 1], struct errbuf *err)
{
	long long start = ops->now_ms(ops->clock_ctx);
	struct tpl_inputs in;
	char shape[64];

	key[0] = 0;
	if (!plan_node_templated(p, node))
		return errbuf_set(err, "%s has no template (a %s boots cold)",
				  p->topo->nodes[node].name,
				  topo_role_name(p->topo->nodes[node].role));
	if (tpl_inputs_read(pp, &in, err))
		return -1;
	if (tpl_key(p, pp, node, &in, key))
		return errbuf_set(err, "%s: cannot work out its shape",
				  p->topo->nodes[node].name);
	if (tpl_ready(cache, key))
		return 0;
	shape_words(&p->topo->nodes[node], shape, sizeof(shape));
	fprintf(log, "template %s (%s, as %s): building\n", key, shape,
		p->topo->nodes[node].name);
	fflush(log);
	if (tpl_build(ops, p, pp, node, &in, cache, key, NULL, err)) {
		key[0] = 0;
		return -1;
	}
	fprintf(log, "template %s built in %.1f s\n", key,
		(double)(ops->now_ms(ops->clock_ctx) - start) / 1000);
	return 0;
}

/* NAME is a key: TPL_KEY_LEN hex digits. */
static bool is_key(const char *name)
{
	return strlen(name) == TPL_KEY_LEN &&
	       strspn(name, "0123456789abcdef") == TPL_KEY_LEN;
}

/* The bytes a file holds on disk (a sparse RAM file: what it uses). */
static long long disk_bytes(const char *dir, const char *file)
{
	char path[PATH_MAX + 64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return stat(path, &st) ? 0 : (long long)st.st_blocks * 512;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int tpl_list(const char *cache, FILE *out)
{
	struct dirent **e = NULL;
	int n = scandir(cache, &e, NULL, by_name), shown = 0;

	for (int i = 0; i < n; i++) {
		char dir[PATH_MAX], path[PATH_MAX + 16], line[3][512];
		FILE *f;

		if (is_key(e[i]->d_name) && tpl_ready(cache, e[i]->d_name)) {
			tpl_path(cache, e[i]->d_name, NULL, dir, sizeof(dir));
			snprintf(path, sizeof(path), "%s/shape", dir);
			memset(line, 0, sizeof(line));
			f = fopen(path, "re");
			for (int k = 0; f && k < 3 &&
					fgets(line[k], sizeof(line[k]), f);
			     k++)
				line[k][strcspn(line[k], "\n")] = 0;
			if (f)
				fclose(f);
			fprintf(out, "%s  %s  %.1f MiB on disk\n  %s\n",
				e[i]->d_name,
				strncmp(line[1], "built ", 6) ? "?" :
								line[1] + 6,
				(double)(disk_bytes(dir, "ram") +
					 disk_bytes(dir, "state")) /
					(1 << 20),
				strncmp(line[2], "shape ", 6) ? "?" :
								line[2] + 6);
			shown++;
		}
		free(e[i]);
	}
	free(e);
	if (!shown)
		fprintf(out, "no templates in %s\n", cache);
	return 0;
}

/* A build folder whose process is gone: .build-KEY-PID. */
static bool dead_build(const char *name)
{
	const char *dash = strrchr(name, '-');
	int pid;

	if (strncmp(name, ".build-", 7) || !dash)
		return false;
	pid = atoi(dash + 1);
	return pid > 0 && kill(pid, 0) && errno == ESRCH;
}

int tpl_clear(const char *cache, FILE *log)
{
	struct dirent **e = NULL;
	int n = scandir(cache, &e, NULL, by_name), removed = 0, failed = 0;

	if (n < 0 && errno == ENOENT)
		n = 0;
	if (n < 0) {
		fprintf(log, "mstlab: cannot read %s: %s\n", cache,
			strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char dir[PATH_MAX];

		if (is_key(e[i]->d_name) || dead_build(e[i]->d_name)) {
			tpl_path(cache, e[i]->d_name, NULL, dir, sizeof(dir));
			if (files_rm_tree(dir)) {
				fprintf(log, "mstlab: cannot remove %s: %s\n",
					dir, strerror(errno));
				failed++;
			} else {
				removed += is_key(e[i]->d_name);
			}
		}
		free(e[i]);
	}
	free(e);
	return failed ? -1 : removed;
}
