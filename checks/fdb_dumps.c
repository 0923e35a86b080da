// SPDX-License-Identifier: MIT
#include "fdb_dumps.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

/* The scenario step that injected event a->ev[event]: the last "step N"
 * logged before it; 0 if none. */
static unsigned event_step(const struct analysis *a, size_t event)
{
	for (size_t k = event; k-- > 0;) {
		if (a->ev[k].kind == EVENT_SCENARIO)
			break;
		if (a->ev[k].kind == EVENT_STEP && a->ev[k].args_ok)
			return a->ev[k].n;
	}
	return 0;
}

static json_t *load(const struct analysis *a, const char *scenario,
		    unsigned step, const char *when, const char *node)
{
	char path[8192];

	snprintf(path, sizeof(path), "%s/fdb/%s-step%u-%s-%s.json", a->run_dir,
		 scenario, step, when, node);
	return json_load_file(path, 0, NULL);
}

/* An entry the bridge learnt: its own master entry, no state flag
 * (permanent, static), not a device's (self) one. */
static bool learnt(json_t *e, const char **mac, const char **dev, int *vid)
{
	json_t *flags = json_object_get(e, "flags");
	const char *state = json_string_value(json_object_get(e, "state"));

	*mac = json_string_value(json_object_get(e, "mac"));
	*dev = json_string_value(json_object_get(e, "ifname"));
	*vid = (int)json_integer_value(json_object_get(e, "vlan"));
	if (!*mac || !*dev || *vid <= 0 || (state && *state) ||
	    !json_object_get(e, "master"))
		return false;
	for (size_t i = 0; i < json_array_size(flags); i++) {
		const char *f = json_string_value(json_array_get(flags, i));

		if (f && !strcmp(f, "self"))
			return false;
	}
	return true;
}

static bool has(json_t *dump, const char *mac, int vid)
{
	size_t i;
	json_t *e;

	json_array_foreach(dump, i, e) {
		const char *m = json_string_value(json_object_get(e, "mac"));

		if (m && !strcmp(m, mac) &&
		    json_integer_value(json_object_get(e, "vlan")) == vid)
			return true;
	}
	return false;
}

/* Whether dev is node's port on the event's link. */
static bool on_link(const struct analysis *a, size_t node, const char *dev,
		    int link)
{
	int port = topo_port_find(&a->t->nodes[node], dev);

	return link >= 0 && port >= 0 &&
	       a->t->nodes[node].ports[port].link == link;
}

static void compare(const struct analysis *a, size_t node, json_t *before,
		    json_t *after, int link, struct fdb_delta *d)
{
	size_t i;
	json_t *e;

	json_array_foreach(before, i, e) {
		const char *mac, *dev;
		int vid, slot;

		if (!learnt(e, &mac, &dev, &vid) || on_link(a, node, dev, link) ||
		    has(after, mac, vid))
			continue;
		/* The VLAN's tree in this bridge's own region. */
		slot = analysis_node_slot(a, (int)node, (unsigned)vid);
		if (slot < 0)
			slot = topo_tree_slot(&a->t->mst, analysis_tree_of_vid(
						      &a->t->mst, (unsigned)vid));
		if (slot < 0)
			continue;
		if (!d->forgotten[slot]++)
			snprintf(d->example[slot], sizeof(d->example[slot]),
				 "%s %s %s vlan %d", a->t->nodes[node].name,
				 dev, mac, vid);
	}
}

/* The step of the next link event of the scenario, or step + 64. */
static unsigned next_event_step(const struct analysis *a, size_t event,
				unsigned step)
{
	for (size_t k = event + 1; k < a->n_events; k++) {
		if (a->ev[k].kind == EVENT_SCENARIO)
			break;
		if (event_is_link(&a->ev[k]))
			return event_step(a, k);
	}
	return step + 64;
}

void fdb_delta(const struct analysis *a, const char *scenario, size_t event,
	       int event_link, struct fdb_delta *d)
{
	unsigned step = event_step(a, event), last;

	memset(d, 0, sizeof(*d));
	if (!step)
		return;
	last = next_event_step(a, event, step);
	for (size_t n = 0; n < a->t->n_nodes; n++) {
		const char *name = a->t->nodes[n].name;
		json_t *before, *after = NULL;

		if (!topo_role_is_bridge(a->t->nodes[n].role))
			continue;
		before = load(a, scenario, step, "before", name);
		/* The first convergence after the event. */
		for (unsigned s = step + 1; before && !after && s < last; s++)
			after = load(a, scenario, s, "converged", name);
		if (json_is_array(before) && json_is_array(after)) {
			d->found = true;
			compare(a, n, before, after, event_link, d);
		}
		json_decref(before);
		json_decref(after);
	}
}
