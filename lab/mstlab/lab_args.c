// SPDX-License-Identifier: MIT
/*
 * The options of the commands that act on one lab (up, run, down,
 * status, exec, link, console, shell, templates build): one table, each
 * option refused by the commands it does not concern.
 */
#include "lab_args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels.h"
#include "opts.h"
#include "paths.h"
#include "registry.h"

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

/* --kernel PATH: the image every node boots, whatever its kernel. */
static int kernel_path(const char *in,
		       char paths[TOPO_KERNEL_COUNT][PATH_MAX], FILE *err)
{
	for (int k = 0; k < TOPO_KERNEL_COUNT; k++)
		if (absolute(in, paths[k], PATH_MAX, err))
			return -1;
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

int lab_args_parse(struct runtime *rt, int argc, char **argv, FILE *out,
		   FILE *err, const char *usage)
{
	const char *results = NULL, *kernel = NULL, *dkernel = NULL;
	const char *initrd = NULL;
	enum topo_kernel kname = TOPO_KERNEL_DEFAULT;
	int named = 0;	/* --kernel NAME: 1, a path: 0 */
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
			named = kernel_arg(kernel, &kname);
			if (named < 0) {
				snprintf(why, sizeof(why), "--kernel takes a "
					 "kernel (%s; mstlab kernels) or a "
					 "bzImage path, not '%.40s'",
					 kernel_spellings_text(), kernel);
				goto bad;
			}
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
	    (kernel && !named && kernel_path(kernel, rt->kernel, err)) ||
	    (dkernel && absolute(dkernel, rt->kernel[TOPO_KERNEL_DEBUG],
				 PATH_MAX, err)) ||
	    (initrd && absolute(initrd, rt->initrd, PATH_MAX, err)))
		return 1;
	lab_topology(rt);
	if (rt->topo_path != rt->topo_copy && topo_valid_lab_name(rt->topo_path)
	    && access(rt->topo_path, F_OK) && !strcmp(argv[0], "down")) {
		/* As for its file: a CI's cleanup step by name after a
		 * run that took its lab down is not an error. */
		fprintf(out, "lab %s is not up: nothing to do\n",
			rt->topo_path);
		return LAB_ARGS_NOT_UP;
	}
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
	if (kernel && named)
		kernel_override(rt->t, kname);
	return 0;
bad:
	fprintf(err, "mstlab %s: %s\nusage: mstlab %s\n(mstlab %s --help: "
		"its options)\n", argv[0], why, usage, argv[0]);
	return 2;
}
