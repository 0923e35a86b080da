// SPDX-License-Identifier: MIT
/*
 * mstlab agent [--results DIR]: run by SSH on another host of a lab
 * (remote_agent.h); the protocol on stdin and stdout, messages on
 * stderr. It listens on nothing and ends with its input.
 */
#include "remote_agent.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "hostnet.h"
#include "paths.h"
#include "runtime.h"

/* Domains are libvirt's business over its URI: never the agent's. */
static int no_destroy(void *ctx, const char *name, struct errbuf *err)
{
	(void)ctx;
	return errbuf_set(err, "domain %s: not the agent's", name);
}

static const struct hv_ops agent_hv = { .destroy = no_destroy };

int cmd_agent(int argc, char **argv, FILE *out, FILE *err)
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
	}
	rc = remote_agent_serve(&a, STDIN_FILENO, STDOUT_FILENO, -1);
	remote_agent_fini(&a);
	return rc ? 1 : 0;
}
