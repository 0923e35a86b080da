// SPDX-License-Identifier: MIT
#include "build_id.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The x86 boot protocol's setup header (Documentation/x86/boot.rst). */
#define HDR_MAGIC_AT	0x202		/* "HdrS" */
#define HDR_VERSION_AT	0x206		/* protocol version, >= 2.00 */
#define HDR_KVER_AT	0x20e		/* kernel_version: offset - 0x200 */
#define HDR_KVER_BASE	0x200
#define KVER_MAX	128

static int read_at(int fd, off_t at, void *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len, at);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EINVAL;
}

static unsigned le16(const unsigned char *p)
{
	return p[0] | (unsigned)p[1] << 8;
}

/* "6.1.158 (mstlab@mstlab) #1a2b3c4d 2024-11-22" -> "6.1.158 #1a2b3c4d" */
static int cut_version(const char *kver, char *out, size_t len)
{
	size_t rel = strcspn(kver, " ");
	const char *series = strstr(kver, " #");
	int n;

	if (rel == 0)
		return -EINVAL;
	if (series)
		n = snprintf(out, len, "%.*s %.*s", (int)rel, kver,
			     (int)strcspn(series + 1, " "), series + 1);
	else
		n = snprintf(out, len, "%.*s", (int)rel, kver);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* The whole version string of the bzImage at @path into kver. */
static int kernel_version(const char *path, char kver[KVER_MAX + 1])
{
	unsigned char hdr[HDR_KVER_AT + 2];
	ssize_t n;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = read_at(fd, 0, hdr, sizeof(hdr));
	if (!r && (memcmp(hdr + HDR_MAGIC_AT, "HdrS", 4) ||
		   le16(hdr + HDR_VERSION_AT) < 0x200 ||
		   le16(hdr + HDR_KVER_AT) == 0))
		r = -EINVAL;
	if (!r) {
		n = pread(fd, kver, KVER_MAX,
			  HDR_KVER_BASE + le16(hdr + HDR_KVER_AT));
		r = n < 0 ? -errno : 0;
		if (n > 0)
			kver[n] = '\0';
	}
	close(fd);
	/* A version string is printable up to its NUL. */
	for (size_t i = 0; !r && kver[i]; i++)
		if (kver[i] < ' ' || kver[i] > '~')
			r = -EINVAL;
	return r;
}

int build_id_kernel(const char *path, char *out, size_t len)
{
	char kver[KVER_MAX + 1] = "";
	int r = kernel_version(path, kver);

	return r ? r : cut_version(kver, out, len);
}

int build_id_kernel_ours(const char *path)
{
	char kver[KVER_MAX + 1] = "";
	int r = kernel_version(path, kver);

	if (r)
		return r;
	return strstr(kver, " (" BUILD_ID_BUILDER ") ") ? 1 : 0;
}

int build_id_file(const char *path, char *out, size_t len)
{
	unsigned char buf[1 << 16], md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx;
	ssize_t n;
	int fd, r = 0;

	if (len < sizeof("sha256:") + 16)
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL))
		r = -ENOMEM;
	while (!r && (n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno != EINTR)
			r = -errno;
		else if (n > 0 && !EVP_DigestUpdate(ctx, buf, (size_t)n))
			r = -ENOMEM;
	}
	if (!r && !EVP_DigestFinal_ex(ctx, md, &mdlen))
		r = -ENOMEM;
	EVP_MD_CTX_free(ctx);
	close(fd);
	if (r)
		return r;
	strcpy(out, "sha256:");
	for (unsigned i = 0; i < 8 && i < mdlen; i++)
		sprintf(out + 7 + 2 * i, "%02x", md[i]);
	return 0;
}
