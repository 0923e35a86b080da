// SPDX-License-Identifier: MIT
#include "probe_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mac.h"
#include "opts.h"
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

/* A comma-separated list of numbers in lo..hi into out[]; its length,
 * or -1 after saying why. With @dash, "-" is a 0 (an untagged flow
 * among tagged ones: VLAN 0 itself means a priority tag). */
static int number_list(const char *what, const char *s, unsigned long lo,
		       unsigned long hi, bool dash, uint16_t *out)
{
	char buf[256], *tok, *save;
	unsigned long v;
	int n = 0;

	if (strlen(s) >= sizeof(buf)) {
		fprintf(stderr, "probe-gen: %s list too long\n", what);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == PROBE_MAX_FLOWS) {
			fprintf(stderr, "probe-gen: more than %d flows\n",
				PROBE_MAX_FLOWS);
			return -1;
		}
		if (dash && !strcmp(tok, "-"))
			v = 0;
		else if (number(what, tok, lo, hi, &v))
			return -1;
		out[n++] = (uint16_t)v;
	}
	if (!n || s[strlen(s) - 1] == ',')
		return number(what, "", lo, hi, &v);
	return n;
}

static const struct opt_spec gen_spec = {
	.usage = "usage: probe-gen -i IFACE -d DST_MAC -f FLOW[,FLOW...]"
		 " [-v VID[,VID...]] [-r PPS]\n"
		 "                 [-s SIZE] [-n COUNT] [-m xdp|af_packet|auto]"
		 " [-t TICK_MS]\n",
	.shorts = "i:d:f:v:r:s:n:m:t:",
};

int probe_gen_opts(int argc, char **argv, struct probe_opts *o)
{
	unsigned long v;
	bool dst = false;
	int opt, n_vids = 0, n;
	struct opts op;

	memset(o, 0, sizeof(*o));
	o->pps = 100;
	o->size = PROBE_MIN_FRAME;
	o->tick_ms = 1;
	opts_start(&op, &gen_spec, argc, argv);
	while ((opt = opts_next(&op)) > 0) {
		switch (opt) {
		case 'i':
			o->ifname = op.arg;
			break;
		case 'd':
			if (mac_parse(op.arg, o->dst)) {
				fprintf(stderr, "probe-gen: bad MAC address "
					"'%s'\n", op.arg);
				return -1;
			}
			dst = true;
			break;
		case 'f':
			n = number_list("flow", op.arg, 0, 65535, false,
					o->flows);
			if (n < 0)
				return -1;
			o->n_flows = (unsigned)n;
			break;
		case 'v':
			n_vids = number_list("VLAN", op.arg, 1, 4094, true,
					     o->vids);
			if (n_vids < 0)
				return -1;
			break;
		case 'r':
			if (number("rate (frames/s)", op.arg, 1, 1000000, &v))
				return -1;
			o->pps = (unsigned)v;
			break;
		case 's':
			if (number("frame size", op.arg, PROBE_MIN_FRAME,
				   PROBE_MAX_FRAME, &v))
				return -1;
			o->size = v;
			break;
		case 'n':
			if (number("count", op.arg, 1, 4000000000ul, &v))
				return -1;
			o->count = v;
			break;
		case 't':
			if (number("tick (ms)", op.arg, 1, 1000, &v))
				return -1;
			o->tick_ms = (unsigned)v;
			break;
		case 'm':
			if (!strcmp(op.arg, "xdp")) {
				o->mode = PROBE_MODE_XDP;
			} else if (!strcmp(op.arg, "af_packet")) {
				o->mode = PROBE_MODE_AF_PACKET;
			} else if (!strcmp(op.arg, "auto")) {
				o->mode = PROBE_MODE_AUTO;
			} else {
				fprintf(stderr, "probe-gen: mode '%s' is not "
					"xdp, af_packet or auto\n", op.arg);
				return -1;
			}
			break;
		}
	}
	if (opt != OPT_END)
		return opt == OPT_HELP ? 1 : -1;
	if (o->ifname && dst && o->n_flows) {
		if (n_vids && (unsigned)n_vids != o->n_flows) {
			fprintf(stderr, "probe-gen: %u flows but %d VLANs\n",
				o->n_flows, n_vids);
			return -1;
		}
		for (unsigned i = 0; i < o->n_flows; i++)
			for (unsigned j = 0; j < i; j++)
				if (o->flows[i] == o->flows[j]) {
					fprintf(stderr, "probe-gen: flow %u "
						"twice\n", o->flows[i]);
					return -1;
				}
		if (strlen(o->ifname) >= IF_NAMESIZE_MAX) {
			fprintf(stderr, "probe-gen: interface name '%s' too "
				"long\n", o->ifname);
			return -1;
		}
		return 0;
	}
	opts_help(&gen_spec, stderr);
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

size_t probe_frame_header(const struct probe_opts *o, uint16_t vid,
			  uint8_t *frame)
{
	size_t at = 12;

	memcpy(frame, o->dst, 6);
	memcpy(frame + 6, o->src, 6);
	if (vid) {
		frame[at++] = 0x81;
		frame[at++] = 0x00;
		frame[at++] = (uint8_t)(vid >> 8);
		frame[at++] = (uint8_t)vid;
	}
	frame[at++] = PROBE_ETHERTYPE >> 8;
	frame[at++] = PROBE_ETHERTYPE & 0xff;
	return at;
}
