/* SPDX-License-Identifier: MIT */
/*
 * The host side's one way to say why a call failed: the call fills a
 * struct errbuf with one line a user reads and returns -1 (or another
 * failure its header names). The buffer carries its size, so no caller
 * and no callee guesses it. Libraries below keep returning -errno.
 */
#ifndef MSTLAB_ERRBUF_H
#define MSTLAB_ERRBUF_H

#include <limits.h>

/* Room for a path and a sentence around it. */
#define ERRBUF_LEN (PATH_MAX + 256)

struct errbuf {
	char msg[ERRBUF_LEN];
};

/* Formats the line into err; returns -1, for `return errbuf_set(...)`. */
int errbuf_set(struct errbuf *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
