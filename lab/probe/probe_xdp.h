/* SPDX-License-Identifier: MIT */
/*
 * What probe-gen and its XDP program (probe_xdp.bpf.c) share: the one
 * entry of the "probe_state" array map. Built by clang -target bpf and by
 * the host compiler, so only <linux/types.h> types.
 */
#ifndef MSTLAB_PROBE_XDP_H
#define MSTLAB_PROBE_XDP_H

#include <linux/types.h>

struct probe_xdp_state {
	__u32 next_seq;	/* the sequence number the next frame gets */
	__u16 flow;	/* stamped into every frame */
	__u16 vid;
	/* Non-zero: drop every frame. probe-gen runs the program once this
	 * way to learn whether the kernel has live frames, sending nothing. */
	__u32 dry;
	__u32 pad;
};

#endif
