// SPDX-License-Identifier: MIT
/*
 * The guest's /init: mounts the pseudo file systems, reads the NoCloud
 * seed (vfat, meta-data names the host, user-data is the script run once
 * booted), mounts the lab and tools shares, brings lo up, says the guest is ready,
 * then hands over to busybox init (etc/inittab): the guest agent, the
 * user-data, a console shell on Enter, a clean power-off on request.
 * A shell script did this with ~20 processes: ~0.3 s of a TCG boot.
 *
 * Booted as a template (mstlab.template=1 on the command line), it stops
 * before the seed, waiting for an identity on its identity port; the
 * host saves it there and every guest restored from it goes on from that
 * read with an identity of its own (identity.c).
 */
#include "boot_log.h"
#include "identity.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define SHARE_DRIVER "/sys/bus/virtio/drivers/9pnet_virtio"

static void mount_or_log(const char *src, const char *dir, const char *type,
			 unsigned long flags, const char *opts)
{
	if (mount(src, dir, type, flags, opts) && errno != EBUSY)
		console_log("mstlab-init: cannot mount %s on %s: %s", type, dir,
			    strerror(errno));
}

static void mkdir_or_log(const char *dir)
{
	if (mkdir(dir, 0755) && errno != EEXIST)
		console_log("mstlab-init: cannot create %s: %s", dir,
			    strerror(errno));
}

static void mount_pseudo(void)
{
	mount_or_log("proc", "/proc", "proc", 0, NULL);
	mount_or_log("sysfs", "/sys", "sysfs", 0, NULL);
	/* EBUSY: the kernel mounted it already. */
	mount_or_log("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mkdir_or_log("/dev/pts");
	mkdir_or_log("/dev/shm");
	mount_or_log("devpts", "/dev/pts", "devpts", 0, NULL);
	mount_or_log("tmpfs", "/run", "tmpfs", 0, "mode=0755");
	mount_or_log("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	mkdir_or_log("/run/mstlab");
	mkdir_or_log("/run/netns");
	mkdir_or_log("/run/qga");
}

/* meta-data's local-hostname, without quotes or CRs; 0 or -1. */
static int seed_hostname(char *name, size_t len)
{
	static const char key[] = "local-hostname:";
	char line[256];
	FILE *f = fopen("/seed/meta-data", "re");
	int rc = -1;

	if (!f)
		return -1;
	while (rc && fgets(line, sizeof(line), f)) {
		const char *v = line + sizeof(key) - 1;
		size_t n = 0;

		if (strncmp(line, key, sizeof(key) - 1))
			continue;
		v += strspn(v, " \t");
		for (; *v && *v != '\n' && n + 1 < len; v++)
			if (*v != '"' && *v != '\r')
				name[n++] = *v;
		name[n] = 0;
		rc = n ? 0 : -1;
	}
	fclose(f);
	return rc;
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[8192];
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, rc = -1;
	ssize_t n;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write_all(out, buf, (size_t)n))
			break;
	if (out >= 0 && n == 0)
		rc = 0;
	if (out >= 0 && close(out))
		rc = -1;
	close(in);
	return rc;
}

/*
 * A guest restored from a template probed its disks in the template,
 * whose seed was a blank of the same size: what the kernel cached of it
 * (the partition scan's sectors, the file system's first) must go before
 * this guest's own seed is read.
 */
static void forget_cached_sectors(const char *dev)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || ioctl(fd, BLKFLSBUF, 0))
		console_log("mstlab-init: cannot drop the cache of %s: %s",
			    dev, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* The seed: the first virtio disk holding a vfat file system with
 * meta-data. */
static void read_seed(bool restored)
{
	char dev[] = "/dev/vda", name[HOST_NAME_MAX + 1];
	struct stat st;

	for (; dev[7] <= 'z'; dev[7]++) {
		if (stat(dev, &st) || !S_ISBLK(st.st_mode))
			continue;
		if (restored)
			forget_cached_sectors(dev);
		if (mount(dev, "/seed", "vfat", MS_RDONLY, NULL))
			continue;
		if (!access("/seed/meta-data", F_OK))
			break;
		umount("/seed");
	}
	if (dev[7] > 'z') {
		console_log("mstlab-init: no seed disk");
		return;
	}
	if (!seed_hostname(name, sizeof(name)) &&
	    sethostname(name, strlen(name)))
		console_log("mstlab-init: bad hostname '%s': %s", name,
			    strerror(errno));
	if (!access("/seed/user-data", F_OK) &&
	    copy_file("/seed/user-data", "/run/mstlab/user-data", 0755))
		console_log("mstlab-init: cannot copy the user-data: %s",
			    strerror(errno));
	console_log("mstlab-init: seed from %s", dev);
}

/* Whether the VM has a 9p share tagged @want. */
static bool has_share(const char *want)
{
	DIR *d = opendir(SHARE_DRIVER);
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		char path[PATH_MAX], tag[64];

		if (strncmp(e->d_name, "virtio", 6))
			continue;
		snprintf(path, sizeof(path), SHARE_DRIVER "/%s/mount_tag",
			 e->d_name);
		found = !read_line(path, tag, sizeof(tag)) && !strcmp(tag, want);
	}
	if (d)
		closedir(d);
	return found;
}

/*
 * The lab share (tag "lab", the run folder: no caching, both sides
 * write) and the tools share (tag "tools", read-only: tcpdump, ethtool,
 * bash and their libraries, linked from their usual paths; cached, as
 * programs run from it).
 */
static void mount_shares(void)
{
	if (has_share("lab")) {
		if (mount("lab", "/lab", "9p", 0,
			  "trans=virtio,version=9p2000.L,msize=262144,cache=none"))
			console_log("mstlab-init: cannot mount the lab share: %s",
				    strerror(errno));
		else
			console_log("mstlab-init: lab share mounted on /lab");
	}
	if (has_share("tools") &&
	    mount("tools", "/tools", "9p", MS_RDONLY,
		  "trans=virtio,version=9p2000.L,msize=262144,cache=loose"))
		console_log("mstlab-init: cannot mount the tools share: %s",
			    strerror(errno));
}

/*
 * Free page reporting (the VM's virtio-balloon) hands what the guest freed
 * back to QEMU; above all the packed image, ~12 MiB of every VM's resident
 * memory once unpacked. 6.1 reports in pageblocks (2 MiB) and only while
 * 32 of them (64 MiB) stay free, which a 128 MiB guest never has: in
 * 256 KiB units (order 6) it needs 8 MiB.
 *
 * A report runs 2 s after a block of that order is freed. The one due 2 s
 * after the balloon came up runs before this on a slow boot (on a loaded
 * host, half the guests of 16), so free such a block: a pipe ring of 4096
 * slots is a 160 KiB array, which the kernel takes from the page allocator
 * as one order-6 block and gives back on close.
 */
static void free_page_reporting(void)
{
	int fd = open("/sys/module/page_reporting/parameters/page_reporting_order",
		      O_WRONLY | O_CLOEXEC);
	int p[2];

	if (fd < 0)
		return;		/* a kernel without it */
	if (write_all(fd, "6\n", 2))
		console_log("mstlab-init: cannot set the page reporting order: %s",
			    strerror(errno));
	close(fd);
	if (pipe2(p, O_CLOEXEC))
		return;
	if (fcntl(p[0], F_SETPIPE_SZ, 4096 * 4096) < 0)
		console_log("mstlab-init: cannot start a page report: %s",
			    strerror(errno));
	close(p[0]);
	close(p[1]);
}

static void loopback_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr) < 0 ||
	    (ifr.ifr_flags |= IFF_UP, ioctl(fd, SIOCSIFFLAGS, &ifr) < 0))
		console_log("mstlab-init: cannot bring lo up: %s",
			    strerror(errno));
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	char *const argv[] = { "/bin/busybox", "init", NULL };
	char host[HOST_NAME_MAX + 1] = "?";
	struct utsname u;
	bool restored;

	/* It mounts over /proc, /run and /dev/pts: never on a host where
	 * someone runs it by mistake (say, asking for --help). */
	if (getpid() != 1) {
		fprintf(stderr, "mstlab-init is the guests' /init: it runs "
			"as process 1 of a booting guest only\n");
		return 2;
	}
	setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1);
	mount_pseudo();
	/* A template has no free page reporting: its guests' RAM maps its
	 * file, which a report would punch holes in (identity.h). */
	restored = identity_template_boot();
	if (restored)
		identity_wait_and_take();
	else
		free_page_reporting();
	read_seed(restored);
	mount_shares();
	loopback_up();
	gethostname(host, sizeof(host) - 1);
	/* The end of boot, on the console where the lab and tests look. */
	console_log("mstlab: %s ready (%s)", host,
		    uname(&u) ? "?" : u.release);
	execv(argv[0], argv);
	console_log("mstlab-init: cannot run busybox init: %s",
		    strerror(errno));
	return 1;
}
