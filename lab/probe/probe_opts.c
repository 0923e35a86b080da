// SPDX-License-Identifier: MIT
#include "probe_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mac.h"
#include "probe_wire.h"

static int number(const char *what, const char *s, unsigned long lo,
		  unsigned long hi, unsigned long *out)
{
	char *end;
	unsigned long v;

	v = strtoul(s, &end, 10);
	if (!*s || *end || s[0] == '-' || v < lo || v > hi) {
		fprintf(stderr, "probe-gen: %s '%s' is not in %lu..%lu\n",
			what, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

int probe_gen_opts(int argc, char **argv, struct probe_opts *o)
{
	unsigned long v;
	bool dst = false, flow = false;
	int opt;

	memset(o, 0, sizeof(*o));
	o->pps = 100;
	o->size = PROBE_MIN_FRAME;
	o->tick_ms = 1;
	optind = 1;
	while ((opt = getopt(argc, argv, "i:d:f:v:r:s:n:m:t:")) != -1) {
		switch (opt) {
		case 'i':
			o->ifname = optarg;
			break;
		case 'd':
			if (mac_parse(optarg, o->dst)) {
				fprintf(stderr, "probe-gen: bad MAC address "
					"'%s'\n", optarg);
				return -1;
			}
			dst = true;
			break;
		case 'f':
			if (number("flow", optarg, 0, 65535, &v))
				return -1;
			o->flow = (uint16_t)v;
			flow = true;
			break;
		case 'v':
			if (number("VLAN", optarg, 1, 4094, &v))
				return -1;
			o->vid = (uint16_t)v;
			break;
		case 'r':
			if (number("rate (frames/s)", optarg, 1, 1000000, &v))
				return -1;
			o->pps = (unsigned)v;
			break;
		case 's':
			if (number("frame size", optarg, PROBE_MIN_FRAME,
				   PROBE_MAX_FRAME, &v))
				return -1;
			o->size = v;
			break;
		case 'n':
			if (number("count", optarg, 1, 4000000000ul, &v))
				return -1;
			o->count = v;
			break;
		case 't':
			if (number("tick (ms)", optarg, 1, 1000, &v))
				return -1;
			o->tick_ms = (unsigned)v;
			break;
		case 'm':
			if (!strcmp(optarg, "xdp")) {
				o->mode = PROBE_MODE_XDP;
			} else if (!strcmp(optarg, "af_packet")) {
				o->mode = PROBE_MODE_AF_PACKET;
			} else if (!strcmp(optarg, "auto")) {
				o->mode = PROBE_MODE_AUTO;
			} else {
				fprintf(stderr, "probe-gen: mode '%s' is not "
					"xdp, af_packet or auto\n", optarg);
				return -1;
			}
			break;
		default:
			goto usage;
		}
	}
	if (optind == argc && o->ifname && dst && flow) {
		if (strlen(o->ifname) >= IF_NAMESIZE_MAX) {
			fprintf(stderr, "probe-gen: interface name '%s' too "
				"long\n", o->ifname);
			return -1;
		}
		return 0;
	}
usage:
	fprintf(stderr, "usage: probe-gen -i IFACE -d DST_MAC -f FLOW [-v VID]"
		" [-r PPS] [-s SIZE] [-n COUNT]\n"
		"                 [-m xdp|af_packet|auto] [-t TICK_MS]\n");
	return -1;
}

const char *probe_mode_name(enum probe_mode m)
{
	switch (m) {
	case PROBE_MODE_XDP:
		return "xdp";
	case PROBE_MODE_AF_PACKET:
		return "af_packet";
	default:
		return "auto";
	}
}

size_t probe_frame_header(const struct probe_opts *o, uint8_t *frame)
{
	size_t at = 12;

	memcpy(frame, o->dst, 6);
	memcpy(frame + 6, o->src, 6);
	if (o->vid) {
		frame[at++] = 0x81;
		frame[at++] = 0x00;
		frame[at++] = (uint8_t)(o->vid >> 8);
		frame[at++] = (uint8_t)o->vid;
	}
	frame[at++] = PROBE_ETHERTYPE >> 8;
	frame[at++] = PROBE_ETHERTYPE & 0xff;
	return at;
}
