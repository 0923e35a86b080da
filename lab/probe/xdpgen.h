/* SPDX-License-Identifier: MIT */
/*
 * Live-frames sending: probe_xdp.bpf.c run by BPF_PROG_RUN with
 * BPF_F_TEST_XDP_LIVE_FRAMES on the egress interface, so the kernel
 * stamps and transmits the frames itself (XDP_TX -> ndo_xdp_xmit). One
 * handle per process sends all its flows, one run per call.
 */
#ifndef MSTLAB_XDPGEN_H
#define MSTLAB_XDPGEN_H

#include <stddef.h>
#include <stdint.h>

struct xdpgen;

/*
 * Gets the interface ready to send @nflows flows (ids @flows, VLANs
 * @vids, 0 for untagged; at most PROBE_MAX_FLOWS) as copies of @frame:
 * @len octets, starting with the destination and source MAC (the
 * program writes the rest of the headers). Loads the programs, checks
 * that the kernel has live frames (a dry run that sends nothing) and
 * that the driver can transmit XDP frames, and attaches probe_stamp to
 * the interface unless a running probe-gen's or another program is
 * there (xdp_attach.h; probe_xdp.bpf.c says why), leaving it there.
 * Returns NULL with the reason in @why.
 */
struct xdpgen *xdpgen_open(const char *ifname, const uint16_t *flows,
			   const uint16_t *vids, unsigned nflows,
			   const uint8_t *frame, size_t len, char *why,
			   size_t whylen);

/*
 * Stamps and sends @n[i] frames of flow i (each at most PACE_MAX_CHUNK)
 * in one BPF_PROG_RUN, the flows taking turns. Returns 0 or a negative
 * errno (-EINTR: a signal stopped the run part way; xdpgen_sent says
 * how far each flow got).
 */
int xdpgen_send(struct xdpgen *g, const uint32_t *n);

/*
 * After the first send: on veth, whether the frames reached the peer (it
 * needs an XDP program or GRO for ndo_xdp_xmit, and a failed transmit is
 * silent). Returns 0, or -1 with the reason in @why.
 */
int xdpgen_check_delivery(struct xdpgen *g, char *why, size_t whylen);

/* Frames of flow @i (its index in xdpgen_open's list) stamped so far:
 * the next sequence number. */
uint64_t xdpgen_sent(const struct xdpgen *g, unsigned i);

/* Frees everything (the attached program stays, for the interface's
 * next probe-gen; "ip link set dev X xdp off" removes it). */
void xdpgen_close(struct xdpgen *g);

#endif
