// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * probe-gen's XDP programs. probe_stamp is run by BPF_PROG_RUN in
 * live-frames mode (BPF_F_TEST_XDP_LIVE_FRAMES): the kernel hands it a
 * copy of the frame template per repetition; it writes the probe header
 * (flow, VLAN, the flow's next sequence number, the send time) and
 * returns XDP_TX, which live mode turns into a transmit out of the
 * interface (its ndo_xdp_xmit). Pages are recycled without being
 * rewritten, so every field is written each time.
 *
 * On veth (and tun) probe-gen also attaches probe_stamp to the
 * interface itself, where it passes every received frame (they carry no
 * probe_xdp_meta): BPF_PROG_RUN with repeat > 1 adds the program to the
 * kernel's XDP dispatcher and removes it again, each a patch of kernel
 * text (costly under TCG, which then retranslates), unless the program
 * is in the dispatcher already, as an attached one is. The probe-gen
 * that attached it runs it for all its flows, each with its own slot in
 * probe_state.
 *
 * probe_pass is what probe-gen attaches to a virtio_net NIC: in 6.1 its
 * ndo_xdp_xmit refuses frames (-ENXIO) unless an XDP program is loaded
 * on the device. (Running an attached probe_stamp there measured slower
 * than probe_stamp unattached, in bench/probe.)
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

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, PROBE_XDP_SLOTS);
	__type(key, __u32);
	__type(value, struct probe_xdp_state);
} probe_state SEC(".maps");

SEC("xdp")
int probe_stamp(struct xdp_md *ctx)
{
	__u8 *data = (__u8 *)(long)ctx->data;
	__u8 *end = (__u8 *)(long)ctx->data_end;
	struct probe_xdp_meta *meta = (void *)(long)ctx->data_meta;
	struct probe_xdp_state *st;
	__u32 key, off = 12, seq;
	__u8 *h;

	/* A received frame (attached to the interface): not ours. */
	if ((__u8 *)(meta + 1) > data || meta->magic != PROBE_XDP_META_MAGIC)
		return XDP_PASS;
	key = meta->slot;
	st = bpf_map_lookup_elem(&probe_state, &key);
	if (!st || st->dry)
		return XDP_DROP;
	if (data + 18 + 2 > end)
		return XDP_DROP;
	if (data[off] == 0x81 && data[off + 1] == 0x00)
		off += 4;
	if (data[off] != (ETH_P_PROBE >> 8) || data[off + 1] != (ETH_P_PROBE & 0xff))
		return XDP_DROP;
	h = data + off + 2;
	if (h + PROBE_HDR_LEN > end)
		return XDP_DROP;
	/* One BPF_PROG_RUN at a time per flow (its probe-gen): no other
	 * writer races this increment. */
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
int probe_pass(struct xdp_md *ctx)
{
	(void)ctx;
	return XDP_PASS;
}

SEC("xdp")
int probe_drop(struct xdp_md *ctx)
{
	(void)ctx;
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "Dual MIT/GPL";
