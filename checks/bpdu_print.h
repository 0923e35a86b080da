/* SPDX-License-Identifier: MIT */
/*
 * One BPDU as one line of text or one JSON object, with the field names
 * of Wireshark's STP dissector (stp.*, mstp.*) so the two can be
 * compared side by side.
 */
#ifndef MSTLAB_BPDU_PRINT_H
#define MSTLAB_BPDU_PRINT_H

#include <stdint.h>

#include "bpdu.h"
#include "print.h"

void bpdu_print(struct printer *p, int64_t ts_ns, const struct bpdu_frame *f,
		const struct bpdu *b);

#endif
