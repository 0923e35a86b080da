// SPDX-License-Identifier: MIT
#include "remote.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "files.h"

/* A request's answer within this, or the host is taken for gone. */
#define REMOTE_TIMEOUT_MS 60000

/* The user's settings for th (none without a file). */
static int load_settings(struct remote *rc, const struct topo_host *th,
			 struct errbuf *err)
{
	char path[PATH_MAX];
	struct topo_error te;
	struct errbuf msg;

	memset(&rc->settings, 0, sizeof(rc->settings));
	if (host_settings_path(path, sizeof(path)))
		return 0;
	if (host_settings_load(path, th->ssh.host, &rc->settings, &te))
		return errbuf_set(err, "host %s: %s", th->name,
				  topo_error_format(&te, &msg));
	return 0;
}

int remote_ssh_argv(struct remote *rc, const struct topo *t, unsigned h,
		    struct errbuf *err)
{
	const struct topo_host *th = &t->hosts[h];
	const struct topo_ssh *s = &th->ssh;
	const struct host_settings *hs = &rc->settings;
	size_t n = 0;

	if (load_settings(rc, th, err))
		return -1;
#define ARG(x) (rc->argv[n++] = (char *)(x))
	ARG(hs->ssh_command[0] ? hs->ssh_command : "ssh");
	/* No terminal, no password prompt, no agent or X forwarding: a
	 * pipe to one program. */
	ARG("-T");
	ARG("-x");
	ARG("-a");
	ARG("-o");
	ARG("BatchMode=yes");
	ARG("-o");
	ARG("ConnectTimeout=10");
	ARG("-o");
	ARG("ServerAliveInterval=5");
	ARG("-o");
	ARG("ServerAliveCountMax=3");
	if (hs->keyfile[0]) {
		ARG("-i");
		ARG(hs->keyfile);
		ARG("-o");
		ARG("IdentitiesOnly=yes");
	}
	if (s->port) {
		snprintf(rc->port, sizeof(rc->port), "%u", s->port);
		ARG("-p");
		ARG(rc->port);
	}
	if (s->user[0]) {
		ARG("-l");
		ARG(s->user);
	}
	/* The end of ssh's options: the host is never read as one. */
	ARG("--");
	ARG(s->host);
	/* ssh joins these into a line for the far shell: each must need no
	 * quoting there (the model checked them; checked again). */
	if (hs->mstlab[0] && !topo_safe_word(hs->mstlab))
		return errbuf_set(err, "host %s: '%.60s' cannot go on a "
				  "command line", th->name, hs->mstlab);
	ARG(hs->mstlab[0] ? hs->mstlab : "mstlab");
	ARG("agent");
	if (th->results[0]) {
		if (!topo_safe_word(th->results))
			return errbuf_set(err, "host %s: '%.60s' cannot go on "
					  "a command line", th->name,
					  th->results);
		ARG("--results");
		ARG(th->results);
	}
	rc->argv[n] = NULL;
#undef ARG
	return 0;
}

static void broken(struct remote *rc)
{
	rc->broken = true;
	if (rc->to >= 0)
		close(rc->to);
	rc->to = -1;
}

/* Writes, reads the answer, under the lock. */
static int call_locked(struct remote *rc, const char *line, size_t len,
		       const void *payload, size_t plen,
		       struct remote_msg *ans, struct errbuf *err)
{
	char in[REMOTE_LINE_MAX];
	struct errbuf why;

	if (rc->broken)
		return errbuf_set(err, "host %s: its agent is gone", rc->host);
	if (remote_write_all(rc->to, line, len) ||
	    (plen && remote_write_all(rc->to, payload, plen))) {
		broken(rc);
		return errbuf_set(err, "host %s: its agent is gone (%s)",
				  rc->host, strerror(errno));
	}
	for (;;) {
		long n = remote_read_line(&rc->r, in, &why);

		if (n < 0 || remote_parse_answer(in, (size_t)n, ans, &why)) {
			broken(rc);
			return errbuf_set(err, "host %s: %s", rc->host,
					  why.msg);
		}
		if (!strcmp(ans->word[0], "info")) {
			if (rc->info)
				fprintf(rc->info, "mstlab: %s: %s\n", rc->host,
					ans->rest);
			continue;
		}
		if (!strcmp(ans->word[0], "err"))
			return errbuf_set(err, "host %s: %s", rc->host,
					  ans->rest);
		return 0;
	}
}

static int build_line(const char *const words[], size_t n, char *line,
		      size_t *len, struct errbuf *err)
{
	size_t k = 0;

	if (!n || n > REMOTE_WORDS_MAX)
		return errbuf_set(err, "a request of %zu words", n);
	for (size_t i = 0; i < n; i++) {
		size_t w = strlen(words[i]);

		if (!remote_word_ok(words[i]))
			return errbuf_set(err, "'%.60s' cannot be sent to an "
					  "agent", words[i]);
		if (k + w + 2 > REMOTE_LINE_MAX)
			return errbuf_set(err, "a request too long");
		if (i)
			line[k++] = ' ';
		memcpy(line + k, words[i], w);
		k += w;
	}
	line[k++] = '\n';
	*len = k;
	return 0;
}

int remote_call(struct remote *rc, const char *const words[], size_t n,
		const void *payload, size_t plen, struct remote_msg *ans,
		struct errbuf *err)
{
	char line[REMOTE_LINE_MAX + 1];
	size_t len;
	int rc2;

	if (build_line(words, n, line, &len, err))
		return -1;
	pthread_mutex_lock(&rc->lock);
	rc2 = call_locked(rc, line, len, payload, plen, ans, err);
	pthread_mutex_unlock(&rc->lock);
	return rc2;
}

/* remote_call for a request that may take long (a template's build). */
static int call_slow(struct remote *rc, const char *const words[], size_t n,
		     int timeout_ms, struct remote_msg *ans, struct errbuf *err)
{
	char line[REMOTE_LINE_MAX + 1];
	size_t len;
	int rc2, was;

	if (build_line(words, n, line, &len, err))
		return -1;
	pthread_mutex_lock(&rc->lock);
	was = rc->r.timeout_ms;
	rc->r.timeout_ms = timeout_ms;
	rc2 = call_locked(rc, line, len, NULL, 0, ans, err);
	rc->r.timeout_ms = was;
	pthread_mutex_unlock(&rc->lock);
	return rc2;
}

int remote_begin(struct remote *rc, const char *host, int to, int from,
		 struct errbuf *err)
{
	char v[12];
	const char *hello[] = { "hello", v };
	struct remote_msg ans;

	snprintf(v, sizeof(v), "%d", REMOTE_PROTO_VERSION);

	snprintf(rc->host, sizeof(rc->host), "%s", host);
	pthread_mutex_init(&rc->lock, NULL);
	rc->broken = false;
	rc->to = to;
	rc->from = from;
	/* An agent that went away is an error of a call, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	remote_reader_init(&rc->r, rc->from, REMOTE_TIMEOUT_MS);
	if (remote_call(rc, hello, 2, NULL, 0, &ans, err))
		return -1;
	if (ans.n < 3 || strcmp(ans.word[1], "mstlab-agent"))
		return errbuf_set(err, "host %s: no mstlab agent answered",
				  host);
	return 0;
}

int remote_start(struct remote *rc, const char *host, char *const argv[],
		 const char *log, struct errbuf *err)
{
	int to, from;

	rc->pid = spawn_pipe(argv ? argv : rc->argv, &to, &from, log);
	if (rc->pid < 0) {
		snprintf(rc->host, sizeof(rc->host), "%s", host);
		return errbuf_set(err, "host %s: cannot run %s: %s", host,
				  (argv ? argv : rc->argv)[0],
				  strerror(errno));
	}
	return remote_begin(rc, host, to, from, err);
}

void remote_stop(struct remote *rc)
{
	const char *bye[] = { "bye" };
	struct remote_msg ans;
	struct errbuf err;
	int status;

	if (rc->to < 0 && rc->from < 0 && rc->pid <= 0)
		return;
	if (!rc->broken) {
		rc->r.timeout_ms = 5000;
		remote_call(rc, bye, 1, NULL, 0, &ans, &err);
	}
	if (rc->to >= 0)
		close(rc->to);
	rc->to = -1;
	if (rc->pid > 0 && !spawn_wait(rc->pid, 5000, &status)) {
		kill(rc->pid, SIGKILL);
		waitpid(rc->pid, &status, 0);
	}
	if (rc->from >= 0)
		close(rc->from);
	rc->from = -1;
	rc->pid = 0;
	pthread_mutex_destroy(&rc->lock);
}

int remote_open_run(struct remote *rc, const char *topology, size_t len,
		    const char *run, bool attach, struct errbuf *err)
{
	char n[24];
	const char *topo[] = { "topology", n };
	const char *open[] = { attach ? "attach" : "run", rc->host, run };
	struct remote_msg ans;

	snprintf(n, sizeof(n), "%zu", len);
	if (remote_call(rc, topo, 2, topology, len, &ans, err) ||
	    remote_call(rc, open, 3, NULL, 0, &ans, err))
		return -1;
	if (ans.n != 2)
		return errbuf_set(err, "host %s: no run folder", rc->host);
	snprintf(rc->run_dir, sizeof(rc->run_dir), "%s", ans.word[1]);
	return 0;
}

int remote_images(struct remote *rc, struct errbuf *err)
{
	const char *images[] = { "images" };
	struct remote_msg ans;
	struct errbuf why;

	if (remote_call(rc, images, 1, NULL, 0, &ans, err))
		return -1;
	if (remote_images_parse(&ans, &rc->images, &why))
		return errbuf_set(err, "host %s: %s", rc->host, why.msg);
	return 0;
}

int remote_virt(struct remote *rc, enum plan_virt *virt, struct errbuf *err)
{
	const char *w[] = { "virt" };
	struct remote_msg ans;

	/* Its first answer for a kernel build boots a guest with KVM
	 * there (services.h: up to 20 s). */
	if (call_slow(rc, w, 1, 60000, &ans, err))
		return -1;
	if (ans.n != 2 || (strcmp(ans.word[1], "kvm") &&
			   strcmp(ans.word[1], "qemu")))
		return errbuf_set(err, "host %s: a virt answer is ok kvm|qemu",
				  rc->host);
	*virt = !strcmp(ans.word[1], "kvm") ? PLAN_VIRT_KVM : PLAN_VIRT_QEMU;
	return 0;
}

int remote_template_parse(const struct remote_msg *ans,
			  char key[TPL_KEY_LEN + 1], char ram[REMOTE_PATH_MAX],
			  struct errbuf *why)
{
	const char *k, *r, *st;
	size_t dir;

	key[0] = ram[0] = 0;
	if (ans->n != 4 || strcmp(ans->word[0], "ok"))
		return errbuf_set(why, "a template answer is ok KEY RAM STATE");
	k = ans->word[1];
	r = ans->word[2];
	st = ans->word[3];
	if (strlen(k) != TPL_KEY_LEN ||
	    strspn(k, "0123456789abcdef") != TPL_KEY_LEN)
		return errbuf_set(why, "'%.40s' is no template key (%d hex "
				  "digits)", k, TPL_KEY_LEN);
	if (!remote_path_ok(r) || !remote_path_ok(st))
		return errbuf_set(why, "template %s: '%.60s' is no absolute path "
				  "of A-Z a-z 0-9 / . _ + -", k,
				  remote_path_ok(r) ? st : r);
	/* DIR/KEY/ram and DIR/KEY/state: its cache's, nothing else. */
	dir = strlen(r) - strlen("/ram");
	if (strlen(r) <= TPL_KEY_LEN + 5 || strcmp(r + dir, "/ram") ||
	    strncmp(r + dir - TPL_KEY_LEN, k, TPL_KEY_LEN) ||
	    r[dir - TPL_KEY_LEN - 1] != '/' || strncmp(st, r, dir) ||
	    strcmp(st + dir, "/state"))
		return errbuf_set(why, "template %s: '%.60s' and '%.60s' are not "
				  "its RAM and state in a folder of its key", k,
				  r, st);
	memcpy(key, k, TPL_KEY_LEN + 1);
	memcpy(ram, r, strlen(r) + 1);
	return 0;
}

/* A template's build there: a cold boot under TCG, and more (template.c
 * waits 180 s for its boot). */
#define REMOTE_TEMPLATE_MS 240000

int remote_template(struct remote *rc, const char *node, enum plan_virt virt,
		    FILE *log, char key[TPL_KEY_LEN + 1],
		    char ram[REMOTE_PATH_MAX], struct errbuf *err)
{
	const char *w[] = { "template", node,
			    virt == PLAN_VIRT_KVM ? "kvm" : "qemu" };
	struct remote_msg ans;
	struct errbuf why;
	FILE *saved = rc->info;
	int rc2;

	key[0] = ram[0] = 0;
	rc->info = log;
	rc2 = call_slow(rc, w, 3, REMOTE_TEMPLATE_MS, &ans, err);
	rc->info = saved;
	if (rc2)
		return -1;
	if (remote_template_parse(&ans, key, ram, &why))
		return errbuf_set(err, "host %s: %s", rc->host, why.msg);
	return 0;
}

int remote_clone(struct remote *rc, const char *node, bool awaken,
		 struct errbuf *err)
{
	const char *w[] = { awaken ? "awaken" : "clone", node };
	struct remote_msg ans;

	return call_slow(rc, w, 2, REMOTE_TEMPLATE_MS, &ans, err);
}

static int64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int remote_clock(struct remote *rc, unsigned n, struct clock_est *e,
		 struct errbuf *err)
{
	struct clock_sample s[32];
	const char *clk[] = { "clock" };

	if (n > 32)
		n = 32;
	for (unsigned i = 0; i < n; i++) {
		struct remote_msg ans;
		uint64_t t1;

		s[i].t0 = realtime_ns();
		if (remote_call(rc, clk, 1, NULL, 0, &ans, err))
			return -1;
		s[i].t3 = realtime_ns();
		if (ans.n != 2 || remote_number(ans.word[1], INT64_MAX, &t1))
			return errbuf_set(err, "host %s: a clock answer that "
					  "is no number", rc->host);
		s[i].t1 = (int64_t)t1;
	}
	if (clock_estimate(s, n, e))
		return errbuf_set(err, "host %s: no usable clock exchange",
				  rc->host);
	return 0;
}

/* Where a fetched file goes: its captures (pcap/HOST/ and the links it
 * captures whole), its nodes' consoles and shares as is (no other host
 * has those names), the rest (state, seeds) under hosts/HOST/. */
static void local_path(const struct remote *rc, const char *dir,
		       const char *rel, char *out, size_t len)
{
	if (!strncmp(rel, "pcap/", 5) || !strncmp(rel, "share/", 6) ||
	    !strncmp(rel, "console/", 8))
		snprintf(out, len, "%s/%s", dir, rel);
	else
		snprintf(out, len, "%s/hosts/%s/%s", dir, rc->host, rel);
}

/* Makes the folders above path (below dir). */
static int parents(const char *dir, const char *path, struct errbuf *err)
{
	char sub[PATH_MAX + 1200];
	size_t base = strlen(dir) + 1;

	for (const char *p = path + base; (p = strchr(p, '/')); p++) {
		snprintf(sub, sizeof(sub), "%.*s", (int)(p - path - base),
			 path + base);
		if (files_mkdir(dir, sub, err))
			return -1;
	}
	return 0;
}

/* One file fetched (get), under the lock: its bytes follow ok LEN. A
 * capture only grows: what a mirror of it has is completed. */
static int fetch_one(struct remote *rc, const char *dir, const char *rel,
		     struct errbuf *err)
{
	const char *get[] = { "get", rel };
	char line[REMOTE_LINE_MAX + 1], path[PATH_MAX + 1200], buf[65536];
	struct remote_msg ans;
	uint64_t left;
	size_t len;
	FILE *f;
	int rc2 = 0;

	err->msg[0] = 0;
	if (!strncmp(rel, "pcap/", 5)) {
		local_path(rc, dir, rel, path, sizeof(path));
		return parents(dir, path, err) ||
		       remote_mirror(rc, rel, path, err) < 0 ? -1 : 0;
	}
	if (build_line(get, 2, line, &len, err))
		return -1;
	pthread_mutex_lock(&rc->lock);
	if (call_locked(rc, line, len, NULL, 0, &ans, err)) {
		pthread_mutex_unlock(&rc->lock);
		return -1;
	}
	if (ans.n != 2 || remote_number(ans.word[1], REMOTE_DATA_MAX, &left)) {
		broken(rc);
		pthread_mutex_unlock(&rc->lock);
		return errbuf_set(err, "host %s: get %s: no length", rc->host,
				  rel);
	}
	local_path(rc, dir, rel, path, sizeof(path));
	f = parents(dir, path, err) ? NULL : fopen(path, "we");
	if (!f && !err->msg[0])
		errbuf_set(err, "cannot write %s: %s", path, strerror(errno));
	/* The bytes are read whatever happens here, or the stream is lost. */
	while (left) {
		size_t take = left < sizeof(buf) ? (size_t)left : sizeof(buf);
		struct errbuf why;

		if (remote_read_bytes(&rc->r, buf, take, &why)) {
			broken(rc);
			rc2 = errbuf_set(err, "host %s: get %s: %s", rc->host,
					 rel, why.msg);
			break;
		}
		if (f && fwrite(buf, 1, take, f) != take)
			rc2 = errbuf_set(err, "cannot write %s", path);
		left -= take;
	}
	pthread_mutex_unlock(&rc->lock);
	if (f && fclose(f) && !rc2)
		rc2 = errbuf_set(err, "cannot write %s", path);
	return f ? rc2 : -1;
}

/* get with words (PATH, or PATH OFFSET MAX): the bytes in *data. */
static int get_words(struct remote *rc, const char *const get[], size_t nw,
		     size_t max, char **data, size_t *len, struct errbuf *err)
{
	char line[REMOTE_LINE_MAX + 1];
	struct remote_msg ans;
	struct errbuf why;
	uint64_t n;
	size_t k;
	int rc2 = 0;

	*data = NULL;
	if (build_line(get, nw, line, &k, err))
		return -1;
	pthread_mutex_lock(&rc->lock);
	if (call_locked(rc, line, k, NULL, 0, &ans, err)) {
		pthread_mutex_unlock(&rc->lock);
		return -1;
	}
	if (ans.n != 2 || remote_number(ans.word[1], REMOTE_DATA_MAX, &n)) {
		broken(rc);
		rc2 = errbuf_set(err, "host %s: get %s: no length", rc->host,
				 get[1]);
	} else if (n > max || !(*data = malloc((size_t)n + 1))) {
		/* Too big to hold: the stream is lost with it. */
		broken(rc);
		rc2 = errbuf_set(err, "host %s: %s is larger than %zu bytes",
				 rc->host, get[1], max);
	} else if (remote_read_bytes(&rc->r, *data, (size_t)n, &why)) {
		broken(rc);
		rc2 = errbuf_set(err, "host %s: get %s: %s", rc->host, get[1],
				 why.msg);
	} else {
		(*data)[n] = 0;
		*len = (size_t)n;
	}
	pthread_mutex_unlock(&rc->lock);
	if (rc2) {
		free(*data);
		*data = NULL;
	}
	return rc2;
}

int remote_get(struct remote *rc, const char *rel, size_t max, char **data,
	       size_t *len, struct errbuf *err)
{
	const char *get[] = { "get", rel };

	return get_words(rc, get, 2, max, data, len, err);
}

int remote_get_at(struct remote *rc, const char *rel, uint64_t off,
		  size_t max, char **data, size_t *len, struct errbuf *err)
{
	char o[24], m[24];
	const char *get[] = { "get", rel, o, m };

	snprintf(o, sizeof(o), "%" PRIu64, off);
	snprintf(m, sizeof(m), "%zu", max);
	return get_words(rc, get, 4, max, data, len, err);
}

/* What a mirror asks for at once. */
#define MIRROR_CHUNK (1u << 20)

long long remote_mirror(struct remote *rc, const char *rel,
			const char *local, struct errbuf *err)
{
	long long added = 0;
	struct stat sb;
	int fd = open(local, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC |
		      O_NOFOLLOW, 0644);

	if (fd < 0)
		return errbuf_set(err, "cannot write %s: %s", local,
				  strerror(errno));
	/* Another mirror of the same file waits: what is here is what
	 * was had, whoever fetched it. */
	if (flock(fd, LOCK_EX) || fstat(fd, &sb)) {
		close(fd);
		return errbuf_set(err, "cannot lock %s: %s", local,
				  strerror(errno));
	}
	for (;;) {
		char *data;
		size_t len = 0;

		if (remote_get_at(rc, rel, (uint64_t)sb.st_size + added,
				  MIRROR_CHUNK, &data, &len, err)) {
			added = -1;
			break;
		}
		if (len && remote_write_all(fd, data, len)) {
			free(data);
			added = errbuf_set(err, "cannot write %s: %s", local,
					   strerror(errno));
			break;
		}
		free(data);
		added += (long long)len;
		if (len < MIRROR_CHUNK)
			break;
	}
	close(fd);	/* the lock with it */
	return added;
}

int remote_fetch(struct remote *rc, const char *local_dir,
		 struct errbuf *err)
{
	const char *files[] = { "files" };
	struct remote_msg ans;
	char *list = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *saved = rc->info, *mem = open_memstream(&list, &len);
	int n = 0, rc2;

	if (!mem)
		return errbuf_set(err, "out of memory");
	/* The list comes as info lines. */
	rc->info = mem;
	rc2 = remote_call(rc, files, 1, NULL, 0, &ans, err);
	rc->info = saved;
	fclose(mem);
	for (line = strtok_r(list, "\n", &save); !rc2 && line;
	     line = strtok_r(NULL, "\n", &save)) {
		/* "mstlab: HOST: file SIZE PATH" */
		char *rel = strrchr(line, ' ');
		char *kind = strstr(line, ": file ");

		if (!rel || !kind)
			continue;
		if (fetch_one(rc, local_dir, rel + 1, err))
			rc2 = -1;
		else
			n++;
	}
	free(list);
	return rc2 ? -1 : n;
}

int remote_down(struct remote *rc, FILE *log, struct errbuf *err)
{
	const char *down[] = { "down" };
	struct remote_msg ans;
	FILE *saved = rc->info;
	uint64_t left;
	int rc2;

	rc->info = log;
	rc2 = remote_call(rc, down, 1, NULL, 0, &ans, err);
	rc->info = saved;
	if (rc2)
		return -1;
	if (ans.n != 2 || remote_number(ans.word[1], 1u << 20, &left))
		return errbuf_set(err, "host %s: down said no count",
				  rc->host);
	return (int)left;
}

/* ---- the tables ---- */

static int simple(void *ctx, const char *const words[], size_t n,
		  struct errbuf *err)
{
	struct remote_msg ans;

	return remote_call(ctx, words, n, NULL, 0, &ans, err);
}

static int rl_create(void *ctx, const char *bridge, const char *owner,
		     struct errbuf *err)
{
	const char *w[] = { "bridge", bridge };
	struct remote_msg ans;

	(void)owner;	/* the agent labels it with its lab's name */
	if (remote_call(ctx, w, 2, NULL, 0, &ans, err))
		return -1;
	return ans.n == 2 && !strcmp(ans.word[1], "replaced");
}

static int rl_setup_port(void *ctx, const char *tap, struct errbuf *err)
{
	const char *w[] = { "port", tap };

	return simple(ctx, w, 2, err);
}

static int rl_port_forward(void *ctx, const char *const tap[], size_t n,
			   bool on, int deaf, struct errbuf *err)
{
	const char *w[4] = { "forward", on ? "on" : "off" };

	if (n < 1 || n > 2 || deaf >= (int)n)
		return errbuf_set(err, "forward: %zu ports, deaf %d", n, deaf);
	if (!on && deaf >= 0) {
		w[1] = "deaf";
		w[2] = tap[deaf];
		return simple(ctx, w, 3, err);
	}
	for (size_t i = 0; i < n; i++)
		w[2 + i] = tap[i];
	return simple(ctx, w, 2 + n, err);
}

static int rl_remove(void *ctx, const char *ifname, struct errbuf *err)
{
	const char *w[] = { "remove", ifname };

	return simple(ctx, w, 2, err);
}

/* The agent takes bridge, VNI and addresses from its own plan: it says
 * which it used, and they must be ours. */
static int rl_tunnel(void *ctx, const char *name, const char *bridge,
		     uint32_t vni, const char *local, const char *remote,
		     struct errbuf *err)
{
	const char *w[] = { "tunnel", name };
	struct remote_msg ans;
	uint64_t v;

	(void)bridge;
	if (remote_call(ctx, w, 2, NULL, 0, &ans, err))
		return -1;
	if (ans.n != 4 || remote_number(ans.word[1], UINT32_MAX, &v) ||
	    v != vni || strcmp(ans.word[2], local) ||
	    strcmp(ans.word[3], remote))
		return errbuf_set(err, "tunnel %s: the agent planned another "
				  "tunnel (a topology out of step?)", name);
	return 0;
}

static int rl_path_mtu(void *ctx, const char *address, unsigned *mtu,
		       struct errbuf *err)
{
	const char *w[] = { "mtu", address };
	struct remote_msg ans;
	uint64_t v;

	if (remote_call(ctx, w, 2, NULL, 0, &ans, err))
		return -1;
	if (ans.n != 2 || remote_number(ans.word[1], 1u << 20, &v))
		return errbuf_set(err, "mtu %s: no number", address);
	*mtu = (unsigned)v;
	return 0;
}

const struct link_ops remote_link_ops = {
	.create = rl_create,
	.setup_port = rl_setup_port,
	.port_forward = rl_port_forward,
	.remove = rl_remove,
	.tunnel = rl_tunnel,
	.path_mtu = rl_path_mtu,
};

static int rc_start(void *ctx, const char *ifname, const char *path,
		    pid_t *pid, uint64_t *start_time, struct errbuf *err)
{
	const char *w[] = { "capture", ifname };
	struct remote_msg ans;
	uint64_t p;

	(void)path;	/* the agent's run folder: its plan's path */
	if (remote_call(ctx, w, 2, NULL, 0, &ans, err))
		return -1;
	if (ans.n != 4 || remote_number(ans.word[1], INT32_MAX, &p) ||
	    remote_number(ans.word[2], UINT64_MAX, start_time))
		return errbuf_set(err, "capture %s: no process", ifname);
	*pid = (pid_t)p;
	return 0;
}

static int rc_listening(void *ctx, const char *ifname, const char *path,
			pid_t pid, uint64_t start_time, struct errbuf *err)
{
	char p[16], s[24];
	const char *w[] = { "listening", ifname, p, s };

	(void)path;
	snprintf(p, sizeof(p), "%d", (int)pid);
	snprintf(s, sizeof(s), "%" PRIu64, start_time);
	return simple(ctx, w, 4, err);
}

static int rc_stop(void *ctx, pid_t pid, uint64_t start_time,
		   struct errbuf *err)
{
	char p[16], s[24];
	const char *w[] = { "stop", p, s };

	snprintf(p, sizeof(p), "%d", (int)pid);
	snprintf(s, sizeof(s), "%" PRIu64, start_time);
	return simple(ctx, w, 3, err);
}

static int rc_alive(void *ctx, pid_t pid, uint64_t start_time)
{
	char p[16], s[24];
	const char *w[] = { "alive", p, s };
	struct remote_msg ans;
	struct errbuf err;

	snprintf(p, sizeof(p), "%d", (int)pid);
	snprintf(s, sizeof(s), "%" PRIu64, start_time);
	if (remote_call(ctx, w, 3, NULL, 0, &ans, &err))
		return 0;
	return ans.n == 2 && !strcmp(ans.word[1], "1");
}

const struct capture_ops remote_capture_ops = {
	.start = rc_start,
	.listening = rc_listening,
	.stop = rc_stop,
	.alive = rc_alive,
};
