// SPDX-License-Identifier: MIT
/*
 * Where the built files are: $MSTLAB_BUILD, else the build folder of the
 * running program, else the installed layout; never the cwd. What a
 * missing file's message says.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paths.h"
#include "unit.h"

#define BZ "/arch/x86/boot/bzImage"

static struct paths_host host(const char *env, const char *cwd,
			      const char *exe, bool in_build)
{
	struct paths_host h = { .build_env = env, .exe_in_build = in_build };

	snprintf(h.cwd, sizeof(h.cwd), "%s", cwd);
	snprintf(h.exe, sizeof(h.exe), "%s", exe);
	return h;
}

/* The host as the rule sees it, and where each file is then. */
static const struct rule_case {
	const char *env, *cwd, *exe;
	bool in_build;
	enum paths_origin origin;
	const char *kernel, *debug_kernel, *initrd, *bin, *results;
} rule_cases[] = {
	/* 1. the override, over the program's own build folder */
	{ "/srv/b", "/home/u", "/x/build/bin/mstlab", true, PATHS_FROM_ENV,
	  "/srv/b/kernel-default" BZ, "/srv/b/kernel-debug" BZ,
	  "/srv/b/initramfs.cpio.lz4", "/srv/b/bin", "/srv/results" },
	/* ... and over an installed program; a trailing slash is no folder */
	{ "/srv/b/", "/home/u", "/usr/bin/mstlab", false, PATHS_FROM_ENV,
	  "/srv/b/kernel-default" BZ, "/srv/b/kernel-debug" BZ,
	  "/srv/b/initramfs.cpio.lz4", "/srv/b/bin", "/srv/results" },
	/* a relative one is taken from the cwd */
	{ "out/b", "/home/u", "/x/build/bin/mstlab", true, PATHS_FROM_ENV,
	  "/home/u/out/b/kernel-default" BZ, "/home/u/out/b/kernel-debug" BZ,
	  "/home/u/out/b/initramfs.cpio.lz4", "/home/u/out/b/bin",
	  "/home/u/out/results" },
	/* 2. the program's build folder, whatever the cwd or its name */
	{ NULL, "/home/u", "/x/build/bin/mstlab", true, PATHS_FROM_BINARY,
	  "/x/build/kernel-default" BZ, "/x/build/kernel-debug" BZ,
	  "/x/build/initramfs.cpio.lz4", "/x/build/bin", "/x/results" },
	{ "", "/elsewhere", "/tmp/b1/tests/test_x", true, PATHS_FROM_BINARY,
	  "/tmp/b1/kernel-default" BZ, "/tmp/b1/kernel-debug" BZ,
	  "/tmp/b1/initramfs.cpio.lz4", "/tmp/b1/bin", "/tmp/results" },
	/* 3. else the installed layout of the program's prefix */
	{ NULL, "/x", "/usr/local/bin/mstlab", false, PATHS_FROM_INSTALL,
	  "/usr/local/lib/mstlab/kernel-default/bzImage",
	  "/usr/local/lib/mstlab/kernel-debug/bzImage",
	  "/usr/local/lib/mstlab/initramfs.cpio.lz4", "/usr/local/bin",
	  "/x/results" },
	/* the program's path unknown: /usr */
	{ NULL, "/x", "", false, PATHS_FROM_INSTALL,
	  "/usr/lib/mstlab/kernel-default/bzImage",
	  "/usr/lib/mstlab/kernel-debug/bzImage",
	  "/usr/lib/mstlab/initramfs.cpio.lz4", "/usr/bin",
	  "/x/results" },
};

/* NULL when @p is what @c says; else the first value that is not. */
static const char *mismatch(const struct paths *p, const struct rule_case *c)
{
	const char *got[] = { p->kernel[TOPO_KERNEL_DEFAULT],
			      p->kernel[TOPO_KERNEL_DEBUG], p->initrd, p->bin,
			      p->results };
	const char *want[] = { c->kernel, c->debug_kernel, c->initrd, c->bin,
			       c->results };

	if (p->origin != c->origin)
		return "another origin";
	for (size_t i = 0; i < sizeof(got) / sizeof(got[0]); i++)
		if (strcmp(got[i], want[i]))
			return got[i];
	return NULL;
}

TEST(override_then_the_build_folder_of_the_program_then_installed)
{
	for (size_t i = 0; i < sizeof(rule_cases) / sizeof(rule_cases[0]);
	     i++) {
		const struct rule_case *c = &rule_cases[i];
		struct paths_host h = host(c->env, c->cwd, c->exe, c->in_build);
		struct paths p;
		const char *bad = paths_resolve(&p, &h) ? "an error" :
							  mismatch(&p, c);

		if (bad) {
			unit_fail(__FILE__, __LINE__, "case %zu: got %s", i,
				  bad);
			return;
		}
	}
}

/* The KVM probe's answer: in the build folder, never under an installed
 * PREFIX (the package manager's, read-only at run time). */
TEST(the_cache_is_the_build_folder_or_var_cache)
{
	struct paths_host b = host(NULL, "/home/u", "/x/build/bin/mstlab", true);
	struct paths_host e = host("/srv/b/", "/home/u", "/usr/bin/mstlab",
				   false);
	struct paths_host i = host(NULL, "/home/u", "/usr/bin/mstlab", false);
	struct paths p;

	CHECK_INT(paths_resolve(&p, &b), 0);
	CHECK_STR(p.cache, "/x/build");
	CHECK_INT(paths_resolve(&p, &e), 0);
	CHECK_STR(p.cache, "/srv/b");
	CHECK_INT(paths_resolve(&p, &i), 0);
	CHECK_STR(p.cache, "/var/cache/mstlab");
}

TEST(too_long_is_an_error)
{
	static char env[PATH_MAX];
	struct paths_host h;
	struct paths p;

	memset(env, 'b', sizeof(env) - 20);	/* fits, its files do not */
	env[0] = '/';
	h = host(env, "/", "/x/build/bin/mstlab", true);
	CHECK_INT(paths_resolve(&p, &h), -ENAMETOOLONG);
}

/* This test program: BUILD/tests/test_paths, BUILD/obj-san beside it. */
static int own_build(char *top, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	for (int i = 0; i < 2; i++) {
		slash = strrchr(exe, '/');
		if (!slash)
			return -1;
		*slash = '\0';
	}
	return (size_t)snprintf(top, len, "%s", exe) < len ? 0 : -1;
}

/* paths_find() run from @dir, with $MSTLAB_BUILD = @env (NULL: unset). */
static int find_from(const char *dir, const char *env, struct paths *p)
{
	char cwd[PATH_MAX];
	int r = -1;

	if (!getcwd(cwd, sizeof(cwd)) || chdir(dir))
		return -1;
	if (env)
		setenv(PATHS_BUILD_ENV, env, 1);
	else
		unsetenv(PATHS_BUILD_ENV);
	r = paths_find(p);
	unsetenv(PATHS_BUILD_ENV);
	if (chdir(cwd))
		r = -1;
	return r;
}

TEST(this_program_finds_its_build_folder_from_any_cwd)
{
	char top[PATH_MAX], want[PATH_MAX + 64];
	char tmp[] = "/tmp/mstlab-unit-XXXXXX";
	struct paths a, b, c;

	CHECK_INT(own_build(top, sizeof(top)), 0);
	CHECK(mkdtemp(tmp) != NULL);
	CHECK_INT(find_from(".", NULL, &a), 0);
	CHECK_INT(find_from("/", NULL, &b), 0);
	CHECK_INT(find_from(tmp, "rel", &c), 0);
	CHECK_INT(rmdir(tmp), 0);

	CHECK_INT(a.origin, PATHS_FROM_BINARY);
	snprintf(want, sizeof(want), "%s/kernel-default" BZ, top);
	CHECK_STR(a.kernel[0], want);
	snprintf(want, sizeof(want), "%s/initramfs.cpio.lz4", top);
	CHECK_STR(a.initrd, want);
	CHECK_STR(b.kernel[0], a.kernel[0]);
	CHECK_STR(b.initrd, a.initrd);
	CHECK_STR(b.results, a.results);
	CHECK_INT(c.origin, PATHS_FROM_ENV);
	snprintf(want, sizeof(want), "%s/rel/initramfs.cpio.lz4", tmp);
	CHECK_STR(c.initrd, want);
}

/* An installed mstlab's results go to the cwd: it is read even with no
 * $MSTLAB_BUILD to resolve against it. */
TEST(the_host_read_holds_the_cwd)
{
	char tmp[] = "/tmp/mstlab-unit-XXXXXX", cwd[PATH_MAX], want[PATH_MAX];
	struct paths_host h;
	int r;

	CHECK(mkdtemp(tmp) != NULL);
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	unsetenv(PATHS_BUILD_ENV);
	CHECK_INT(chdir(tmp), 0);
	r = paths_host_read(&h);
	CHECK(getcwd(want, sizeof(want)) != NULL);
	CHECK_INT(chdir(cwd), 0);
	CHECK_INT(rmdir(tmp), 0);
	CHECK_INT(r, 0);
	CHECK_STR(h.cwd, want);
	CHECK(h.exe_in_build);
}

static int touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);

	return fd < 0 ? -1 : close(fd);
}

TEST(a_missing_file_names_its_path_and_its_make_target)
{
	char dir[] = "/tmp/mstlab-unit-XXXXXX", path[256], msg[512], want[512];

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/bzImage", dir);
	CHECK_INT(paths_need_kernel(path, TOPO_KERNEL_DEFAULT, msg,
				    sizeof(msg)), -ENOENT);
	snprintf(want, sizeof(want), "no guest kernel at %s: build it with "
		 "'make kernel'", path);
	CHECK_STR(msg, want);
	CHECK_INT(paths_need_kernel(path, TOPO_KERNEL_DEBUG, msg,
				    sizeof(msg)), -ENOENT);
	CHECK(strstr(msg, path));
	CHECK(strstr(msg, "'make kernel KERNEL=debug'"));
	CHECK_INT(paths_need_kernel(path, TOPO_KERNEL_612, msg, sizeof(msg)),
		  -ENOENT);
	CHECK(strstr(msg, "'make kernel KERNEL=6.12'"));
	CHECK_INT(paths_need_initrd(path, msg, sizeof(msg)), -ENOENT);
	snprintf(want, sizeof(want), "no guest initramfs at %s: build it "
		 "with 'make image'", path);
	CHECK_STR(msg, want);
	/* a folder of that name is no file */
	CHECK_INT(mkdir(path, 0755), 0);
	CHECK_INT(paths_need_initrd(path, msg, sizeof(msg)), -ENOENT);
	CHECK_INT(rmdir(path), 0);
	CHECK_INT(touch(path), 0);
	msg[0] = '\0';
	CHECK_INT(paths_need_kernel(path, TOPO_KERNEL_DEBUG, msg, sizeof(msg)),
		  0);
	CHECK_INT(paths_need_initrd(path, msg, sizeof(msg)), 0);
	CHECK_STR(msg, "");
	CHECK_INT(unlink(path), 0);
	CHECK_INT(rmdir(dir), 0);
}

/* initramfs.cpio.lz4 -> initramfs.tools beside it, when it is a folder. */
TEST(tools_share_beside_the_image)
{
	char dir[] = "/tmp/mstlab-unit-XXXXXX", path[256], buf[256];

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/initramfs.cpio.lz4", dir);
	CHECK(paths_tools_share(path, buf, sizeof(buf)) == NULL);
	snprintf(buf, sizeof(buf), "%s/initramfs.tools", dir);
	CHECK_INT(mkdir(buf, 0755), 0);
	CHECK(paths_tools_share(path, buf, sizeof(buf)) == buf);
	CHECK(strcmp(buf + strlen(dir), "/initramfs.tools") == 0);
	/* a name without dots: the whole name */
	snprintf(path, sizeof(path), "%s/initramfs", dir);
	CHECK(paths_tools_share(path, buf, sizeof(buf)) == buf);
	/* too small a buffer is no folder */
	CHECK(paths_tools_share(path, buf, 8) == NULL);
	snprintf(buf, sizeof(buf), "%s/initramfs.tools", dir);
	CHECK_INT(rmdir(buf), 0);
	CHECK_INT(rmdir(dir), 0);
}
