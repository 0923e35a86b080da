// SPDX-License-Identifier: MIT
/*
 * mstctl stp: talk to mstd over its control socket /run/mstd.BRIDGE.sock.
 *   mstctl [-j] stp show [dev BRIDGE] [port PORT]
 *   mstctl stp set dev BRIDGE bridge priority TREE N
 *   mstctl stp set dev BRIDGE port PORT cost TREE N|auto
 *   mstctl stp set dev BRIDGE port PORT priority TREE N
 *   mstctl stp set dev BRIDGE port PORT ext_cost N|auto
 *   mstctl stp set dev BRIDGE port PORT edge|auto_edge|p2p VALUE
 *   mstctl stp set dev BRIDGE port PORT bpdu_guard|bpdu_filter|root_guard|
 *                                       tcn_guard|loop_guard yes|no
 *   mstctl stp set dev BRIDGE max_age|forward_delay|max_hops|tx_hold|
 *                             ageing_time|guard_recovery N
 *   mstctl stp set dev BRIDGE force_version stp|rstp|mstp
 *   mstctl stp set dev BRIDGE region NAME | revision N
 *   mstctl stp set dev BRIDGE msti ID vlans LIST|none
 *   mstctl stp delete dev BRIDGE msti ID
 *   mstctl stp recover dev BRIDGE port PORT
 *   mstctl stp set dev BRIDGE flush_scope tree|port
 *   mstctl stp set dev BRIDGE log_level error|info|debug
 *   mstctl stp mcheck dev BRIDGE [port PORT]
 * The daemon validates the request; mstctl only frames it.
 */
#include "mstctl.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define STP_RUN_DIR	"/run"
#define STP_REQ_MAX	512
#define STP_REPLY_MAX	(1 << 20)

/* Sends @req to mstd of @br; the reply (NUL-terminated, heap) in *out. */
static int stp_call(const char *br, const char *req, char **out)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { 5, 0 };
	char *buf;
	ssize_t n;
	int fd;

	if (strlen(br) >= 16 || strchr(br, '/'))
		return ctl_fail(EXIT_USAGE, "bad bridge name \"%s\"", br);
	snprintf(sa.sun_path, sizeof(sa.sun_path), STP_RUN_DIR "/mstd.%s.sock",
		 br);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return ctl_fail(EXIT_REFUSED, "no mstd for %s (%s: %s)", br,
				sa.sun_path, strerror(e));
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	buf = malloc(STP_REPLY_MAX + 1);
	if (!buf || send(fd, req, strlen(req), 0) < 0 ||
	    (n = recv(fd, buf, STP_REPLY_MAX, MSG_TRUNC)) < 0) {
		int e = errno;

		free(buf);
		close(fd);
		return ctl_fail(EXIT_REFUSED, "mstd for %s: %s", br,
				strerror(e));
	}
	close(fd);
	if (n > STP_REPLY_MAX) {
		free(buf);
		return ctl_fail(EXIT_REFUSED, "mstd for %s: reply too long", br);
	}
	buf[n] = 0;
	if (!strncmp(buf, "error: ", 7)) {
		buf[strcspn(buf, "\n")] = 0;
		ctl_fail(EXIT_REFUSED, "mstd for %s: %s", br, buf + 7);
		free(buf);
		return EXIT_REFUSED;
	}
	*out = buf;
	return EXIT_OK;
}

/* Joins words into a request; EXIT_USAGE if too long. */
static int join(char *req, const char *head, int argc, char **argv)
{
	size_t len = strlen(head);

	if (len >= STP_REQ_MAX)
		return EXIT_USAGE;
	memcpy(req, head, len + 1);
	for (int i = 0; i < argc; i++) {
		size_t w = strlen(argv[i]);

		if (!w || strpbrk(argv[i], " \t\n") ||
		    len + 1 + w >= STP_REQ_MAX)
			return ctl_fail(EXIT_USAGE, "bad argument \"%s\"",
					argv[i]);
		req[len++] = ' ';
		memcpy(req + len, argv[i], w + 1);
		len += w;
	}
	return EXIT_OK;
}

static int stp_show_one(struct ctl *c, const char *br, const char *port,
			bool first)
{
	char req[STP_REQ_MAX], *reply = NULL;
	size_t n;
	int ret;

	snprintf(req, sizeof(req), "status%s%s%s", c->json ? " json" : "",
		 port ? " port " : "", port ? port : "");
	ret = stp_call(br, req, &reply);
	if (ret)
		return ret;
	n = strlen(reply);
	while (c->json && n && reply[n - 1] == '\n')
		reply[--n] = 0;
	if (c->json && !first)
		fputc(',', stdout);
	fputs(reply, stdout);
	free(reply);
	return EXIT_OK;
}

static int stp_show(struct ctl *c, int argc, char **argv)
{
	static const char *const keys[] = { "dev", "port", NULL };
	static const bool req[] = { false, false };
	const char *vals[2] = { NULL, NULL };
	struct dirent *de;
	bool first = true;
	int ret = ctl_keywords("stp show", argc, argv, keys, req, vals);
	DIR *dir;

	if (ret)
		return ret;
	if (vals[1] && !vals[0])
		return ctl_fail(EXIT_USAGE, "stp show: \"port\" needs \"dev\"");
	if (c->json)
		fputc('[', stdout);
	if (vals[0]) {
		ret = stp_show_one(c, vals[0], vals[1], true);
	} else {
		dir = opendir(STP_RUN_DIR);
		while (dir && (de = readdir(dir))) {
			size_t l = strlen(de->d_name);
			char br[32];

			if (strncmp(de->d_name, "mstd.", 5) || l < 11 ||
			    strcmp(de->d_name + l - 5, ".sock") ||
			    l - 10 >= sizeof(br))
				continue;
			memcpy(br, de->d_name + 5, l - 10);
			br[l - 10] = 0;
			if (stp_show_one(c, br, NULL, first) == EXIT_OK)
				first = false;
			else
				ret = EXIT_REFUSED;
		}
		if (dir)
			closedir(dir);
	}
	if (c->json)
		fputs("]\n", stdout);
	return ret;
}

/* set|mcheck dev BRIDGE WORDS...: "dev BRIDGE" must come first. */
static int stp_forward(const char *verb, int argc, char **argv)
{
	char req[STP_REQ_MAX], *reply = NULL;
	int ret;

	if (argc < 2 || strcmp(argv[0], "dev"))
		return ctl_fail(EXIT_USAGE, "stp %s: expected \"dev BRIDGE\" first",
				verb);
	if (!strcmp(verb, "set") && argc < 4)
		return ctl_fail(EXIT_USAGE, "stp set: nothing to set");
	if (!strcmp(verb, "recover")) {
		if (argc != 4 || strcmp(argv[2], "port"))
			return ctl_fail(EXIT_USAGE,
					"usage: stp recover dev BRIDGE port PORT");
		argv[2] = argv[3], argc = 3;
	}
	if (!strcmp(verb, "delete") && argc != 4)
		return ctl_fail(EXIT_USAGE, "usage: stp delete dev BRIDGE msti ID");
	if (!strcmp(verb, "mcheck")) {
		if (argc == 4 && !strcmp(argv[2], "port"))
			argv[2] = argv[3], argc = 3;
		else if (argc != 2)
			return ctl_fail(EXIT_USAGE,
					"usage: stp mcheck dev BRIDGE [port PORT]");
	}
	ret = join(req, verb, argc - 2, argv + 2);
	if (ret)
		return ret;
	ret = stp_call(argv[1], req, &reply);
	free(reply);
	return ret;
}

int cmd_stp(struct ctl *c, int argc, char **argv)
{
	if (argc == 0 || !strcmp(argv[0], "show"))
		return stp_show(c, argc ? argc - 1 : 0, argv + (argc ? 1 : 0));
	if (!strcmp(argv[0], "set") || !strcmp(argv[0], "mcheck") ||
	    !strcmp(argv[0], "delete") || !strcmp(argv[0], "recover"))
		return stp_forward(argv[0], argc - 1, argv + 1);
	return ctl_fail(EXIT_USAGE,
			"unknown stp command \"%s\" (show, set, delete, recover, mcheck)",
			argv[0]);
}
