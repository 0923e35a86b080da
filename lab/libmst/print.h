/* SPDX-License-Identifier: MIT */
/*
 * One print call renders text or JSON, in the spirit of iproute2:
 *
 *	print_uint(p, PRINT_ANY, "msti", "msti %u ", v);
 *
 * prints "msti 1 " in text mode and "msti":1 in JSON mode. PRINT_FP prints
 * only in text mode, PRINT_JSON only in JSON mode. Objects and arrays exist
 * only in JSON; a top-level value ends with a newline, so a stream of
 * top-level objects is one JSON document per line.
 */
#ifndef MSTLAB_PRINT_H
#define MSTLAB_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum print_type {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = PRINT_FP | PRINT_JSON,
};

#define PRINT_DEPTH_MAX 16

struct printer {
	FILE *fp;
	bool json;
	int depth;
	bool in_array[PRINT_DEPTH_MAX];
	bool need_comma[PRINT_DEPTH_MAX];
};

void print_init(struct printer *p, FILE *fp, bool json);
bool print_is_json(const struct printer *p);

/* JSON containers; @key is ignored inside arrays and at the top level. */
void print_open_object(struct printer *p, const char *key);
void print_close_object(struct printer *p);
void print_open_array(struct printer *p, const char *key);
void print_close_array(struct printer *p);

/* @fmt formats the value in text mode (one conversion); NULL skips text. */
void print_string(struct printer *p, enum print_type t, const char *key,
		  const char *fmt, const char *value);
void print_uint(struct printer *p, enum print_type t, const char *key,
		const char *fmt, unsigned int value);
/* @fmt takes a uint64_t (PRIu64): nanosecond times. */
void print_u64(struct printer *p, enum print_type t, const char *key,
	       const char *fmt, uint64_t value);
void print_int(struct printer *p, enum print_type t, const char *key,
	       const char *fmt, int value);
/* Text: @fmt gets the string "true" or "false". */
void print_bool(struct printer *p, enum print_type t, const char *key,
		const char *fmt, bool value);
/* A JSON null, or @fmt as plain text. */
void print_null(struct printer *p, enum print_type t, const char *key,
		const char *fmt);
/* Text mode only: a newline. */
void print_nl(struct printer *p);

/* Writes @s as a JSON string literal; invalid UTF-8 becomes U+FFFD. */
void print_json_string(FILE *fp, const char *s);

#endif
