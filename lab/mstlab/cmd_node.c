// SPDX-License-Identifier: MIT
/* mstlab status, exec, link and console: commands on a lab that is up. */
#include "cmd_lab.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "console.h"
#include "guest_agent.h"

#include "lab_args.h"
#include "lab_hosts.h"
#include "print.h"
#include "remote.h"
#include "runtime.h"

/* Parses, connects and attaches to the lab's current run. */
static int attach(struct runtime *rt, struct lab *l, int argc, char **argv,
		  FILE *out, FILE *err, const char *usage, int nargs_min)
{
	struct errbuf e;
	int rc = lab_args_parse(rt, argc, argv, out, err, usage);

	if (rc)
		return rc;
	if (rt->nargs < nargs_min) {
		fprintf(err, "mstlab %s: %s\nusage: mstlab %s\n", argv[0],
			rt->nargs ? "an argument is missing" :
			"no node (or link end) given", usage);
		return 2;
	}
	if (runtime_connect(rt, false, PLAN_VIRT_QEMU))
		return 1;
	if (lab_attach(l, rt->t, &rt->ops, err, &e)) {
		fprintf(err, "mstlab: %s\n", e.msg);
		return 1;
	}
	return 0;
}

static int node_arg(struct runtime *rt, const char *name)
{
	int n = topo_node_find(rt->t, name);

	if (n < 0)
		fprintf(rt->err, "mstlab: %s has no node '%s'\n",
			rt->topo_path, name);
	return n;
}

/* attach, then the node the first word names: 0 with *node, else the
 * exit status. */
static int attach_node(struct runtime *rt, struct lab *l, int argc,
		       char **argv, FILE *out, FILE *err, const char *usage,
		       int nargs_min, int *node)
{
	int rc = attach(rt, l, argc, argv, out, err, usage, nargs_min);

	if (rc)
		return rc;
	*node = node_arg(rt, rt->args[0]);
	return *node < 0 ? 1 : 0;
}

/*
 * What node i's domain is doing, asked of its own host's libvirt (a far
 * node's over the lab's connection to its host): 1 running, 0 not
 * (state says which), -1 when it cannot be told ("unreachable: why" for
 * a host that cannot be reached).
 */
static int node_state(struct lab *l, size_t i, char *state, size_t len)
{
	const struct lab_ops *o;
	struct errbuf e;
	int up;

	o = lab_node_ops(l, i, &e);
	if (!o) {
		snprintf(state, len, "unreachable: %s", e.msg);
		return -1;
	}
	if (o->hv->state) {
		up = o->hv->state(o->hv_ctx, l->p->nodes[i].domain, state, len,
				  &e);
	} else {
		up = o->hv->running(o->hv_ctx, l->p->nodes[i].domain, &e);
		snprintf(state, len, "%s", up == 1 ? "running" : "stopped");
	}
	if (up < 0)
		snprintf(state, len, "%s", e.msg);
	return up;
}

int cmd_status(int argc, char **argv, FILE *out, FILE *err)
{
	struct runtime rt;
	struct lab l = { 0 };
	struct printer pr;
	int rc = attach(&rt, &l, argc, argv, out, err,
			"status TOPO.yaml [--json]", 0);

	if (rc)
		goto out;
	print_init(&pr, out, rt.json);
	print_open_object(&pr, NULL);
	print_string(&pr, PRINT_ANY, "lab", "lab %s", rt.t->name);
	print_string(&pr, PRINT_ANY, "run", " run %s\n", l.run_dir);
	print_open_array(&pr, "nodes");
	for (size_t i = 0; i < rt.t->n_nodes; i++) {
		const char *dom = l.p->nodes[i].domain;
		char state[32 + ERRBUF_LEN];
		int up = node_state(&l, i, state, sizeof(state));

		print_open_object(&pr, NULL);
		print_string(&pr, PRINT_ANY, "node", "node %-12s",
			     rt.t->nodes[i].name);
		print_string(&pr, PRINT_ANY, "domain", " %-28s", dom);
		if (rt.t->hosts_given)
			print_string(&pr, PRINT_ANY, "host", " %-10s",
				     rt.t->hosts[rt.t->nodes[i].host].name);
		print_string(&pr, PRINT_ANY, "state", " %s\n", state);
		print_close_object(&pr);
		rc |= up != 1;
	}
	print_close_array(&pr);
	print_close_object(&pr);
	if (rt.json)
		fputc('\n', out);
out:
	lab_fini(&l);
	runtime_free(&rt);
	return rc;
}

/* What stdin holds, base64, when it is a pipe or a file (not a
 * terminal, and not with -n): malloc'd, "" for nothing, NULL (said on
 * err) when it is too much or cannot be read. */
#define STDIN_MAX (4 << 20)
static char *stdin_b64(const struct runtime *rt)
{
	struct stat st;
	char *in = NULL, *b64;
	size_t len = 0, cap = 0;
	ssize_t n;

	if (rt->no_stdin || isatty(0) || fstat(0, &st) ||
	    !(S_ISFIFO(st.st_mode) || S_ISREG(st.st_mode)))
		return strdup("");
	for (;;) {
		if (len == cap) {
			char *m = cap >= STDIN_MAX ? NULL :
				  realloc(in, cap = cap ? cap * 2 : 65536);

			if (!m) {
				fprintf(rt->err, "mstlab exec: standard input "
					"is more than %d MiB (-n: none)\n",
					STDIN_MAX >> 20);
				free(in);
				return NULL;
			}
			in = m;
		}
		n = read(0, in + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(rt->err, "mstlab exec: standard input: %s\n",
				strerror(errno));
			free(in);
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	b64 = malloc(len / 3 * 4 + 8);
	if (b64)
		EVP_EncodeBlock((unsigned char *)b64, (unsigned char *)in,
				(int)len);
	free(in);
	return b64;
}

/* A node of another host: its share's two files there, through its
 * agent (struct agent_stream's read_at). */
struct far_share {
	struct remote *rc;
	char rel[2][TOPO_NODE_NAME_MAX + 48];
};

#define FAR_READ_MAX 65536

static long far_read(void *ctx, int i, long at, FILE *f, struct errbuf *err)
{
	struct far_share *fs = ctx;
	long got = 0;

	for (;;) {
		char *data;
		size_t len = 0;

		if (remote_get_at(fs->rc, fs->rel[i], (uint64_t)(at + got),
				  FAR_READ_MAX, &data, &len, err))
			/* Not written yet (absent) is nothing yet; a lost
			 * agent is the end. */
			return fs->rc->broken ? -1 : got;
		fwrite(data, 1, len, f);
		free(data);
		got += (long)len;
		if (len < FAR_READ_MAX)
			return got;
	}
}

/* What exec leaves in the share: removed here, or there (fs). */
static void exec_files_remove(char host[2][PATH_MAX + 64],
			      const struct far_share *fs)
{
	for (int i = 0; i < 2; i++) {
		const char *w[] = { "unlink", fs ? fs->rel[i] : "" };
		struct remote_msg ans;
		struct errbuf e;

		if (!fs)
			unlink(host[i]);
		else if (fs->rc)
			remote_call(fs->rc, w, 2, NULL, 0, &ans, &e);
	}
}

/*
 * The command's stdout and stderr as they come, each to its own stream:
 * the guest writes them to two files of its share, read here while it
 * runs (through the agent of its host, for a node of another host).
 * stdin goes with it (-n: not).
 */
int cmd_exec(int argc, char **argv, FILE *out, FILE *err)
{
	struct runtime rt;
	struct lab l = { 0 };
	struct exec_result res;
	struct agent_stream s = { .out = out, .err = err };
	char host[2][PATH_MAX + 64], guest[2][128], *input = NULL;
	const struct lab_ops *ops;
	struct far_share fs = { 0 };
	const char *name;
	struct errbuf e;
	bool far;
	int node, rc = attach_node(&rt, &l, argc, argv, out, err,
				   "exec [-n] [--timeout D] TOPO.yaml|LAB NODE "
				   "CMD [ARG...]", 2, &node);

	if (rc)
		goto out;
	rc = 1;
	input = stdin_b64(&rt);
	if (!input)
		goto out;
	name = rt.t->nodes[node].name;
	for (int i = 0; i < 2; i++) {
		snprintf(guest[i], sizeof(guest[i]), "/lab/share/%s/exec-%d.%s",
			 name, (int)getpid(), i ? "err" : "out");
		snprintf(host[i], sizeof(host[i]), "%s/share/%s/exec-%d.%s",
			 l.run_dir, name, (int)getpid(), i ? "err" : "out");
	}
	s.guest_out = guest[0];
	s.guest_err = guest[1];
	s.host_out = host[0];
	s.host_err = host[1];
	s.input_b64 = input[0] ? input : NULL;
	rt.args[rt.nargs] = NULL;
	ops = lab_node_ops(&l, (size_t)node, &e);
	far = rt.t->nodes[node].host != TOPO_LOCAL_HOST;
	if (ops && far) {
		fs.rc = ops->remote;
		for (int i = 0; i < 2; i++)
			snprintf(fs.rel[i], sizeof(fs.rel[i]),
				 "share/%s/exec-%d.%s", name, (int)getpid(),
				 i ? "err" : "out");
		s.read_at = far_read;
		s.read_ctx = &fs;
	}
	if (!ops || agent_exec(ops, l.p->nodes[node].domain, rt.args + 1,
			       rt.timeout_ms ? rt.timeout_ms : 60000, &s,
			       &res, &e)) {
		fprintf(err, "mstlab: %s: %s\n", rt.args[0], e.msg);
	} else {
		if (res.exit_code < 0)
			fprintf(err, "mstlab: %s: '%s' was killed (a signal, or "
				"its --timeout of %u ms)\n", rt.args[0],
				rt.args[1], rt.timeout_ms ? rt.timeout_ms :
				60000);
		rc = res.exit_code < 0 ? 1 : res.exit_code;
		exec_result_free(&res);
	}
	exec_files_remove(host, far ? &fs : NULL);
out:
	free(input);
	lab_fini(&l);
	runtime_free(&rt);
	return rc;
}

/* Which end of the link "NODE:PORT" is (lab_link_at found the link). */
static int deaf_end(const struct topo *t, int link, const char *end)
{
	const struct topo_end *e = &t->links[link].end[1];
	char ref[TOPO_NODE_NAME_MAX + TOPO_PORT_NAME_MAX + 2];

	snprintf(ref, sizeof(ref), "%s:%s", t->nodes[e->node].name,
		 t->nodes[e->node].ports[e->port].name);
	return strcmp(ref, end) ? 0 : 1;
}

int cmd_link(int argc, char **argv, FILE *out, FILE *err)
{
	static const char usage[] =
		"link TOPO.yaml NODE:PORT fail|restore [carrier|silent|deaf]";
	struct runtime rt;
	struct lab l = { 0 };
	struct errbuf e;
	enum topo_fail_mode mode;
	bool fail, deaf;
	int link, rc = attach(&rt, &l, argc, argv, out, err, usage, 2);

	if (rc)
		goto out;
	rc = 2;
	/* "fail deaf": a one-way silent failure, NODE:PORT stops hearing
	 * the other end (the fail step's direction: OTHER->NODE). */
	deaf = rt.nargs > 2 && !strcmp(rt.args[1], "fail") &&
	       !strcmp(rt.args[2], "deaf");
	if (rt.nargs > 3)
		errbuf_set(&e, "unexpected argument '%.60s'", rt.args[3]);
	if (rt.nargs > 3 || lab_link_words(rt.args[1], rt.nargs > 2 && !deaf ?
					   rt.args[2] : NULL, &fail, &mode,
					   &e)) {
		fprintf(err, "mstlab link: %s\nusage: mstlab %s\n", e.msg,
			usage);
		goto out;
	}
	rc = 1;
	link = lab_link_at(rt.t, rt.args[0], &e);
	if (link < 0) {
		fprintf(err, "mstlab: %s\n", e.msg);
		goto out;
	}
	if (deaf ? lab_link_fail_oneway(&l, link, deaf_end(rt.t, link,
							  rt.args[0]), &e) :
	    fail ? lab_link_fail(&l, link, mode, &e) :
		   lab_link_restore(&l, link, &e)) {
		fprintf(err, "mstlab: %s\n", e.msg);
		goto out;
	}
	fprintf(out, "link %u (%s) %s\n", rt.t->links[link].index, rt.args[0],
		!fail ? "restored" : deaf ? "down one way (deaf, silent)" :
		mode == TOPO_FAIL_CARRIER ? "down (carrier)" : "down (silent)");
	rc = 0;
out:
	lab_fini(&l);
	runtime_free(&rt);
	return rc;
}

/* An interactive shell on the node's serial console (console.h). */
int cmd_shell(int argc, char **argv, FILE *out, FILE *err)
{
	struct runtime rt;
	struct lab l = { 0 };
	const struct lab_ops *ops;
	struct errbuf e;
	int node, rc = attach_node(&rt, &l, argc, argv, out, err,
				   "shell TOPO.yaml|LAB NODE", 1, &node);

	if (rc)
		goto out;
	rc = 1;
	if (!isatty(0))
		fprintf(err, "mstlab shell: standard input is not a terminal: "
			"it goes to the console as it is\n");
	fprintf(err, "mstlab: %s's console; Ctrl-] ends\r\n",
		rt.t->nodes[node].name);
	fflush(out);
	/* A node of another host: its console through libvirt there. */
	ops = lab_node_ops(&l, (size_t)node, &e);
	if (!ops || console_attach(ops->hv_ctx, l.p->nodes[node].domain, 0,
				   fileno(out), &e)) {
		fprintf(err, "mstlab shell: %s\n", e.msg);
		goto out;
	}
	fprintf(err, "\r\nmstlab: left %s's console\n",
		rt.t->nodes[node].name);
	rc = 0;
out:
	lab_fini(&l);
	runtime_free(&rt);
	return rc;
}

/* The console log of a node of another host, there (its run folder's
 * copy comes at teardown): 0, or -1 with err. */
static int far_console(struct lab *l, int node, FILE *out, struct errbuf *err)
{
	const struct lab_ops *o = lab_node_ops(l, (size_t)node, err);
	char rel[TOPO_NODE_NAME_MAX + 16], *text;
	size_t len = 0;

	if (!o)
		return -1;
	snprintf(rel, sizeof(rel), "console/%s.log",
		 l->t->nodes[node].name);
	if (remote_get(o->remote, rel, REMOTE_DATA_MAX, &text, &len, err))
		return -1;
	fwrite(text, 1, len, out);
	free(text);
	return 0;
}

int cmd_console(int argc, char **argv, FILE *out, FILE *err)
{
	struct runtime rt;
	struct lab l = { 0 };
	char path[PATH_MAX + 64], buf[4096];
	struct errbuf e;
	size_t n;
	FILE *f;
	int node, rc = attach_node(&rt, &l, argc, argv, out, err,
				   "console TOPO.yaml|LAB NODE", 1, &node);

	if (rc)
		goto out;
	rc = 1;
	snprintf(path, sizeof(path), "%s/console/%s.log", l.run_dir,
		 rt.t->nodes[node].name);
	f = fopen(path, "re");
	if (!f && rt.t->nodes[node].host != TOPO_LOCAL_HOST) {
		if (far_console(&l, node, out, &e)) {
			fprintf(err, "mstlab: %s\n", e.msg);
			goto out;
		}
		snprintf(path, sizeof(path), "console/%s.log on host %s",
			 rt.t->nodes[node].name,
			 rt.t->hosts[rt.t->nodes[node].host].name);
	} else if (!f) {
		fprintf(err, "mstlab: no console log %s\n", path);
		goto out;
	} else {
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, out);
		fclose(f);
	}
	fprintf(err, "mstlab: that was %s; an interactive shell: mstlab "
		"shell %s %s\n", path, rt.t->name, rt.t->nodes[node].name);
	rc = 0;
out:
	lab_fini(&l);
	runtime_free(&rt);
	return rc;
}
