/* SPDX-License-Identifier: MIT */
/* An AF_PACKET socket that sends on one interface (probe-gen's af_packet
 * mode; probe-sink receives through rxring.h). */
#ifndef MSTLAB_RAWSOCK_H
#define MSTLAB_RAWSOCK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Opens a raw socket bound to ifname. Prints why and returns -1 on
 * failure. */
int rawsock_open(const char *ifname);
int rawsock_mac(int fd, const char *ifname, uint8_t mac[6]);
ssize_t rawsock_send(int fd, const uint8_t *frame, size_t len);

#endif
