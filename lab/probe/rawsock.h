/* SPDX-License-Identifier: MIT */
/* An AF_PACKET socket that sends on one interface (probe-gen's af_packet
 * mode; probe-sink receives through rxring.h). */
#ifndef MSTLAB_RAWSOCK_H
#define MSTLAB_RAWSOCK_H

#include <stddef.h>
#include <stdint.h>

/* Opens a raw socket bound to ifname. Prints why and returns -1 on
 * failure. */
int rawsock_open(const char *ifname);
int rawsock_mac(int fd, const char *ifname, uint8_t mac[6]);

/* Frames one rawsock_send_many() call takes at most. */
#define RAWSOCK_BATCH 64

/*
 * Sends n (at most RAWSOCK_BATCH) frames of len octets, stride apart
 * from frames, with as few system calls as the kernel allows
 * (sendmmsg). A frame the interface's queue has no room for (ENOBUFS)
 * is lost, as on a wire, and the next one goes on. 0, or -1 with errno
 * set on any other error.
 */
int rawsock_send_many(int fd, const uint8_t *frames, size_t stride,
		      size_t len, unsigned n);

#endif
