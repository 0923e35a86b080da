// SPDX-License-Identifier: MIT
/* Command dispatch: one table of {name, handler, usage}. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_main.h"
#include "cmd_checks.h"
#include "cmd_lab.h"
#include "cmd_hosts.h"
#include "cmd_kernels.h"
#include "cmd_list.h"
#include "cmd_templates.h"
#include "cmd_watch.h"
#include "graphviz.h"
#include "opts.h"
#include "kernels.h"
#include "paths.h"
#include "plan.h"
#include "print.h"
#include "serve_main.h"
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

/* A usage error: what was wrong, then the usage. */
static int usage(struct cli *c, const char *why, const char *text)
{
	fprintf(c->err, "mstlab %s: %s\nusage: mstlab %s\n", c->argv[0], why,
		text);
	return 2;
}

/* The same after opts_next() gave OPT_BAD. */
static int bad_opts(struct cli *c, const struct opts *o, const char *text)
{
	char why[160];

	return usage(c, opts_why(o, why, sizeof(why)), text);
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

/* "3 hosts: local (2 nodes), far (4 nodes); 2 links cross hosts" */
static void summary_hosts(FILE *out, const struct topo *t)
{
	size_t crossing = 0;

	fprintf(out, "  %zu hosts:", t->n_hosts);
	for (size_t h = 0; h < t->n_hosts; h++) {
		size_t n = 0;

		for (size_t i = 0; i < t->n_nodes; i++)
			n += t->nodes[i].host == h;
		fprintf(out, "%s %s (%zu node%s)", h ? "," : "",
			t->hosts[h].name, n, n == 1 ? "" : "s");
	}
	for (size_t l = 0; l < t->n_links; l++)
		crossing += topo_link_crosses(t, l);
	fprintf(out, "; %zu link%s cross%s hosts (VXLAN)\n", crossing,
		crossing == 1 ? "" : "s", crossing == 1 ? "es" : "");
}

static const struct opt_spec check_spec = {
	.flags = OPT_QUIET, .min_words = 1, .max_words = 1,
};

static int cmd_check(struct cli *c)
{
	size_t roles[4] = { 0 };
	struct topo_error w;
	struct errbuf msg;
	struct topo *t;

	struct opts o;

	/* "-" is a word here (standard input), not an option. */
	opts_start(&o, &check_spec, c->argc, c->argv);
	if (opts_next(&o) != OPT_END)
		return bad_opts(c, &o, "check TOPO.yaml|-");
	if (load(c, c->argv[o.ind], &t))
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
	if (t->hosts_given)
		summary_hosts(c->out, t);
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

/* graph -o: the format is the file's extension. */
static const char *const graph_formats[] = { "dot", "gv", "svg", "png",
					     "pdf", NULL };

static const char *graph_format(const char *path)
{
	const char *dot = strrchr(path, '.');

	for (int i = 0; dot && graph_formats[i]; i++)
		if (strcmp(dot + 1, graph_formats[i]) == 0)
			return graph_formats[i];
	return NULL;
}

/* Opens the output first, so a path that cannot be written is said
 * before any work, with the reason. */
static int graph_write(struct cli *c, const char *path, const char *text)
{
	const char *format = path ? graph_format(path) : "dot";
	struct errbuf e;
	FILE *f;

	if (!format) {
		fprintf(c->err, "mstlab graph: cannot tell a format from '%s': "
			"name it .dot, .gv, .svg, .png or .pdf\n", path);
		return 2;
	}
	f = path ? fopen(path, "we") : c->out;
	if (!f) {
		fprintf(c->err, "mstlab graph: cannot write %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	if (strcmp(format, "dot") && strcmp(format, "gv")) {
		fclose(f);
		if (graphviz_file("dot", format, text, path, &e)) {
			fprintf(c->err, "mstlab graph: %s\n", e.msg);
			return 1;
		}
		return 0;
	}
	fputs(text, f);
	if (path && fclose(f)) {
		fprintf(c->err, "mstlab graph: cannot write %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	return 0;
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
		return bad_opts(c, &o, "graph TOPO.yaml [-o OUT.dot|.svg|.png|.pdf]");
	if (load(c, c->argv[o.ind], &t))
		return 1;
	sbuf_init(&sb);
	r = plan_dot(t, &sb) ? 1 : graph_write(c, path, sbuf_str(&sb));
	sbuf_free(&sb);
	topo_free(t);
	return r;
}

static const char plan_usage[] =
	"plan TOPO.yaml [--json | --xml NODE | --user-data NODE |\n"
	"                    --meta-data NODE | --mstd-conf NODE]\n"
	"                   [--virt qemu|kvm] [--run DIR] [--kernel NAME|PATH]\n"
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
	const char *run = NULL, *kernel = NULL, *dkernel = NULL;
	const char *initrd = NULL;
	enum topo_kernel kname = TOPO_KERNEL_DEFAULT;
	int named = 0;	/* --kernel NAME: 1, a path: 0 */
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
				return usage(c, "--json, --xml, --user-data, "
					     "--meta-data and --mstd-conf "
					     "exclude each other", plan_usage);
			what = k;
			node_name = o.arg;
		} else if (k == O_VIRT) {
			if (strcmp(o.arg, "kvm") == 0)
				pp.virt = PLAN_VIRT_KVM;
			else if (strcmp(o.arg, "qemu") != 0)
				return usage(c, "--virt takes qemu or kvm",
					     plan_usage);
		} else if (k == O_RUN) {
			run = o.arg;
		} else if (k == O_KERNEL) {
			kernel = o.arg;
			named = kernel_arg(kernel, &kname);
			if (named < 0)
				return usage(c, "--kernel takes a kernel name "
					     "(mstlab kernels) or a bzImage "
					     "path", plan_usage);
		} else if (k == O_DKERNEL) {
			dkernel = o.arg;
		} else if (k == O_INITRD) {
			initrd = o.arg;
		}
	}
	if (k != OPT_END)
		return bad_opts(c, &o, plan_usage);
	topo = c->argv[o.ind];
	if (load(c, topo, &t))
		return 1;
	if (kernel && named)
		kernel_override(t, kname);
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
	for (int i = 0; i < TOPO_KERNEL_COUNT; i++)
		pp.kernel[i] = kernel && !named ? kernel : ps.kernel[i];
	if (dkernel)
		pp.kernel[TOPO_KERNEL_DEBUG] = dkernel;
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
LAB_COMMAND(shell)
LAB_COMMAND(decode)
LAB_COMMAND(verdict)
LAB_COMMAND(watch)
LAB_COMMAND(templates)
LAB_COMMAND(list)
LAB_COMMAND(kernels)
LAB_COMMAND(hosts)

/* The two other front ends, each its own library. */
static int cli_serve(struct cli *c)
{
	return serve_main(c->argc, c->argv, c->out, c->err);
}

static int cli_agent(struct cli *c)
{
	return agent_main(c->argc, c->argv, c->out, c->err);
}

static const struct command {
	const char *name;
	int (*run)(struct cli *c);
	const char *help;	/* its line in mstlab --help */
	const char *usage;	/* mstlab COMMAND --help, NULL: help */
	bool lab;	/* takes the options of a running lab (runtime.c) */
} commands[] = {
	{ "check", cmd_check, "check TOPO.yaml|-       validate, start nothing", NULL, false },
	{ "graph", cmd_graph, "graph TOPO.yaml [-o F.dot|.svg|.png|.pdf]  Graphviz", NULL, false },
	{ "plan", cmd_plan, "plan TOPO.yaml [--json | --xml NODE ...]  names, MACs, XML, seeds", plan_usage, false },
	{ "up", cli_up, "up TOPO.yaml [--boot cold|template]  start the lab, leave it up", NULL, true },
	{ "down", cli_down, "down TOPO.yaml|LAB      tear it down (also after a crash)", NULL, true },
	{ "run", cli_run, "run TOPO.yaml [-s SCENARIO] [--keep] [--boot cold|template]\n"
	  "                    up, scenarios, down",
	  "run TOPO.yaml [-s|--scenario SCENARIO] [--keep] [--boot cold|template]\n"
	  "                    up, scenarios, down", true },
	{ "list", cli_list, LIST_USAGE, NULL, false },
	{ "kernels", cli_kernels, KERNELS_USAGE, NULL, false },
	{ "hosts", cli_hosts, HOSTS_USAGE, NULL, false },
	{ "status", cli_status, "status TOPO.yaml|LAB [--json]  nodes of a lab that is up", NULL, true },
	{ "exec", cli_exec, "exec [-n] [--timeout D] TOPO.yaml|LAB NODE CMD [ARG...]  (stdin goes too)",
	  "exec [-n|--no-stdin] [--timeout D] TOPO.yaml|LAB NODE CMD [ARG...]\n"
	  "                    (stdout, stderr streamed; stdin goes too)", true },
	{ "console", cli_console, "console TOPO.yaml|LAB NODE  its serial console log", NULL, true },
	{ "shell", cli_shell, "shell TOPO.yaml|LAB NODE  a shell on its console (Ctrl-] ends)", NULL, true },
	{ "link", cli_link, "link TOPO.yaml|LAB NODE:PORT fail [carrier|silent|deaf] | restore", NULL, true },
	{ "watch", cli_watch, "watch TOPO.yaml|LAB|RUN_DIR [--json] [--count N] [--for SECONDS]\n"
	  "                    [--replay] [--follow]  trees and events, live",
	  "watch TOPO.yaml|LAB|RUN_DIR [-j|--json] [--count N] [--for SECONDS]\n"
	  "                    [--replay] [--follow]  trees and events, live", false },
	{ "serve", cli_serve, "serve TOPO.yaml|LAB|RUN_DIR [--listen ADDR:PORT]\n"
	  "                    [--token-file FILE | --no-auth] [--read-only] [--uri URI]\n"
	  "                    the trees on a web page, links failed from it",
	  "serve TOPO.yaml|LAB|RUN_DIR [--listen ADDR:PORT]\n"
	  "                    [--token-file FILE | --no-auth] [--read-only] [--uri URI]\n"
	  "                    the trees on a web page, live or replayed; links failed\n"
	  "                    from it (default 127.0.0.1:8470, with a token)", false },
	{ "decode", cli_decode, "decode FILE.pcap [--json]  BPDUs, one per line",
	  "decode FILE.pcap [-j|--json]  BPDUs, one per line", false },
	{ "verdict", cli_verdict, "verdict RUN_DIR         the checks on a finished run", NULL, false },
	{ "templates", cli_templates, TEMPLATES_USAGE, NULL, true },
	{ "agent", cli_agent, "agent [--results DIR]   another host's side of a lab, over SSH (stdin/stdout)", NULL, false },
};

static const char lab_options[] =
	"options of up, down, run, status, exec, shell, console, link and\n"
	"templates build:\n"
	"  --results DIR        run folders (default: results/ beside the build folder)\n"
	"  --uri URI            libvirt (default: $MSTLAB_URI, else qemu:///system)\n"
	"  --virt auto|qemu|kvm KVM only if a test boot works (auto), or forced\n"
	"  --kernel NAME|PATH  every node boots that kernel (mstlab kernels) or bzImage\n"
	"  --debug-kernel PATH, --initrd PATH  guest images\n"
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
	fprintf(f, "usage: mstlab %s\n", cmd->usage ? cmd->usage : cmd->help);
	if (cmd->lab)
		fputs(lab_options, f);
	return 0;
}

/* The options that concern every lab: before any command, as git's and
 * docker's global options. */
static const char *const global_options[] = { "--results", "--uri",
	"--virt", "--kernel", "--debug-kernel", "--initrd", NULL };

/* The commands that act on no lab but still take some of them. */
static const struct {
	const char *command, *options;
} global_takers[] = {
	{ "plan", " --virt --kernel --debug-kernel --initrd " },
	{ "serve", " --uri " },
	{ "hosts", " --uri " },
	{ "agent", " --results " },
};

static bool in_list(const char *const list[], const char *word)
{
	for (int k = 0; list[k]; k++)
		if (strcmp(list[k], word) == 0)
			return true;
	return false;
}

/* Whether command takes the global option opt ("--uri"). */
static bool takes_global(const char *command, const char *opt)
{
	char key[40];

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, command) == 0 && commands[i].lab)
			return true;
	snprintf(key, sizeof(key), " %s ", opt);
	for (size_t i = 0; i < sizeof(global_takers) / sizeof(global_takers[0]);
	     i++)
		if (strcmp(global_takers[i].command, command) == 0 &&
		    strstr(global_takers[i].options, key))
			return true;
	return false;
}

/*
 * Options before the command (mstlab --results DIR run TOPO) go after
 * its name, where it reads them. A global option (global_options, also
 * as --opt=value) is accepted before any command: one that does not
 * concern the command (--results before check) is left out. Others
 * (--keep, --json, -s, --scenario, --boot) are the command's to take or
 * refuse. Returns the new argv (free it) and its length in *n_out, or
 * NULL with *bad the word that is not an option of any command.
 */
static const char *const with_value[] = { "-s", "--scenario", "--boot",
	NULL };
static const char *const flags[] = { "--keep", "--json", NULL };

/* An option word before the command: its name (of --opt=value: --opt)
 * into name; whether it takes the next word as its value; false for a
 * word that is no option of any command. */
static bool front_option(const char *word, char name[32], bool *takes)
{
	snprintf(name, 32, "%.*s", (int)strcspn(word, "="), word);
	*takes = !strchr(word, '=') && (in_list(global_options, name) ||
					in_list(with_value, name));
	return in_list(global_options, name) || in_list(with_value, name) ||
	       in_list(flags, name);
}

static char **options_after_command(int argc, char **argv, int *n_out,
				    const char **bad)
{
	char **v = calloc((size_t)argc + 1, sizeof(*v));
	int i = 1, n = 1, first;
	const char *command;

	if (!v)
		return NULL;
	v[0] = argv[0];
	while (i < argc && argv[i][0] == '-' && !is_help(argv[i]) &&
	       strcmp(argv[i], "--version")) {
		char name[32];
		bool takes;

		if (!front_option(argv[i], name, &takes)) {
			*bad = argv[i];
			free(v);
			return NULL;
		}
		i += takes && i + 1 < argc ? 2 : 1;
	}
	first = i;
	command = i < argc ? argv[i] : "";
	if (i < argc)
		v[n++] = argv[i];
	for (int k = 1; k < first; k++) {
		char name[32];
		bool takes;

		front_option(argv[k], name, &takes);
		takes = takes && k + 1 < first;
		if (in_list(global_options, name) &&
		    !takes_global(command, name)) {
			k += takes;	/* not this command's: left out */
			continue;
		}
		v[n++] = argv[k];
		if (takes)
			v[n++] = argv[++k];
	}
	for (int k = first + 1; k < argc; k++)
		v[n++] = argv[k];
	*n_out = n;
	return v;
}

static int dispatch(int argc, char **argv, FILE *out, FILE *err)
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

int mstlab_cli(int argc, char **argv, FILE *out, FILE *err)
{
	const char *bad = NULL;
	char **v;
	int rc, n;

	/* libvirt writes its RPC to a socket the daemon may have closed (a
	 * libvirtd killed under a run): an error to report, not a death.
	 * Children get SIGPIPE back (child.c). */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2 || argv[1][0] != '-')
		return dispatch(argc, argv, out, err);
	v = options_after_command(argc, argv, &n, &bad);
	if (!v) {
		if (!bad)
			return 1;
		fprintf(err, "mstlab: unknown option '%s' (mstlab --help: the "
			"commands and their options)\n", bad);
		return 2;
	}
	/* mstlab --results D run --help: run's usage. */
	if (argc >= 3 && is_help(argv[argc - 1]) && argv[argc - 2] == v[1])
		rc = dispatch(3, (char *[]){ v[0], v[1], argv[argc - 1], NULL },
			      out, err);
	else
		rc = dispatch(n, v, out, err);
	free(v);
	return rc;
}
