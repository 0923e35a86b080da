// SPDX-License-Identifier: MIT
/* mstlab up, down and run: a lab's whole life. */
#include "cmd_lab.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd_checks.h"
#include "guardian.h"
#include "lab_args.h"
#include "mirror.h"
#include "paths.h"
#include "registry.h"
#include "runtime.h"
#include "scenario.h"
#include "services.h"
#include "test_hook.h"

#define BOOT_TIMEOUT_MS 180000

static int teardown(struct runtime *rt, const char *run_dir)
{
	fprintf(rt->err, "mstlab: tearing down %s\n", run_dir);
	if (lab_down(rt->t->name, run_dir, &rt->ops, rt->err)) {
		fprintf(rt->err, "mstlab: some resources are left (above); "
			"'mstlab down %s%s' retries\n", runtime_hint(rt),
			rt->t->name);
		return -1;
	}
	return 0;
}

/*
 * A run that died (crash, kill -9) leaves its registry entry behind. If
 * none of the lab's domains runs any more it is finished: clean it up.
 * If some run, the lab is in use: refuse.
 */
static int clear_stale(struct runtime *rt)
{
	char run_dir[PATH_MAX];
	struct errbuf err;
	const char *alive = NULL;
	struct plan *p;
	bool have_run;

	if (plan_build(rt->t, &p))
		return -1;
	have_run = lab_find_run(rt->t, p, &rt->ops, run_dir,
				sizeof(run_dir)) == 0;
	for (size_t i = 0; i < rt->t->n_nodes && !alive; i++) {
		int rc = rt->ops.hv->running(rt->ops.hv_ctx,
					     p->nodes[i].domain, &err);

		/* Not knowing is no licence to tear down. */
		if (rc < 0) {
			fprintf(rt->err, "mstlab: cannot tell whether lab %s "
				"is up: %s\n", rt->t->name, err.msg);
			plan_free(p);
			return -1;
		}
		if (rc == 1)
			alive = p->nodes[i].domain;
	}
	if (alive)
		fprintf(rt->err, "mstlab: lab %s is up (%s): 'mstlab down "
			"%s%s' first\n", rt->t->name,
			have_run ? run_dir : alive, runtime_hint(rt),
			rt->t->name);
	plan_free(p);
	if (alive)
		return -1;
	if (!have_run)
		return 0;
	fprintf(rt->err, "mstlab: an earlier run of %s did not finish: "
		"cleaning up after it\n", rt->t->name);
	return teardown(rt, run_dir);
}

static void arm_guardian(void *ctx, const char *run_dir)
{
	guardian_arm(((struct runtime *)ctx)->guardian, run_dir);
}

/*
 * Until it is ready, a lab being brought up is guarded whatever the
 * command (guardian.h): killed then, it is taken down. Started before
 * libvirt's threads; none, a warning.
 */
static void guard(struct runtime *rt)
{
	rt->guardian = guardian_start(rt->t->name, rt->uri_given);
	if (rt->guardian < 0)
		fprintf(rt->err, "mstlab: warning: no guardian: if mstlab is "
			"killed, 'mstlab down %s%s' removes what it left\n",
			runtime_hint(rt), rt->t->name);
}

/* Connect, pick the accelerator, create the run and start everything. */
static int bring_up(struct runtime *rt, struct lab *l, bool autodestroy)
{
	struct errbuf err = { "" };
	struct plan_params pp;
	struct topo_error w;

	/* What check warns of (a shape that crashes a tool in the guest)
	 * is said before anything boots, as check says it. */
	for (size_t i = 0; topo_warning_next(rt->t, &i, &w);)
		fprintf(rt->err, "%s\n", topo_error_format(&w, &err));
	if (runtime_start(rt, autodestroy, &pp) || clear_stale(rt))
		return -1;
	l->on_run_dir = arm_guardian;
	l->on_run_dir_ctx = rt;
	if (lab_init(l, rt->t, &rt->ops, rt->results, rt->err, &err)) {
		fprintf(rt->err, "mstlab: %s\n", err.msg);
		return -1;
	}
	pp.run_dir = l->pp.run_dir;
	l->pp = pp;
	l->boot = rt->boot;
	l->virt_auto = rt->virt < 0;
	runtime_template_cache(rt, l->tpl_cache, sizeof(l->tpl_cache));
	services_check_host(rt->err);
	fprintf(rt->err, "mstlab: lab %s: %zu nodes, %zu links, %s; run "
		"folder %s\n", rt->t->name, rt->t->n_nodes, rt->t->n_links,
		l->pp.virt == PLAN_VIRT_KVM ? "KVM" : "TCG", l->run_dir);
	if (lab_up(l, &err) || lab_wait_ready(l, BOOT_TIMEOUT_MS, &err)) {
		fprintf(rt->err, "mstlab: %s\n", err.msg);
		return -1;
	}
	test_hook_pause("ready");
	return 0;
}

int cmd_up(int argc, char **argv, FILE *out, FILE *err)
{
	struct runtime rt;
	struct lab l = { 0 };
	int rc = lab_args_parse(&rt, argc, argv, out, err,
			       "up TOPO.yaml [--boot cold|template] "
			       "[--virt auto|qemu|kvm]");

	if (rc)
		goto out;
	rc = 1;
	guard(&rt);
	if (bring_up(&rt, &l, false) == 0) {
		/* Meant to stay from now on: before it is said. */
		guardian_release(&rt.guardian);
		fprintf(out, "lab %s is up: %s\n  mstlab exec %s%s NODE CMD..."
			"  |  mstlab down %s%s\n", rt.t->name, l.run_dir,
			runtime_hint(&rt), rt.t->name, runtime_hint(&rt),
			rt.t->name);
		fflush(out);
		test_hook_pause("up-reported");
		rc = 0;
	} else if (l.p) {
		teardown(&rt, l.run_dir);
	}
	lab_fini(&l);
out:
	runtime_free(&rt);
	return rc;
}

int cmd_down(int argc, char **argv, FILE *out, FILE *err)
{
	char run_dir[PATH_MAX];
	struct runtime rt;
	struct plan *p = NULL;
	int rc = lab_args_parse(&rt, argc, argv, out, err, "down TOPO.yaml|LAB");

	if (rc == LAB_ARGS_NOT_UP)
		rc = 0;
	if (rc || !rt.t)
		goto out;
	rc = 1;
	if (runtime_connect(&rt, false, PLAN_VIRT_QEMU) || plan_build(rt.t, &p))
		goto out;
	if (lab_find_run(rt.t, p, &rt.ops, run_dir, sizeof(run_dir))) {
		fprintf(out, "lab %s is not up: nothing to do\n", rt.t->name);
		rc = 0;
		goto out;
	}
	if (teardown(&rt, run_dir) == 0) {
		fprintf(out, "lab %s is down (results in %s)\n", rt.t->name,
			run_dir);
		rc = 0;
	}
out:
	plan_free(p);
	runtime_free(&rt);
	return rc;
}

static bool has_scenario(const struct topo *t, const char *name)
{
	for (size_t i = 0; i < t->n_scenarios; i++)
		if (strcmp(t->scenarios[i].name, name) == 0)
			return true;
	return false;
}

/* While the scenarios run, the captures of other hosts are copied here
 * as they grow, over the lab's own sessions: watch and serve see them. */
static void mirror_far(struct lab *l, struct mirror *m)
{
	struct remote *rc[TOPO_MAX_HOSTS] = { 0 };
	struct errbuf e;

	if (!mirror_needed(l->t, l->p))
		return;
	for (size_t h = 1; h < TOPO_MAX_HOSTS; h++)
		rc[h] = l->hops[h] ? l->hops[h]->remote : NULL;
	if (mirror_start(m, l->t, l->p, l->run_dir, rc, l->log, &e))
		fprintf(l->log, "mstlab: %s: other hosts' captures come at "
			"teardown\n", e.msg);
}

static const char run_usage[] =
	"run TOPO.yaml [-s SCENARIO] [--keep] [--boot cold|template]\n"
	"                  [--virt auto|qemu|kvm]";

int cmd_run(int argc, char **argv, FILE *out, FILE *err)
{
	struct runtime rt;
	struct lab l = { 0 };
	int rc = lab_args_parse(&rt, argc, argv, out, err, run_usage);
	int tap = 0, failed = 0, ran = 0;
	struct result_counts checks = { 0 };
	struct step_counts steps;
	struct mirror mir = { .wake = { -1, -1 } };

	if (rc)
		goto out;
	if (rt.scenario && !has_scenario(rt.t, rt.scenario)) {
		fprintf(err, "mstlab: %s has no scenario '%s'\n", rt.topo_path,
			rt.scenario);
		rc = 1;
		goto out;
	}
	fprintf(out, "TAP version 14\n");
	/* Without --keep nothing may outlive us, not even after kill -9:
	 * libvirt destroys the domains when our connection drops, the
	 * guardian the rest. With --keep, only until the lab is up. */
	guard(&rt);
	if (bring_up(&rt, &l, !rt.keep)) {
		fprintf(out, "not ok %d - lab %s comes up\n", ++tap,
			rt.t->name);
		failed = 1;
	} else {
		if (rt.keep)
			guardian_release(&rt.guardian);
		fprintf(out, "ok %d - lab %s comes up\n", ++tap, rt.t->name);
		mirror_far(&l, &mir);
		for (size_t i = 0; i < rt.t->n_scenarios && !lab_interrupted;
		     i++) {
			const struct topo_scenario *sc = &rt.t->scenarios[i];

			if (rt.scenario && strcmp(sc->name, rt.scenario))
				continue;
			ran++;
			failed += scenario_run(&l, sc, out, &tap);
		}
		mirror_stop(&mir);
		if (lab_interrupted) {
			fprintf(out, "not ok %d - interrupted\n", ++tap);
			failed++;
		}
	}
	if (l.p && l.run_dir[0]) {
		events_run_end(&l.ev, failed);
		if (rt.keep && !failed)
			fprintf(err, "mstlab: --keep: lab %s stays up; "
				"'mstlab down %s%s' when done\n", rt.t->name,
				runtime_hint(&rt), rt.t->name);
		else if (teardown(&rt, l.run_dir)) {
			fprintf(out, "not ok %d - lab %s is torn down\n", ++tap,
				rt.t->name);
			failed++;
		}
		/* The captures are complete once their tcpdumps stopped. */
		steps = (struct step_counts){ tap - failed, failed };
		test_hook_pause("checks");
		if (!lab_interrupted)
			failed += run_verdicts(rt.t, l.run_dir, out, &tap,
					       &checks);
	} else {
		/* No run folder: nothing ran, nothing to judge or point to. */
		fprintf(out, "1..%d\n", tap);
		fprintf(err, "mstlab: lab %s did not start; no results "
			"written\n", rt.t->name);
		rc = 1;
		goto fini;
	}
	fprintf(out, "1..%d\n", tap);
	cmd_checks_result_line(out, &checks, &steps, l.run_dir);
	fprintf(err, "mstlab: %d scenario%s run, %s; results in %s\n", ran,
		ran == 1 ? "" : "s", failed ? "FAILED" : "passed",
		l.run_dir);
	rc = failed ? 1 : 0;
fini:
	lab_fini(&l);
out:
	runtime_free(&rt);
	return rc;
}
