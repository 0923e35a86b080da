// SPDX-License-Identifier: MIT
#include "runtime.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "chan.h"
#include "hostnet.h"
#include "opts.h"
#include "paths.h"
#include "registry.h"
#include "services.h"

long long runtime_now_ms(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void runtime_sleep_ms(void *ctx, unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	(void)ctx;
	nanosleep(&ts, NULL);	/* a signal cuts it short: that is wanted */
}

void runtime_default_results(char *out, size_t len)
{
	struct paths ps;

	if (paths_find(&ps) ||
	    (size_t)snprintf(out, len, "%s", ps.results) >= len)
		snprintf(out, len, "%s", "");
}

static int absolute(const char *in, char *out, size_t len, FILE *err)
{
	char cwd[PATH_MAX];

	if (in[0] == '/') {
		snprintf(out, len, "%s", in);
		return 0;
	}
	if (!getcwd(cwd, sizeof(cwd)) ||
	    (size_t)snprintf(out, len, "%s/%s", cwd, in) >= len) {
		fprintf(err, "mstlab: path too long: %s\n", in);
		return -1;
	}
	return 0;
}

/* Long options only (keys above the letters). */
enum { O_KEEP = 256, O_JSON, O_RESULTS, O_URI, O_KERNEL, O_DKERNEL,
       O_INITRD, O_VIRT, O_TIMEOUT, O_BOOT };

static const struct opt lab_opts[] = {
	OPT_FLAG("keep", O_KEEP), OPT_FLAG("json", O_JSON),
	OPT_VALUE("scenario", 's'), OPT_VALUE("results", O_RESULTS),
	OPT_VALUE("uri", O_URI),
	OPT_VALUE("kernel", O_KERNEL), OPT_VALUE("debug-kernel", O_DKERNEL),
	OPT_VALUE("initrd", O_INITRD), OPT_VALUE("virt", O_VIRT),
	OPT_FLAG("no-stdin", 'n'), OPT_VALUE("timeout", O_TIMEOUT),
	OPT_VALUE("boot", O_BOOT),
	{ 0 },
};

/* The options only one command has, and that command. */
static const struct {
	int key;
	const char *name, *command;
} own_options[] = {
	{ O_KEEP, "--keep", "run" }, { 's', "-s/--scenario", "run" },
	{ O_JSON, "--json", "status" }, { 'n', "-n/--no-stdin", "exec" },
	{ O_TIMEOUT, "--timeout", "exec" },
};

/* --boot: an option of up and run only. */
static bool boots(const char *command)
{
	return !strcmp(command, "up") || !strcmp(command, "run");
}

/* Whether option key belongs to command; why not in why. */
static bool option_fits(int key, const char *command, char *why, size_t len)
{
	for (size_t i = 0; i < sizeof(own_options) / sizeof(own_options[0]);
	     i++)
		if (own_options[i].key == key &&
		    strcmp(own_options[i].command, command)) {
			snprintf(why, len, "%s is an option of %s only",
				 own_options[i].name, own_options[i].command);
			return false;
		}
	return true;
}

/* In order: the words after TOPO are a command's argv, kept whole. */
static const struct opt_spec lab_spec = {
	.opts = lab_opts,
	.flags = OPT_IN_ORDER | OPT_QUIET,
};

/*
 * A lab's name in place of its file (down, status, exec, link, console,
 * watch): the copy of the topology its current run keeps. A path that
 * exists is always the file.
 */
static void lab_topology(struct runtime *rt)
{
	char run_dir[PATH_MAX];

	if (access(rt->topo_path, F_OK) == 0 ||
	    !topo_valid_lab_name(rt->topo_path) ||
	    registry_find(rt->topo_path, run_dir, sizeof(run_dir)))
		return;
	if ((size_t)snprintf(rt->topo_copy, sizeof(rt->topo_copy),
			     "%s/topology.yaml", run_dir) <
	    sizeof(rt->topo_copy))
		rt->topo_path = rt->topo_copy;
}

void runtime_for(struct runtime *rt, const char *uri, FILE *out, FILE *err)
{
	memset(rt, 0, sizeof(*rt));
	rt->guardian = -1;
	rt->out = out;
	rt->err = err;
	rt->virt = -1;
	rt->uri = uri ? uri : getenv("MSTLAB_URI") ? getenv("MSTLAB_URI") :
						     "qemu:///system";
	rt->uri_given = uri;
}

int runtime_parse(struct runtime *rt, int argc, char **argv, FILE *out,
		  FILE *err, const char *usage)
{
	const char *results = NULL, *kernel = NULL, *dkernel = NULL;
	const char *initrd = NULL;
	struct topo_error te;
	struct paths ps;
	struct opts o;
	struct errbuf msg;
	char why[160] = "";
	int c = OPT_END, r;

	runtime_for(rt, NULL, out, err);
	rt->args = calloc((size_t)argc + 1, sizeof(char *));
	if (!rt->args)
		return 1;
	opts_start(&o, &lab_spec, argc, argv);
	while (!rt->nargs && (c = opts_next(&o)) > 0) {
		if (!option_fits(c, argv[0], why, sizeof(why)))
			goto bad;
		if (c == O_BOOT && !boots(argv[0])) {
			snprintf(why, sizeof(why), "--boot is an option of up "
				 "and run only");
			goto bad;
		}
		switch (c) {
		case OPT_WORD:
			if (!rt->topo_path)
				rt->topo_path = o.arg;
			else
				for (int i = o.ind - 1; i < argc; i++)
					rt->args[rt->nargs++] = argv[i];
			break;
		case O_KEEP:
			rt->keep = true;
			break;
		case O_JSON:
			rt->json = true;
			break;
		case 's':
			rt->scenario = o.arg;
			break;
		case O_RESULTS:
			results = o.arg;
			break;
		case O_URI:
			rt->uri = rt->uri_given = o.arg;
			snprintf(rt->hint, sizeof(rt->hint), "--uri %s ",
				 o.arg);
			break;
		case O_KERNEL:
			kernel = o.arg;
			break;
		case O_DKERNEL:
			dkernel = o.arg;
			break;
		case O_INITRD:
			initrd = o.arg;
			break;
		case 'n':
			rt->no_stdin = true;
			break;
		case O_TIMEOUT:
			if (topo_parse_duration_ms(o.arg, &rt->timeout_ms) ||
			    !rt->timeout_ms) {
				snprintf(why, sizeof(why), "--timeout takes a "
					 "duration with a unit (30s, 5m), not "
					 "'%.40s'", o.arg);
				goto bad;
			}
			break;
		case O_BOOT:
			if (strcmp(o.arg, "cold") == 0)
				rt->boot = LAB_BOOT_COLD;
			else if (strcmp(o.arg, "template") == 0)
				rt->boot = LAB_BOOT_TEMPLATE;
			else {
				snprintf(why, sizeof(why), "--boot takes cold "
					 "or template, not '%.40s'", o.arg);
				goto bad;
			}
			break;
		case O_VIRT:
			if (strcmp(o.arg, "qemu") == 0)
				rt->virt = PLAN_VIRT_QEMU;
			else if (strcmp(o.arg, "kvm") == 0)
				rt->virt = PLAN_VIRT_KVM;
			else if (strcmp(o.arg, "auto") != 0) {
				snprintf(why, sizeof(why), "--virt takes auto, "
					 "qemu or kvm, not '%.40s'", o.arg);
				goto bad;
			}
			break;
		}
	}
	if (c == OPT_BAD) {
		opts_why(&o, why, sizeof(why));
		goto bad;
	}
	if (!rt->topo_path) {
		snprintf(why, sizeof(why), "no topology file (or lab) given");
		goto bad;
	}
	r = paths_find(&ps);
	if (r || (size_t)snprintf(rt->results, sizeof(rt->results), "%s",
				  ps.results) >= sizeof(rt->results)) {
		fprintf(err, "mstlab: cannot work out the build folder: %s\n",
			strerror(r ? -r : ENAMETOOLONG));
		return 1;
	}
	memcpy(rt->kernel, ps.kernel, sizeof(rt->kernel));
	memcpy(rt->initrd, ps.initrd, sizeof(rt->initrd));
	memcpy(rt->cache, ps.cache, sizeof(rt->cache));
	if ((results && absolute(results, rt->results, sizeof(rt->results),
				 err)) ||
	    (kernel && absolute(kernel, rt->kernel[0], PATH_MAX, err)) ||
	    (dkernel && absolute(dkernel, rt->kernel[1], PATH_MAX, err)) ||
	    (initrd && absolute(initrd, rt->initrd, PATH_MAX, err)))
		return 1;
	lab_topology(rt);
	if (rt->topo_path != rt->topo_copy && topo_valid_lab_name(rt->topo_path)
	    && access(rt->topo_path, F_OK)) {
		fprintf(err, "mstlab %s: '%s' is no file, and no lab of that "
			"name is up\n", argv[0], rt->topo_path);
		return 1;
	}
	if (topo_parse_file(rt->topo_path, &rt->t, &te)) {
		fprintf(err, "%s\n", topo_error_format(&te, &msg));
		return 1;
	}
	return 0;
bad:
	fprintf(err, "mstlab %s: %s\nusage: mstlab %s\n(mstlab %s --help: "
		"its options)\n", argv[0], why, usage, argv[0]);
	return 2;
}

int runtime_check_images(const struct runtime *rt)
{
	bool boots[2] = { false, false };
	char msg[PATH_MAX + 128];
	int r = 0;

	/* Another host's nodes boot its own files (its agent names them). */
	for (size_t i = 0; i < rt->t->n_nodes; i++)
		if (rt->t->nodes[i].host == TOPO_LOCAL_HOST)
			boots[rt->t->nodes[i].kernel] = true;
	for (int k = TOPO_KERNEL_DEFAULT; k <= TOPO_KERNEL_DEBUG && !r; k++)
		if (boots[k])
			r = paths_need_kernel(rt->kernel[k],
					      (enum topo_kernel)k, msg,
					      sizeof(msg));
	if (!r)
		r = paths_need_initrd(rt->initrd, msg, sizeof(msg));
	if (r)
		fprintf(rt->err, "mstlab: %s\n", msg);
	return r;
}

int runtime_connect(struct runtime *rt, bool autodestroy, enum plan_virt virt)
{
	struct errbuf e;

	if (services_connect(&rt->hv, rt->uri, autodestroy, virt, rt->err,
			     &e)) {
		fprintf(rt->err, "mstlab: cannot connect to libvirt: %s\n",
			e.msg);
		return -1;
	}
	rt->ops = (struct lab_ops){
		.hv = &hv_libvirt_ops, .hv_ctx = &rt->hv,
		.link = &hostnet_ops, .link_ctx = NULL,
		.cap = &capture_tcpdump_ops, .cap_ctx = NULL,
		.now_ms = runtime_now_ms, .sleep_ms = runtime_sleep_ms, .clock_ctx = NULL,
		.chan = &chan_unix_ops, .chan_ctx = NULL,
	};
	/* The other hosts on first use, with the same autodestroy. */
	if (rt->t && lab_hosts_needed(rt->t)) {
		lab_hosts_init(&rt->hosts, rt->t, &rt->ops, autodestroy);
		rt->ops.host = lab_hosts_get;
		rt->ops.host_ctx = &rt->hosts;
	}
	return 0;
}

int runtime_start(struct runtime *rt, bool autodestroy,
		  struct plan_params *pp)
{
	struct topo_error te;
	struct errbuf msg;
	enum plan_virt virt;

	/* What only the host can say (overlay folders, the kernel and
	 * image), before anything is started. */
	if (topo_check_host(rt->t, &te)) {
		fprintf(rt->err, "%s\n", topo_error_format(&te, &msg));
		return -1;
	}
	if (runtime_check_images(rt))
		return -1;
	runtime_signals();
	/* The accelerator first: libvirtd must not even try a broken KVM. */
	virt = rt->virt >= 0 ? (enum plan_virt)rt->virt :
	       services_virt(rt->kernel[0], rt->initrd, rt->cache, rt->err);
	if (runtime_connect(rt, autodestroy, virt))
		return -1;
	*pp = (struct plan_params){
		.virt = virt, .kernel = { rt->kernel[0], rt->kernel[1] },
		.initrd = rt->initrd,
		.tools = paths_tools_share(rt->initrd, rt->tools,
					   sizeof(rt->tools)),
	};
	if (!pp->tools)
		fprintf(rt->err, "mstlab: warning: no tools share beside %s: "
			"the guests will lack tcpdump, ethtool and bash (make "
			"image builds both)\n", rt->initrd);
	return 0;
}

void runtime_free(struct runtime *rt)
{
	/* The guardian wakes: the run tore down, or it does. */
	if (rt->guardian >= 0)
		close(rt->guardian);
	rt->guardian = -1;
	lab_hosts_close(&rt->hosts);
	hv_libvirt_close(&rt->hv);
	topo_free(rt->t);
	free(rt->args);
	rt->t = NULL;
	rt->args = NULL;
}

static void on_signal(int sig)
{
	(void)sig;
	lab_interrupted = 1;
}

void runtime_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: waits end early */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void runtime_template_cache(const struct runtime *rt, char *out, size_t len)
{
	snprintf(out, len, "%s/templates", rt->cache);
}

const char *runtime_hint(const struct runtime *rt)
{
	return rt->hint;
}
