// SPDX-License-Identifier: MIT
#include "scenario.h"

#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "lab_hosts.h"
#include "remote.h"

static int nap(struct lab *l, unsigned ms, struct errbuf *err)
{
	const struct lab_ops *o = l->ops;
	long long end = o->now_ms(o->clock_ctx) + ms;

	for (;;) {
		long long left = end - o->now_ms(o->clock_ctx);

		if (lab_interrupted) {
			errbuf_set(err, "interrupted");
			return -1;
		}
		if (left <= 0)
			return 0;
		o->sleep_ms(o->clock_ctx, left > 100 ? 100 : (unsigned)left);
	}
}

/* Text as <run>/<dir>/<name> (node names are validated). */
static void save_output(struct lab *l, const char *dir, const char *name,
			const char *text, size_t len)
{
	char path[PATH_MAX + 256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", l->run_dir, dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/%s", l->run_dir, dir, name);
	f = fopen(path, "we");
	if (!f) {
		fprintf(l->log, "mstlab: cannot write %s\n", path);
		return;
	}
	fwrite(text, 1, len, f);
	fclose(f);
}

/* The last lines of text, at most len - 1 bytes, newlines as " | ". */
static void tail(const char *text, size_t n, char *buf, size_t len)
{
	size_t from, k = 0;
	const char *nl;

	while (n && text[n - 1] == '\n')
		n--;
	/* From the start of a line, when the window has one. */
	from = n > len / 2 ? n - len / 2 : 0;
	nl = from ? memchr(text + from, '\n', n - from) : NULL;
	if (nl)
		from = (size_t)(nl - text) + 1;
	for (size_t i = from; i < n && k + 4 < len; i++) {
		if (text[i] == '\n') {
			memcpy(buf + k, " | ", 3);
			k += 3;
		} else {
			buf[k++] = text[i];
		}
	}
	buf[k] = '\0';
}

/* The command's output as TAP comments, each line named; sep: '|' for
 * stdout, '!' for stderr. Consumes text. */
static void comment_lines(FILE *out, const char *node, char sep, char *text)
{
	for (char *line = text, *nl; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = 0;
		fprintf(out, "# %s%c %s\n", node, sep, line);
	}
}

static int run_exec(struct lab *l, const struct topo_cmd *cmd,
		    unsigned timeout_ms, const char *tag, FILE *out,
		    struct errbuf *err)
{
	const char *node = l->t->nodes[cmd->node].name;
	char name[512], last[240] = "";
	struct exec_result res;
	int rc;

	if (lab_exec(l, cmd->node, cmd->argv, timeout_ms, &res, err))
		return -1;
	/* Kept whole in the run folder: suites' TAP, snapshots, reports. */
	snprintf(name, sizeof(name), "%s-%s.txt", tag, node);
	save_output(l, "exec", name, res.out, res.out_len);
	if (res.err_len) {
		snprintf(name, sizeof(name), "%s-%s.stderr.txt", tag, node);
		save_output(l, "exec", name, res.err, res.err_len);
	}
	rc = res.exit_code;
	/* Why it failed: what it said last, on stderr before stdout. */
	if (rc && res.err_len)
		tail(res.err, res.err_len, last, sizeof(last));
	else if (rc && res.out_len)
		tail(res.out, res.out_len, last, sizeof(last));
	comment_lines(out, node, '|', res.out);
	comment_lines(out, node, '!', res.err);
	if (rc < 0)
		errbuf_set(err, "killed (signal or timeout)%s%s",
			   last[0] ? "; last output: " : ", no output", last);
	else if (rc)
		errbuf_set(err, "exit %d%s%s", rc,
			   last[0] ? "; last output: " : ", no output", last);
	exec_result_free(&res);
	return rc ? -1 : 0;
}

static int wait_command(struct lab *l, const struct topo_step *st,
			struct errbuf *err)
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
			errbuf_set(err, "%s not seen within %u ms",
				   st->match ? st->match : "exit 0",
				   st->timeout_ms);
			return -1;
		}
		if (nap(l, 200, err))
			return -1;
	}
}

/* netem at the egress of both ends of the link, in the guests. */
static int impair(struct lab *l, const struct topo_step *st, struct errbuf *err)
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
			errbuf_set(err, "tc on %s: %s",
				   l->t->nodes[end->node].name, res.err);
		exec_result_free(&res);
		if (rc && err->msg[0])
			return -1;
	}
	events_impair(&l->ev, tl->index, delay, loss);
	return 0;
}

static int flap(struct lab *l, const struct topo_step *st, struct errbuf *err)
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
 * Every bridge's FDB as JSON in
 * <run>/fdb/<scenario>-step<N>-<when>-<node>.json, so the checks can
 * confirm a flush they infer from the captures. Best effort: a node that
 * cannot answer is noted, not fatal.
 */
static void fdb_snapshot(struct lab *l, const char *tag, const char *when)
{
	static char *const dump[] = { "bridge", "-j", "fdb", "show", "br",
				      "br0", NULL };
	char name[512];
	struct errbuf err;

	for (size_t i = 0; i < l->t->n_nodes; i++) {
		struct exec_result res;

		if (!topo_role_is_bridge(l->t->nodes[i].role))
			continue;
		if (lab_exec(l, (int)i, dump, 5000, &res, &err)) {
			fprintf(l->log, "mstlab: no FDB from %s: %s\n",
				l->t->nodes[i].name, err.msg);
			continue;
		}
		snprintf(name, sizeof(name), "%s-%s-%s.json", tag, when,
			 l->t->nodes[i].name);
		save_output(l, "fdb", name, res.out, res.out_len);
		exec_result_free(&res);
	}
}

/* Runs argv in a guest, failing unless it exits 0. */
static int guest(struct lab *l, int node, char *const argv[],
		 struct errbuf *err)
{
	struct exec_result res;
	int rc;

	if (lab_exec(l, node, argv, 10000, &res, err))
		return -1;
	rc = res.exit_code;
	if (rc)
		errbuf_set(err, "%s: %s exited %d: %.200s",
			   l->t->nodes[node].name,
			   argv[0], rc, res.err_len ? res.err : res.out);
	exec_result_free(&res);
	return rc ? -1 : 0;
}

/* start-stop-daemon keeps a probe program in the background of the
 * guest with a pid file, without a shell. */
static int daemon_start(struct lab *l, int node, const char *pidfile,
			char *const prog_argv[], struct errbuf *err)
{
	char *argv[24] = { "start-stop-daemon", "-S", "-b", "-m", "-p",
			   (char *)pidfile, "-x", prog_argv[0], "--" };
	size_t n = 9;

	char *running[] = { "start-stop-daemon", "-K", "-t", "-p",
			    (char *)pidfile, NULL };

	for (size_t i = 1; prog_argv[i] && n < 23; i++)
		argv[n++] = prog_argv[i];
	argv[n] = NULL;
	if (guest(l, node, argv, err) || nap(l, 300, err))
		return -1;
	/* -b returns before the program checked its arguments. */
	if (guest(l, node, running, err))
		return errbuf_set(err, "%s: %s exited at once (bad arguments?)",
				  l->t->nodes[node].name, prog_argv[0]);
	return 0;
}

static int daemon_stop(struct lab *l, int node, const char *pidfile,
		       struct errbuf *err)
{
	char *argv[] = { "start-stop-daemon", "-K", "-p", (char *)pidfile,
			 "-s", "TERM", NULL };

	return guest(l, node, argv, err);
}

/* The next VLAN of the set after *vid. */
static bool next_vid(const struct topo_vlanset *set, unsigned *vid)
{
	for (unsigned v = *vid + 1; v < 4095; v++)
		if (topo_vlan_has(set, v)) {
			*vid = v;
			return true;
		}
	return false;
}

/* Flows one probe-gen sends at most (its PROBE_MAX_FLOWS). */
#define GEN_MAX_FLOWS 16

/* Appends ",N" (or "N" first) to a list of at most GEN_MAX_FLOWS. */
static void list_add(char *list, size_t size, unsigned n)
{
	size_t len = strlen(list);

	snprintf(list + len, size - len, "%s%u", len ? "," : "", n);
}

/*
 * One flow per VLAN (or one untagged) from the first port of `from` to
 * the first port of `to`, each counted by its own sink on `to`, which
 * writes share/<to>/probe-<flow>.json. One probe-gen sends up to 16 of
 * them, started together; its pid file is named after its first.
 */
static int probe_start(struct lab *l, const struct topo_step *st,
		       struct errbuf *err)
{
	const struct topo_node *from = &l->t->nodes[st->from];
	const struct topo_node *to = &l->t->nodes[st->to];
	unsigned vid = 0, in_gen = 0, first = 0;
	bool tagged = next_vid(&st->vlans, &vid), more;
	char flows[GEN_MAX_FLOWS * 6 + 1] = "";
	char vids[GEN_MAX_FLOWS * 5 + 1] = "";
	char rate[16], pid[64];
	char *gen[] = { "/usr/bin/probe-gen", "-i",
			(char *)from->ports[0].name, "-d",
			(char *)l->p->nodes[st->to].nic[0].mac_str,
			"-f", flows, "-r", rate, tagged ? "-v" : NULL,
			vids, NULL };

	snprintf(rate, sizeof(rate), "%u", st->rate_pps);
	do {
		struct lab_probe *pr = &l->probes[l->n_probes];
		char json[96], flow[8];
		char *sink[] = { "/usr/bin/probe-sink", "-i",
				 (char *)to->ports[0].name, "-o", json, "-f",
				 flow, NULL };

		if (l->n_probes == LAB_MAX_PROBES)
			return errbuf_set(err, "more than %d probe flows",
					  LAB_MAX_PROBES);
		*pr = (struct lab_probe){ st->from, st->to, ++l->next_flow,
					  (uint16_t)vid, !in_gen };
		snprintf(flow, sizeof(flow), "%u", pr->flow);
		snprintf(json, sizeof(json), "/lab/share/%s/probe-%u.json",
			 to->name, pr->flow);
		snprintf(pid, sizeof(pid), "/run/probe-sink-%u.pid", pr->flow);
		if (daemon_start(l, st->to, pid, sink, err))
			return -1;
		if (!in_gen)
			first = pr->flow;
		list_add(flows, sizeof(flows), pr->flow);
		list_add(vids, sizeof(vids), vid);
		l->n_probes++;
		events_probe_start(&l->ev, pr->flow, from->name, to->name, vid,
				   st->rate_pps);
		more = tagged && next_vid(&st->vlans, &vid);
		if (++in_gen == GEN_MAX_FLOWS || !more) {
			snprintf(pid, sizeof(pid), "/run/probe-gen-%u.pid",
				 first);
			if (daemon_start(l, st->from, pid, gen, err))
				return -1;
			in_gen = 0;
			flows[0] = vids[0] = '\0';
		}
	} while (more);
	return 0;
}

/* The sink's figures for a flow, from the run share, as TAP comments. */
static void probe_report(struct lab *l, const struct lab_probe *pr, FILE *out)
{
	char path[PATH_MAX + 128], line[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/share/%s/probe-%u.json", l->run_dir,
		 l->t->nodes[pr->to].name, pr->flow);
	/* A sink on another host: its report fetched here first. */
	if (l->t->nodes[pr->to].host != TOPO_LOCAL_HOST) {
		const struct lab_ops *o;
		struct errbuf err;
		char rel[128], *text = NULL;
		size_t len;

		snprintf(rel, sizeof(rel), "share/%s/probe-%u.json",
			 l->t->nodes[pr->to].name, pr->flow);
		o = lab_node_ops(l, (size_t)pr->to, &err);
		if (o && !remote_get(o->remote, rel, 1 << 20, &text, &len,
				     &err) && (f = fopen(path, "we"))) {
			fwrite(text, 1, len, f);
			fclose(f);
		}
		free(text);
	}
	f = fopen(path, "re");
	if (!f) {
		fprintf(out, "# probe flow %u: no sink report (%s)\n",
			pr->flow, path);
		return;
	}
	if (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		fprintf(out, "# probe flow %u %s->%s vlan %u: %.900s\n",
			pr->flow, l->t->nodes[pr->from].name,
			l->t->nodes[pr->to].name, pr->vid, line);
	}
	fclose(f);
}

static int probe_stop(struct lab *l, FILE *out, struct errbuf *err)
{
	char pid[64];
	int rc = 0;

	/* Senders first, then give the last frames time to arrive. */
	for (size_t i = 0; i < l->n_probes; i++) {
		snprintf(pid, sizeof(pid), "/run/probe-gen-%u.pid",
			 l->probes[i].flow);
		if (l->probes[i].gen)
			rc |= daemon_stop(l, l->probes[i].from, pid, err);
		events_probe_stop(&l->ev, l->probes[i].flow);
	}
	nap(l, 500, err);
	for (size_t i = 0; i < l->n_probes; i++) {
		snprintf(pid, sizeof(pid), "/run/probe-sink-%u.pid",
			 l->probes[i].flow);
		rc |= daemon_stop(l, l->probes[i].to, pid, err);
	}
	nap(l, 500, err);	/* the sinks write their JSON */
	for (size_t i = 0; i < l->n_probes; i++)
		probe_report(l, &l->probes[i], out);
	l->n_probes = 0;
	return rc ? -1 : 0;
}

/*
 * Crafted frames out of a guest's port, by the guest's ethsend (a packet
 * socket: the frames go out of that NIC as they are, past any bridge
 * of the guest), one run per frame; its argv, no shell.
 */
static int send_frames(struct lab *l, const struct topo_send *s,
		       struct errbuf *err)
{
	const struct topo_node *n = &l->t->nodes[s->node];
	char count[16];

	snprintf(count, sizeof(count), "%u", s->count);
	for (size_t i = 0; i < s->n_frames; i++) {
		char *argv[] = { "ethsend", "-i", (char *)n->ports[s->port].name,
				 "-d", (char *)s->dst, "-n", count,
				 s->pad ? s->frames[i] : "-u",
				 s->pad ? NULL : s->frames[i], NULL };

		if (guest(l, s->node, argv, err))
			return -1;
	}
	return 0;
}

static bool injects(const struct topo_step *st)
{
	return st->kind == TOPO_STEP_FAIL || st->kind == TOPO_STEP_RESTORE ||
	       st->kind == TOPO_STEP_FLAP;
}

static int step(struct lab *l, const struct topo_step *st, const char *tag,
		FILE *out, struct errbuf *err)
{
	switch (st->kind) {
	case TOPO_STEP_WAIT:
		if (st->wait_for == TOPO_WAIT_AGENTS)
			return lab_wait_ready(l, st->timeout_ms, err);
		if (st->wait_for == TOPO_WAIT_CONVERGED)
			return lab_wait_converged(l, st->timeout_ms, err);
		return wait_command(l, st, err);
	case TOPO_STEP_FAIL:
		if (st->deaf_end >= 0)
			return lab_link_fail_oneway(l, st->link, st->deaf_end,
						    err);
		return lab_link_fail(l, st->link, st->mode, err);
	case TOPO_STEP_RESTORE:
		return lab_link_restore(l, st->link, err);
	case TOPO_STEP_FLAP:
		return flap(l, st, err);
	case TOPO_STEP_IMPAIR:
		return impair(l, st, err);
	case TOPO_STEP_EXEC:
		return run_exec(l, &st->cmd, st->timeout_ms, tag, out, err);
	case TOPO_STEP_SLEEP:
		return nap(l, st->sleep_ms, err);
	case TOPO_STEP_MARK:
		events_mark(&l->ev, st->label);
		return 0;
	case TOPO_STEP_PROBE_START:
		return probe_start(l, st, err);
	case TOPO_STEP_PROBE_STOP:
		return probe_stop(l, out, err);
	case TOPO_STEP_SEND:
		return send_frames(l, &st->send, err);
	}
	errbuf_set(err, "unknown step");
	return -1;
}

int scenario_run(struct lab *l, const struct topo_scenario *sc, FILE *out,
		 int *tap_index)
{
	fprintf(l->log, "mstlab: scenario %s: %zu steps\n", sc->name,
		sc->n_steps);
	events_scenario(&l->ev, sc->name);
	for (size_t i = 0; i < sc->n_steps; i++) {
		const struct topo_step *st = &sc->steps[i];
		char what[256], tag[320];
		struct errbuf err = { "" };
		int rc;

		topo_step_describe(l->t, st, what, sizeof(what));
		fprintf(l->log, "mstlab: %s: step %zu/%zu: %s\n", sc->name,
			i + 1, sc->n_steps, what);
		events_step(&l->ev, i + 1, what);
		snprintf(tag, sizeof(tag), "%s-step%zu", sc->name, i + 1);
		if (injects(st))
			fdb_snapshot(l, tag, "before");
		rc = step(l, st, tag, out, &err);
		if (!rc && st->kind == TOPO_STEP_WAIT &&
		    st->wait_for == TOPO_WAIT_CONVERGED)
			fdb_snapshot(l, tag, "converged");
		if (!rc && lab_health(l))
			rc = -1, errbuf_set(&err, "the lab broke "
					    "(see above)");
		fprintf(out, "%sok %d - %s: %s (%s:%u)\n", rc ? "not " : "",
			++*tap_index, sc->name, what, l->t->file, st->mark.line);
		if (rc) {
			/* A Ctrl-C cuts what the step was waiting on: that
			 * is what happened, whatever broke after it. */
			fprintf(out, "# %s%s\n", lab_interrupted &&
				strcmp(err.msg, "interrupted") ?
				"interrupted: " : "", err.msg);
			events_step_failed(&l->ev, i + 1);
			return 1;
		}
	}
	return 0;
}
