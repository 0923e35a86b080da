// SPDX-License-Identifier: MIT
/*
 * BPDU sockets: one AF_PACKET socket per bridge port, bound to the port,
 * with a classic BPF filter so only frames to 01:80:C2:00:00:00 with an
 * 802.3 length and LLC 42 42 03 wake the daemon.  In user-space STP mode
 * the bridge passes these frames up the port (br_handle_frame), and a
 * packet tap sees every frame of the port before the bridge anyway.
 */
#include "daemon.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static const uint8_t group_addr[6] = { 0x01, 0x80, 0xc2, 0, 0, 0 };

/* dst == 01:80:c2:00:00:00, length field <= 1500, LLC 42 42 03. */
static struct sock_filter bpdu_filter[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x0180c200, 0, 9),
	BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 4),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x0000, 0, 7),
	BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
	BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, 1500, 5, 0),
	BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 14),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x4242, 0, 3),
	BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 16),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x03, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, 0xffff),
	BPF_STMT(BPF_RET | BPF_K, 0),
};

static int port_mac(int fd, const char *name, uint8_t mac[6])
{
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		return -errno;
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	return 0;
}

bool dport_full_duplex(const char *ifname)
{
	struct ethtool_cmd cmd = { .cmd = ETHTOOL_GSET };
	struct ifreq ifr = { 0 };
	bool full = true;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return true;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (char *)&cmd;
	/* No ethtool (or unknown duplex): a point-to-point link, like
	 * virtio and veth. */
	if (ioctl(fd, SIOCETHTOOL, &ifr) == 0 && cmd.duplex == DUPLEX_HALF)
		full = false;
	close(fd);
	return full;
}

uint64_t dport_speed(const char *ifname)
{
	struct ethtool_cmd cmd = { .cmd = ETHTOOL_GSET };
	struct ifreq ifr = { 0 };
	uint32_t mbps = 0;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return 0;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (char *)&cmd;
	/* virtio-net reports what QEMU's speed= says, else SPEED_UNKNOWN;
	 * veth and taps have no ethtool: the cost of an unknown speed. */
	if (ioctl(fd, SIOCETHTOOL, &ifr) == 0) {
		mbps = ethtool_cmd_speed(&cmd);
		if (mbps == (uint32_t)SPEED_UNKNOWN)
			mbps = 0;
	}
	close(fd);
	return mbps;
}

bool dport_offloaded(const char *ifname)
{
	char path[64], id[64];
	bool yes = false;
	FILE *f;

	/* Only switchdev ports (a DSA user port) have a switch id: on
	 * others reading it fails with EOPNOTSUPP. */
	snprintf(path, sizeof(path), "/sys/class/net/%s/phys_switch_id", ifname);
	f = fopen(path, "re");
	if (!f)
		return false;
	yes = fgets(id, sizeof(id), f) && id[0] != '\n';
	fclose(f);
	return yes;
}

int dport_open(struct mstd *d, unsigned int port)
{
	struct mstd_port *p = &d->ports[port];
	struct sock_fprog prog = {
		.len = sizeof(bpdu_filter) / sizeof(bpdu_filter[0]),
		.filter = bpdu_filter,
	};
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = p->ifindex,
	};
	struct packet_mreq mr = {
		.mr_ifindex = p->ifindex,
		.mr_type = PACKET_MR_MULTICAST,
		.mr_alen = 6,
	};
	int fd, r;

	/* Protocol 0 until the filter is on: no unfiltered backlog. */
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		goto fail;
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
		       sizeof(prog)) < 0 ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		goto fail;
	memcpy(mr.mr_address, group_addr, 6);
	/* Bridge ports are promiscuous; a DSA user port may not be. */
	if (setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr,
		       sizeof(mr)) < 0)
		mstd_log(d, MSTP_LOG_DEBUG, "port %s: no multicast membership: %s",
			 p->name, strerror(errno));
	r = port_mac(fd, p->name, p->mac);
	if (r < 0) {
		errno = -r;
		goto fail;
	}
	p->fd = fd;
	return 0;
fail:
	r = -errno;
	mstd_log(d, MSTP_LOG_ERR, "port %s: cannot open its BPDU socket: %s",
		 p->name, strerror(errno));
	if (fd >= 0)
		close(fd);
	p->fd = -1;
	return r;
}

void dport_close(struct mstd *d, unsigned int port)
{
	struct mstd_port *p = &d->ports[port];

	if (p->fd >= 0) {
		epoll_ctl(d->epfd, EPOLL_CTL_DEL, p->fd, NULL);
		close(p->fd);
	}
	p->fd = -1;
}

void dport_rx(struct mstd *d, unsigned int port)
{
	struct mstd_port *p = &d->ports[port];
	uint8_t frame[2048];

	for (int budget = 64; budget > 0; budget--) {
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		struct bpdu_frame f;
		enum bpdu_err e;
		ssize_t n = recvfrom(p->fd, frame, sizeof(frame), MSG_TRUNC,
				     (struct sockaddr *)&from, &fl);

		if (n < 0)
			return;
		/* Our own frames, seen by the tap on the way out. */
		if (from.sll_pkttype == PACKET_OUTGOING)
			continue;
		if ((size_t)n > sizeof(frame)) {
			p->rx_bad_frames++;
			mstd_log(d, MSTP_LOG_DEBUG, "port %s: dropped a %zd-byte frame",
				 p->name, n);
			continue;
		}
		e = bpdu_frame_parse(frame, (size_t)n, &f);
		if (e != BPDU_OK) {
			p->rx_bad_frames++;
			mstd_log(d, MSTP_LOG_DEBUG, "port %s: dropped a frame: %s",
				 p->name, bpdu_strerror(e));
			continue;
		}
		/* Its link-up is on its way (early.h). */
		if (!p->up) {
			early_bpdu_hold(&p->early, f.bpdu, f.bpdu_len,
					mstd_now_ms());
			continue;
		}
		e = mstp_rx_bpdu(d->br, port, f.bpdu, f.bpdu_len);
		if (e != BPDU_OK)
			mstd_log(d, MSTP_LOG_DEBUG, "port %s: dropped a BPDU: %s",
				 p->name, bpdu_strerror(e));
	}
}

void dport_tx(struct mstd *d, unsigned int port, const uint8_t *bpdu,
	      size_t len)
{
	struct mstd_port *p = &d->ports[port];
	uint8_t frame[17 + 1500] = { 0 };
	size_t flen = 17 + len;

	if (p->fd < 0 || len > 1500 - 3)
		return;
	memcpy(frame, group_addr, 6);
	memcpy(frame + 6, p->mac, 6);
	frame[12] = (uint8_t)((len + 3) >> 8);
	frame[13] = (uint8_t)(len + 3);
	frame[14] = 0x42;
	frame[15] = 0x42;
	frame[16] = 0x03;
	memcpy(frame + 17, bpdu, len);
	if (flen < 60)
		flen = 60;	/* minimum frame, zero padded */
	if (send(p->fd, frame, flen, MSG_DONTWAIT) < 0) {
		p->tx_errors++;
		mstd_log(d, MSTP_LOG_DEBUG, "port %s: BPDU not sent: %s",
			 p->name, strerror(errno));
	}
}
