/* SPDX-License-Identifier: MIT */
/*
 * A growable text buffer for generated files (domain XML, seeds, dot). Allocation failure is sticky: appends become no-ops and
 * sbuf_failed() reports it once at the end.
 */
#ifndef MSTLAB_SBUF_H
#define MSTLAB_SBUF_H

#include <stdbool.h>
#include <stddef.h>

struct sbuf {
	char *buf;
	size_t len, cap;
	bool oom;
};

void sbuf_init(struct sbuf *sb);
void sbuf_free(struct sbuf *sb);
void sbuf_reset(struct sbuf *sb);
void sbuf_printf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sbuf_puts(struct sbuf *sb, const char *s);
/* s with & < > ' " replaced by entities (for text and attributes). */
void sbuf_xml(struct sbuf *sb, const char *s);
/* s as one POSIX shell word in single quotes. */
void sbuf_shell(struct sbuf *sb, const char *s);
/* The text so far ("" when empty), NUL-terminated. */
const char *sbuf_str(const struct sbuf *sb);
bool sbuf_failed(const struct sbuf *sb);

#endif
