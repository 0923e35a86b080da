/* SPDX-License-Identifier: MIT */
/* An AF_PACKET socket on one interface, for the probe programs. */
#ifndef MSTLAB_RAWSOCK_H
#define MSTLAB_RAWSOCK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Opens a raw socket bound to ifname, receiving frames of EtherType
 * proto (0: send only). Fills mac with the interface's address if not
 * NULL. Prints why and returns -1 on failure.
 */
int rawsock_open(const char *ifname, uint16_t proto);
int rawsock_mac(int fd, const char *ifname, uint8_t mac[6]);
ssize_t rawsock_send(int fd, const uint8_t *frame, size_t len);

#endif
