// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for `mstlab agent` (agent.h): any bytes on its
 * input get answers, never a crash or a hang, and only the fakes below
 * are ever called, with names of the lab's plan on the agent's host
 * (templates: only its nodes, only paths in its own folders).
 * The input is prefixed with a good start (a topology of two hosts, a
 * run opened) half the time, so that the verbs past it are reached.
 * Its results folder is made once, in memory where /dev/shm is (the
 * agent's verbs work in files); every input's run folder has the same
 * name and is removed before the next, so nothing piles up.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "agent.h"
#include "version.h"

/* version.c is the orchestrator's, built with the version of the tree. */
const char mstlab_version[] = "fuzz";

static int f_create(void *c, const char *br, const char *owner,
		    struct errbuf *err)
{
	(void)c;
	(void)owner;
	(void)err;
	if (strncmp(br, "ml-", 3))
		abort();
	return 0;
}

static int f_name(void *c, const char *name, struct errbuf *err)
{
	(void)c;
	(void)err;
	if (strncmp(name, "ml-", 3))
		abort();
	return 0;
}

static int f_forward(void *c, const char *const tap[], size_t n, bool on,
		     int deaf, struct errbuf *err)
{
	(void)c;
	(void)on;
	(void)deaf;
	(void)err;
	for (size_t i = 0; i < n; i++)
		if (strncmp(tap[i], "ml-", 3))
			abort();
	return 0;
}

static int f_tunnel(void *c, const char *name, const char *bridge,
		    uint32_t vni, const char *local, const char *remote,
		    struct errbuf *err)
{
	(void)vni;
	(void)local;
	(void)remote;
	return f_name(c, name, err) || f_name(c, bridge, err);
}

static int f_mtu(void *c, const char *to, unsigned *mtu, struct errbuf *err)
{
	(void)c;
	(void)to;
	(void)err;
	*mtu = 1500;
	return 0;
}

static const struct link_ops link_fake = {
	.create = f_create, .setup_port = f_name, .port_forward = f_forward,
	.remove = f_name, .tunnel = f_tunnel, .path_mtu = f_mtu,
};

static int f_start(void *c, const char *ifname, const char *path, pid_t *pid,
		   uint64_t *start, struct errbuf *err)
{
	(void)c;
	(void)path;
	(void)err;
	if (strncmp(ifname, "ml-", 3))
		abort();
	*pid = 4242;
	*start = 77;
	return 0;
}

static int f_listening(void *c, const char *ifname, const char *path,
		       pid_t pid, uint64_t start, struct errbuf *err)
{
	(void)c;
	(void)ifname;
	(void)path;
	(void)err;
	return pid == 4242 && start == 77 ? 0 : (abort(), -1);
}

static int f_stop(void *c, pid_t pid, uint64_t start, struct errbuf *err)
{
	return f_listening(c, "ml-", "", pid, start, err);
}

static int f_alive(void *c, pid_t pid, uint64_t start)
{
	(void)c;
	return pid == 4242 && start == 77;
}

static const struct capture_ops cap_fake = {
	.start = f_start, .listening = f_listening, .stop = f_stop,
	.alive = f_alive,
};

static const struct lab_ops ops = { .link = &link_fake, .cap = &cap_fake };

static char results[64];
static int null_fd = -1;	/* /dev/null, opened once */

/* Templates: only the far host's nodes (b, c), only paths in the
 * agent's folders. */
static void far_node(const struct plan *p, int node)
{
	const char *name = p->topo->nodes[node].name;

	if (strcmp(name, "b") && strcmp(name, "c"))
		abort();
}

static int t_ensure(void *ctx, const struct plan *p,
		    const struct plan_params *pp, const char *cache, int node,
		    FILE *log, char key[TPL_KEY_LEN + 1], struct errbuf *err)
{
	(void)ctx;
	(void)err;
	far_node(p, node);
	if (strncmp(cache, results, strlen(results)) ||
	    strncmp(pp->initrd, results, strlen(results)))
		abort();
	fprintf(log, "template 0011223344556677: building\n");
	strcpy(key, "0011223344556677");
	return 0;
}

static int t_load(void *ctx, const char *domain, const char *state,
		  struct errbuf *err)
{
	(void)ctx;
	(void)err;
	if ((strcmp(domain, "mstlab-fz-b") && strcmp(domain, "mstlab-fz-c")) ||
	    strncmp(state, results, strlen(results)))
		abort();
	return 0;
}

static int t_awaken(void *ctx, const struct plan *p, int node, int chan,
		    struct errbuf *err)
{
	(void)ctx;
	(void)err;
	far_node(p, node);
	return chan >= 0 ? 0 : (abort(), -1);
}

static int c_connect(void *ctx, const char *path, struct errbuf *err)
{
	(void)ctx;
	(void)err;
	if (strncmp(path, results, strlen(results)))
		abort();
	return fcntl(null_fd, F_DUPFD_CLOEXEC, 0);
}

static void c_close(void *ctx, int fd)
{
	(void)ctx;
	close(fd);
}

static const struct chan_ops chan_fake = { .connect = c_connect,
					   .close = c_close };
static const struct agent_tpl tpl_fake = {
	.ensure = t_ensure, .load = t_load, .awaken = t_awaken,
	.chan = &chan_fake,
};

static const struct agent_tpl *tpl_ops(void *ctx, struct errbuf *err)
{
	(void)ctx;
	(void)err;
	return &tpl_fake;
}

/* Its boot test: alternately KVM and not. */
static enum plan_virt virt_fake(const struct remote_agent *a)
{
	static unsigned n;

	(void)a;
	return n++ % 2 ? PLAN_VIRT_KVM : PLAN_VIRT_QEMU;
}

static const char topology[] =
	"name: fz\n"
	"hosts:\n"
	"  local: { address: 10.9.0.1 }\n"
	"  far: { uri: qemu+ssh://10.9.0.2/system, address: 10.9.0.2 }\n"
	"nodes:\n"
	"  a: { role: bridge }\n"
	"  b: { role: bridge, host: far }\n"
	"  c: { role: bridge, host: far }\n"
	"links:\n"
	"  - [a:p1, b:p1]\n"
	"  - [b:p2, c:p1]\n";

static void clean(void)
{
	files_rm_tree(results);
}

/* The results folder and the agent's own guest files, once. */
static void make_results(void)
{
	const char *shm = "/dev/shm";
	char path[128];

	snprintf(results, sizeof(results), "%s/fuzz_remote.XXXXXX",
		 access(shm, W_OK) ? P_tmpdir : shm);
	if (!mkdtemp(results))
		abort();
	atexit(clean);
	null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd < 0)
		abort();
	snprintf(path, sizeof(path), "%s/k", results);
	close(open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
	snprintf(path, sizeof(path), "%s/i.cpio.lz4", results);
	close(open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct remote_agent a;
	char head[512];
	int in[2];
	size_t n = 0;

	if (!results[0])
		make_results();
	if (size && (data[0] & 1))
		n = (size_t)snprintf(head, sizeof(head),
				     "topology %zu\n%srun far "
				     "fz-20261207-000000\n",
				     sizeof(topology) - 1, topology);
	if (size > (1u << 16) - n || pipe(in))
		return 0;
	fcntl(in[1], F_SETPIPE_SZ, 1 << 20);
	if (write(in[1], head, n) != (ssize_t)n ||
	    write(in[1], data, size) != (ssize_t)size)
		abort();
	close(in[1]);
	remote_agent_init(&a, &ops, results);
	a.probe_port = 0;	/* no datagram to an address made up */
	snprintf(a.kernel[0], sizeof(a.kernel[0]), "%s/k", results);
	snprintf(a.initrd, sizeof(a.initrd), "%s/i.cpio.lz4", results);
	snprintf(a.tpl_cache, sizeof(a.tpl_cache), "%s/cache", results);
	a.tpl_ops = tpl_ops;
	a.virt = virt_fake;
	remote_agent_serve(&a, in[0], null_fd, 100);
	remote_agent_fini(&a);
	close(in[0]);
	/* The run folder it opened (ours or the input's own "run"). */
	if (a.run_dir[0])
		files_rm_tree(a.run_dir);
	return 0;
}
