// SPDX-License-Identifier: MIT
/*
 * hsmpctl: the HSMP mailbox of AMD EPYC sockets from the command line,
 * in the manner of AMD's e_smi_tool: show every metric, set limits.
 */
#include "hsmpctl.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "opts.h"

static const struct opt_spec hsmpctl_spec = {
	.usage = "usage: hsmpctl [-j] [-d DEVICE] COMMAND  (-h, --help: this)\n"
		 "  show [SOCKET]                      every metric of every socket\n"
		 "  cpu                                the CPU as AMD's tools count it\n"
		 "  test SOCKET VALUE                  mailbox round trip (answers VALUE+1)\n"
		 "  dimm SOCKET ADDR                   a DIMM's temperature range, power, thermal\n"
		 "  set power-limit SOCKET MW\n"
		 "  set boost SOCKET MHZ               every core of the socket\n"
		 "  set core-boost APIC MHZ            one core\n"
		 "  set xgmi-width MIN MAX             0..2, every socket\n"
		 "  set df-pstate SOCKET 0..2|auto\n"
		 "  set pstate-range SOCKET MAX MIN    allowed DF P-states, 0..2, MAX <= MIN\n"
		 "  set nbio-dpm SOCKET NBIO MIN MAX   NBIO 0..3, levels 0..3\n"
		 "  set gmi3-width SOCKET MIN MAX      0..2\n"
		 "  set pci-rate SOCKET 0|1|2          auto, Gen4, Gen5; prints the previous\n"
		 "  set power-mode SOCKET 0..3\n"
		 "-j prints JSON. Frequencies in MHz, power in mW. Numbers are\n"
		 "decimal or hex after 0x. What the SMU's protocol lacks is n/a.\n",
	.shorts = "jd:",
	.flags = OPT_STOP,
	.min_words = 1,
	.max_words = OPT_ANY,
};

int hsmpctl_open(struct hsmpctl *c, int flags)
{
	char e[256];
	int fd = hsmp_open(c->path, flags, e, sizeof(e));

	if (fd < 0)
		fprintf(c->err, "hsmpctl: %s\n", e);
	return fd < 0 ? -1 : fd;
}

int hsmpctl_number(struct hsmpctl *c, const char *what, const char *s,
		   unsigned int min, unsigned int max, unsigned int *out)
{
	int ret = args_uint(s, min, max, out);

	if (ret == -ERANGE)
		fprintf(c->err, "hsmpctl: %s %s is out of range (%u..%u)\n",
			what, s, min, max);
	else if (ret)
		fprintf(c->err, "hsmpctl: %s '%s' is not a number (decimal, "
			"or hex after 0x)\n", what, s ? s : "");
	return ret ? 2 : 0;
}

int hsmpctl_failed(struct hsmpctl *c, const char *what, unsigned int sock,
		   int err)
{
	fprintf(c->err, "hsmpctl: %s on socket %u: %s\n", what, sock,
		hsmp_strerror(err));
	return 1;
}

int main(int argc, char **argv)
{
	struct hsmpctl c = { .path = HSMP_DEV_PATH, .err = stderr };
	bool json = false;
	struct opts o;
	int opt;

	opts_start(&o, &hsmpctl_spec, argc, argv);
	while ((opt = opts_next(&o)) > 0) {
		if (opt == 'j')
			json = true;
		else if (opt == 'd')
			c.path = o.arg;
	}
	if (opt != OPT_END)
		return opt == OPT_HELP ? 0 : 2;
	argc -= o.ind;
	argv += o.ind;
	print_init(&c.pr, stdout, json);
	c.ncpus = hsmp_cpus("/proc/cpuinfo", c.cpus, HSMP_MAX_CPUS);
	if (c.ncpus < 0)
		c.ncpus = 0;
	if (!strcmp(argv[0], "show"))
		return hsmpctl_show(&c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "set"))
		return hsmpctl_set(&c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "test"))
		return hsmpctl_test(&c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "dimm"))
		return hsmpctl_dimm(&c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "cpu"))
		return hsmpctl_cpu(&c, argc - 1, argv + 1);
	fprintf(stderr, "hsmpctl: unknown command '%s'\n", argv[0]);
	opts_help(&hsmpctl_spec, stderr);
	return 2;
}
