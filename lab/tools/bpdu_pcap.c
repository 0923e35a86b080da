// SPDX-License-Identifier: MIT
/*
 * bpdu-pcap: writes captures for the decode cross-check and benchmark,
 * with the project's own BPDU encoder.
 *
 *   bpdu-pcap -c OUT.pcap
 *   bpdu-pcap [-n BPDUS] [-k OTHERS] [-l LEN] [-s SEED] OUT.pcap
 *
 * -c writes the cross-check set: every BPDU kind, flags set and clear,
 * MSTI records, tagged BPDUs, malformed BPDUs and frames that are not
 * BPDUs, and prints one line per frame: "NUMBER KIND what", KIND one of
 * Config, TCN, RST, MST, malformed, other.
 *
 * Otherwise it writes BPDUS random BPDUs of every kind (default 1000,
 * seed SEED, default 1), each followed by OTHERS frames that are not
 * BPDUs (default 1) of LEN octets (default 64).
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpdu_pcap.h"
#include "opts.h"

/* xorshift64*: a fixed sequence per seed, so a failure can be replayed. */
static uint32_t rnd(struct gen *g)
{
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return (uint32_t)((g->rng * 0x2545f4914f6cdd1dULL) >> 32);
}

static void rnd_bytes(struct gen *g, uint8_t *p, size_t n)
{
	while (n--)
		*p++ = (uint8_t)rnd(g);
}

/* Frames 1 ms apart, with odd nanoseconds so every digit is tested. */
void gen_emit(struct gen *g, const uint8_t *frame, size_t len)
{
	struct pcap_pkthdr h = { 0 };

	h.ts.tv_sec = (time_t)(g->ts_ns / 1000000000u);
	h.ts.tv_usec = (suseconds_t)(g->ts_ns % 1000000000u);	/* ns file */
	h.caplen = h.len = (bpf_u_int32)len;
	pcap_dump((u_char *)g->out, &h, frame);
	g->frames++;
	g->ts_ns += 1000000 + g->frames % 997;
}

const uint8_t gen_src_mac[6] = { 0x02, 0x00, 0x5e, 0x10, 0x00, 0x01 };

/* Inserts a VLAN tag after the source address. */
size_t gen_add_tag(uint8_t *frame, size_t len, uint16_t tpid,
		      uint16_t tci)
{
	memmove(frame + 16, frame + 12, len - 12);
	frame[12] = tpid >> 8;
	frame[13] = tpid & 0xff;
	frame[14] = tci >> 8;
	frame[15] = tci & 0xff;
	return len + 4;
}

int gen_bpdu(struct gen *g, const struct bpdu *b, uint16_t tpid,
	     uint16_t tci)
{
	uint8_t frame[FRAME_MAX];
	size_t len;
	enum bpdu_err err = bpdu_frame_encode(gen_src_mac, b, frame,
					      sizeof(frame) - 4, &len);

	if (err != BPDU_OK) {
		fprintf(stderr, "bpdu-pcap: %s\n", bpdu_strerror(err));
		return -1;
	}
	if (tpid)
		len = gen_add_tag(frame, len, tpid, tci);
	gen_emit(g, frame, len);
	return 0;
}

/* A frame that is not a BPDU: IPv4/UDP, ARP, LLDP, or one to the
 * bridge group address that is not LLC 42 42 03. */
void gen_other(struct gen *g, unsigned int kind, size_t len)
{
	static const uint8_t dsts[4][6] = {
		{ 0x02, 0x00, 0x5e, 0x10, 0x00, 0x02 },
		{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		{ 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e },
		{ 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00 },
	};
	static const uint16_t types[4] = { 0x0800, 0x0806, 0x88cc, 0x88cc };
	uint8_t frame[FRAME_MAX] = { 0 };

	kind %= 4;
	len = len < 60 ? 60 : len > FRAME_MAX ? FRAME_MAX : len;
	memcpy(frame, dsts[kind], 6);
	memcpy(frame + 6, gen_src_mac, 6);
	frame[12] = types[kind] >> 8;
	frame[13] = types[kind] & 0xff;
	if (kind == 0) {	/* IPv4 header, then a UDP payload of zeros */
		frame[14] = 0x45;
		frame[16] = (uint8_t)((len - 14) >> 8);
		frame[17] = (uint8_t)(len - 14);
		frame[22] = 64;
		frame[23] = 17;
		memcpy(frame + 26, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	}
	gen_emit(g, frame, len);
}

static void rnd_bid(struct gen *g, struct bridge_id *id)
{
	id->prio = (uint16_t)rnd(g);
	rnd_bytes(g, id->mac, 6);
}

static void rnd_name(struct gen *g, struct mst_config_id *id)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_. ";
	unsigned int n = rnd(g) % (MST_CONFIG_NAME_LEN + 1);

	memset(id->name, 0, sizeof(id->name));
	for (unsigned int i = 0; i < n; i++)
		id->name[i] = (uint8_t)chars[rnd(g) % (sizeof(chars) - 1)];
}

static void rnd_msti(struct gen *g, struct bpdu_msti *m)
{
	bpdu_flags_unpack(&m->flags, (uint8_t)rnd(g));
	rnd_bid(g, &m->regional_root);
	/* MSTID 1..4094 in the system ID extension */
	m->regional_root.prio = (uint16_t)((m->regional_root.prio & 0xf000) |
					   (1 + rnd(g) % 4094));
	m->int_root_path_cost = rnd(g);
	m->bridge_prio_octet = (uint8_t)rnd(g);
	m->port_prio_octet = (uint8_t)rnd(g);
	m->remaining_hops = (uint8_t)rnd(g);
}

/* Every field random; MST BPDUs mostly with a few MSTIs, sometimes 64. */
static void rnd_bpdu(struct gen *g, struct bpdu *b)
{
	static const enum bpdu_type kinds[] = {
		BPDU_TYPE_CONFIG, BPDU_TYPE_TCN, BPDU_TYPE_RST,
		BPDU_TYPE_MST, BPDU_TYPE_MST, BPDU_TYPE_MST,
	};
	enum bpdu_type kind = kinds[rnd(g) % 6];
	uint32_t r = rnd(g);

	bpdu_init(b, kind);
	if (kind == BPDU_TYPE_TCN)
		return;
	/* an MST-speaking bridge's RST BPDU: version 3, 36 octets */
	if (kind == BPDU_TYPE_RST && r % 4 == 0)
		b->version = BPDU_VERSION_MSTP;
	bpdu_flags_unpack(&b->flags, (uint8_t)rnd(g));
	rnd_bid(g, &b->root_id);
	b->ext_root_path_cost = rnd(g);
	rnd_bid(g, &b->bridge_id);
	rnd_bid(g, &b->regional_root_id);
	b->port_id = (uint16_t)rnd(g);
	b->message_age = (uint16_t)rnd(g);
	b->max_age = (uint16_t)rnd(g);
	b->hello_time = (uint16_t)rnd(g);
	b->forward_delay = (uint16_t)rnd(g);
	if (kind != BPDU_TYPE_MST)
		return;
	rnd_name(g, &b->mcid);
	b->mcid.revision = (uint16_t)rnd(g);
	rnd_bytes(g, b->mcid.digest, sizeof(b->mcid.digest));
	b->int_root_path_cost = rnd(g);
	b->remaining_hops = (uint8_t)rnd(g);
	b->msti_count = r % 16 == 0 ? BPDU_MAX_MSTI : r % 5;
	for (unsigned int i = 0; i < b->msti_count; i++)
		rnd_msti(g, &b->msti[i]);
}

static int write_random(struct gen *g, unsigned long n, unsigned long others,
			size_t other_len)
{
	struct bpdu b;

	for (unsigned long i = 0; i < n; i++) {
		uint32_t r = rnd(g);

		rnd_bpdu(g, &b);
		if (gen_bpdu(g, &b, r % 10 == 0 ? 0x8100 : 0,
			      (uint16_t)(r >> 8)))
			return -1;
		for (unsigned long k = 0; k < others; k++)
			gen_other(g, (unsigned int)(i + k), other_len);
	}
	return 0;
}

static const struct opt_spec bpdu_pcap_spec = {
	.usage = "usage: bpdu-pcap -c OUT.pcap\n"
		 "       bpdu-pcap [-n BPDUS] [-k OTHERS] [-l LEN] [-s SEED] "
		 "OUT.pcap\n",
	.shorts = "cn:k:l:s:",
	.min_words = 1,
	.max_words = 1,
};

static int number(const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno || !*s || *end || *s == '-' ? -1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long n = 1000, others = 1, len = 64, seed = 1;
	struct gen g = { .ts_ns = 1796350000ULL * 1000000000ULL };
	bool cases = false;
	struct opts o;
	pcap_t *dead;
	int opt, rc;

	opts_start(&o, &bpdu_pcap_spec, argc, argv);
	while ((opt = opts_next(&o)) > 0) {
		unsigned long *v = opt == 'n' ? &n : opt == 'k' ? &others :
				   opt == 'l' ? &len : &seed;

		if (opt == 'c')
			cases = true;
		else if (number(o.arg, v))
			break;		/* not a number: the usage */
	}
	if (opt == OPT_HELP || opt == OPT_BAD)
		return opt == OPT_HELP ? 0 : 2;
	if (opt > 0 || len > FRAME_MAX) {
		opts_help(&bpdu_pcap_spec, stderr);
		return 2;
	}
	g.rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	dead = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, FRAME_MAX,
						    PCAP_TSTAMP_PRECISION_NANO);
	g.out = dead ? pcap_dump_open(dead, argv[o.ind]) : NULL;
	if (!g.out) {
		fprintf(stderr, "bpdu-pcap: %s: %s\n", argv[o.ind],
			dead ? pcap_geterr(dead) : "out of memory");
		return 1;
	}
	rc = cases ? gen_cases(&g) : write_random(&g, n, others, len);
	if (pcap_dump_flush(g.out)) {
		fprintf(stderr, "bpdu-pcap: %s: write failed\n", argv[o.ind]);
		rc = -1;
	}
	pcap_dump_close(g.out);
	pcap_close(dead);
	return rc ? 1 : 0;
}
