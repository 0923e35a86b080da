// SPDX-License-Identifier: MIT
/*
 * mstlab agent [--results DIR]: run by SSH on another host of a lab
 * (agent.h); the protocol on stdin and stdout, messages on
 * stderr. It listens on nothing and ends with its input.
 */
#include "agent_main.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "capture.h"
#include "chan.h"
#include "hostnet.h"
#include "hv_libvirt.h"
#include "kernels.h"
#include "paths.h"
#include "runtime.h"
#include "services.h"
#include "template.h"

/* This host's libvirt for its nodes' templates. Domains the
 * controller starts are its own over its URI; the agent builds
 * templates (autodestroy on this connection: they die with the agent)
 * and loads its clones' state (QEMU's monitor takes the state file's
 * descriptor, which only a local connection can pass). */
#define AGENT_URI "qemu:///system"

static struct hv_libvirt tpl_hv;
static struct lab_ops tpl_lab_ops;
static bool tpl_tried;
static struct errbuf tpl_why;

static int ensure(void *ctx, const struct plan *p,
		  const struct plan_params *pp, const char *cache, int node,
		  FILE *log, char key[TPL_KEY_LEN + 1], struct errbuf *err)
{
	return tpl_ensure(ctx, p, pp, cache, node, log, key, err);
}

static int load(void *ctx, const char *domain, const char *state,
		struct errbuf *err)
{
	return tpl_load(ctx, domain, state, err);
}

static int awaken(void *ctx, const struct plan *p, int node, int chan,
		  struct errbuf *err)
{
	return tpl_awaken(ctx, p, node, chan, err);
}

static const struct agent_tpl agent_tpl = {
	.ensure = ensure, .load = load, .awaken = awaken,
	.chan = &chan_unix_ops, .ctx = &tpl_lab_ops,
};

/* Reached on first use, once. */
static const struct agent_tpl *agent_tpl_ops(void *ctx, struct errbuf *err)
{
	(void)ctx;
	if (!tpl_tried) {
		tpl_tried = true;
		if (hv_libvirt_open(&tpl_hv, AGENT_URI, false, &tpl_why)) {
			char why[sizeof(tpl_why.msg)];

			snprintf(why, sizeof(why), "%s", tpl_why.msg);
			errbuf_set(&tpl_why, "this host's libvirt (%s): %.200s",
				   AGENT_URI, why);
		} else {
			tpl_lab_ops = (struct lab_ops){
				.hv = &hv_libvirt_ops, .hv_ctx = &tpl_hv,
				.now_ms = runtime_now_ms,
				.sleep_ms = runtime_sleep_ms,
				.chan = &chan_unix_ops,
			};
		}
	}
	if (!tpl_lab_ops.hv) {
		*err = tpl_why;
		return NULL;
	}
	return &agent_tpl;
}

/* Domains are libvirt's business over its URI: never the agent's. */
static int no_destroy(void *ctx, const char *name, struct errbuf *err)
{
	(void)ctx;
	return errbuf_set(err, "domain %s: not the agent's", name);
}

static const struct hv_ops agent_hv = { .destroy = no_destroy };

static char agent_cache[PATH_MAX];

/* Its progress lines go to ssh's stderr: stdout is the protocol's. */
static enum plan_virt agent_virt(const struct remote_agent *a)
{
	return services_virt(a->kernel[kernel_probe(a->t, a->host)], a->initrd,
			     agent_cache, stderr);
}

int agent_main(int argc, char **argv, FILE *out, FILE *err)
{
	static struct remote_agent a;
	struct lab_ops ops = {
		.hv = &agent_hv,
		.link = &hostnet_ops,
		.cap = &capture_tcpdump_ops,
	};
	char results[PATH_MAX / 2] = "";
	struct paths ps;
	int rc;

	(void)out;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--results") && i + 1 < argc) {
			snprintf(results, sizeof(results), "%s", argv[++i]);
		} else {
			fprintf(err, "usage: mstlab agent [--results DIR]\n");
			return 2;
		}
	}
	if (!results[0])
		runtime_default_results(results, sizeof(results));
	/* A controller that went away is an end of input, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	remote_agent_init(&a, &ops, results);
	/* Its own guest files, found as this host's mstlab finds them
	 * ($MSTLAB_BUILD, its build folder, its prefix): never the
	 * controller's paths. */
	if (!paths_find(&ps)) {
		memcpy(a.kernel, ps.kernel, sizeof(a.kernel));
		memcpy(a.initrd, ps.initrd, sizeof(a.initrd));
		snprintf(agent_cache, sizeof(agent_cache), "%s", ps.cache);
		a.virt = agent_virt;
		/* Its own template cache, as runtime_template_cache's. */
		if ((size_t)snprintf(a.tpl_cache, sizeof(a.tpl_cache),
				     "%s/templates", ps.cache) <
		    sizeof(a.tpl_cache)) {
			a.tpl_ops = agent_tpl_ops;
			a.tpl_ctx = NULL;
		}
	}
	rc = remote_agent_serve(&a, STDIN_FILENO, STDOUT_FILENO, -1);
	remote_agent_fini(&a);
	if (tpl_lab_ops.hv)
		hv_libvirt_close(&tpl_hv);
	return rc ? 1 : 0;
}
