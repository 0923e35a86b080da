// SPDX-License-Identifier: MIT
/*
 * ethsend: sends raw Ethernet frames, for tests that need frames no
 * ordinary tool makes (BPDUs, malformed BPDUs, link-local groups,
 * tagged frames).
 *
 *   ethsend -i IFACE -d DST [-s SRC] [-v VID] [-n COUNT] [-u] HEX
 *
 * HEX is everything after the source address (EtherType or 802.3
 * length, LLC, payload), as hex digits; spaces, ':' and '.' are ignored.
 * With -v an 802.1Q tag is inserted after the source address. Frames
 * shorter than 60 octets are padded with zeros, unless -u: a veth
 * carries runts as they are, which tests of receivers' length checks
 * need.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mac.h"
#include "opts.h"

static const struct opt_spec ethsend_spec = {
	.usage = "usage: ethsend -i IFACE -d DST [-s SRC] [-v VID] "
		 "[-n COUNT] [-u] HEX\n",
	.shorts = "i:d:s:v:n:u",
	.min_words = 1,
	.max_words = 1,
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Appends the octets of hex to buf; -1 on a bad digit or overflow. */
static int hex(const char *s, unsigned char *buf, size_t *len, size_t max)
{
	int hi = -1;

	for (; *s; s++) {
		int v;

		if (*s == ' ' || *s == ':' || *s == '.')
			continue;
		v = hexval(*s);
		if (v < 0)
			return -1;
		if (hi < 0) {
			hi = v;
			continue;
		}
		if (*len == max)
			return -1;
		buf[(*len)++] = (unsigned char)(hi << 4 | v);
		hi = -1;
	}
	return hi < 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	unsigned char frame[9216] = { 0 }, src[6] = { 0 };
	const char *ifname = NULL, *dst = NULL, *srcs = NULL;
	long vid = -1, count = 1;
	struct sockaddr_ll sll = { 0 };
	struct opts o;
	size_t len = 12;
	int opt, fd, pad = 1;

	opts_start(&o, &ethsend_spec, argc, argv);
	while ((opt = opts_next(&o)) > 0) {
		char *end;

		switch (opt) {
		case 'i': ifname = o.arg; break;
		case 'd': dst = o.arg; break;
		case 's': srcs = o.arg; break;
		case 'u': pad = 0; break;
		case 'v':
			vid = strtol(o.arg, &end, 10);
			if (*end || vid < 0 || vid > 4094) {
				fprintf(stderr, "ethsend: bad VID '%s'\n",
					o.arg);
				return 2;
			}
			break;
		case 'n':
			count = strtol(o.arg, &end, 10);
			if (*end || count < 1 || count > 1000000) {
				fprintf(stderr, "ethsend: bad count '%s'\n",
					o.arg);
				return 2;
			}
			break;
		}
	}
	if (opt != OPT_END)
		return opt == OPT_HELP ? 0 : 2;
	if (!ifname || !dst) {
		opts_help(&ethsend_spec, stderr);
		return 2;
	}
	if (mac_parse(dst, frame) || (srcs && mac_parse(srcs, src))) {
		fprintf(stderr, "ethsend: bad MAC address\n");
		return 2;
	}
	sll.sll_ifindex = (int)if_nametoindex(ifname);
	if (!sll.sll_ifindex) {
		fprintf(stderr, "ethsend: %s: %s\n", ifname, strerror(errno));
		return 2;
	}
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		perror("ethsend: socket");
		return 1;
	}
	if (!srcs) {
		struct ifreq ifr = { 0 };

		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
		if (ioctl(fd, SIOCGIFHWADDR, &ifr) == 0)
			memcpy(src, ifr.ifr_hwaddr.sa_data, 6);
	}
	memcpy(frame + 6, src, 6);
	if (vid >= 0) {
		frame[len++] = 0x81;
		frame[len++] = 0x00;
		frame[len++] = (unsigned char)(vid >> 8);
		frame[len++] = (unsigned char)vid;
	}
	if (hex(argv[o.ind], frame, &len, sizeof(frame))) {
		fprintf(stderr, "ethsend: bad hex payload\n");
		return 2;
	}
	if (pad && len < 60)
		len = 60;
	sll.sll_family = AF_PACKET;
	sll.sll_halen = 6;
	memcpy(sll.sll_addr, frame, 6);
	for (long i = 0; i < count; i++)
		if (sendto(fd, frame, len, 0, (struct sockaddr *)&sll,
			   sizeof(sll)) != (ssize_t)len) {
			perror("ethsend: sendto");
			return 1;
		}
	close(fd);
	return 0;
}
