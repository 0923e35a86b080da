// SPDX-License-Identifier: MIT
#include "args.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static int digit(char c, unsigned int base)
{
	int d = c >= '0' && c <= '9' ? c - '0' :
		c >= 'a' && c <= 'f' ? c - 'a' + 10 :
		c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

	return d < (int)base ? d : -1;
}

/* Parses s[0..len): decimal digits, or with @hex also 0x and hex digits;
 * -EINVAL if there are none or anything else. */
static int number_n(const char *s, size_t len, bool hex, unsigned int min,
		    unsigned int max, unsigned int *out)
{
	unsigned int base = 10;
	unsigned long v = 0;

	if (!s)
		return -EINVAL;
	if (hex && len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		len -= 2;
	}
	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		int d = digit(s[i], base);

		if (d < 0)
			return -EINVAL;
		/* saturate: a long number is out of range, not garbage */
		if (v <= 0xffffffffUL)
			v = v * base + (unsigned long)d;
	}
	if (v < min || v > max)
		return -ERANGE;
	*out = (unsigned int)v;
	return 0;
}

int args_number(const char *s, unsigned int min, unsigned int max,
		unsigned int *out)
{
	return s ? number_n(s, strlen(s), false, min, max, out) : -EINVAL;
}

int args_uint(const char *s, unsigned int min, unsigned int max,
	      unsigned int *out)
{
	return s ? number_n(s, strlen(s), true, min, max, out) : -EINVAL;
}

static int vid_range_n(const char *s, size_t len, uint16_t *from,
		       uint16_t *to)
{
	const char *dash = memchr(s, '-', len);
	unsigned int a, b;
	int ret;

	if (!dash) {
		ret = number_n(s, len, false, 1, 4094, &a);
		b = a;
	} else {
		ret = number_n(s, (size_t)(dash - s), false, 1, 4094,
			       &a);
		if (ret == 0)
			ret = number_n(dash + 1, len - (size_t)(dash - s) - 1,
				       false, 1, 4094, &b);
		if (ret == 0 && b < a)
			ret = -EINVAL;
	}
	if (ret == 0) {
		*from = (uint16_t)a;
		*to = (uint16_t)b;
	}
	return ret;
}

int args_vid_range(const char *s, uint16_t *from, uint16_t *to)
{
	return s ? vid_range_n(s, strlen(s), from, to) : -EINVAL;
}

int args_vid_list(const char *s, uint16_t *vids, size_t max, size_t *n,
		  const char **bad, size_t *bad_len)
{
	uint8_t seen[4096 / 8] = { 0 };
	const char *item = s;

	*n = 0;
	if (!s)
		return -EINVAL;
	for (;;) {
		const char *comma = strchr(item, ',');
		size_t len = comma ? (size_t)(comma - item) : strlen(item);
		uint16_t from, to;
		int ret = vid_range_n(item, len, &from, &to);

		if (ret < 0) {
			if (bad) {
				*bad = item;
				*bad_len = len;
			}
			return ret;
		}
		for (unsigned int v = from; v <= to; v++) {
			if (seen[v / 8] & (1u << (v % 8)))
				continue;
			if (*n == max)
				return -E2BIG;
			seen[v / 8] |= 1u << (v % 8);
			vids[(*n)++] = (uint16_t)v;
		}
		if (!comma)
			return 0;
		item = comma + 1;
	}
}

int args_keywords(int argc, char **argv, const char *const *keys,
		  const char **vals, const char **bad)
{
	for (int i = 0; i < argc; i += 2) {
		size_t k;

		for (k = 0; keys[k]; k++)
			if (strcmp(argv[i], keys[k]) == 0)
				break;
		*bad = argv[i];
		if (!keys[k])
			return -ENOENT;
		if (vals[k])
			return -EEXIST;
		if (i + 1 >= argc)
			return -ENODATA;
		vals[k] = argv[i + 1];
	}
	return 0;
}
