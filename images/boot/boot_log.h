/* SPDX-License-Identifier: MIT */
/*
 * What the guest's boot programs share: messages on the console, where
 * the lab and the tests look, and small file helpers. Static programs
 * without a shell: under TCG every process a boot starts costs ~20 ms.
 */
#ifndef MSTLAB_BOOT_LOG_H
#define MSTLAB_BOOT_LOG_H

#include <stddef.h>

/* printf to /dev/console, newline added. */
void console_log(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Writes all of buf to fd, through short writes and EINTR: 0 or -1. */
int write_all(int fd, const void *buf, size_t len);

/* The first line of a file, without its newline: 0 or -1. */
int read_line(const char *path, char *buf, size_t len);

#endif
