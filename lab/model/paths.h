/* SPDX-License-Identifier: MIT */
/*
 * Where the built files a lab runs with are: the guest kernel of each
 * name, the initramfs and its tools share, the programs, and the
 * results folder by default. One rule, the first that applies, and never
 * the current directory but for an installed mstlab's results:
 *
 *  1. $MSTLAB_BUILD names a build folder (a relative one: from the cwd);
 *  2. the build folder the running program sits in: BUILD/bin/mstlab (a
 *     unit test: BUILD/tests/test_x), known by its objects, BUILD/obj
 *     (BUILD/obj-san);
 *  3. the installed layout of the program's PREFIX/bin/mstlab.
 *
 * A build folder BUILD holds kernel-NAME/arch/x86/boot/bzImage (NAME:
 * kernels.h),
 * initramfs.cpio.lz4, the programs in bin/ and mstlab's cache; results
 * go to results/ beside it (for build/ of a checkout: the checkout's
 * results/). An installed PREFIX holds lib/mstlab/kernel-NAME/bzImage,
 * lib/mstlab/initramfs.cpio.lz4 and the programs in bin/; results go to
 * results/ in the current directory, the cache to /var/cache/mstlab. An
 * initramfs NAME.cpio.lz4, wherever it is, has its tools share
 * NAME.tools/ beside it (images/build-initramfs).
 */
#ifndef MSTLAB_PATHS_H
#define MSTLAB_PATHS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "topo.h"

#define PATHS_BUILD_ENV "MSTLAB_BUILD"
/* An installed mstlab's cache: never under PREFIX, which is read-only
 * at run time and which the package manager owns. */
#define PATHS_INSTALLED_CACHE "/var/cache/mstlab"

enum paths_origin {
	PATHS_FROM_ENV,		/* $MSTLAB_BUILD */
	PATHS_FROM_BINARY,	/* the build folder of the running program */
	PATHS_FROM_INSTALL,	/* the program's installed prefix */
};

struct paths {
	enum paths_origin origin;
	char kernel[TOPO_KERNEL_COUNT][PATH_MAX]; /* by enum topo_kernel */
	char initrd[PATH_MAX];
	char bin[PATH_MAX];
	char results[PATH_MAX];
	/* What mstlab learns about the host (the KVM probe): the build
	 * folder, or PATHS_INSTALLED_CACHE. */
	char cache[PATH_MAX];
};

/* What the rule reads from the host: paths_host_read() fills it; tests
 * make up their own. */
struct paths_host {
	const char *build_env;	/* $MSTLAB_BUILD; NULL or "": unset */
	char cwd[PATH_MAX];	/* a relative build_env's base; an installed
				 * mstlab's results */
	char exe[PATH_MAX];	/* the running program; "": unknown */
	bool exe_in_build;	/* its folder's parent holds obj/ or obj-san/ */
};

/* 0, or -errno when the cwd is needed (a relative $MSTLAB_BUILD, a
 * program outside a build folder) and cannot be read. */
int paths_host_read(struct paths_host *h);
/* Applies the rule: 0, or -ENAMETOOLONG. */
int paths_resolve(struct paths *p, const struct paths_host *h);
/* Both, for this process. */
int paths_find(struct paths *p);

/*
 * 0 when the file a lab boots from is there; else -ENOENT with a message
 * in @msg naming the path looked for and the make target that builds it.
 */
int paths_need_kernel(const char *path, enum topo_kernel k, char *msg,
		      size_t len);
int paths_need_initrd(const char *path, char *msg, size_t len);

/* @initrd's tools share in @buf, or NULL when that is not a folder. */
const char *paths_tools_share(const char *initrd, char *buf, size_t len);

#endif
