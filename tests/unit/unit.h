/* SPDX-License-Identifier: MIT */
/*
 * A minimal unit-test harness: each TEST() registers itself; unit_main()
 * runs them all and prints TAP lines ("ok N - name" / "not ok N - name")
 * that tests/run counts.
 */
#ifndef MSTLAB_UNIT_H
#define MSTLAB_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef void (*unit_fn)(void);

void unit_register(const char *name, unit_fn fn);
void unit_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void unit_skip(const char *why);
/* The name of the test running now. */
const char *unit_current(void);
/* Runs a command's entry point fn(argc, argv, out, err) with both streams
 * in memory: returns what it printed (free it), its error output in *err
 * (free it too), its exit status in *rc. */
char *unit_capture(int (*fn)(int, char **, FILE *, FILE *), int argc,
		   char **argv, int *rc, char **err);
/* Prints a hexdump of both buffers and where they first differ. */
void unit_fail_mem(const char *file, int line, const char *expr,
		   const void *got, size_t got_len,
		   const void *want, size_t want_len);

#define TEST(name)                                                      \
	static void name(void);                                         \
	__attribute__((constructor)) static void unit_reg_##name(void)  \
	{                                                               \
		unit_register(#name, name);                             \
	}                                                               \
	static void name(void)

/* A failed CHECK marks the test failed and returns from it. */
#define CHECK(cond)                                                     \
	do {                                                            \
		if (!(cond)) {                                          \
			unit_fail(__FILE__, __LINE__, "%s", #cond);     \
			return;                                         \
		}                                                       \
	} while (0)

/* Ends the test as skipped ("ok N - name # SKIP why"): only for a tool
 * the machine lacks, never to hide a failure. */
#define SKIP(why)                                                       \
	do {                                                            \
		unit_skip(why);                                         \
		return;                                                 \
	} while (0)

#define CHECK_INT(got, want)                                            \
	do {                                                            \
		long long g_ = (long long)(got), w_ = (long long)(want); \
		if (g_ != w_) {                                         \
			unit_fail(__FILE__, __LINE__,                   \
				  "%s == %lld, want %lld", #got, g_, w_); \
			return;                                         \
		}                                                       \
	} while (0)

#define CHECK_STR(got, want)                                            \
	do {                                                            \
		const char *g_ = (got), *w_ = (want);                   \
		if (!g_ || strcmp(g_, w_) != 0) {                       \
			unit_fail(__FILE__, __LINE__,                   \
				  "%s == \"%s\", want \"%s\"", #got,    \
				  g_ ? g_ : "(null)", w_);              \
			return;                                         \
		}                                                       \
	} while (0)

#define CHECK_MEM(got, got_len, want, want_len)                         \
	do {                                                            \
		if ((size_t)(got_len) != (size_t)(want_len) ||          \
		    memcmp((got), (want), (want_len)) != 0) {           \
			unit_fail_mem(__FILE__, __LINE__, #got, (got),  \
				      (got_len), (want), (want_len));   \
			return;                                         \
		}                                                       \
	} while (0)

#endif
