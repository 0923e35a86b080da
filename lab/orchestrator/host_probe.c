// SPDX-License-Identifier: MIT
#include "host_probe.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *const host_tool_name[HOST_TOOLS] = {
	"qemu-system-x86_64", "tcpdump", "cloud-localds",
};

bool host_which(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char dirs[4096], *save = NULL;

	snprintf(dirs, sizeof(dirs), "%s", path && *path ? path :
		 "/bin:/usr/bin");
	for (char *d = strtok_r(dirs, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		struct stat sb;

		if ((size_t)snprintf(out, len, "%s/%s", d, name) >= len)
			continue;
		if (!stat(out, &sb) && S_ISREG(sb.st_mode) &&
		    !access(out, X_OK))
			return true;
	}
	if (len)
		out[0] = 0;
	return false;
}

bool host_probe_token_ok(const char *token)
{
	size_t n = strlen(token);

	return n >= 16 && n <= HOST_PROBE_TOKEN_MAX &&
	       strspn(token, "0123456789abcdef") == n;
}

int host_probe_token(char out[HOST_PROBE_TOKEN_MAX + 1])
{
	unsigned char r[16];

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		return -1;
	for (size_t i = 0; i < sizeof(r); i++)
		snprintf(out + 2 * i, 3, "%02x", r[i]);
	return 0;
}

/* address:port as a sockaddr: its length, or 0 when not numeric. */
static socklen_t sockaddr_of(const char *address, unsigned port,
			     struct sockaddr_storage *ss)
{
	struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)port);
		return sizeof(*v4);
	}
	if (inet_pton(AF_INET6, address, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)port);
		return sizeof(*v6);
	}
	return 0;
}

/* The VXLAN devices of this network namespace: their uevent says so. */
static void vxlan_devices(char *out, size_t len)
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *e;
	size_t k = 0;

	out[0] = 0;
	while (d && (e = readdir(d))) {
		char path[300], line[128];
		bool vxlan = false;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/net/%s/uevent",
			 e->d_name);
		f = fopen(path, "re");
		while (f && fgets(line, sizeof(line), f))
			vxlan |= !strcmp(line, "DEVTYPE=vxlan\n");
		if (f)
			fclose(f);
		if (vxlan && k + strlen(e->d_name) + 2 < len)
			k += (size_t)snprintf(out + k, len - k, "%s%s",
					      k ? "," : "", e->d_name);
	}
	if (d)
		closedir(d);
}

int host_probe_bind(const char *address, unsigned port, char *busy,
		    size_t busy_len, char *why, size_t why_len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sockaddr_of(address, port, &ss);
	int fd;

	busy[0] = 0;
	if (!sl)
		return snprintf(why, why_len, "'%.60s' is no IP address",
				address), -1;
	fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return snprintf(why, why_len, "socket: %s", strerror(errno)),
		       -1;
	if (!bind(fd, (struct sockaddr *)&ss, sl))
		return fd;
	if (errno == EADDRINUSE) {
		close(fd);
		vxlan_devices(busy, busy_len);
		return snprintf(why, why_len, "%s:%u is in use", address,
				port), -2;
	}
	snprintf(why, why_len, "cannot bind %s:%u: %s", address, port,
		 strerror(errno));
	close(fd);
	return -1;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int host_probe_wait(int fd, const char *token, int timeout_ms, char *from,
		    size_t from_len)
{
	long long end = now_ms() + timeout_ms;
	size_t tl = strlen(token);
	int rc = 0;

	from[0] = 0;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long long left = end - now_ms();
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		char buf[HOST_PROBE_TOKEN_MAX + 1];
		ssize_t n;

		if (left <= 0)
			break;
		n = poll(&p, 1, (int)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -1;
			break;
		}
		if (!n)
			break;
		n = recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT,
			     (struct sockaddr *)&ss, &sl);
		/* Anything else that arrives (a stray VXLAN packet) is
		 * not the answer. */
		if (n != (ssize_t)tl || memcmp(buf, token, tl))
			continue;
		if (ss.ss_family == AF_INET)
			inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr,
				  from, (socklen_t)from_len);
		else
			inet_ntop(AF_INET6,
				  &((struct sockaddr_in6 *)&ss)->sin6_addr,
				  from, (socklen_t)from_len);
		rc = 1;
		break;
	}
	close(fd);
	return rc;
}

int host_probe_send(const char *src, const char *dst, unsigned port,
		    const char *token, unsigned count, unsigned interval_ms,
		    const atomic_bool *stop, char *why, size_t why_len)
{
	struct sockaddr_storage s, d;
	socklen_t sl = sockaddr_of(src, 0, &s), dl = sockaddr_of(dst, port, &d);
	unsigned sent = 0;
	int fd;

	if (!sl || !dl || s.ss_family != d.ss_family)
		return snprintf(why, why_len, "%.50s to %.50s: not two IP "
				"addresses of one family", src, dst), -1;
	fd = socket(d.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&s, sl)) {
		snprintf(why, why_len, "cannot send from %s: %s", src,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	for (unsigned i = 0; i < count && !(stop && atomic_load(stop)); i++) {
		struct timespec ts = { .tv_sec = interval_ms / 1000,
				       .tv_nsec = (long)(interval_ms % 1000) *
						  1000000 };

		/* A refusal (ICMP port unreachable) shows as an error of
		 * the next send: the other side is not bound yet. */
		if (sendto(fd, token, strlen(token), 0, (struct sockaddr *)&d,
			   dl) >= 0)
			sent++;
		if (i + 1 < count)
			nanosleep(&ts, NULL);
	}
	close(fd);
	return (int)sent;
}
