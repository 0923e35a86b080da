/* SPDX-License-Identifier: MIT */
/* Reading a capture frame by frame, nanosecond timestamps (libpcap). */
#ifndef MSTLAB_PCAPREAD_H
#define MSTLAB_PCAPREAD_H

#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"

/* Called per frame; return non-zero to stop. */
typedef int (*pcapread_frame_cb)(void *ctx, int64_t ts_ns,
				 const uint8_t *frame, size_t len);

/*
 * Reads every frame of path (Ethernet captures only). Returns 0, or -1
 * with a one-line reason in err (which names the file).
 */
int pcapread_file(const char *path, pcapread_frame_cb cb, void *ctx,
		  struct errbuf *err);

/*
 * What the capturing tcpdump said it lost ("N packets dropped by
 * kernel" in path.log, written when it exits), or -1 if it did not say.
 */
long pcapread_drops(const char *path);

#endif
