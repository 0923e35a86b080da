/* SPDX-License-Identifier: MIT */
/*
 * What probe-gen and its XDP program (probe_xdp.bpf.c) share. Built by
 * clang -target bpf and by the host compiler, so only <linux/types.h>.
 */
#ifndef MSTLAB_PROBE_XDP_H
#define MSTLAB_PROBE_XDP_H

#include <linux/types.h>

/* One flow's entry in the "probe_state" array, at the flow's slot (see
 * probe_xdp_slot): the program may be shared by every probe-gen on an
 * interface. An array rather than a hash: its lookup is inlined, which
 * matters at a million frames a second under TCG. */
struct probe_xdp_state {
	__u32 next_seq;	/* the sequence number the next frame gets */
	__u16 flow;	/* stamped into every frame */
	__u16 vid;
	/* Non-zero: drop every frame. probe-gen runs the program once this
	 * way to learn whether the kernel has live frames, sending nothing. */
	__u32 dry;
	__u32 active;	/* a probe-gen is sending this flow */
};

#define PROBE_XDP_SLOTS	1024
static inline __u32 probe_xdp_slot(__u32 flow)
{
	return flow % PROBE_XDP_SLOTS;
}

/*
 * XDP metadata in front of probe-gen's frame template (BPF_PROG_RUN's
 * ctx data_meta). It tells the template apart from a frame the interface
 * received while the program is attached there (see probe_xdp.bpf.c),
 * and names the flow.
 */
struct probe_xdp_meta {
	__u32 magic;
	__u32 slot;	/* probe_xdp_slot(flow) */
};
#define PROBE_XDP_META_MAGIC	0x6d6c7067u	/* "mlpg" */

#endif
