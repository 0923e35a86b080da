// SPDX-License-Identifier: MIT
#include "rawsock.h"

#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

int rawsock_open(const char *ifname)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	int fd;

	sll.sll_ifindex = (int)if_nametoindex(ifname);
	if (!sll.sll_ifindex) {
		fprintf(stderr, "probe: no interface '%s'\n", ifname);
		return -1;
	}
	/* Protocol 0: it sends, and receives nothing. */
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		fprintf(stderr, "probe: %s: %s\n", ifname, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int rawsock_mac(int fd, const char *ifname, uint8_t mac[6])
{
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		return -1;
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	return 0;
}

int rawsock_send_many(int fd, const uint8_t *frames, size_t stride,
		      size_t len, unsigned n)
{
	struct mmsghdr msgs[RAWSOCK_BATCH];
	struct iovec iov[RAWSOCK_BATCH];
	unsigned done = 0;

	if (n > RAWSOCK_BATCH) {
		errno = EINVAL;
		return -1;
	}
	for (unsigned i = 0; i < n; i++) {
		iov[i] = (struct iovec){ (void *)(frames + i * stride), len };
		msgs[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov[i],
							 .msg_iovlen = 1 } };
	}
	while (done < n) {
		int k = sendmmsg(fd, msgs + done, n - done, 0);

		if (k > 0)
			done += (unsigned)k;
		else if (k < 0 && errno == ENOBUFS)
			done++;
		else if (k < 0 && errno != EINTR)
			return -1;
	}
	return 0;
}
