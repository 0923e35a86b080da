// SPDX-License-Identifier: MIT
#include "identity.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/random.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "boot_log.h"

#define PORTS "/sys/class/virtio-ports"
#define RANDOM_BYTES 32

bool identity_template_boot(void)
{
	char line[4096];
	const char *p;
	size_t n = strlen(IDENTITY_ARG);

	if (read_line("/proc/cmdline", line, sizeof(line)))
		return false;
	for (p = line; (p = strstr(p, IDENTITY_ARG)); p += n)
		if ((p == line || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
	return false;
}

/* /dev/vportNpM of the port named IDENTITY_PORT, opened; or -1. */
static int open_port(void)
{
	DIR *d = opendir(PORTS);
	struct dirent *e;
	int fd = -1;

	while (d && fd < 0 && (e = readdir(d))) {
		char path[PATH_MAX], name[64];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), PORTS "/%s/name", e->d_name);
		if (read_line(path, name, sizeof(name)) ||
		    strcmp(name, IDENTITY_PORT))
			continue;
		snprintf(path, sizeof(path), "/dev/%s", e->d_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			console_log("mstlab-init: cannot open %s: %s", path,
				    strerror(errno));
	}
	if (d)
		closedir(d);
	return fd;
}

/*
 * Reads the message up to its "end" line. While nobody is connected on
 * the host side, a read returns 0 at once: the host connects before the
 * template runs and before a restored guest resumes, so this only waits
 * out a reconnection.
 */
static int read_message(int fd, char *buf, size_t len)
{
	size_t have = 0;

	while (have + 1 < len) {
		struct timespec nap = { 0, 20 * 1000 * 1000 };
		ssize_t n = read(fd, buf + have, len - 1 - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			nanosleep(&nap, NULL);
			continue;
		}
		have += (size_t)n;
		buf[have] = 0;
		if (strstr(buf, "\nend\n"))
			return 0;
	}
	errno = EMSGSIZE;
	return -1;
}

static int parse_mac(const char *s, unsigned char mac[6])
{
	unsigned int b[6];
	char end;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5], &end) != 6)
		return -1;
	for (int i = 0; i < 6; i++)
		mac[i] = (unsigned char)b[i];
	return 0;
}

/* The interface whose address is @mac (as text, lower case). */
static int nic_by_mac(const char *mac, char name[IF_NAMESIZE])
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *e;
	int rc = -1;

	while (d && rc && (e = readdir(d))) {
		char path[PATH_MAX], addr[32];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/net/%s/address",
			 e->d_name);
		if (read_line(path, addr, sizeof(addr)) || strcmp(addr, mac) ||
		    strlen(e->d_name) >= IF_NAMESIZE)
			continue;
		memcpy(name, e->d_name, strlen(e->d_name) + 1);
		rc = 0;
	}
	if (d)
		closedir(d);
	return rc;
}

/* virtio_net sends the new address down its control queue: QEMU's
 * receive filter then takes frames for it. */
static int set_mac(const char *from, const char *to)
{
	struct ifreq ifr = { 0 };
	char name[IF_NAMESIZE];
	int fd, rc;

	if (nic_by_mac(from, name))
		return -1;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ifr.ifr_hwaddr.sa_family = ARPHRD_ETHER;
	if (parse_mac(to, (unsigned char *)ifr.ifr_hwaddr.sa_data))
		return -1;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	rc = ioctl(fd, SIOCSIFHWADDR, &ifr);
	close(fd);
	return rc;
}

/* The host's bytes into the pool, then a reseed: the crng stops being
 * the template's. */
static int add_entropy(const char *hex)
{
	struct {
		struct rand_pool_info info;
		unsigned char buf[RANDOM_BYTES];
	} e = { .info = { .entropy_count = RANDOM_BYTES * 8,
			  .buf_size = RANDOM_BYTES } };
	int fd, rc;

	for (int i = 0; i < RANDOM_BYTES; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return -1;
		e.buf[i] = (unsigned char)b;
	}
	fd = open("/dev/urandom", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = ioctl(fd, RNDADDENTROPY, &e.info) || ioctl(fd, RNDRESEEDCRNG);
	close(fd);
	return rc ? -1 : 0;
}

static void take(char *msg)
{
	int nics = 0, bad = 0;
	bool clock = false;

	for (char *line = strtok(msg, "\n"); line; line = strtok(NULL, "\n")) {
		char a[32], b[80];
		long long sec, nsec;

		if (sscanf(line, "clock %lld %lld", &sec, &nsec) == 2) {
			struct timespec ts = { (time_t)sec, nsec };

			clock = !clock_settime(CLOCK_REALTIME, &ts);
			if (!clock)
				console_log("mstlab-init: cannot set the clock: "
					    "%s", strerror(errno));
		} else if (sscanf(line, "random %79s", b) == 1) {
			if (strlen(b) != 2 * RANDOM_BYTES || add_entropy(b))
				console_log("mstlab-init: cannot reseed the "
					    "random generator: %s",
					    strerror(errno));
		} else if (sscanf(line, "nic %31s %31s", a, b) == 2) {
			if (set_mac(a, b)) {
				console_log("mstlab-init: cannot give the NIC "
					    "%s the address %s: %s", a, b,
					    strerror(errno));
				bad++;
			} else {
				nics++;
			}
		}
	}
	console_log("mstlab-init: identity taken: clock %s, %d NIC%s "
		    "readdressed%s", clock ? "set" : "NOT set", nics,
		    nics == 1 ? "" : "s", bad ? " (some failed)" : "");
}

void identity_wait_and_take(void)
{
	char msg[8192];
	int fd = open_port();

	if (fd < 0) {
		console_log("mstlab-init: a template boot without the port %s",
			    IDENTITY_PORT);
		return;
	}
	/* The host saves the template once it has said this. */
	console_log("mstlab-init: waiting for identity");
	if (read_message(fd, msg, sizeof(msg)) ||
	    strncmp(msg, "mstlab-identity 1\n", 18))
		console_log("mstlab-init: no identity: %s",
			    errno ? strerror(errno) : "bad message");
	else
		take(msg);
	close(fd);
}
