// SPDX-License-Identifier: MIT
/* Command dispatch: one table of {name, handler, usage}. */
#include "cli.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_checks.h"
#include "cmd_lab.h"
#include "cmd_watch.h"
#include "graphviz.h"
#include "opts.h"
#include "paths.h"
#include "plan.h"
#include "print.h"
#include "topo.h"
#include "version.h"

struct cli {
	FILE *out, *err;
	int argc;
	char **argv;		/* as main's: argv[0] the command's name */
};

static int load(struct cli *c, const char *path, struct topo **t)
{
	struct topo_error e;
	struct errbuf msg;

	if (topo_parse_file(path, t, &e) == 0) {
		if (topo_check_host(*t, &e) == 0)
			return 0;
		topo_free(*t);
		*t = NULL;
	}
	fprintf(c->err, "%s\n", topo_error_format(&e, &msg));
	return -1;
}

static int usage(struct cli *c, const char *text)
{
	fprintf(c->err, "usage: mstlab %s\n", text);
	return 2;
}

static void summary_mst(FILE *out, const struct topo_mst *m)
{
	fprintf(out, "  MST region %s revision %u\n", m->region, m->revision);
	for (size_t i = 0; i < m->n_msti; i++) {
		unsigned vid = 0, lo, hi;
		bool first = true;

		fprintf(out, "    MSTI %u: VLANs", m->msti[i].id);
		while (topo_vlan_next_range(&m->msti[i].vlans, &vid, &lo,
					    &hi)) {
			fprintf(out, first ? " " : ",");
			if (lo == hi)
				fprintf(out, "%u", lo);
			else
				fprintf(out, "%u-%u", lo, hi);
			first = false;
		}
		fprintf(out, "\n");
	}
}

static int cmd_check(struct cli *c)
{
	size_t roles[4] = { 0 };
	struct topo_error w;
	struct errbuf msg;
	struct topo *t;

	if (c->argc != 2)
		return usage(c, "check TOPO.yaml");
	if (load(c, c->argv[1], &t))
		return 1;
	for (size_t i = 0; topo_warning_next(t, &i, &w);)
		fprintf(c->err, "%s\n", topo_error_format(&w, &msg));
	for (size_t i = 0; i < t->n_nodes; i++)
		roles[t->nodes[i].role]++;
	fprintf(c->out, "%s: lab %s ok\n  %zu node%s:", t->file, t->name,
		t->n_nodes, t->n_nodes == 1 ? "" : "s");
	for (int r = 0; r < 4; r++)
		if (roles[r])
			fprintf(c->out, " %zu %s", roles[r],
				topo_role_name((enum topo_role)r));
	fprintf(c->out, "\n  %zu link%s\n", t->n_links,
		t->n_links == 1 ? "" : "s");
	summary_mst(c->out, &t->mst);
	for (size_t i = 0; i < t->n_scenarios; i++)
		fprintf(c->out, "  scenario %s: %zu step%s%s\n",
			t->scenarios[i].name, t->scenarios[i].n_steps,
			t->scenarios[i].n_steps == 1 ? "" : "s",
			t->scenarios[i].expect.set ? ", with expectations" :
			"");
	topo_free(t);
	return 0;
}

static int write_out(struct cli *c, const char *path, const char *text)
{
	FILE *f = path ? fopen(path, "w") : c->out;

	if (!f) {
		fprintf(c->err, "mstlab: cannot write %s\n", path);
		return 1;
	}
	fputs(text, f);
	if (path && fclose(f)) {
		fprintf(c->err, "mstlab: cannot write %s\n", path);
		return 1;
	}
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The dot text is written next to the SVG, then Graphviz draws it. */
static int write_svg(struct cli *c, const char *path, const struct sbuf *sb)
{
	char dot[PATH_MAX], *svg;
	struct errbuf e;
	int rc;

	if ((size_t)snprintf(dot, sizeof(dot), "%.*s.dot",
			     (int)(strlen(path) - 4), path) >= sizeof(dot) ||
	    write_out(c, dot, sbuf_str(sb)))
		return 1;
	if (graphviz_svg("dot", sbuf_str(sb), &svg, &e)) {
		fprintf(c->err, "mstlab: %s\n", e.msg);
		return 1;
	}
	rc = write_out(c, path, svg);
	free(svg);
	return rc;
}

static const struct opt_spec graph_spec = {
	.shorts = "o:", .flags = OPT_QUIET, .min_words = 1, .max_words = 1,
};

static int cmd_graph(struct cli *c)
{
	const char *path = NULL;
	struct sbuf sb;
	struct topo *t;
	struct opts o;
	int r;

	opts_start(&o, &graph_spec, c->argc, c->argv);
	while ((r = opts_next(&o)) == 'o')
		path = o.arg;
	if (r != OPT_END)
		return usage(c, "graph TOPO.yaml [-o OUT.dot|OUT.svg]");
	if (load(c, c->argv[o.ind], &t))
		return 1;
	sbuf_init(&sb);
	if (plan_dot(t, &sb))
		r = 1;
	else if (path && ends_with(path, ".svg"))
		r = write_svg(c, path, &sb);
	else
		r = write_out(c, path, sbuf_str(&sb));
	sbuf_free(&sb);
	topo_free(t);
	return r;
}

static const char plan_usage[] =
	"plan TOPO.yaml [--json | --xml NODE | --user-data NODE |\n"
	"                    --meta-data NODE | --mstd-conf NODE]\n"
	"                   [--virt qemu|kvm] [--run DIR] [--kernel PATH]\n"
	"                   [--debug-kernel PATH] [--initrd PATH]";

/* What plan prints (one at the most), and its other options. */
enum { O_JSON = 256, O_XML, O_USER_DATA, O_META_DATA, O_MSTD_CONF, O_VIRT,
       O_RUN, O_KERNEL, O_DKERNEL, O_INITRD };

static const struct opt plan_opts[] = {
	OPT_FLAG("json", O_JSON), OPT_VALUE("xml", O_XML),
	OPT_VALUE("user-data", O_USER_DATA),
	OPT_VALUE("meta-data", O_META_DATA),
	OPT_VALUE("mstd-conf", O_MSTD_CONF), OPT_VALUE("virt", O_VIRT),
	OPT_VALUE("run", O_RUN), OPT_VALUE("kernel", O_KERNEL),
	OPT_VALUE("debug-kernel", O_DKERNEL), OPT_VALUE("initrd", O_INITRD),
	{ 0 },
};

static const struct opt_spec plan_spec = {
	.opts = plan_opts, .flags = OPT_QUIET, .min_words = 1, .max_words = 1,
};

static int cmd_plan(struct cli *c)
{
	const char *topo, *node_name = NULL;
	struct plan_params pp = { .virt = PLAN_VIRT_QEMU };
	const char *run = NULL, *kernel[2] = { NULL }, *initrd = NULL;
	enum plan_err pe = PLAN_OK;
	char run_dir[PATH_MAX], tools[PATH_MAX];
	struct paths ps;
	struct plan *p;
	struct sbuf sb;
	struct topo *t;
	struct opts o;
	int node = -1, r = 0, k, what = 0;

	opts_start(&o, &plan_spec, c->argc, c->argv);
	while ((k = opts_next(&o)) > 0) {
		if (k <= O_MSTD_CONF) {
			if (what)
				return usage(c, plan_usage);
			what = k;
			node_name = o.arg;
		} else if (k == O_VIRT) {
			if (strcmp(o.arg, "kvm") == 0)
				pp.virt = PLAN_VIRT_KVM;
			else if (strcmp(o.arg, "qemu") != 0)
				return usage(c, plan_usage);
		} else if (k == O_RUN) {
			run = o.arg;
		} else if (k == O_KERNEL) {
			kernel[0] = o.arg;
		} else if (k == O_DKERNEL) {
			kernel[1] = o.arg;
		} else if (k == O_INITRD) {
			initrd = o.arg;
		}
	}
	if (k != OPT_END)
		return usage(c, plan_usage);
	topo = c->argv[o.ind];
	if (load(c, topo, &t))
		return 1;
	if (node_name)
		node = topo_node_find(t, node_name);
	if (node_name && node < 0) {
		fprintf(c->err, "mstlab: %s has no node '%s'\n", topo,
			node_name);
		topo_free(t);
		return 1;
	}
	r = paths_find(&ps);
	if (r) {
		fprintf(c->err, "mstlab: cannot work out the build folder: "
			"%s\n", strerror(-r));
		topo_free(t);
		return 1;
	}
	pe = plan_build(t, &p);
	if (pe) {
		fprintf(c->err, "mstlab: %s\n", plan_strerror(pe));
		topo_free(t);
		return 1;
	}
	/* Too long a folder ("") is PLAN_EPATH below. */
	if ((size_t)snprintf(run_dir, sizeof(run_dir), "%s/%s", ps.results,
			     t->name) >= sizeof(run_dir))
		run_dir[0] = '\0';
	pp.run_dir = run ? run : run_dir;
	pp.kernel[0] = kernel[0] ? kernel[0] : ps.kernel[0];
	pp.kernel[1] = kernel[1] ? kernel[1] : ps.kernel[1];
	pp.initrd = initrd ? initrd : ps.initrd;
	pp.tools = paths_tools_share(pp.initrd, tools, sizeof(tools));

	sbuf_init(&sb);
	if (!what || what == O_JSON) {
		struct printer pr;

		print_init(&pr, c->out, what == O_JSON);
		plan_print(p, &pr);
	} else if (what == O_XML)
		pe = plan_domain_xml(p, &pp, node, &sb);
	else if (what == O_USER_DATA)
		pe = plan_user_data(p, node, &sb);
	else if (what == O_META_DATA)
		pe = plan_meta_data(p, node, &sb);
	else
		pe = plan_mstd_conf(p, node, &sb);
	if (pe) {
		fprintf(c->err, "mstlab: %s\n", plan_strerror(pe));
		r = 1;
	} else {
		fputs(sbuf_str(&sb), c->out);
	}
	sbuf_free(&sb);
	plan_free(p);
	topo_free(t);
	return r;
}

/* The lab commands parse their own options (runtime.c). */
#define LAB_COMMAND(name)                                               \
	static int cli_##name(struct cli *c)                            \
	{                                                               \
		return cmd_##name(c->argc, c->argv, c->out, c->err);    \
	}
LAB_COMMAND(up)
LAB_COMMAND(down)
LAB_COMMAND(run)
LAB_COMMAND(status)
LAB_COMMAND(exec)
LAB_COMMAND(link)
LAB_COMMAND(console)
LAB_COMMAND(decode)
LAB_COMMAND(verdict)
LAB_COMMAND(watch)

static const struct command {
	const char *name;
	int (*run)(struct cli *c);
	const char *help;
	bool lab;	/* takes the options of a running lab (runtime.c) */
} commands[] = {
	{ "check", cmd_check, "check TOPO.yaml         validate, start nothing", false },
	{ "graph", cmd_graph, "graph TOPO.yaml [-o F.dot|F.svg]  Graphviz", false },
	{ "plan", cmd_plan, "plan TOPO.yaml [--json] names, MACs, XML, seeds", false },
	{ "up", cli_up, "up TOPO.yaml            start the lab, leave it up", true },
	{ "down", cli_down, "down TOPO.yaml          tear it down (also after a crash)", true },
	{ "run", cli_run, "run TOPO.yaml [-s SCENARIO] [--keep]  up, scenarios, down", true },
	{ "status", cli_status, "status TOPO.yaml [--json]  nodes of a lab that is up", true },
	{ "exec", cli_exec, "exec TOPO.yaml NODE CMD [ARG...]", true },
	{ "console", cli_console, "console TOPO.yaml NODE  its serial console log", true },
	{ "link", cli_link, "link TOPO.yaml NODE:PORT fail|restore [carrier|silent]", true },
	{ "watch", cli_watch, "watch TOPO.yaml|LAB|RUN_DIR [--json] [--count N] [--for SECONDS]\n"
	  "                    [--replay] [--results DIR]  trees and events, live",
	  false },
	{ "decode", cli_decode, "decode FILE.pcap [--json]  BPDUs, one per line", false },
	{ "verdict", cli_verdict, "verdict RUN_DIR         the checks on a finished run", false },
};

static const char lab_options[] =
	"options of up, down, run, status, exec, console and link:\n"
	"  --results DIR        run folders (default: results/ beside the build folder)\n"
	"  --uri URI            libvirt (default: $MSTLAB_URI, else qemu:///system)\n"
	"  --virt auto|qemu|kvm KVM only if a test boot works (auto), or forced\n"
	"  --kernel PATH, --debug-kernel PATH, --initrd PATH  guest images\n"
	"                       (default: in $MSTLAB_BUILD, else the build\n"
	"                       folder of this mstlab, else PREFIX/lib/mstlab)\n";

static int help(FILE *f)
{
	fprintf(f, "usage: mstlab COMMAND ...\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  mstlab %s\n", commands[i].help);
	fputs(lab_options, f);
	fputs("mstlab COMMAND --help: that command's usage\n", f);
	fputs("mstlab --version: this mstlab's version, and the kernels and "
	      "image it boots\n", f);
	return 2;
}

static bool is_help(const char *a)
{
	return strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0;
}

/* mstlab COMMAND --help: its line of the table, and the lab options. */
static int command_help(const struct command *cmd, FILE *f)
{
	fprintf(f, "usage: mstlab %s\n", cmd->help);
	if (cmd->lab)
		fputs(lab_options, f);
	return 0;
}

int mstlab_cli(int argc, char **argv, FILE *out, FILE *err)
{
	struct cli c = { out, err, argc - 1, argv + 1 };

	if (argc < 2)
		return help(err);
	if (is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
		help(out);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0)
		return mstlab_version_print(out, err);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name) != 0)
			continue;
		if (argc == 3 && is_help(argv[2]))
			return command_help(&commands[i], out);
		return commands[i].run(&c);
	}
	fprintf(err, "mstlab: unknown command '%s'\n", argv[1]);
	return help(err);
}
