// SPDX-License-Identifier: MIT
/*
 * A topology (and the host settings) is UTF-8, a byte order mark
 * allowed. libyaml reads UTF-16 with a byte order mark too, and what it
 * makes of UTF-16 without one, or of bytes of another encoding, is a
 * late and puzzling error or a wrong name: the text is checked first,
 * and its first fault named.
 */
#include "topo_priv.h"

#include <stdio.h>
#include <string.h>

/* The byte order marks of the encodings a topology is not in. */
static const char *bom_name(const unsigned char *b, size_t len)
{
	if (len >= 4 && !memcmp(b, "\xff\xfe\0\0", 4))
		return "UTF-32 (little-endian)";
	if (len >= 4 && !memcmp(b, "\0\0\xfe\xff", 4))
		return "UTF-32 (big-endian)";
	if (len >= 2 && !memcmp(b, "\xff\xfe", 2))
		return "UTF-16 (little-endian)";
	if (len >= 2 && !memcmp(b, "\xfe\xff", 2))
		return "UTF-16 (big-endian)";
	return NULL;
}

/* The length of the UTF-8 sequence at b (1-4), or 0 if it is none:
 * no overlong form, no surrogate, nothing past U+10FFFF. */
static size_t utf8_seq(const unsigned char *b, size_t left)
{
	size_t n;
	unsigned cp;

	if (b[0] < 0x80)
		return 1;
	if (b[0] >= 0xc2 && b[0] <= 0xdf)
		n = 2, cp = b[0] & 0x1f;
	else if (b[0] >= 0xe0 && b[0] <= 0xef)
		n = 3, cp = b[0] & 0x0f;
	else if (b[0] >= 0xf0 && b[0] <= 0xf4)
		n = 4, cp = b[0] & 0x07;
	else
		return 0;
	if (left < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((b[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (b[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

int tp_check_encoding(struct topo_error *err, const void *buf, size_t len)
{
	const unsigned char *b = buf;
	const char *bom = bom_name(b, len);
	unsigned line = 1, col = 1;

	err->mark = (struct topo_mark){ 1, 1 };
	if (bom) {
		snprintf(err->msg, sizeof(err->msg), "the file is %s, not "
			 "UTF-8 (iconv -t UTF-8 converts it)", bom);
		return -1;
	}
	/* ASCII text in UTF-16 has a NUL in every other byte. */
	if (len >= 2 && (!b[0]) != (!b[1])) {
		snprintf(err->msg, sizeof(err->msg), "the file looks UTF-16 "
			 "without a byte order mark (a NUL at offset %d), not "
			 "UTF-8", b[0] ? 1 : 0);
		return -1;
	}
	for (size_t i = 0; i < len;) {
		size_t n = b[i] ? utf8_seq(b + i, len - i) : 0;

		if (!n)
			err->mark = (struct topo_mark){ line, col };
		if (!b[i]) {
			snprintf(err->msg, sizeof(err->msg), "a NUL byte at "
				 "offset %zu: the file must be text", i);
			return -1;
		}
		if (!n) {
			snprintf(err->msg, sizeof(err->msg), "byte 0x%02x at "
				 "offset %zu is not UTF-8: the file must be "
				 "UTF-8",
				 b[i], i);
			return -1;
		}
		if (b[i] == '\n')
			line++, col = 1;
		else
			col++;
		i += n;
	}
	return 0;
}
