// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * probe-gen's XDP programs. probe_stamp is run by BPF_PROG_RUN in
 * live-frames mode (BPF_F_TEST_XDP_LIVE_FRAMES): one run per tick sends
 * the frames due of all the process's flows, taking turns (probe_plan,
 * see probe_xdp.h). The kernel hands the program a copy of the frame
 * template (its MAC addresses) per repetition; the program writes the
 * flow's 802.1Q tag or none, the EtherType and the probe header (flow,
 * VLAN, the flow's next sequence number, the send time), and returns
 * XDP_TX, which live mode turns into a redirect out of the interface:
 * the frames of a run go to the driver in one ndo_xdp_xmit, one kick.
 * Pages are recycled within a run without being rewritten, and a page
 * may carry another flow's frame next time, so every field is written
 * each time. Tagged and untagged frames have the same size (the tag is
 * within probe-gen -s), so the frame's bounds never move.
 *
 * probe-gen attaches probe_stamp to the interface (the driver's XDP
 * program), where it passes every received frame (they carry no
 * probe_xdp_meta): BPF_PROG_RUN with repeat > 1 adds the program to the
 * kernel's XDP dispatcher and removes it again, each a patch of kernel
 * text and a synchronize_rcu() (costly under TCG, which then
 * retranslates), unless the program is in the dispatcher already, as an
 * attached one is. On virtio_net the attached program also does what
 * its ndo_xdp_xmit needs in 6.1: it refuses frames (-ENXIO) unless an
 * XDP program is loaded on the device. Each probe-gen runs its own copy
 * (three probe-gens running one attached program cost 2.5 times what
 * each running its own did, in a TCG guest, for reasons not found): it
 * attaches it in place of a copy whose probe-gen has exited, and leaves
 * a running one's in place, running its own unattached (xdpgen.c).
 *
 * (Older probe-gens attached an XDP_PASS program, probe_pass, to
 * virtio_net and ran probe_stamp unattached, one run per flow and tick;
 * a run of several flows' frames would patch the dispatcher.)
 *
 * probe_drop is for bench/probe's receivers: it takes frames and drops
 * them at once, so that the figures are the sender's.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "probe_xdp.h"

#define ETH_P_PROBE	0x88B5
#define PROBE_MAGIC	0x4D4C5052u
#define PROBE_VERSION	1
#define PROBE_HDR_LEN	24
/* Tagged: MACs, tag, EtherType, header; untagged: the same 4 shorter
 * plus the 4 padding octets that a tagged frame's header overlaps. */
#define PROBE_STAMP_LEN	(12 + 4 + 2 + PROBE_HDR_LEN)

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, PROBE_XDP_FLOWS);
	__type(key, __u32);
	__type(value, struct probe_xdp_state);
} probe_state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct probe_xdp_plan);
} probe_plan SEC(".maps");

SEC("xdp")
int probe_stamp(struct xdp_md *ctx)
{
	__u8 *data = (__u8 *)(long)ctx->data;
	__u8 *end = (__u8 *)(long)ctx->data_end;
	struct probe_xdp_meta *meta = (void *)(long)ctx->data_meta;
	struct probe_xdp_state *st;
	struct probe_xdp_plan *plan;
	__u32 key = 0, seq;
	__u8 *h;
	int i;

	/* A received frame (attached to the interface): not ours. */
	if ((__u8 *)(meta + 1) > data || meta->magic != PROBE_XDP_META_MAGIC)
		return XDP_PASS;
	plan = bpf_map_lookup_elem(&probe_plan, &key);
	if (!plan)
		return XDP_DROP;
	/* One BPF_PROG_RUN at a time per process, its frames one after
	 * another on one CPU: no other writer races the plan or seq. */
	i = probe_xdp_pick(plan);
	if (i < 0)
		return XDP_DROP;	/* nothing planned: the dry run */
	key = (__u32)i;
	st = bpf_map_lookup_elem(&probe_state, &key);
	if (!st || data + PROBE_STAMP_LEN > end)
		return XDP_DROP;
	if (st->vid) {
		*(__be16 *)(data + 12) = bpf_htons(ETH_P_8021Q);
		*(__be16 *)(data + 14) = bpf_htons(st->vid);
		*(__be16 *)(data + 16) = bpf_htons(ETH_P_PROBE);
		h = data + 18;
	} else {
		*(__be16 *)(data + 12) = bpf_htons(ETH_P_PROBE);
		h = data + 14;
		*(__u32 *)(h + PROBE_HDR_LEN) = 0;
	}
	seq = st->next_seq;
	st->next_seq = seq + 1;
	*(__be32 *)h = bpf_htonl(PROBE_MAGIC);
	*(__be16 *)(h + 4) = bpf_htons(PROBE_VERSION);
	*(__be16 *)(h + 6) = bpf_htons(st->flow);
	*(__be16 *)(h + 8) = bpf_htons(st->vid);
	*(__be16 *)(h + 10) = 0;
	*(__be32 *)(h + 12) = bpf_htonl(seq);
	/* bpf_ktime_get_ns is CLOCK_MONOTONIC, the sink's clock. */
	*(__be64 *)(h + 16) = bpf_cpu_to_be64(bpf_ktime_get_ns());
	return XDP_TX;
}

SEC("xdp")
int probe_drop(struct xdp_md *ctx)
{
	(void)ctx;
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "Dual MIT/GPL";
