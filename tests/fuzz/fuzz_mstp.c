// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the MSTP core: arbitrary sequences of received
 * BPDUs, ticks, link changes and mcheck on a 3-port bridge with two
 * MSTIs.  Besides ASan/UBSan findings it aborts if the state machines
 * ever fail to settle after an event.
 *
 * Input: records of [op][len][len bytes]; op % 4 selects rx (port
 * op / 4 % 3, the bytes are the BPDU), tick, link toggle, or one of the
 * operator's controls by len (mcheck, guards, filter, recovery, speed,
 * a new port, MSTIs, version, costs, timers, max hops).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mstp.h"

static void tx(void *ctx, unsigned int port, const uint8_t *bpdu, size_t len)
{
	(void)ctx;
	(void)port;
	/* Whatever we send must decode. */
	static struct bpdu b;
	if (bpdu_decode(bpdu, len, &b) != BPDU_OK)
		abort();
}

static void set_state(void *ctx, unsigned int port, uint16_t mstid,
		      enum mstp_port_state state)
{
	(void)ctx;
	(void)port;
	(void)mstid;
	(void)state;
}

static void flush(void *ctx, unsigned int port, int mstid)
{
	(void)ctx;
	(void)port;
	(void)mstid;
}

static struct mstp_bridge_config cfg;

static const struct mstp_ops ops = {
	.tx_bpdu = tx, .set_state = set_state, .flush = flush,
};

/* The operator's controls, by @k, with @k's upper bits as the value. */
static void control(struct mstp_bridge *br, unsigned int port, unsigned int k)
{
	static const uint16_t other[] = { 2, 5 };
	bool on = k & 16;

	switch (k % 14) {
	case 0: mstp_mcheck(br, port); break;
	case 1: mstp_set_bpdu_guard(br, port, on); break;
	case 2: mstp_set_bpdu_filter(br, port, on); break;
	case 3: mstp_set_loop_guard(br, port, on); break;
	case 4: mstp_set_restricted(br, port, on, k & 32); break;
	case 5: mstp_port_recover(br, port); break;
	case 6: mstp_set_port_speed(br, port, (uint64_t)k * k * 10); break;
	case 7: if (mstp_nports(br) < 6) mstp_add_port(br); break;
	case 8: mstp_set_mstis(br, other, on ? 2 : 1, &cfg.mcid); break;
	case 9: mstp_set_force_version(br, (enum mstp_force_version)(k / 16 % 4)); break;
	case 10: mstp_set_guard_recovery(br, k / 16 % 4); break;
	case 11: mstp_set_port_path_cost(br, port, k / 16 % 3, k / 32); break;
	case 12: mstp_set_bridge_times(br, 6 + k / 16 % 35, 4 + k / 64 % 27); break;
	case 13: mstp_set_max_hops(br, k / 16 % 45); break;
	}
}

/* The bridge every input starts from, its links up and settled: made
 * once, copied per input (most of an input's time went into this). */
static struct mstp_bridge *start(void)
{
	static const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 0x42 };
	static struct mst_vid_table table;
	static struct mstp_bridge *br;

	if (br)
		return br;
	mstp_bridge_config_default(&cfg, mac);
	cfg.nports = 3;
	cfg.nmstis = 2;
	cfg.mstids[0] = 1;
	cfg.mstids[1] = 2;
	table.mstid[10] = 1;
	table.mstid[20] = 2;
	if (mst_config_id_init(&cfg.mcid, "lab", 1, &table))
		abort();
	br = mstp_bridge_new(&cfg, &ops, NULL);
	if (!br)
		abort();
	for (unsigned int p = 0; p < 3; p++)
		mstp_port_set_link(br, p, true, true);
	return br;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mstp_bridge *br = mstp_bridge_copy(start(), NULL);
	bool up[3] = { true, true, true };

	if (!br)
		abort();
	while (size >= 2) {
		uint8_t op = data[0];
		size_t len = data[1];
		unsigned int port = (op >> 2) % 3;

		data += 2;
		size -= 2;
		if (len > size)
			len = size;
		switch (op & 3) {
		case 0: {
			uint8_t *copy = malloc(len ? len : 1);

			if (!copy)
				abort();
			memcpy(copy, data, len);
			mstp_rx_bpdu(br, port, copy, len);
			free(copy);
			break;
		}
		case 1:
			for (unsigned int i = 0; i < 1 + len % 8; i++)
				mstp_tick(br);
			len = 0;
			break;
		case 2:
			up[port] = !up[port];
			mstp_port_set_link(br, port, up[port], len & 1);
			len = 0;
			break;
		case 3:
			control(br, port, (unsigned int)len);
			len = 0;
			break;
		}
		data += len;
		size -= len;
		if (mstp_run_overflows(br))
			abort();
	}
	mstp_bridge_free(br);
	return 0;
}
