// SPDX-License-Identifier: MIT
#include "version.h"

#include <errno.h>
#include <string.h>

#include "build_id.h"
#include "paths.h"

#ifndef MSTLAB_VERSION
#error "MSTLAB_VERSION is set by lab/orchestrator/version.mk"
#endif

const char mstlab_version[] = MSTLAB_VERSION;

static void line(FILE *out, const char *what, const char *path,
		 int (*id)(const char *, char *, size_t))
{
	char buf[BUILD_ID_LEN];
	int r = id(path, buf, sizeof(buf));

	if (r == -ENOENT)
		snprintf(buf, sizeof(buf), "not built");
	else if (r == -EINVAL)
		snprintf(buf, sizeof(buf), "unknown (not a bzImage)");
	else if (r)
		snprintf(buf, sizeof(buf), "unknown (%s)", strerror(-r));
	fprintf(out, "%-18s%-26s %s\n", what, buf, path);
}

int mstlab_version_print(FILE *out, FILE *err)
{
	struct paths ps;
	int r;

	fprintf(out, "mstlab %s\n", mstlab_version);
	r = paths_find(&ps);
	if (r) {
		fprintf(err, "mstlab: cannot work out the build folder: %s\n",
			strerror(-r));
		return 1;
	}
	for (int k = 0; k < TOPO_KERNEL_COUNT; k++) {
		char what[32];

		snprintf(what, sizeof(what), "kernel-%s",
			 topo_kernel_name((enum topo_kernel)k));
		line(out, what, ps.kernel[k], build_id_kernel);
	}
	line(out, "initramfs", ps.initrd, build_id_file);
	return 0;
}
