// SPDX-License-Identifier: MIT
#include "paths.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The length of @path's folder: "/a/b/c" -> 4 ("/a/b"), "/c" -> 0. */
static size_t dir_len(const char *path, size_t n)
{
	while (n > 0 && path[n - 1] != '/')
		n--;
	while (n > 0 && path[n - 1] == '/')
		n--;
	return n;
}

/* The folder above the program's own: BUILD of BUILD/bin/mstlab. */
static size_t top_len(const char *exe)
{
	return dir_len(exe, dir_len(exe, strlen(exe)));
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int paths_host_read(struct paths_host *h)
{
	char obj[PATH_MAX];
	int cwd_err = 0;
	ssize_t n;

	memset(h, 0, sizeof(*h));
	h->build_env = getenv(PATHS_BUILD_ENV);
	if (!getcwd(h->cwd, sizeof(h->cwd))) {
		cwd_err = -errno;
		h->cwd[0] = '\0';
	}
	n = readlink("/proc/self/exe", h->exe, sizeof(h->exe) - 1);
	if (n < 0 || (size_t)n >= sizeof(h->exe) - 1)
		n = 0;		/* unknown: the default prefix */
	h->exe[n] = '\0';
	/* Programs are linked from obj/, unit tests from obj-san/. */
	for (int i = 0; n && i < 2 && !h->exe_in_build; i++)
		if ((size_t)snprintf(obj, sizeof(obj), "%.*s/%s",
				     (int)top_len(h->exe), h->exe,
				     i ? "obj-san" : "obj") < sizeof(obj))
			h->exe_in_build = is_dir(obj);
	/* The cwd is the base of a relative $MSTLAB_BUILD, and an installed
	 * mstlab's results go there. */
	if (h->build_env && h->build_env[0])
		return h->build_env[0] == '/' ? 0 : cwd_err;
	return h->exe_in_build ? 0 : cwd_err;
}

/* snprintf into a PATH_MAX buffer; -ENAMETOOLONG when it did not fit. */
static int __attribute__((format(printf, 2, 3)))
put(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, PATH_MAX, fmt, ap);
	va_end(ap);
	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

/* The files under @root: a build folder, or an installed prefix. */
static int layout(struct paths *p, const char *root, bool installed,
		  const char *cwd)
{
	const char *lib = installed ? "/lib/mstlab" : "";
	const char *boot = installed ? "/bzImage" : "/arch/x86/boot/bzImage";
	int r = 0;

	for (int k = 0; k < TOPO_KERNEL_COUNT; k++)
		r |= put(p->kernel[k], "%s%s/kernel-%s%s", root, lib,
			 topo_kernel_name((enum topo_kernel)k), boot);
	r |= put(p->initrd, "%s%s/initramfs.cpio.lz4", root, lib);
	r |= put(p->bin, "%s/bin", root);
	/* An installed mstlab has no checkout: its runs go where the user
	 * works. */
	if (installed) {
		r |= put(p->results, "%s/results", cwd);
		r |= put(p->cache, "%s", PATHS_INSTALLED_CACHE);
	} else {
		r |= put(p->results, "%.*s/results",
			 (int)dir_len(root, strlen(root)), root);
		r |= put(p->cache, "%s", root);
	}
	return r ? -ENAMETOOLONG : 0;
}

int paths_resolve(struct paths *p, const struct paths_host *h)
{
	const char *env = h->build_env;
	char root[PATH_MAX];	/* the build folder, or the prefix */
	size_t n;
	int r;

	memset(p, 0, sizeof(*p));
	if (env && env[0]) {
		p->origin = PATHS_FROM_ENV;
		r = env[0] == '/' ? put(root, "%s", env) :
				    put(root, "%s/%s", h->cwd, env);
	} else if (h->exe[0]) {
		p->origin = h->exe_in_build ? PATHS_FROM_BINARY :
					      PATHS_FROM_INSTALL;
		r = put(root, "%.*s", (int)top_len(h->exe), h->exe);
	} else {
		p->origin = PATHS_FROM_INSTALL;
		r = put(root, "/usr");
	}
	if (r)
		return r;
	/* "/x/build/" is "/x/build": its results are /x/results. */
	n = strlen(root);
	while (n > 0 && root[n - 1] == '/')
		root[--n] = '\0';
	return layout(p, root, p->origin == PATHS_FROM_INSTALL, h->cwd);
}

int paths_find(struct paths *p)
{
	struct paths_host h;
	int r = paths_host_read(&h);

	return r ? r : paths_resolve(p, &h);
}

static int need(const char *path, const char *what, const char *make,
		char *msg, size_t len)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return 0;
	snprintf(msg, len, "no %s at %s: build it with 'make %s'", what, path,
		 make);
	return -ENOENT;
}

int paths_need_kernel(const char *path, enum topo_kernel k, char *msg,
		      size_t len)
{
	char make[64] = "kernel";

	if (k != TOPO_KERNEL_DEFAULT)
		snprintf(make, sizeof(make), "kernel KERNEL=%s",
			 topo_kernel_name(k));
	return need(path, "guest kernel", make, msg, len);
}

int paths_need_initrd(const char *path, char *msg, size_t len)
{
	return need(path, "guest initramfs", "image", msg, len);
}

const char *paths_tools_share(const char *initrd, char *buf, size_t len)
{
	const char *slash = strrchr(initrd, '/');
	const char *name = slash ? slash + 1 : initrd;
	size_t stem = strcspn(name, ".");
	int n;

	n = snprintf(buf, len, "%.*s%.*s.tools", (int)(name - initrd), initrd,
		     (int)stem, name);
	if (n < 0 || (size_t)n >= len || !is_dir(buf))
		return NULL;
	return buf;
}
