// SPDX-License-Identifier: MIT
/* mstctl monitor: one line (or one JSON object) per change. */
#include "mstctl.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include <linux/if_bridge.h>

static const char *const operstates[] = {
	"unknown", "notpresent", "down", "lowerlayerdown", "testing",
	"dormant", "up",
};

static void monitor_dev(struct printer *p, const char *key, const char *fmt,
			int ifindex, const char *name)
{
	char buf[IF_NAMESIZE];

	if (!name || !name[0])
		name = ctl_ifname(ifindex, buf);
	print_string(p, PRINT_ANY, key, fmt, name);
}

static void monitor_master(struct printer *p, int master)
{
	if (master)
		monitor_dev(p, "master", " master %s", master, NULL);
}

/* JSON: "name":bool; text: " name" only when set. */
static void monitor_flag(struct printer *p, const char *name, bool on)
{
	if (on)
		print_string(p, PRINT_FP, NULL, " %s", name);
	print_bool(p, PRINT_JSON, name, NULL, on);
}

static void monitor_vids(struct printer *p, uint16_t vid, uint16_t end)
{
	print_uint(p, PRINT_ANY, "vlan", " vid %u", vid);
	if (end > vid)
		print_uint(p, PRINT_ANY, "vlanEnd", "-%u", end);
}

static int monitor_event(const struct mstnl_event *ev, void *data)
{
	static const char *const types[] = {
		[MSTNL_EV_LINK] = "link", [MSTNL_EV_PORT] = "port",
		[MSTNL_EV_VLAN] = "vlan", [MSTNL_EV_VLAN_GLOBAL] = "vlan",
		[MSTNL_EV_FDB] = "fdb",
	};
	struct printer *p = &((struct ctl *)data)->pr;
	char mac[18];

	print_open_object(p, NULL);
	if (ev->deleted)
		print_string(p, PRINT_FP, NULL, "%s", "Deleted ");
	print_string(p, PRINT_ANY, "event", "%s", types[ev->type]);
	print_bool(p, PRINT_JSON, "deleted", NULL, ev->deleted);
	switch (ev->type) {
	case MSTNL_EV_LINK:
		monitor_dev(p, "ifname", " %s", ev->ifindex, ev->ifname);
		monitor_master(p, ev->master);
		if (ev->link.operstate <
		    sizeof(operstates) / sizeof(operstates[0]))
			print_string(p, PRINT_ANY, "operstate", " %s",
				     operstates[ev->link.operstate]);
		break;
	case MSTNL_EV_PORT:
		monitor_dev(p, "ifname", " %s", ev->ifindex, ev->ifname);
		monitor_master(p, ev->master);
		if (ev->port.state != MSTNL_STATE_NONE)
			print_string(p, PRINT_ANY, "state", " state %s",
				     mstnl_state_name(ev->port.state));
		break;
	case MSTNL_EV_VLAN:
		monitor_dev(p, "ifname", " %s", ev->ifindex, NULL);
		monitor_vids(p, ev->vlan.vid, ev->vlan.vid_end);
		monitor_flag(p, "pvid", ev->vlan.flags & BRIDGE_VLAN_INFO_PVID);
		monitor_flag(p, "untagged",
			   ev->vlan.flags & BRIDGE_VLAN_INFO_UNTAGGED);
		if (ev->vlan.state != MSTNL_STATE_NONE && !ev->deleted)
			print_string(p, PRINT_ANY, "state", " state %s",
				     mstnl_state_name(ev->vlan.state));
		break;
	case MSTNL_EV_VLAN_GLOBAL:
		monitor_dev(p, "ifname", " %s", ev->ifindex, NULL);
		monitor_vids(p, ev->vlan_global.vid, ev->vlan_global.vid_end);
		if (ev->vlan_global.has_msti)
			print_uint(p, PRINT_ANY, "msti", " msti %u",
				   ev->vlan_global.msti);
		break;
	case MSTNL_EV_FDB:
		snprintf(mac, sizeof(mac),
			 "%02x:%02x:%02x:%02x:%02x:%02x", ev->fdb.mac[0],
			 ev->fdb.mac[1], ev->fdb.mac[2], ev->fdb.mac[3],
			 ev->fdb.mac[4], ev->fdb.mac[5]);
		print_string(p, PRINT_ANY, "mac", " %s", mac);
		monitor_dev(p, "ifname", " dev %s", ev->ifindex, NULL);
		if (ev->fdb.vid)
			print_uint(p, PRINT_ANY, "vlan", " vlan %u",
				   ev->fdb.vid);
		monitor_master(p, ev->master);
		break;
	}
	print_nl(p);
	print_close_object(p);
	fflush(stdout);
	return 0;
}

int cmd_monitor(struct ctl *c, int argc, char **argv)
{
	struct mstnl *mon;
	int err = 0, ret;

	if (argc > 0)
		return ctl_fail(EXIT_USAGE, "unknown argument \"%s\" for "
				"monitor", argv[0]);
	mon = mstnl_open_monitor(MSTNL_GRP_LINK | MSTNL_GRP_VLAN |
				 MSTNL_GRP_FDB, &err);
	if (!mon)
		return ctl_fail(EXIT_REFUSED, "cannot subscribe to "
				"notifications: %s", strerror(-err));
	for (;;) {
		ret = mstnl_monitor_read(mon, monitor_event, c);
		if (ret == -ENOBUFS) {
			ctl_fail(0, "warning: notifications were lost");
			continue;
		}
		if (ret == -EINTR)
			continue;
		if (ret < 0)
			break;
	}
	mstnl_close(mon);
	return ctl_fail(EXIT_REFUSED, "monitor: %s", strerror(-ret));
}
