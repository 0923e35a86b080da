// SPDX-License-Identifier: MIT
/* mstctl commands on a bridge: enable, disable, show dev BR, vlan set. */
#include "mstctl.h"
#include "args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int set_mst(struct ctl *c, int argc, char **argv, bool on)
{
	static const char *const keys[] = { "dev", NULL };
	static const bool required[] = { true };
	const char *cmd = on ? "enable" : "disable";
	const char *vals[1] = { NULL };
	struct mstnl_link br;
	struct mstnl_err err;
	int ret;

	ret = ctl_keywords(cmd, argc, argv, keys, required, vals);
	if (!ret)
		ret = ctl_bridge(c, vals[0], &br);
	if (ret)
		return ret;
	if (mstnl_mst_set(c->nl, br.ifindex, on, &err) < 0)
		return ctl_fail_nl(&err, "cannot %s MST on %s", cmd, vals[0]);
	return EXIT_OK;
}

int cmd_enable(struct ctl *c, int argc, char **argv)
{
	return set_mst(c, argc, argv, true);
}

int cmd_disable(struct ctl *c, int argc, char **argv)
{
	return set_mst(c, argc, argv, false);
}

/* Prints the VID -> MSTI table, consecutive VIDs of one MSTI as ranges. */
static void show_vid_map(struct ctl *c, const struct mstnl_vid_map *map)
{
	struct printer *p = &c->pr;
	bool header = false;
	char range[16];

	print_open_array(p, "vlans");
	for (unsigned int vid = 1; vid <= MSTNL_VID_MAX; vid++) {
		unsigned int end = vid;

		if (!mstnl_vid_map_has(map, (uint16_t)vid))
			continue;
		while (end < MSTNL_VID_MAX &&
		       mstnl_vid_map_has(map, (uint16_t)(end + 1)) &&
		       map->msti[end + 1] == map->msti[vid])
			end++;
		if (!header) {
			print_string(p, PRINT_FP, NULL, "%s\n",
				     "vlan-id    msti");
			header = true;
		}
		print_open_object(p, NULL);
		print_uint(p, PRINT_JSON, "vlan", NULL, vid);
		if (end > vid)
			print_uint(p, PRINT_JSON, "vlanEnd", NULL, end);
		if (end > vid)
			snprintf(range, sizeof(range), "%u-%u", vid, end);
		else
			snprintf(range, sizeof(range), "%u", vid);
		print_string(p, PRINT_FP, NULL, "%-11s", range);
		print_uint(p, PRINT_ANY, "msti", "%u\n", map->msti[vid]);
		print_close_object(p);
		vid = end;
	}
	print_close_array(p);
}

int show_bridge(struct ctl *c, const struct mstnl_link *br)
{
	struct mstnl_vid_map *map;
	struct mstnl_err err;
	struct printer *p = &c->pr;

	map = malloc(sizeof(*map));
	if (!map)
		return ctl_fail(EXIT_REFUSED, "out of memory");
	if (mstnl_vlan_msti_get(c->nl, br->ifindex, map, &err) < 0) {
		free(map);
		return ctl_fail_nl(&err, "cannot read the VLANs of %s",
				   br->ifname);
	}
	print_open_object(p, NULL);
	print_string(p, PRINT_ANY, "ifname", "%s", br->ifname);
	print_uint(p, PRINT_FP, NULL, " mst_enabled %u", br->mst_enabled);
	print_bool(p, PRINT_JSON, "mst_enabled", NULL, br->mst_enabled);
	print_uint(p, PRINT_FP, NULL, " vlan_filtering %u\n",
		   br->vlan_filtering);
	print_bool(p, PRINT_JSON, "vlan_filtering", NULL, br->vlan_filtering);
	show_vid_map(c, map);
	print_close_object(p);
	free(map);
	return EXIT_OK;
}

int cmd_vlan(struct ctl *c, int argc, char **argv)
{
	static const char *const keys[] = { "dev", "vid", "msti", NULL };
	static const bool required[] = { true, true, true };
	const char *vals[3] = { NULL, NULL, NULL };
	struct mstnl_link br;
	struct mstnl_err err;
	uint16_t from, to;
	unsigned int msti;
	int ret;

	if (argc < 1 || strcmp(argv[0], "set") != 0)
		return ctl_fail(EXIT_USAGE, "vlan needs \"set\" (mstctl vlan "
				"set dev BRIDGE vid VID[-VID] msti MSTI)");
	ret = ctl_keywords("vlan set", argc - 1, argv + 1, keys, required,
			   vals);
	if (ret)
		return ret;
	ret = args_vid_range(vals[1], &from, &to);
	if (ret == -ERANGE)
		return ctl_fail(EXIT_USAGE, "VID \"%s\" is outside 1..4094",
				vals[1]);
	if (ret)
		return ctl_fail(EXIT_USAGE, "invalid VID \"%s\" (VID or "
				"VID-VID)", vals[1]);
	/* 0 maps the VLANs back to the CIST */
	ret = args_number(vals[2], 0, MSTNL_MSTI_MAX, &msti);
	if (ret == -ERANGE)
		return ctl_fail(EXIT_USAGE, "MSTI %s is outside 0..4094",
				vals[2]);
	if (ret)
		return ctl_fail(EXIT_USAGE, "invalid MSTI \"%s\"", vals[2]);
	ret = ctl_bridge(c, vals[0], &br);
	if (ret)
		return ret;
	/* the kernel would take the mapping and ignore it */
	if (!br.mst_enabled)
		return ctl_fail(EXIT_REFUSED, "MST is disabled on %s "
				"(mstctl enable dev %s)", vals[0], vals[0]);
	if (mstnl_vlan_msti_set(c->nl, br.ifindex, from, to, (uint16_t)msti,
				&err) < 0)
		return ctl_fail_nl(&err, "cannot map %s vid %s to msti %u",
				   vals[0], vals[1], msti);
	return EXIT_OK;
}
