// SPDX-License-Identifier: MIT
/* Text and JSON from the same print calls (see print.h). */
#include "print.h"

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

void print_init(struct printer *p, FILE *fp, bool json)
{
	memset(p, 0, sizeof(*p));
	p->fp = fp;
	p->json = json;
}

bool print_is_json(const struct printer *p)
{
	return p->json;
}

/* Length of the valid UTF-8 sequence at @s, or 0 if it is invalid. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	/* no overlong forms, no surrogates, nothing above U+10FFFF */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

void print_json_string(FILE *fp, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n;

	fputc('"', fp);
	while (*s) {
		switch (*s) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\b':
			fputs("\\b", fp);
			break;
		case '\f':
			fputs("\\f", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		default:
			if (*s < 0x20 || *s == 0x7f) {
				fprintf(fp, "\\u%04x", *s);
				break;
			}
			n = utf8_len(s);
			if (!n) {
				fputs("\\ufffd", fp);
				break;
			}
			fwrite(s, 1, n, fp);
			s += n;
			continue;
		}
		s++;
	}
	fputc('"', fp);
}

/* Comma and key before a JSON value at the current depth. */
static void json_key(struct printer *p, const char *key)
{
	int d = p->depth;

	if (d > 0 && p->need_comma[d])
		fputc(',', p->fp);
	if (d > 0)
		p->need_comma[d] = true;
	if (d > 0 && !p->in_array[d]) {
		print_json_string(p->fp, key ? key : "");
		fputc(':', p->fp);
	}
}

/* After a value: a finished top-level document ends its line. */
static void json_end_value(struct printer *p)
{
	if (p->depth == 0) {
		fputc('\n', p->fp);
		fflush(p->fp);
	}
}

static void open_container(struct printer *p, const char *key, char c,
			   bool array)
{
	if (!p->json)
		return;
	json_key(p, key);
	fputc(c, p->fp);
	if (p->depth + 1 < PRINT_DEPTH_MAX) {
		p->depth++;
		p->in_array[p->depth] = array;
		p->need_comma[p->depth] = false;
	}
}

static void close_container(struct printer *p, char c)
{
	if (!p->json)
		return;
	fputc(c, p->fp);
	if (p->depth > 0)
		p->depth--;
	json_end_value(p);
}

void print_open_object(struct printer *p, const char *key)
{
	open_container(p, key, '{', false);
}

void print_close_object(struct printer *p)
{
	close_container(p, '}');
}

void print_open_array(struct printer *p, const char *key)
{
	open_container(p, key, '[', true);
}

void print_close_array(struct printer *p)
{
	close_container(p, ']');
}

static bool want_json(const struct printer *p, enum print_type t)
{
	return p->json && (t & PRINT_JSON);
}

static bool want_text(const struct printer *p, enum print_type t,
		      const char *fmt)
{
	return !p->json && (t & PRINT_FP) && fmt;
}

void print_string(struct printer *p, enum print_type t, const char *key,
		  const char *fmt, const char *value)
{
	if (want_json(p, t)) {
		json_key(p, key);
		print_json_string(p->fp, value);
		json_end_value(p);
	} else if (want_text(p, t, fmt)) {
		fprintf(p->fp, fmt, value ? value : "");
	}
}

void print_uint(struct printer *p, enum print_type t, const char *key,
		const char *fmt, unsigned int value)
{
	if (want_json(p, t)) {
		json_key(p, key);
		fprintf(p->fp, "%u", value);
		json_end_value(p);
	} else if (want_text(p, t, fmt)) {
		fprintf(p->fp, fmt, value);
	}
}

void print_u64(struct printer *p, enum print_type t, const char *key,
	       const char *fmt, uint64_t value)
{
	if (want_json(p, t)) {
		json_key(p, key);
		fprintf(p->fp, "%" PRIu64, value);
		json_end_value(p);
	} else if (want_text(p, t, fmt)) {
		fprintf(p->fp, fmt, value);
	}
}

void print_int(struct printer *p, enum print_type t, const char *key,
	       const char *fmt, int value)
{
	if (want_json(p, t)) {
		json_key(p, key);
		fprintf(p->fp, "%d", value);
		json_end_value(p);
	} else if (want_text(p, t, fmt)) {
		fprintf(p->fp, fmt, value);
	}
}

void print_bool(struct printer *p, enum print_type t, const char *key,
		const char *fmt, bool value)
{
	if (want_json(p, t)) {
		json_key(p, key);
		fputs(value ? "true" : "false", p->fp);
		json_end_value(p);
	} else if (want_text(p, t, fmt)) {
		fprintf(p->fp, fmt, value ? "true" : "false");
	}
}

void print_null(struct printer *p, enum print_type t, const char *key,
		const char *fmt)
{
	if (want_json(p, t)) {
		json_key(p, key);
		fputs("null", p->fp);
		json_end_value(p);
	} else if (want_text(p, t, fmt)) {
		fputs(fmt, p->fp);
	}
}

void print_nl(struct printer *p)
{
	if (!p->json)
		fputc('\n', p->fp);
}
