// SPDX-License-Identifier: MIT
/*
 * mstlab --version: the version compiled in, and the build ids of the
 * kernels and the image it would boot, read from the files paths.h
 * resolves ($MSTLAB_BUILD here); "not built" for a missing one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_id.h"
#include "child.h"
#include "cli.h"
#include "lab_args.h"
#include "paths.h"
#include "unit.h"
#include "version.h"

#define BZ "/arch/x86/boot/bzImage"

static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, buf, len);
	return close(fd) || n != (ssize_t)len ? -1 : 0;
}

/* A bzImage's setup header and nothing else: "HdrS", protocol 2.15, and
 * kernel_version pointing at @kver. */
static int write_bzimage(const char *path, const char *kver)
{
	static unsigned char img[0x1100];

	memset(img, 0, sizeof(img));
	memcpy(img + 0x202, "HdrS", 4);
	img[0x206] = 0x0f;
	img[0x207] = 0x02;
	img[0x20e] = (0x1000 - 0x200) & 0xff;
	img[0x20f] = (0x1000 - 0x200) >> 8;
	memcpy(img + 0x1000, kver, strlen(kver) + 1);
	return write_file(path, img, sizeof(img));
}

/* BUILD/kernel-FLAVOR/arch/x86/boot/, made. */
static int kernel_dir(const char *build, const char *flavor, char *path,
		      size_t len)
{
	static const char *const parts[] = { "", "/arch", "/x86", "/boot" };
	int n = snprintf(path, len, "%s/kernel-%s", build, flavor);

	for (size_t i = 0; i < 4; i++) {
		n += snprintf(path + n, len - (size_t)n, "%s", parts[i]);
		if (mkdir(path, 0755))
			return -1;
	}
	return 0;
}

static char *version_of(const char *build, int *rc, char **err)
{
	char *argv[] = { "mstlab", "--version", NULL };
	char *out;

	setenv(PATHS_BUILD_ENV, build, 1);
	out = unit_capture(mstlab_cli, 2, argv, rc, err);
	unsetenv(PATHS_BUILD_ENV);
	return out;
}

static void rm_tree(const char *dir)
{
	char *argv[] = { "rm", "-rf", (char *)dir, NULL };

	spawn_run(argv, NULL, 10000);
}

TEST(version_names_the_kernels_and_the_image_it_boots)
{
	char build[] = "/tmp/mstlab-unit-XXXXXX", dir[PATH_MAX], want[4096];
	char path[PATH_MAX + 32];
	char *out, *err;
	int rc;

	CHECK(mkdtemp(build) != NULL);
	CHECK_INT(kernel_dir(build, "default", dir, sizeof(dir)), 0);
	snprintf(path, sizeof(path), "%s/bzImage", dir);
	CHECK_INT(write_bzimage(path, "6.1.158 (mstlab@mstlab) #1a2b3c4d "
				"2024-11-22"), 0);
	snprintf(path, sizeof(path), "%s/initramfs.cpio.lz4", build);
	CHECK_INT(write_file(path, "abc", 3), 0);
	out = version_of(build, &rc, &err);
	rm_tree(build);

	snprintf(want, sizeof(want),
		 "mstlab %s\n"
		 "kernel-default    6.1.158 #1a2b3c4d          %s/kernel-default" BZ "\n"
		 "kernel-debug      not built                  %s/kernel-debug" BZ "\n"
		 "kernel-6.12       not built                  %s/kernel-6.12" BZ "\n"
		 "kernel-6.12-debug not built                  %s/kernel-6.12-debug" BZ "\n"
		 "initramfs         sha256:ba7816bf8f01cfea    %s/initramfs.cpio.lz4\n",
		 mstlab_version, build, build, build, build, build);
	CHECK_INT(rc, 0);
	CHECK_STR(err, "");
	CHECK_STR(out, want);
	CHECK(mstlab_version[0] != '\0');
	free(out);
	free(err);
}

TEST(a_kernel_that_is_no_bzimage_is_unknown)
{
	char dir[] = "/tmp/mstlab-unit-XXXXXX", path[PATH_MAX], id[BUILD_ID_LEN];

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/f", dir);
	CHECK_INT(write_file(path, "not a kernel", 12), 0);
	CHECK_INT(build_id_kernel(path, id, sizeof(id)), -EINVAL);
	/* A bzImage whose version names no series: its release alone. */
	CHECK_INT(write_bzimage(path, "6.1.0 (u@h) 2024-01-01"), 0);
	CHECK_INT(build_id_kernel(path, id, sizeof(id)), 0);
	CHECK_STR(id, "6.1.0");
	/* The empty file's SHA-256. */
	CHECK_INT(write_file(path, "", 0), 0);
	CHECK_INT(build_id_file(path, id, sizeof(id)), 0);
	CHECK_STR(id, "sha256:e3b0c44298fc1c14");
	CHECK_INT(build_id_kernel(path, id, sizeof(id)), -EINVAL);
	rm_tree(dir);
	CHECK_INT(build_id_kernel(path, id, sizeof(id)), -ENOENT);
	CHECK_INT(build_id_file(path, id, sizeof(id)), -ENOENT);
}

/* Which kernels scripts/build-kernel built: the emulators are in those
 * only. */
TEST(our_kernels_are_told_from_others)
{
	char dir[] = "/tmp/mstlab-unit-XXXXXX", path[PATH_MAX];

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/f", dir);
	CHECK_INT(write_bzimage(path, "6.12.118 (mstlab@mstlab) #0badc0de "
				"2025-11-28"), 0);
	CHECK_INT(build_id_kernel_ours(path), 1);
	CHECK_INT(write_bzimage(path, "6.12.118-amd64 (debian-kernel@lists."
				"debian.org) #1 SMP Debian"), 0);
	CHECK_INT(build_id_kernel_ours(path), 0);
	CHECK_INT(write_file(path, "not a kernel", 12), 0);
	CHECK_INT(build_id_kernel_ours(path), -EINVAL);
	rm_tree(dir);
}

/* --kernel PATH of another kernel: the nodes that need our emulated
 * hardware are refused before anything starts, by name. */
TEST(another_kernel_is_refused_to_emulator_roles)
{
	char dir[] = "/tmp/mstlab-unit-XXXXXX", topo[PATH_MAX], image[PATH_MAX];
	char initrd[PATH_MAX], msg[1024] = "";
	char *argv[] = { "up", topo, "--kernel", image, "--initrd", initrd,
			 NULL };
	const char *yaml = "name: own\nnodes:\n  h: { role: host }\n"
			   "  e: { role: hsmp-host }\n";
	struct runtime rt = { 0 };
	FILE *err;
	int parsed, rc = 0;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(topo, sizeof(topo), "%s/lab.yaml", dir);
	snprintf(image, sizeof(image), "%s/bzImage", dir);
	snprintf(initrd, sizeof(initrd), "%s/i.cpio.lz4", dir);
	CHECK_INT(write_file(topo, yaml, strlen(yaml)), 0);
	CHECK_INT(write_file(initrd, "i", 1), 0);
	CHECK_INT(write_bzimage(image, "6.12.9 (me@box) #1 SMP"), 0);
	err = fmemopen(msg, sizeof(msg), "w");
	parsed = lab_args_parse(&rt, 6, argv, stdout, err, "up");
	if (!parsed)
		rc = runtime_check_images(&rt);
	runtime_free(&rt);
	fclose(err);
	rm_tree(dir);
	CHECK_INT(parsed, 0);
	CHECK_INT(rc, -1);
	CHECK(strstr(msg, "mstlab: e (hsmp-host) needs the emulated AMD SMU"));
	CHECK(strstr(msg, "is another kernel (not built by "
		      "scripts/build-kernel)"));
}

TEST(help_names_version)
{
	char *argv[] = { "mstlab", "--help", NULL };
	char *out, *err;
	int rc;

	out = unit_capture(mstlab_cli, 2, argv, &rc, &err);
	CHECK_INT(rc, 0);
	CHECK(strstr(out, "mstlab --version"));
	free(out);
	free(err);
}
