// SPDX-License-Identifier: MIT
#include "rxring.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

/*
 * 128 blocks of a page, 512 KiB a sink (a lab runs one per flow, up to
 * 64, in guests of 128 MiB). At 1000 small frames/s a block retires
 * after RXRING_BLOCK_MS holding 20, so a reader the scheduler keeps away
 * loses nothing for 2.5 s; with full-size frames for ~250 ms; at 100,000
 * frames/s for ~40 ms.
 */
#define BLOCK_SIZE 4096u
#define NBLOCKS 128u
#define FRAME_SIZE 2048u

static int fail(struct rxring *r, const char *ifname, const char *what)
{
	fprintf(stderr, "probe: %s: %s: %s\n", ifname, what, strerror(errno));
	rxring_close(r);
	return -1;
}

int rxring_open(struct rxring *r, const char *ifname, uint16_t proto,
		const struct sock_fprog *filter)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(proto) };
	struct tpacket_req3 req = {
		.tp_block_size = BLOCK_SIZE, .tp_block_nr = NBLOCKS,
		.tp_frame_size = FRAME_SIZE,
		.tp_frame_nr = BLOCK_SIZE / FRAME_SIZE * NBLOCKS,
		.tp_retire_blk_tov = RXRING_BLOCK_MS,
	};
	int v3 = TPACKET_V3;
	void *map;

	*r = (struct rxring){ .fd = -1, .block_size = BLOCK_SIZE,
			      .nblocks = NBLOCKS };
	sll.sll_ifindex = (int)if_nametoindex(ifname);
	if (!sll.sll_ifindex) {
		fprintf(stderr, "probe: no interface '%s'\n", ifname);
		return -1;
	}
	/* Protocol 0 until bind: no frame is queued before the ring and
	 * the filter are in place, none from another interface. */
	r->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (r->fd < 0)
		return fail(r, ifname, "socket");
	if (filter && setsockopt(r->fd, SOL_SOCKET, SO_ATTACH_FILTER, filter,
				 sizeof(*filter)))
		return fail(r, ifname, "socket filter");
	if (setsockopt(r->fd, SOL_PACKET, PACKET_VERSION, &v3, sizeof(v3)) ||
	    setsockopt(r->fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)))
		return fail(r, ifname, "TPACKET_V3 receive ring");
	map = mmap(NULL, (size_t)BLOCK_SIZE * NBLOCKS, PROT_READ | PROT_WRITE,
		   MAP_SHARED, r->fd, 0);
	if (map == MAP_FAILED)
		return fail(r, ifname, "mmap of the receive ring");
	r->map = map;
	if (bind(r->fd, (struct sockaddr *)&sll, sizeof(sll)))
		return fail(r, ifname, "bind");
	return 0;
}

/* The block after the last one handed over, whoever holds it. */
static struct tpacket_block_desc *cur_block(const struct rxring *r)
{
	return (void *)(r->map + (size_t)r->cur * r->block_size);
}

struct tpacket_block_desc *rxring_block(struct rxring *r)
{
	struct tpacket_block_desc *b = cur_block(r);

	/* Acquire: the frames are written before the status says so. */
	if (!(__atomic_load_n(&b->hdr.bh1.block_status, __ATOMIC_ACQUIRE) &
	      TP_STATUS_USER))
		return NULL;
	return b;
}

void rxring_release(struct rxring *r, struct tpacket_block_desc *b)
{
	/* The kernel sets it again when it opens the block; until then a
	 * stale count would look like frames waiting (rxring_filling). */
	__atomic_store_n(&b->hdr.bh1.num_pkts, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&b->hdr.bh1.block_status, TP_STATUS_KERNEL,
			 __ATOMIC_RELEASE);
	r->cur = (r->cur + 1) % r->nblocks;
}

bool rxring_filling(struct rxring *r)
{
	return !rxring_block(r) &&
	       __atomic_load_n(&cur_block(r)->hdr.bh1.num_pkts,
			       __ATOMIC_RELAXED);
}

struct tpacket3_hdr *rxring_frame(struct tpacket_block_desc *b,
				  struct tpacket3_hdr *prev, unsigned *left)
{
	if (!prev)
		*left = b->hdr.bh1.num_pkts;
	if (!*left)
		return NULL;
	(*left)--;
	if (!prev)
		return (void *)((uint8_t *)b + b->hdr.bh1.offset_to_first_pkt);
	return (void *)((uint8_t *)prev + prev->tp_next_offset);
}

uint64_t rxring_drops(struct rxring *r)
{
	struct tpacket_stats_v3 st;
	socklen_t len = sizeof(st);

	/* Reading the statistics resets them. */
	if (r->fd >= 0 &&
	    !getsockopt(r->fd, SOL_PACKET, PACKET_STATISTICS, &st, &len))
		r->drops += st.tp_drops;
	return r->drops;
}

void rxring_close(struct rxring *r)
{
	if (r->map)
		munmap(r->map, r->block_size * r->nblocks);
	if (r->fd >= 0)
		close(r->fd);
	r->map = NULL;
	r->fd = -1;
}
