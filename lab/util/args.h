/* SPDX-License-Identifier: MIT */
/*
 * Command-line argument parsing: pure functions, unit-tested. A number is
 * digits alone (no sign, no spaces); anything else is -EINVAL, a number
 * outside the allowed range is -ERANGE, so the caller can name the
 * problem precisely. On failure *out is left alone.
 */
#ifndef MSTCTL_ARGS_H
#define MSTCTL_ARGS_H

#include <stddef.h>
#include <stdint.h>

/* A decimal number in min..max: mstctl's MSTIs and VLANs (and so VLAN
 * ranges and lists) are decimal only, as 802.1Q writes them. */
int args_number(const char *s, unsigned int min, unsigned int max,
		unsigned int *out);
/* A number in min..max, decimal or hex after 0x or 0X: hsmpctl's, whose
 * DIMM addresses, APIC ids and mailbox words are as often written in hex.
 * No octal: 010 is ten. */
int args_uint(const char *s, unsigned int min, unsigned int max,
	      unsigned int *out);
/* "VID" or "VID-VID" (start <= end), each in 1..4094. */
int args_vid_range(const char *s, uint16_t *from, uint16_t *to);
/* "VID[,VID...]"; each item may be a range. Duplicates are kept once.
 * -E2BIG if more than @max VIDs. @bad points at the offending item. */
int args_vid_list(const char *s, uint16_t *vids, size_t max, size_t *n,
		  const char **bad, size_t *bad_len);

/*
 * Keyword/value pairs ("dev br0 vid 10"). @keys is NULL-terminated; values
 * land in the same slot of @vals (which must start NULL). Returns 0, or
 * -ENOENT (unknown keyword), -EEXIST (given twice), -ENODATA (keyword
 * without value); @bad names the offending word.
 */
int args_keywords(int argc, char **argv, const char *const *keys,
		  const char **vals, const char **bad);

#endif
