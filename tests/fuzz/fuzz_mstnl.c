// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the mstnl reply, batch-ack and notification
 * parsers (links, ports, VLANs, routes): any bytes must give a clean result, never an out-of-bounds
 * access.
 */
#include "mstnl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>

static int on_msg(const struct nlmsghdr *nlh, void *data)
{
	static struct mstnl_port port;
	static struct mstnl_vid_map map;
	struct mstnl_link link;
	int oif;

	(void)data;
	(void)mstnl_parse_link(nlh, &link);
	(void)mstnl_parse_route_oif(nlh, &oif);
	(void)mstnl_parse_port(nlh, &port);
	return mstnl_parse_vlan_global(nlh, 5, &map) < 0 ? -1 : 0;
}

static int on_event(const struct mstnl_event *ev, void *data)
{
	(void)ev;
	(void)data;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mstnl_err err, errs[4];
	bool done[4] = { false };
	uint32_t seq = 0;
	/* a private copy: netlink structures want 4-byte alignment */
	uint8_t *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (size >= 12)
		memcpy(&seq, buf + 8, sizeof(seq));	/* first message's */
	(void)mstnl_parse_reply(buf, size, seq, on_msg, NULL, &err);
	(void)mstnl_parse_events(buf, size, on_event, NULL);
	/* the acks of a 4-request batch starting at the first message */
	(void)mstnl_parse_acks(buf, size, seq, 4, errs, done);
	free(buf);
	return 0;
}
