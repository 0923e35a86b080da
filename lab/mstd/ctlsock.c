// SPDX-License-Identifier: MIT
/*
 * The control socket /run/mstd.<bridge>.sock (SOCK_SEQPACKET): one request
 * message of words, one reply message.  A reply starting "error: " is a
 * refusal; anything else is the answer.  Requests (docs/design/mstd.md):
 *   status [json] [port NAME]
 *   set bridge priority TREE N
 *   set port NAME cost TREE N|auto, priority TREE N, ext_cost N|auto
 *   set port NAME edge|auto_edge|bpdu_guard|bpdu_filter|root_guard|
 *                 tcn_guard|loop_guard yes|no
 *   set port NAME p2p auto|yes|no
 *   set max_age|forward_delay|max_hops|tx_hold|ageing_time|
 *       guard_recovery N, set force_version stp|rstp|mstp
 *   set region NAME, set revision N, set msti ID vlans LIST|none
 *   delete msti ID
 *   set flush_scope tree|port
 *   set log_level error|info|debug
 *   mcheck [PORT], recover PORT
 * A client gets one second to send its request: the loop is never held.
 */
#include "daemon.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define CTL_REQ_MAX	512
#define CTL_WORDS	10

int ctl_listen(struct mstd *d)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	snprintf(d->sock_path, sizeof(d->sock_path), MSTD_RUN_DIR "/mstd.%s.sock",
		 d->conf.bridge);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", d->sock_path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		goto fail;
	/* A socket file left by a dead mstd; a live one still answers. */
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
		fprintf(stderr, "mstd: another mstd runs for %s (%s)\n",
			d->conf.bridge, d->sock_path);
		close(fd);
		d->sock_path[0] = 0;
		return -EEXIST;
	}
	unlink(d->sock_path);
	mkdir(MSTD_RUN_DIR, 0755);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    chmod(d->sock_path, 0600) < 0 || listen(fd, 8) < 0)
		goto fail;
	d->ctlfd = fd;
	return 0;
fail:
	fprintf(stderr, "mstd: control socket %s: %s\n", d->sock_path,
		strerror(errno));
	if (fd >= 0)
		close(fd);
	d->sock_path[0] = 0;
	return -errno;
}

void ctl_close(struct mstd *d)
{
	if (d->ctlfd >= 0)
		close(d->ctlfd);
	d->ctlfd = -1;
	if (d->sock_path[0])
		unlink(d->sock_path);
}

int ctl_refuse(FILE *out, const char *fmt, ...)
{
	va_list ap;

	fputs("error: ", out);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
	return -EINVAL;
}

static int tree_slot(struct mstd *d, FILE *out, const char *w, unsigned int *t)
{
	unsigned long id;
	int s;

	if (!strcmp(w, "cist")) {
		*t = 0;
		return 0;
	}
	if (mstd_parse_uint(w, 1, 4094, &id))
		return ctl_refuse(out, "bad tree \"%s\": cist or an MSTID", w);
	s = mstp_tree_index(d->br, (uint16_t)id);
	if (s < 0)
		return ctl_refuse(out, "no MSTI %lu on %s", id, d->conf.bridge);
	*t = (unsigned int)s;
	return 0;
}

static int set_port(struct mstd *d, FILE *out, char **w, int n)
{
	int i = mstd_port_by_name(d, w[0]);
	unsigned long v;
	unsigned int t;
	bool b;
	int r;

	if (i < 0)
		return ctl_refuse(out, "no port \"%s\" on %s", w[0], d->conf.bridge);
	r = ctl_set_port_more(d, out, (unsigned int)i, w + 1, n - 1);
	if (r != -ENOENT)
		goto done;
	if (n == 3 && (!strcmp(w[1], "edge") || !strcmp(w[1], "auto_edge"))) {
		if (mstd_parse_bool(w[2], &b))
			return ctl_refuse(out, "%s must be yes or no", w[1]);
		r = !strcmp(w[1], "edge") ?
		    mstp_set_admin_edge(d->br, (unsigned int)i, b) :
		    mstp_set_auto_edge(d->br, (unsigned int)i, b);
	} else if (n == 3 && !strcmp(w[1], "p2p")) {
		enum mstp_p2p p;

		if (mstd_parse_p2p(w[2], &p))
			return ctl_refuse(out, "p2p must be auto, yes or no");
		r = mstp_set_p2p(d->br, (unsigned int)i, p);
	} else if (n == 4 && !strcmp(w[1], "cost")) {
		if (tree_slot(d, out, w[2], &t))
			return -EINVAL;
		/* auto: the cost of the link's speed again. */
		if (!strcmp(w[3], "auto"))
			v = 0;
		else if (mstd_parse_uint(w[3], 1, MSTP_MAX_PATH_COST, &v))
			return ctl_refuse(out, "cost \"%s\": want 1..%u or auto",
					  w[3], MSTP_MAX_PATH_COST);
		r = mstp_set_port_path_cost(d->br, (unsigned int)i, t,
					    (uint32_t)v);
		if (!r && t == 0)
			r = mstp_set_port_ext_path_cost(d->br, (unsigned int)i,
							(uint32_t)v);
	} else if (n == 4 && !strcmp(w[1], "priority")) {
		if (tree_slot(d, out, w[2], &t))
			return -EINVAL;
		if (mstd_parse_uint(w[3], 0, 240, &v) || v % 16)
			return ctl_refuse(out, "port priority must be 0..240 in steps of 16");
		r = mstp_set_port_priority(d->br, (unsigned int)i, t,
					   (uint8_t)v);
	} else {
		return ctl_refuse(out, "usage: set port NAME edge|auto_edge|p2p|bpdu_guard|bpdu_filter|root_guard|tcn_guard|loop_guard VALUE | cost|priority TREE N | ext_cost N|auto");
	}
	if (r)
		return ctl_refuse(out, "refused by the protocol core");
done:
	if (r)
		return r;
	mstd_log(d, MSTP_LOG_INFO, "control: set port %s %s %s%s%s", w[0], w[1],
		 w[2], n == 4 ? " " : "", n == 4 ? w[3] : "");
	return 0;
}

static int do_set(struct mstd *d, FILE *out, char **w, int n)
{
	unsigned long v;
	unsigned int t;
	int r = ctl_set_bridge(d, out, w, n);

	if (r != -ENOENT) {
		if (!r)
			mstd_log(d, MSTP_LOG_INFO, "control: set %s%s%s", w[0],
				 n > 1 ? " " : "", n > 1 ? w[1] : "");
		return r;
	}

	if (n >= 2 && !strcmp(w[0], "port"))
		return set_port(d, out, w + 1, n - 1);
	if (n == 4 && !strcmp(w[0], "bridge") && !strcmp(w[1], "priority")) {
		if (tree_slot(d, out, w[2], &t))
			return -EINVAL;
		if (mstd_parse_uint(w[3], 0, 61440, &v) || v % 4096)
			return ctl_refuse(out, "bridge priority must be 0..61440 in steps of 4096");
		if (mstp_set_bridge_priority(d->br, t, (uint16_t)v))
			return ctl_refuse(out, "refused by the protocol core");
		mstd_log(d, MSTP_LOG_INFO, "control: bridge priority %s %lu",
			 w[2], v);
		return 0;
	}
	if (n == 2 && !strcmp(w[0], "flush_scope")) {
		enum mstp_flush_scope s;

		if (mstd_parse_flush_scope(w[1], &s))
			return ctl_refuse(out, "flush_scope must be tree or port");
		mstp_set_flush_scope(d->br, s);
		d->conf.flush_scope = s;
		mstd_log(d, MSTP_LOG_INFO, "control: flush_scope %s", w[1]);
		return 0;
	}
	if (n == 2 && !strcmp(w[0], "log_level")) {
		enum mstp_log_level l;

		if (mstd_parse_log_level(w[1], &l))
			return ctl_refuse(out, "log_level must be error, info or debug");
		d->log_level = l;
		return 0;
	}
	return ctl_refuse(out, "usage: set bridge priority TREE N | set port NAME ... | set max_age|forward_delay|max_hops|tx_hold|ageing_time|guard_recovery N | set force_version V | set region NAME | set revision N | set msti ID vlans LIST | set flush_scope tree|port | set log_level LEVEL");
}

static int request(struct mstd *d, FILE *out, char *req)
{
	char *w[CTL_WORDS + 1], *save = NULL;
	int n = 0;

	for (char *t = strtok_r(req, " \t\n", &save); t;
	     t = strtok_r(NULL, " \t\n", &save)) {
		if (n == CTL_WORDS)
			return ctl_refuse(out, "too many words");
		w[n++] = t;
	}
	if (n == 0)
		return ctl_refuse(out, "empty request");
	if (!strcmp(w[0], "status")) {
		bool json = false;
		const char *port = NULL;

		for (int k = 1; k < n; k++) {
			if (!strcmp(w[k], "json"))
				json = true;
			else if (!strcmp(w[k], "port") && k + 1 < n)
				port = w[++k];
			else
				return ctl_refuse(out, "usage: status [json] [port NAME]");
		}
		if (port && mstd_port_by_name(d, port) < 0)
			return ctl_refuse(out, "no port \"%s\" on %s", port,
				      d->conf.bridge);
		status_print(d, out, json, port);
		return 0;
	}
	if (!strcmp(w[0], "set")) {
		int r = do_set(d, out, w + 1, n - 1);

		if (!r)
			fputs("ok\n", out);
		return r;
	}
	if (!strcmp(w[0], "delete") || !strcmp(w[0], "recover")) {
		int r = w[0][0] == 'd' ? ctl_delete(d, out, w + 1, n - 1) :
					 ctl_recover(d, out, w + 1, n - 1);

		if (!r)
			fputs("ok\n", out);
		return r;
	}
	if (!strcmp(w[0], "mcheck")) {
		if (n > 2)
			return ctl_refuse(out, "usage: mcheck [PORT]");
		for (unsigned int i = 0; i < d->nports; i++) {
			if (n == 2 && strcmp(d->ports[i].name, w[1]))
				continue;
			mstp_mcheck(d->br, i);
			mstd_log(d, MSTP_LOG_INFO, "control: mcheck on %s",
				 d->ports[i].name);
			if (n == 2) {
				fputs("ok\n", out);
				return 0;
			}
		}
		if (n == 2)
			return ctl_refuse(out, "no port \"%s\" on %s", w[1],
				      d->conf.bridge);
		fputs("ok\n", out);
		return 0;
	}
	return ctl_refuse(out, "unknown request \"%s\" (status, set, delete, recover, mcheck)", w[0]);
}

int ctl_request(struct mstd *d, FILE *out, char *req)
{
	int r = request(d, out, req);

	/* Refusals are counted: a client feeding garbage shows in status. */
	d->ctl_requests++;
	if (r)
		d->ctl_refused++;
	return r;
}

void ctl_accept(struct mstd *d)
{
	struct timeval tv = { 1, 0 };
	char req[CTL_REQ_MAX + 1];
	char *reply = NULL;
	size_t rlen = 0;
	int sndbuf = 1 << 20;
	FILE *out;
	ssize_t n;
	int fd = accept4(d->ctlfd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	n = recv(fd, req, CTL_REQ_MAX, MSG_TRUNC);
	out = open_memstream(&reply, &rlen);
	if (n <= 0 || !out) {
		if (out)
			fclose(out);
		free(reply);
		close(fd);
		return;
	}
	if (n > CTL_REQ_MAX) {
		ctl_refuse(out, "request longer than %d bytes", CTL_REQ_MAX);
		d->ctl_requests++, d->ctl_refused++;
	} else {
		req[n] = 0;
		if (strlen(req) != (size_t)n) {
			ctl_refuse(out, "NUL byte in the request");
			d->ctl_requests++, d->ctl_refused++;
		} else
			ctl_request(d, out, req);
	}
	fclose(out);
	if (send(fd, reply, rlen, MSG_NOSIGNAL) < 0)
		mstd_log(d, MSTP_LOG_DEBUG, "control: reply not sent: %s",
			 strerror(errno));
	free(reply);
	close(fd);
}
