/* SPDX-License-Identifier: MIT */
/*
 * A TPACKET_V3 receive ring on an AF_PACKET socket. The kernel copies
 * frames into blocks and wakes the reader once per block (full, or
 * RXRING_BLOCK_MS after its first frame), not once per frame: under TCG a
 * wake-up costs ~50-110 us of the one vCPU, so 1000 frames/s taken one by
 * one cost 5-11% of it before any work.
 */
#ifndef MSTLAB_RXRING_H
#define MSTLAB_RXRING_H

#include <linux/filter.h>
#include <linux/if_packet.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RXRING_BLOCK_MS 20

struct rxring {
	int fd;
	uint8_t *map;
	size_t block_size;
	unsigned nblocks, cur;
	uint64_t drops;
};

/*
 * Opens the ring on ifname for frames of EtherType proto, passed through
 * filter first when not NULL (a classic BPF program on the frame from
 * its MAC header). 0, or -1 after saying why on stderr.
 */
int rxring_open(struct rxring *r, const char *ifname, uint16_t proto,
		const struct sock_fprog *filter);
/* The next block the kernel handed over, or NULL (poll r->fd). */
struct tpacket_block_desc *rxring_block(struct rxring *r);
/* Gives the block back to the kernel and moves on to the next one. */
void rxring_release(struct rxring *r, struct tpacket_block_desc *b);
/*
 * True while the block after the last one handed over holds frames the
 * kernel has not handed over yet (it does within RXRING_BLOCK_MS).
 */
bool rxring_filling(struct rxring *r);
/* The block's frames: the first, then each one's next; NULL at the end. */
struct tpacket3_hdr *rxring_frame(struct tpacket_block_desc *b,
				  struct tpacket3_hdr *prev, unsigned *left);
/* Frames the ring had no room for, all told (also updates r->drops). */
uint64_t rxring_drops(struct rxring *r);
void rxring_close(struct rxring *r);

#endif
