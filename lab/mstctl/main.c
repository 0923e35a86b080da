// SPDX-License-Identifier: MIT
/*
 * mstctl: configure and show the Linux bridge's MST mode (the grammar of
 * later iproute2's `bridge mst`). Thin: the work is in libmst's mstnl.
 */
#include "mstctl.h"
#include "opts.h"

#include <stdio.h>
#include <string.h>

static const struct opt mstctl_opts[] = { OPT_FLAG("json", 'j'), { 0 } };

/* -json and --json as well as -j, as iproute2 takes them. */
static const struct opt_spec mstctl_spec = {
	.usage = "Usage: mstctl [-j|--json] COMMAND\n"
		 "  mstctl enable dev BRIDGE\n"
		 "  mstctl disable dev BRIDGE\n"
		 "  mstctl [show [dev BRIDGE|PORT]]\n"
		 "  mstctl vlan set dev BRIDGE vid VID[-VID] msti MSTI\n"
		 "  mstctl set dev PORT msti MSTI state STATE\n"
		 "  mstctl flush dev PORT vid VID[,VID...]\n"
		 "  mstctl monitor\n"
		 "  mstctl stp show [dev BRIDGE [port PORT]]     (mstd status)\n"
		 "  mstctl stp set dev BRIDGE SETTING...  |  stp mcheck dev BRIDGE [port PORT]\n"
		 "  mstctl stp delete dev BRIDGE msti ID  |  stp recover dev BRIDGE port PORT\n"
		 "VID := 1..4094   MSTI := 1..4094 (vlan set: 0..4094, 0 = CIST)\n"
		 "STATE := disabled | listening | learning | forwarding | blocking\n"
		 "-j: JSON output. Exit: 0 ok, 1 refused by the kernel, 2 usage.\n",
	.opts = mstctl_opts,
	.flags = OPT_STOP | OPT_LONG_ONLY | OPT_QUIET,
	.max_words = OPT_ANY,
};

static const struct {
	const char *name;
	int (*fn)(struct ctl *c, int argc, char **argv);
} commands[] = {
	{ "enable", cmd_enable },
	{ "disable", cmd_disable },
	{ "show", cmd_show },
	{ "vlan", cmd_vlan },
	{ "set", cmd_set },
	{ "flush", cmd_flush },
	{ "monitor", cmd_monitor },
	{ "stp", cmd_stp },
};

int main(int argc, char **argv)
{
	struct ctl c = { 0 };
	int (*fn)(struct ctl *, int, char **) = NULL;
	int i, ret, err = 0;
	struct opts o;

	opts_start(&o, &mstctl_spec, argc, argv);
	while ((ret = opts_next(&o)) == 'j')
		c.json = true;
	if (ret == OPT_HELP)
		return EXIT_OK;
	if (ret == OPT_BAD)
		return ctl_fail(EXIT_USAGE,
				"unknown option \"%s\"; try \"mstctl help\"",
				o.bad);
	i = o.ind;
	if (i < argc && !strcmp(argv[i], "help")) {
		opts_help(&mstctl_spec, stdout);
		return EXIT_OK;
	}
	if (i == argc) {
		fn = cmd_show;	/* like `bridge mst` */
	} else {
		for (size_t k = 0; k < sizeof(commands) / sizeof(commands[0]);
		     k++)
			if (!strcmp(argv[i], commands[k].name))
				fn = commands[k].fn;
		if (!fn)
			return ctl_fail(EXIT_USAGE,
					"unknown command \"%s\"; try \"mstctl help\"",
					argv[i]);
		i++;
	}

	print_init(&c.pr, stdout, c.json);
	c.nl = mstnl_open(&err);
	if (!c.nl)
		return ctl_fail(EXIT_REFUSED, "cannot open rtnetlink: %s",
				strerror(-err));
	ret = fn(&c, argc - i, argv + i);
	mstnl_close(c.nl);
	if (fflush(stdout) != 0 || ferror(stdout))
		return ctl_fail(EXIT_REFUSED, "cannot write the output");
	return ret;
}
