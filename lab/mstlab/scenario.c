// SPDX-License-Identifier: MIT
#include "scenario.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *end_name(const struct lab *l, const struct topo_end *e,
			    char *buf, size_t len)
{
	snprintf(buf, len, "%s:%s", l->t->nodes[e->node].name,
		 l->t->nodes[e->node].ports[e->port].name);
	return buf;
}

/* "sw1:p1--sw2:p1" for people. */
static const char *link_name(const struct lab *l, int link, char *buf,
			     size_t len)
{
	char a[64], b[64];

	snprintf(buf, len, "%s--%s",
		 end_name(l, &l->t->links[link].end[0], a, sizeof(a)),
		 end_name(l, &l->t->links[link].end[1], b, sizeof(b)));
	return buf;
}

static void describe(const struct lab *l, const struct topo_step *st,
		     char *buf, size_t len)
{
	char ln[160];

	switch (st->kind) {
	case TOPO_STEP_WAIT:
		snprintf(buf, len, "wait for %s",
			 st->wait_for == TOPO_WAIT_CONVERGED ? "convergence" :
			 st->wait_for == TOPO_WAIT_AGENTS ? "agents" :
			 "a command");
		break;
	case TOPO_STEP_FAIL:
	case TOPO_STEP_FLAP:
		snprintf(buf, len, "%s %s (%s)", topo_step_name(st->kind),
			 link_name(l, st->link, ln, sizeof(ln)),
			 st->mode == TOPO_FAIL_CARRIER ? "carrier" : "silent");
		break;
	case TOPO_STEP_RESTORE:
	case TOPO_STEP_IMPAIR:
		snprintf(buf, len, "%s %s", topo_step_name(st->kind),
			 link_name(l, st->link, ln, sizeof(ln)));
		break;
	case TOPO_STEP_EXEC:
		snprintf(buf, len, "exec on %s: %s",
			 l->t->nodes[st->cmd.node].name,
			 st->cmd.argv[st->cmd.argc - 1]);
		break;
	case TOPO_STEP_SLEEP:
		snprintf(buf, len, "sleep %u ms", st->sleep_ms);
		break;
	case TOPO_STEP_MARK:
		snprintf(buf, len, "mark %s", st->label);
		break;
	default:
		snprintf(buf, len, "%s", topo_step_name(st->kind));
	}
}

static int nap(struct lab *l, unsigned ms, char *err)
{
	const struct lab_ops *o = l->ops;
	long long end = o->now_ms(o->clock_ctx) + ms;

	for (;;) {
		long long left = end - o->now_ms(o->clock_ctx);

		if (lab_interrupted) {
			ops_fail(err, "interrupted");
			return -1;
		}
		if (left <= 0)
			return 0;
		o->sleep_ms(o->clock_ctx, left > 100 ? 100 : (unsigned)left);
	}
}

static int run_exec(struct lab *l, const struct topo_cmd *cmd,
		    unsigned timeout_ms, FILE *out, char *err)
{
	struct exec_result res;
	int rc;

	if (lab_exec(l, cmd->node, cmd->argv, timeout_ms, &res, err))
		return -1;
	/* The command's output as TAP comments, each line named. */
	for (char *line = res.out, *nl; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = 0;
		fprintf(out, "# %s| %s\n", l->t->nodes[cmd->node].name, line);
	}
	rc = res.exit_code;
	if (rc)
		ops_fail(err, "exit %d: %.300s", rc,
			 res.err_len ? res.err : "");
	exec_result_free(&res);
	return rc ? -1 : 0;
}

static int wait_command(struct lab *l, const struct topo_step *st, char *err)
{
	const struct lab_ops *o = l->ops;
	long long end = o->now_ms(o->clock_ctx) + st->timeout_ms;

	for (;;) {
		struct exec_result res;
		bool done = false;

		if (!lab_exec(l, st->cmd.node, st->cmd.argv, 5000, &res, err)) {
			done = st->match ? strstr(res.out, st->match) != NULL :
					   res.exit_code == 0;
			exec_result_free(&res);
		}
		if (done)
			return 0;
		if (o->now_ms(o->clock_ctx) >= end) {
			ops_fail(err, "%s not seen within %u ms",
				 st->match ? st->match : "exit 0",
				 st->timeout_ms);
			return -1;
		}
		if (nap(l, 200, err))
			return -1;
	}
}

/* netem at the egress of both ends of the link, in the guests. */
static int impair(struct lab *l, const struct topo_step *st, char *err)
{
	const struct topo_link *tl = &l->t->links[st->link];
	bool clear = !st->impair.delay_ms && !st->impair.loss_ppm;
	char delay[32], loss[32];

	snprintf(delay, sizeof(delay), "%ums", st->impair.delay_ms);
	snprintf(loss, sizeof(loss), "%u.%04u%%", st->impair.loss_ppm / 10000,
		 st->impair.loss_ppm % 10000);
	for (int e = 0; e < 2; e++) {
		const struct topo_end *end = &tl->end[e];
		char *dev = (char *)l->t->nodes[end->node].ports[end->port].name;
		char *set[] = { "tc", "qdisc", "replace", "dev", dev, "root",
				"netem", "delay", delay, "loss", loss, NULL };
		char *del[] = { "tc", "qdisc", "del", "dev", dev, "root", NULL };
		struct exec_result res;
		int rc;

		if (lab_exec(l, end->node, clear ? del : set, 5000, &res, err))
			return -1;
		rc = res.exit_code;
		/* Clearing what was never set is fine. */
		if (rc && !(clear && strstr(res.err, "No such file")))
			ops_fail(err, "tc on %s: %s",
				 l->t->nodes[end->node].name, res.err);
		exec_result_free(&res);
		if (rc && err[0])
			return -1;
	}
	events_log(&l->ev, "impair", "link%u delay %s loss %s", tl->index,
		   delay, loss);
	return 0;
}

static int flap(struct lab *l, const struct topo_step *st, char *err)
{
	for (unsigned i = 0; i < st->count; i++)
		if (lab_link_fail(l, st->link, st->mode, err) ||
		    nap(l, st->down_ms, err) ||
		    lab_link_restore(l, st->link, err) ||
		    nap(l, st->up_ms, err))
			return -1;
	return 0;
}

/*
 * Every bridge's FDB as JSON in <run>/fdb/<step>-<when>-<node>.json, so
 * the checks can confirm a flush they infer from the captures. Best
 * effort: a node that cannot answer is noted, not fatal.
 */
static void fdb_snapshot(struct lab *l, size_t step_no, const char *when)
{
	static char *const dump[] = { "bridge", "-j", "fdb", "show", "br",
				      "br0", NULL };
	char path[PATH_MAX + 128], err[OPS_ERR_LEN];

	snprintf(path, sizeof(path), "%s/fdb", l->run_dir);
	mkdir(path, 0755);
	for (size_t i = 0; i < l->t->n_nodes; i++) {
		struct exec_result res;
		FILE *f;

		if (!topo_role_is_bridge(l->t->nodes[i].role))
			continue;
		if (lab_exec(l, (int)i, dump, 5000, &res, err)) {
			fprintf(l->log, "mstlab: no FDB from %s: %s\n",
				l->t->nodes[i].name, err);
			continue;
		}
		snprintf(path, sizeof(path), "%s/fdb/step%zu-%s-%s.json",
			 l->run_dir, step_no, when, l->t->nodes[i].name);
		f = fopen(path, "we");
		if (f) {
			fwrite(res.out, 1, res.out_len, f);
			fclose(f);
		}
		exec_result_free(&res);
	}
}

static bool injects(const struct topo_step *st)
{
	return st->kind == TOPO_STEP_FAIL || st->kind == TOPO_STEP_RESTORE ||
	       st->kind == TOPO_STEP_FLAP;
}

static int step(struct lab *l, const struct topo_step *st, FILE *out,
		char *err)
{
	switch (st->kind) {
	case TOPO_STEP_WAIT:
		if (st->wait_for == TOPO_WAIT_AGENTS)
			return lab_wait_ready(l, st->timeout_ms, err);
		if (st->wait_for == TOPO_WAIT_CONVERGED)
			return lab_wait_converged(l, st->timeout_ms, err);
		return wait_command(l, st, err);
	case TOPO_STEP_FAIL:
		return lab_link_fail(l, st->link, st->mode, err);
	case TOPO_STEP_RESTORE:
		return lab_link_restore(l, st->link, err);
	case TOPO_STEP_FLAP:
		return flap(l, st, err);
	case TOPO_STEP_IMPAIR:
		return impair(l, st, err);
	case TOPO_STEP_EXEC:
		return run_exec(l, &st->cmd, st->timeout_ms, out, err);
	case TOPO_STEP_SLEEP:
		return nap(l, st->sleep_ms, err);
	case TOPO_STEP_MARK:
		events_log(&l->ev, "mark", "%s", st->label);
		return 0;
	case TOPO_STEP_PROBE_START:
	case TOPO_STEP_PROBE_STOP:
		ops_fail(err, "probe traffic is not available in "
			 "this build yet");
		return -1;
	}
	ops_fail(err, "unknown step");
	return -1;
}

int scenario_run(struct lab *l, const struct topo_scenario *sc, FILE *out,
		 int *tap_index)
{
	fprintf(l->log, "mstlab: scenario %s: %zu steps\n", sc->name,
		sc->n_steps);
	events_log(&l->ev, "scenario", "%s", sc->name);
	for (size_t i = 0; i < sc->n_steps; i++) {
		const struct topo_step *st = &sc->steps[i];
		char what[256], err[OPS_ERR_LEN] = "";
		int rc;

		describe(l, st, what, sizeof(what));
		fprintf(l->log, "mstlab: %s: step %zu/%zu: %s\n", sc->name,
			i + 1, sc->n_steps, what);
		events_log(&l->ev, "step", "%zu %s", i + 1, what);
		if (injects(st))
			fdb_snapshot(l, i + 1, "before");
		rc = step(l, st, out, err);
		if (!rc && st->kind == TOPO_STEP_WAIT &&
		    st->wait_for == TOPO_WAIT_CONVERGED)
			fdb_snapshot(l, i + 1, "converged");
		if (!rc && lab_health(l))
			rc = -1, ops_fail(err, "the lab broke "
					  "(see above)");
		fprintf(out, "%sok %d - %s: %s (%s:%u)\n", rc ? "not " : "",
			++*tap_index, sc->name, what, l->t->file, st->mark.line);
		if (rc) {
			fprintf(out, "# %s\n", err);
			events_log(&l->ev, "step-failed", "%zu", i + 1);
			return 1;
		}
	}
	return 0;
}
