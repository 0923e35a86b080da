// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the topology parser and the planner behind it.
 * Any input either fails with a positioned error or yields a model every
 * generator can render, with positioned warnings; names must fit
 * IFNAMSIZ either way. The same input as the user's host settings: a
 * positioned error, or settings that need no quoting anywhere.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_settings.h"
#include "plan.h"
#include "topo.h"
#include "print.h"

static const struct plan_params params = {
	.virt = PLAN_VIRT_QEMU,
	.run_dir = "/run/fuzz",
	.kernel = { "/k/bzImage", "/k/bzImage-debug" },
	.initrd = "/k/initrd",
};

static void render(const struct topo *t)
{
	struct plan *p;
	struct sbuf sb;

	if (plan_build(t, &p))
		abort();
	sbuf_init(&sb);
	for (size_t i = 0; i < t->n_nodes; i++) {
		const struct topo_node *n = &t->nodes[i];
		/* Only bridges run mstd; every other node is refused. */
		enum plan_err want = topo_role_is_bridge(n->role) &&
				     !n->kernel_stp ? PLAN_OK : PLAN_ENOMSTD;

		for (size_t j = 0; j < t->nodes[i].n_ports; j++)
			if (strlen(p->nodes[i].nic[j].tap) >= IFNAMSIZ - 1)
				abort();
		if (plan_domain_xml(p, &params, (int)i, &sb) ||
		    plan_user_data(p, (int)i, &sb) ||
		    plan_meta_data(p, (int)i, &sb) ||
		    plan_mstd_conf(p, (int)i, &sb) != want)
			abort();
		sbuf_reset(&sb);
	}
	if (plan_dot(t, &sb))
		abort();
	{
		/* Opened once: no file-system work per input. */
		static FILE *null;
		struct printer pr;

		if (!null && !(null = fopen("/dev/null", "w")))
			abort();
		print_init(&pr, null, true);
		plan_print(p, &pr);
	}
	sbuf_free(&sb);
	plan_free(p);
}

static void settings(const uint8_t *data, size_t size)
{
	struct host_settings s;
	struct topo_error err;

	if (host_settings_parse("hosts.yaml", data, size, "h", &s, &err)) {
		if (err.mark.line == 0 || err.mark.col == 0 || !err.msg[0] ||
		    s.keyfile[0] || s.ssh_command[0] || s.mstlab[0])
			abort();
		return;
	}
	if ((s.keyfile[0] && !topo_safe_word(s.keyfile)) ||
	    (s.ssh_command[0] && !topo_safe_word(s.ssh_command)) ||
	    (s.mstlab[0] && !topo_safe_word(s.mstlab)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct topo_error err;
	struct topo *t;
	struct errbuf msg;

	settings(data, size);

	if (topo_parse_buffer("fuzz.yaml", data, size, &t, &err)) {
		if (t || err.mark.line == 0 || err.mark.col == 0 ||
		    !err.msg[0])
			abort();
		topo_error_format(&err, &msg);
		return 0;
	}
	render(t);
	/* Warnings are positioned too, at most one a node. */
	for (size_t i = 0, n = 0; topo_warning_next(t, &i, &err);)
		if (err.mark.line == 0 || err.mark.col == 0 || !err.msg[0] ||
		    ++n > t->n_nodes)
			abort();
	topo_free(t);
	return 0;
}
