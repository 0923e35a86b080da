/* SPDX-License-Identifier: MIT */
/*
 * The socket filter of a sink that counts one flow: it passes that flow's
 * probe frames and everything that is not a well-formed probe frame (the
 * sink counts those as malformed), so the frames of the other flows on
 * the wire never wake it.
 */
#ifndef MSTLAB_FLOW_FILTER_H
#define MSTLAB_FLOW_FILTER_H

#include <linux/filter.h>
#include <stdint.h>

/* Where the probe header starts in a frame read from a SOCK_RAW packet
 * socket: after the MAC header, the VLAN tag having been taken out of
 * the frame by the NIC or the stack. */
#define FLOW_FILTER_PAYLOAD 14

struct flow_filter {
	struct sock_filter insns[10];
	struct sock_fprog prog;
};

void flow_filter_build(struct flow_filter *f, uint16_t flow);

#endif
