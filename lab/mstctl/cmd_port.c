// SPDX-License-Identifier: MIT
/* mstctl commands on ports: show (like `bridge mst`), set, flush. */
#include "mstctl.h"
#include "args.h"

#include <errno.h>
#include <string.h>


struct show_ports {
	struct ctl *c;
	int only;		/* ifindex, 0: all */
	bool header;
};

static int show_port(const struct mstnl_port *port, void *data)
{
	struct show_ports *s = data;
	struct printer *p = &s->c->pr;
	bool first = true;

	if (!port->has_mst || (s->only && port->ifindex != s->only))
		return 0;
	if (!s->header) {
		print_string(p, PRINT_FP, NULL, "%s\n",
			     "port              msti");
		s->header = true;
	}
	print_open_object(p, NULL);
	print_int(p, PRINT_JSON, "ifindex", NULL, port->ifindex);
	print_string(p, PRINT_ANY, "ifname", "%-16s  ", port->ifname);
	print_open_array(p, "mst");
	for (unsigned int msti = 0; msti <= MSTNL_MSTI_KERNEL_MAX;
	     msti++) {
		if (port->msti_state[msti] == MSTNL_STATE_NONE)
			continue;
		if (!first)
			print_string(p, PRINT_FP, NULL, "%18s", "");
		first = false;
		print_open_object(p, NULL);
		print_uint(p, PRINT_ANY, "msti", "%u\n", msti);
		print_string(p, PRINT_ANY, "state", "                    "
			     "state %s\n",
			     mstnl_state_name(port->msti_state[msti]));
		print_close_object(p);
	}
	if (first)
		print_nl(p);
	print_close_array(p);
	print_close_object(p);
	return 0;
}

static int show_ports(struct ctl *c, int only)
{
	struct show_ports s = { c, only, false };
	struct mstnl_err err;

	print_open_array(&c->pr, NULL);
	if (mstnl_port_dump(c->nl, show_port, &s, &err) < 0)
		return ctl_fail_nl(&err, "cannot dump the bridge ports");
	print_close_array(&c->pr);
	return EXIT_OK;
}

int cmd_show(struct ctl *c, int argc, char **argv)
{
	static const char *const keys[] = { "dev", NULL };
	static const bool required[] = { false };
	const char *vals[1] = { NULL };
	struct mstnl_link link;
	int ret;

	ret = ctl_keywords("show", argc, argv, keys, required, vals);
	if (ret)
		return ret;
	if (!vals[0])
		return show_ports(c, 0);
	ret = ctl_link(c, vals[0], &link);
	if (ret)
		return ret;
	if (link.is_bridge) {
		if (!link.mst_supported)
			return ctl_fail(EXIT_REFUSED, "the kernel's bridge "
					"has no MST mode (%s)", vals[0]);
		return show_bridge(c, &link);
	}
	if (!link.is_bridge_port || !link.master)
		return ctl_fail(EXIT_USAGE, "%s is neither a bridge nor a "
				"bridge port", vals[0]);
	return show_ports(c, link.ifindex);
}

struct find_msti {
	int ifindex;
	uint16_t msti;
	bool found, stored;
};

static int find_msti(const struct mstnl_port *port, void *data)
{
	struct find_msti *f = data;

	if (port->ifindex == f->ifindex) {
		f->found = true;
		f->stored = port->msti_state[f->msti] != MSTNL_STATE_NONE;
	}
	return 0;
}

/*
 * The kernel keeps MSTI states only in the port's VLANs: without a VLAN of
 * that MSTI on the port, the request succeeds and changes nothing.
 */
static void warn_if_not_stored(struct ctl *c, const struct mstnl_link *port,
			       uint16_t msti)
{
	struct find_msti f = { port->ifindex, msti, false, false };
	struct mstnl_err err;

	if (mstnl_port_dump(c->nl, find_msti, &f, &err) == 0 && f.found &&
	    !f.stored)
		ctl_fail(0, "warning: %s has no VLAN in MSTI %u; the kernel "
			 "kept no state", port->ifname, msti);
}

int cmd_set(struct ctl *c, int argc, char **argv)
{
	static const char *const keys[] = { "dev", "msti", "state", NULL };
	static const bool required[] = { true, true, true };
	const char *vals[3] = { NULL, NULL, NULL };
	struct mstnl_msti_state e;
	struct mstnl_link port;
	struct mstnl_err err;
	unsigned int msti;
	int ret, state;

	ret = ctl_keywords("set", argc, argv, keys, required, vals);
	if (ret)
		return ret;
	ret = args_number(vals[1], 1, MSTNL_MSTI_MAX, &msti);
	if (ret == -ERANGE)
		return ctl_fail(EXIT_USAGE, "MSTI %s is outside 1..4094%s",
				vals[1], strcmp(vals[1], "0") ? "" :
				" (MSTI 0 is the CIST: bridge link set dev "
				"PORT state STATE)");
	if (ret)
		return ctl_fail(EXIT_USAGE, "invalid MSTI \"%s\"", vals[1]);
	state = mstnl_state_parse(vals[2]);
	if (state < 0)
		return ctl_fail(EXIT_USAGE, "unknown state \"%s\" (disabled, "
				"listening, learning, forwarding, blocking)",
				vals[2]);
	ret = ctl_port(c, vals[0], &port);
	if (ret)
		return ret;
	e.msti = (uint16_t)msti;
	e.state = (uint8_t)state;
	if (mstnl_port_msti_set(c->nl, port.ifindex, &e, 1, &err) < 0)
		return ctl_fail_nl(&err, "cannot set %s msti %u state %s",
				   vals[0], msti, vals[2]);
	warn_if_not_stored(c, &port, e.msti);
	return EXIT_OK;
}

int cmd_flush(struct ctl *c, int argc, char **argv)
{
	static const char *const keys[] = { "dev", "vid", NULL };
	static const bool required[] = { true, true };
	const char *vals[2] = { NULL, NULL };
	uint16_t vids[MSTNL_VID_MAX];
	struct mstnl_link port;
	struct mstnl_err err;
	const char *bad = NULL;
	size_t n, bad_len = 0;
	int ret;

	ret = ctl_keywords("flush", argc, argv, keys, required, vals);
	if (ret)
		return ret;
	ret = args_vid_list(vals[1], vids, MSTNL_VID_MAX, &n, &bad, &bad_len);
	if (ret == -ERANGE)
		return ctl_fail(EXIT_USAGE, "VID \"%.*s\" is outside 1..4094",
				(int)bad_len, bad);
	if (ret)
		return ctl_fail(EXIT_USAGE, "invalid VID \"%.*s\" in \"%s\" "
				"(VID[,VID...])", (int)bad_len, bad ? bad : "",
				vals[1]);
	ret = ctl_port(c, vals[0], &port);
	if (ret)
		return ret;
	/* the kernel's bulk delete filters on one VID per request */
	for (size_t i = 0; i < n; i++)
		if (mstnl_fdb_flush(c->nl, port.ifindex, vids[i], &err) < 0)
			return ctl_fail_nl(&err, "cannot flush %s vid %u",
					   vals[0], vids[i]);
	return EXIT_OK;
}
