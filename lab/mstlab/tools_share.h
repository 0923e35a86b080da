/* SPDX-License-Identifier: MIT */
/*
 * The image's on-demand programs (tcpdump, ethtool, bash and the
 * libraries only they need) sit beside it in a directory the guests mount
 * read-only over 9p, tag "tools" (images/build-initramfs):
 * build/initramfs.cpio.lz4 -> build/initramfs.tools.
 */
#ifndef MSTLAB_TOOLS_SHARE_H
#define MSTLAB_TOOLS_SHARE_H

#include <stddef.h>

/* @initrd's tools directory in @buf, or NULL when it has none. */
const char *tools_share_dir(const char *initrd, char *buf, size_t len);

#endif
