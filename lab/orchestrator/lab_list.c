// SPDX-License-Identifier: MIT
#include "lab_list.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "events.h"
#include "grow.h"
#include "kernels.h"
#include "registry.h"

struct collect {
	struct lab_entry *v;
	size_t n, cap;
	bool oom;
};

/* How far the run went, from its event log. */
static void run_state(struct lab_entry *e)
{
	struct event *ev = NULL;
	struct errbuf err;
	size_t n = 0;

	snprintf(e->state, sizeof(e->state), "booting");
	if (events_read(e->run_dir, &ev, &n, &err))
		return;
	for (size_t i = 0; i < n; i++)
		switch (ev[i].kind) {
		case EVENT_READY:
			snprintf(e->state, sizeof(e->state), "up");
			break;
		case EVENT_SCENARIO:
			snprintf(e->state, sizeof(e->state), "scenario %.64s",
				 ev[i].arg);
			break;
		case EVENT_RUN_END:
			snprintf(e->state, sizeof(e->state), "up (run %s)",
				 strcmp(ev[i].arg, "ok") ? "failed" :
				 "passed");
			break;
		default:
			break;
		}
	free(ev);
}

/* Nodes, hosts and kernels from the copy of the topology the run keeps. */
static int from_topology(struct lab_entry *e)
{
	char path[PATH_MAX + 16];
	struct topo_error te;
	bool kernel[TOPO_KERNEL_COUNT] = { false };
	bool far[TOPO_MAX_HOSTS] = { false };
	struct topo *t;

	snprintf(path, sizeof(path), "%s/topology.yaml", e->run_dir);
	if (topo_parse_file(path, &t, &te))
		return -1;
	e->nodes = t->n_nodes;
	snprintf(e->hosts, sizeof(e->hosts), "local");
	for (size_t i = 0; i < t->n_nodes; i++) {
		kernel[t->nodes[i].kernel] = true;
		far[t->nodes[i].host] = t->nodes[i].host != TOPO_LOCAL_HOST;
	}
	for (size_t h = 0; h < t->n_hosts; h++)
		if (far[h]) {
			size_t len = strlen(e->hosts);

			snprintf(e->hosts + len, sizeof(e->hosts) - len, " %s",
				 t->hosts[h].name);
		}
	kernel_set_text(kernel, e->kernels, sizeof(e->kernels));
	topo_free(t);
	return 0;
}

static void add(void *ctx, const char *lab, const char *run_dir,
		time_t since)
{
	struct collect *c = ctx;
	struct lab_entry *e;
	struct stat st;

	if (c->oom ||
	    grow((void **)&c->v, &c->cap, c->n, sizeof(*c->v), 8)) {
		c->oom = true;
		return;
	}
	e = &c->v[c->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", lab);
	snprintf(e->run_dir, sizeof(e->run_dir), "%s", run_dir);
	e->since = since;
	if (!run_dir[0])
		snprintf(e->state, sizeof(e->state),
			 "not a lab's entry (mstlab down %s)", lab);
	else if (stat(run_dir, &st) || !S_ISDIR(st.st_mode))
		snprintf(e->state, sizeof(e->state),
			 "run folder gone (mstlab down %s)", lab);
	else if (from_topology(e))
		snprintf(e->state, sizeof(e->state),
			 "its topology.yaml cannot be read");
	else
		run_state(e);
}

int lab_list(struct lab_entry **out, size_t *n, struct errbuf *err)
{
	struct collect c = { 0 };

	if (registry_each(add, &c) || c.oom) {
		free(c.v);
		return errbuf_set(err, "cannot read the labs of this host: %s",
				  c.oom ? strerror(ENOMEM) : strerror(errno));
	}
	*out = c.v;
	*n = c.n;
	return 0;
}
