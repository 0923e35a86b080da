// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the BPDU codec.  Input byte 0 selects the entry
 * point (bit 0: raw BPDU or whole Ethernet frame); the rest is the data.
 * Beyond "no crash, no overread", it checks that whatever decodes
 * re-encodes to the octets it came from and decodes again to the same
 * classification.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bpdu.h"

static void check_round_trip(const uint8_t *data, size_t len,
			     const struct bpdu *b)
{
	static uint8_t out[BPDU_MST_MAX_LEN];
	static struct bpdu again;
	size_t n = 0;

	if (bpdu_encode(b, out, sizeof(out), &n) != BPDU_OK)
		abort();
	/* Version >= 3 BPDUs of exactly 35 octets decode as RST, and are
	 * encoded with the 36th octet (Version 1 Length) added. */
	if (n > len) {
		if (!(b->type == BPDU_TYPE_RST && len == 35 && n == 36))
			abort();
	} else if (memcmp(out, data, n) != 0) {
		abort();
	}
	if (bpdu_decode(out, n, &again) != BPDU_OK || again.type != b->type ||
	    again.msti_count != b->msti_count)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bpdu b;
	struct bpdu_frame f;
	uint8_t *copy;

	if (size < 1)
		return 0;
	/* An exact-size copy so ASan catches reads past the end. */
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	if (data[0] & 1) {
		if (bpdu_frame_decode(copy, size - 1, &f, &b) == BPDU_OK)
			check_round_trip(f.bpdu, f.bpdu_len, &b);
	} else {
		enum bpdu_err err = bpdu_decode(copy, size - 1, &b);

		if (bpdu_strerror(err) == NULL)
			abort();
		if (err == BPDU_OK)
			check_round_trip(copy, size - 1, &b);
	}
	free(copy);
	return 0;
}
