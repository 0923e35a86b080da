// SPDX-License-Identifier: MIT
#include "cmd_kernels.h"

#include <errno.h>
#include <string.h>

#include "build_id.h"
#include "kernels.h"
#include "opts.h"
#include "paths.h"
#include "print.h"

enum { O_JSON = 256 };

static const struct opt kernels_opts[] = {
	OPT_FLAG("json", O_JSON),
	{ 0 },
};

static const struct opt_spec kernels_spec = {
	.opts = kernels_opts, .shorts = "j", .flags = OPT_QUIET,
	.min_words = 0, .max_words = 0,
};

/* One kernel: its image's release and series ("6.1.158" "#1a2b3c4d"),
 * or why there is none ("not built"). */
static void one(struct printer *pr, enum topo_kernel k, const char *image)
{
	const struct kernel_known *kk = kernel_known(k);
	char id[BUILD_ID_LEN], *series;
	int r = build_id_kernel(image, id, sizeof(id));

	series = r ? NULL : strchr(id, ' ');
	if (series)
		*series++ = 0;
	print_open_object(pr, NULL);
	print_string(pr, PRINT_ANY, "name", "%-11s", kk->name);
	print_string(pr, PRINT_ANY, "version", " %-8s", kk->version);
	print_string(pr, PRINT_ANY, "flavour", " %-8s", kk->flavour);
	print_string(pr, PRINT_ANY, "package", " %-18s", kk->package);
	print_bool(pr, PRINT_JSON, "built", NULL, !r);
	if (r == -ENOENT)
		print_string(pr, PRINT_FP, NULL, " %-26s", "not built");
	else if (r)
		print_string(pr, PRINT_ANY, "error", " %-26s", r == -EINVAL ?
			     "not a bzImage" : strerror(-r));
	else {
		char built[BUILD_ID_LEN + 2];

		snprintf(built, sizeof(built), "%s %s", id,
			 series ? series : "-");
		print_string(pr, PRINT_FP, NULL, " %-26s", built);
		print_string(pr, PRINT_JSON, "release", NULL, id);
		print_string(pr, PRINT_JSON, "series", NULL,
			     series ? series : "");
	}
	print_string(pr, PRINT_ANY, "image", " %s\n", image);
	print_close_object(pr);
}

int cmd_kernels(int argc, char **argv, FILE *out, FILE *err)
{
	struct printer pr;
	struct paths ps;
	struct opts o;
	bool json = false;
	char why[160];
	int k, r;

	opts_start(&o, &kernels_spec, argc, argv);
	while ((k = opts_next(&o)) > 0)
		json |= k == O_JSON || k == 'j';
	if (k == OPT_BAD) {
		fprintf(err, "mstlab kernels: %s\nusage: mstlab %s\n",
			opts_why(&o, why, sizeof(why)), KERNELS_USAGE);
		return 2;
	}
	r = paths_find(&ps);
	if (r) {
		fprintf(err, "mstlab kernels: cannot work out the build "
			"folder: %s\n", strerror(-r));
		return 1;
	}
	print_init(&pr, out, json);
	if (!json)
		fprintf(out, "%-11s %-8s %-8s %-18s %-26s %s\n", "KERNEL",
			"VERSION", "FLAVOUR", "SOURCE", "BUILT", "IMAGE");
	print_open_array(&pr, NULL);
	for (int i = 0; i < TOPO_KERNEL_COUNT; i++)
		one(&pr, (enum topo_kernel)i, ps.kernel[i]);
	print_close_array(&pr);
	return 0;
}
