/* SPDX-License-Identifier: MIT */
/*
 * What identifies a built guest kernel or image, for mstlab --version:
 * a bzImage's own version string, cut to its release and the "#<series
 * id>" scripts/build-kernel gives it (KBUILD_BUILD_VERSION: a hash of
 * the patch series), as `uname -r` and `uname -v` show them in a guest;
 * any other file's SHA-256.
 */
#ifndef MSTLAB_BUILD_ID_H
#define MSTLAB_BUILD_ID_H

#include <stddef.h>

/* Room for either id. */
#define BUILD_ID_LEN 96

/*
 * "6.1.158 #1a2b3c4d" from the bzImage at @path (the kernel_version
 * string its setup header points to). 0; -ENOENT, or another -errno,
 * when it cannot be read; -EINVAL when it is no bzImage.
 */
int build_id_kernel(const char *path, char *out, size_t len);
/* Who scripts/build-kernel says built a kernel (KBUILD_BUILD_USER and
 * _HOST), as its version string shows it. */
#define BUILD_ID_BUILDER "mstlab@mstlab"
/*
 * Whether the bzImage at @path is one scripts/build-kernel built (with
 * our patch series: the emulated hardware hsmp-host and dsa-switch
 * nodes need): 1 yes, 0 no (another kernel), or -errno as above.
 */
int build_id_kernel_ours(const char *path);
/* "sha256:" and the first 16 hex digits of the file's SHA-256; 0 or
 * -errno. */
int build_id_file(const char *path, char *out, size_t len);

#endif
