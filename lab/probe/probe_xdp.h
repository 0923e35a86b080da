/* SPDX-License-Identifier: MIT */
/*
 * What probe-gen and its XDP program (probe_xdp.bpf.c) share. Built by
 * clang -target bpf and by the host compiler, so only <linux/types.h>.
 *
 * Each probe-gen loads its own copy of the program and its maps (see
 * probe_xdp.bpf.c for why they are not shared between processes), so
 * the maps hold one process's flows. Both are arrays (their lookups are
 * inlined, which matters at a million frames a second under TCG) that
 * probe-gen mmap()s (BPF_F_MMAPABLE): setting up a run and reading back
 * the sequence numbers take no system call.
 */
#ifndef MSTLAB_PROBE_XDP_H
#define MSTLAB_PROBE_XDP_H

#include <linux/types.h>

/* Flows one program copy serves (probe_opts.h's PROBE_MAX_FLOWS). */
#define PROBE_XDP_FLOWS	16

/* A flow's entry in "probe_state", at its index in probe-gen's list. */
struct probe_xdp_state {
	__u32 next_seq;	/* the sequence number the next frame gets */
	__u16 flow;	/* stamped into every frame */
	__u16 vid;	/* 0: untagged */
};

/*
 * The one entry of "probe_plan": what the current BPF_PROG_RUN sends.
 * Its frames take turns flow by flow: frame k goes to flow k % nflows
 * while every flow has frames left, then the flows that still have
 * some share the rest the same way. A frame with nothing left to send
 * is dropped (an empty plan is the dry run that tells whether the kernel
 * has live frames). A run a signal stops leaves frames here; probe-gen
 * writes a new plan for each run.
 */
struct probe_xdp_plan {
	__u32 nflows;
	__u32 cursor;			/* the flow to try first */
	__u32 left[PROBE_XDP_FLOWS];	/* frames per flow still to send */
	/* The pid of the probe-gen running this copy: another one may
	 * take the place of an attached copy whose owner has exited. */
	__u32 owner;
	__u32 pad;
};

/*
 * Takes the next frame of the plan: returns its flow's index, or -1 when
 * nothing is left. Shared by the program and probe-gen's af_packet mode
 * (and its unit tests), so both send in the same order. The flows from
 * the cursor on, then from the first: k counts both rounds, so that the
 * index comes from the loop's own counter, which the verifier can bound
 * (an index read from the map it could not).
 */
static inline __attribute__((always_inline)) int
probe_xdp_pick(struct probe_xdp_plan *p)
{
	for (__u32 k = 0; k < 2 * PROBE_XDP_FLOWS; k++) {
		__u32 i = k % PROBE_XDP_FLOWS;

		if (i >= p->nflows || (k < PROBE_XDP_FLOWS && i < p->cursor) ||
		    !p->left[i])
			continue;
		p->left[i]--;
		p->cursor = i + 1;
		return (int)i;
	}
	return -1;
}

/*
 * XDP metadata in front of probe-gen's frame template (BPF_PROG_RUN's
 * ctx data_meta). It tells the template apart from a frame the interface
 * received while the program is attached there (see probe_xdp.bpf.c).
 * The program only reads it: a recycled page keeps it.
 */
struct probe_xdp_meta {
	__u32 magic;
};
#define PROBE_XDP_META_MAGIC	0x6d6c7067u	/* "mlpg" */

#endif
