/* SPDX-License-Identifier: MIT */
/* MAC addresses as people write them: "02:00:00:00:00:01". */
#ifndef MSTLAB_MAC_H
#define MSTLAB_MAC_H

#include <stdint.h>

/* 0, or -1 unless s is exactly six ':'-separated hex octets. */
int mac_parse(const char *s, uint8_t mac[6]);

#endif
