// SPDX-License-Identifier: MIT
#include "sbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sbuf_init(struct sbuf *sb)
{
	memset(sb, 0, sizeof(*sb));
}

void sbuf_free(struct sbuf *sb)
{
	free(sb->buf);
	sbuf_init(sb);
}

void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

static bool reserve(struct sbuf *sb, size_t extra)
{
	size_t need;
	char *nb;

	if (sb->oom)
		return false;
	need = sb->len + extra + 1;
	if (need <= sb->cap)
		return true;
	if (need < sb->len) {
		sb->oom = true;
		return false;
	}
	size_t cap = sb->cap ? sb->cap : 256;

	while (cap < need)
		cap *= 2;
	nb = realloc(sb->buf, cap);
	if (!nb) {
		sb->oom = true;
		return false;
	}
	sb->buf = nb;
	sb->cap = cap;
	return true;
}

static void append(struct sbuf *sb, const char *s, size_t n)
{
	if (!reserve(sb, n))
		return;
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sbuf_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->oom = true;
		return;
	}
	if (!reserve(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void sbuf_puts(struct sbuf *sb, const char *s)
{
	append(sb, s, strlen(s));
}

void sbuf_xml(struct sbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			sbuf_puts(sb, "&amp;");
			break;
		case '<':
			sbuf_puts(sb, "&lt;");
			break;
		case '>':
			sbuf_puts(sb, "&gt;");
			break;
		case '\'':
			sbuf_puts(sb, "&apos;");
			break;
		case '"':
			sbuf_puts(sb, "&quot;");
			break;
		default:
			append(sb, s, 1);
		}
	}
}

void sbuf_shell(struct sbuf *sb, const char *s)
{
	sbuf_puts(sb, "'");
	for (; *s; s++) {
		if (*s == '\'')
			sbuf_puts(sb, "'\\''");
		else
			append(sb, s, 1);
	}
	sbuf_puts(sb, "'");
}

const char *sbuf_str(const struct sbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

bool sbuf_failed(const struct sbuf *sb)
{
	return sb->oom;
}
