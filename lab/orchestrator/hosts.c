// SPDX-License-Identifier: MIT
#include "hosts.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool lab_hosts_needed(const struct topo *t)
{
	for (size_t h = 1; h < t->n_hosts; h++)
		if (topo_host_used(t, h))
			return true;
	return false;
}

void lab_hosts_init(struct lab_hosts *hs, const struct topo *t,
		    const struct lab_ops *base, bool autodestroy)
{
	memset(hs, 0, sizeof(*hs));
	hs->t = t;
	hs->base = base;
	hs->autodestroy = autodestroy;
	pthread_mutex_init(&hs->lock, NULL);
}

/* ssh's last line of complaint, after why. */
static void ssh_said(const char *log, struct errbuf *err)
{
	char line[256], last[256] = "";
	FILE *f = fopen(log, "re");

	while (f && fgets(line, sizeof(line), f))
		if (line[strspn(line, " \t\r\n")])
			snprintf(last, sizeof(last), "%s", line);
	if (f)
		fclose(f);
	last[strcspn(last, "\r\n")] = 0;
	if (last[0]) {
		struct errbuf why = *err;

		errbuf_set(err, "%s (ssh: %s)", why.msg, last);
	}
}

static int reach(struct lab_hosts *hs, unsigned h, struct errbuf *err)
{
	struct lab_host_rt *r = &hs->h[h];
	const struct topo_host *th = &hs->t->hosts[h];
	char log[] = "/tmp/mstlab-ssh-XXXXXX", uri[TOPO_TEXT_MAX * 3 + 32];
	int fd = mkostemp(log, O_CLOEXEC), rc;

	if (fd >= 0)
		close(fd);
	rc = remote_ssh_argv(&r->rc, hs->t, h, err) ||
	     remote_start(&r->rc, th->name, NULL, fd >= 0 ? log : NULL, err);
	if (rc && fd >= 0)
		ssh_said(log, err);
	/* ssh keeps writing to it, unlinked. */
	if (fd >= 0)
		unlink(log);
	if (rc)
		return -1;
	/* libvirt's ssh goes with the same key and program as the agent's. */
	if (host_settings_uri(th, &r->rc.settings, uri, sizeof(uri))) {
		remote_stop(&r->rc);
		return errbuf_set(err, "host %s: its uri with its settings is "
				  "too long", th->name);
	}
	if (hv_libvirt_open(&r->hv, uri, hs->autodestroy, err)) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		remote_stop(&r->rc);
		return errbuf_set(err, "host %s: libvirt at %s: %s", th->name,
				  uri, why);
	}
	r->ops = *hs->base;
	r->ops.hv = &hv_libvirt_ops;
	r->ops.hv_ctx = &r->hv;
	r->ops.link = &remote_link_ops;
	r->ops.link_ctx = &r->rc;
	r->ops.cap = &remote_capture_ops;
	r->ops.cap_ctx = &r->rc;
	r->ops.host = NULL;
	r->ops.host_ctx = NULL;
	r->ops.remote = &r->rc;
	return 0;
}

const struct lab_ops *lab_hosts_get(void *ctx, const char *name,
				    struct errbuf *err)
{
	struct lab_hosts *hs = ctx;
	int h = topo_host_find(hs->t, name);
	struct lab_host_rt *r;
	const struct lab_ops *o = NULL;

	if (h <= 0) {
		errbuf_set(err, "no host %.40s in lab %s", name, hs->t->name);
		return NULL;
	}
	r = &hs->h[h];
	pthread_mutex_lock(&hs->lock);
	if (!r->tried) {
		r->tried = true;
		r->up = !reach(hs, (unsigned)h, err);
		if (!r->up)
			r->why = *err;
	}
	if (r->up)
		o = &r->ops;
	else
		*err = r->why;
	pthread_mutex_unlock(&hs->lock);
	return o;
}

void lab_hosts_close(struct lab_hosts *hs)
{
	if (!hs->t)
		return;
	for (size_t h = 1; h < TOPO_MAX_HOSTS; h++)
		if (hs->h[h].up) {
			remote_stop(&hs->h[h].rc);
			hv_libvirt_close(&hs->h[h].hv);
			hs->h[h].up = false;
		}
	pthread_mutex_destroy(&hs->lock);
	hs->t = NULL;
}
