/* SPDX-License-Identifier: MIT */
/*
 * Live-frames sending: probe_xdp.bpf.c run by BPF_PROG_RUN with
 * BPF_F_TEST_XDP_LIVE_FRAMES on the egress interface, so the kernel
 * stamps and transmits the frames itself (XDP_TX -> ndo_xdp_xmit).
 */
#ifndef MSTLAB_XDPGEN_H
#define MSTLAB_XDPGEN_H

#include <stddef.h>
#include <stdint.h>

struct xdpgen;

/*
 * Gets the interface ready to send copies of @frame (the Ethernet header
 * and probe header template): loads the programs, checks that the kernel
 * has live frames (a dry run that sends nothing) and that the driver can
 * transmit XDP frames. Attaches an XDP program to the interface unless
 * one is there, and leaves it there: probe_pass on virtio_net (its
 * ndo_xdp_xmit needs one), else probe_stamp, which the process's flows
 * then run (see probe_xdp.bpf.c for why). Returns NULL with the reason
 * in @why.
 */
struct xdpgen *xdpgen_open(const char *ifname, uint16_t flow, uint16_t vid,
			   const uint8_t *frame, size_t len, char *why,
			   size_t whylen);

/* Stamps and sends @n frames. Returns 0 or a negative errno. */
int xdpgen_send(struct xdpgen *g, uint32_t n);

/*
 * After the first send: on veth, whether the frame reached the peer (it
 * needs an XDP program or GRO for ndo_xdp_xmit, and a failed transmit is
 * silent). Returns 0, or -1 with the reason in @why.
 */
int xdpgen_check_delivery(struct xdpgen *g, char *why, size_t whylen);

/* Frames stamped so far (the next sequence number). */
uint64_t xdpgen_sent(struct xdpgen *g);

/* Frees everything (the attached program stays, for the interface's
 * other flows; "ip link set dev X xdp off" removes it). */
void xdpgen_close(struct xdpgen *g);

#endif
