// SPDX-License-Identifier: MIT
/*
 * struct hv_ops over the libvirt C API: transient domains, the NIC link
 * state, the guest agent and QEMU's monitor (libvirt-qemu). libvirt's own error printing
 * is silenced: every failure comes back as one line in err.
 */
#include "hv_libvirt.h"

#include <libvirt/libvirt-qemu.h>
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void quiet(void *ud, virErrorPtr e)
{
	(void)ud;
	(void)e;
}

static int fail(struct errbuf *err, const char *what)
{
	const char *msg = virGetLastErrorMessage();

	errbuf_set(err, "%s: %s", what, msg ? msg : "unknown error");
	return -1;
}

int hv_libvirt_open(struct hv_libvirt *h, const char *uri, bool autodestroy,
		    struct errbuf *err)
{
	virSetErrorFunc(NULL, quiet);
	*h = (struct hv_libvirt){ .autodestroy = autodestroy };
	h->conn = virConnectOpen(uri);
	if (!h->conn)
		return fail(err, uri);
	h->uri = strdup(uri);
	if (!h->uri || pthread_mutex_init(&h->lock, NULL)) {
		free(h->uri);
		virConnectClose(h->conn);
		*h = (struct hv_libvirt){ 0 };
		return errbuf_set(err, "out of memory");
	}
	return 0;
}

void hv_libvirt_close(struct hv_libvirt *h)
{
	if (!h->conn)
		return;
	for (int i = 0; i < HV_START_CONNS; i++)
		if (h->start_conn[i])
			virConnectClose(h->start_conn[i]);
	virConnectClose(h->conn);
	pthread_mutex_destroy(&h->lock);
	free(h->uri);
	*h = (struct hv_libvirt){ 0 };
}

/*
 * libvirtd serves at most max_client_requests (default 5) calls of one
 * connection at a time, and starting a domain is a call of a second or
 * more: a sixth domain started at once waited for a whole start. So
 * domains start over a few connections of their own, at most
 * START_PER_CONN each at a time. They stay open as long as the main
 * one: with autodestroy a domain dies with the connection that started
 * it. Returns the slot, or -1 with err set.
 */
#define START_PER_CONN	4
static int start_slot(struct hv_libvirt *h, struct errbuf *err)
{
	int best = -1;

	pthread_mutex_lock(&h->lock);
	for (int i = 0; i < HV_START_CONNS; i++) {
		/* One the daemon dropped (libvirtd restarted, revive()) is
		 * opened again once no start uses it. */
		if (h->start_conn[i] && !h->starting[i] &&
		    virConnectIsAlive(h->start_conn[i]) == 0) {
			virConnectClose(h->start_conn[i]);
			h->start_conn[i] = NULL;
		}
		if (!h->start_conn[i]) {
			h->start_conn[i] = virConnectOpen(h->uri);
			if (!h->start_conn[i]) {
				if (best < 0)
					fail(err, h->uri);
				break;
			}
		}
		if (best < 0 || h->starting[i] < h->starting[best])
			best = i;
		if (h->starting[best] < START_PER_CONN)
			break;
	}
	if (best >= 0)
		h->starting[best]++;
	pthread_mutex_unlock(&h->lock);
	return best;
}

static int hv_start(void *ctx, const char *xml, unsigned flags,
		    struct errbuf *err)
{
	struct hv_libvirt *h = ctx;
	int slot = start_slot(h, err);
	unsigned vflags = 0;
	virDomainPtr dom;

	if (slot < 0)
		return -1;
	if (h->autodestroy || (flags & HV_START_AUTODESTROY))
		vflags |= VIR_DOMAIN_START_AUTODESTROY;
	if (flags & HV_START_PAUSED)
		vflags |= VIR_DOMAIN_START_PAUSED;
	dom = virDomainCreateXML(h->start_conn[slot], xml, vflags);
	pthread_mutex_lock(&h->lock);
	h->starting[slot]--;
	pthread_mutex_unlock(&h->lock);
	if (!dom)
		return fail(err, "cannot start domain");
	virDomainFree(dom);
	return 0;
}

/*
 * The main connection, opened again if it died: a remote URI's is an ssh
 * that libvirt spawns in mstlab's process group, so the Ctrl-C that
 * interrupts a lab kills it too, and the teardown that follows must
 * still reach that host's domains. A reference the caller closes: another
 * thread may replace the connection meanwhile.
 */
static virConnectPtr live_conn(struct hv_libvirt *h)
{
	virConnectPtr c;

	pthread_mutex_lock(&h->lock);
	if (virConnectIsAlive(h->conn) == 0) {
		c = virConnectOpen(h->uri);
		/* The daemon itself is gone (killed, restarted by hand): a
		 * run still has to reach its domains, a teardown too. */
		if (!c && h->revive && !h->revive(h))
			for (int i = 0; !c && i < 50; i++) {
				nanosleep(&(struct timespec){ 0, 100000000L },
					  NULL);
				c = virConnectOpen(h->uri);
			}
		if (c) {
			virConnectClose(h->conn);
			h->conn = c;
		}
	}
	c = h->conn;
	virConnectRef(c);
	pthread_mutex_unlock(&h->lock);
	return c;
}

/* NULL without an error when the domain does not exist. */
static virDomainPtr lookup(struct hv_libvirt *h, const char *name, int *rc,
			   struct errbuf *err)
{
	virConnectPtr c = live_conn(h);
	virDomainPtr dom = virDomainLookupByName(c, name);
	virErrorPtr e = dom ? NULL : virSaveLastError();

	/* Its death is seen on its first call after it (which, as every
	 * call, forgets the last error: saved above). */
	if (!dom && virConnectIsAlive(c) == 0) {
		virConnectClose(c);
		c = live_conn(h);
		dom = virDomainLookupByName(c, name);
		virFreeError(e);
		e = dom ? NULL : virSaveLastError();
	}
	*rc = 0;
	if (!dom && (!e || e->code != VIR_ERR_NO_DOMAIN)) {
		errbuf_set(err, "%s: %s", name, e && e->message ? e->message :
			   "unknown error");
		*rc = -1;
	}
	virFreeError(e);
	virConnectClose(c);
	return dom;
}

/* Gone meanwhile is gone: a killed run's domains die with its
 * connection (autodestroy) while its guardian's down destroys them. */
static bool gone(virDomainPtr dom)
{
	int active = virDomainIsActive(dom);

	return active == 0 ||
	       (active < 0 && virGetLastErrorCode() == VIR_ERR_NO_DOMAIN);
}

static int hv_destroy(void *ctx, const char *name, struct errbuf *err)
{
	int rc;
	virDomainPtr dom = lookup(ctx, name, &rc, err);

	if (!dom)
		return rc;
	if (virDomainIsActive(dom) == 1 && virDomainDestroy(dom) < 0 &&
	    virGetLastErrorCode() != VIR_ERR_NO_DOMAIN) {
		virErrorPtr e = virSaveLastError();

		if (!gone(dom)) {
			errbuf_set(err, "%s: %s", name, e && e->message ?
				   e->message : "unknown error");
			rc = -1;
		}
		virFreeError(e);
	}
	/* Only a persistent domain is still there: a crash of an older
	 * mstlab may have left one defined. */
	if (!rc && virDomainIsPersistent(dom) == 1 &&
	    virDomainUndefine(dom) < 0)
		rc = fail(err, name);
	virDomainFree(dom);
	return rc;
}

static int hv_running(void *ctx, const char *name, struct errbuf *err)
{
	int rc;
	virDomainPtr dom = lookup(ctx, name, &rc, err);

	if (!dom)
		return rc;
	rc = virDomainIsActive(dom);
	if (rc < 0)
		fail(err, name);
	virDomainFree(dom);
	return rc;
}

static const char *state_word(int state)
{
	switch (state) {
	case VIR_DOMAIN_RUNNING:
		return "running";
	case VIR_DOMAIN_BLOCKED:
		return "blocked";
	case VIR_DOMAIN_PAUSED:
		return "paused";
	case VIR_DOMAIN_SHUTDOWN:
		return "shutting down";
	case VIR_DOMAIN_SHUTOFF:
		return "shut off";
	case VIR_DOMAIN_CRASHED:
		return "crashed";
	case VIR_DOMAIN_PMSUSPENDED:
		return "suspended";
	default:
		return "unknown";
	}
}

/* libvirt's "active" is also a paused domain's (one killed while it
 * loaded its template): only a running one is said running. */
static int hv_state(void *ctx, const char *name, char *out, size_t len,
		    struct errbuf *err)
{
	int rc, state, reason;
	virDomainPtr dom = lookup(ctx, name, &rc, err);

	snprintf(out, len, "%s", rc ? "unknown" : "absent");
	if (!dom)
		return rc;
	rc = virDomainGetState(dom, &state, &reason, 0);
	if (rc < 0)
		fail(err, name);
	else
		snprintf(out, len, "%s", state_word(state));
	virDomainFree(dom);
	return rc < 0 ? -1 : state == VIR_DOMAIN_RUNNING ||
			     state == VIR_DOMAIN_BLOCKED;
}

/* A domain that must exist; NULL with err set otherwise. */
static virDomainPtr lookup_live(struct hv_libvirt *h, const char *name,
				struct errbuf *err)
{
	int rc;
	virDomainPtr dom = lookup(h, name, &rc, err);

	if (!dom && !rc)
		errbuf_set(err, "%s is not running", name);
	return dom;
}

static int hv_set_link(void *ctx, const char *name, const char *nic_xml,
		       struct errbuf *err)
{
	virDomainPtr dom = lookup_live(ctx, name, err);
	int rc;

	if (!dom)
		return -1;
	rc = virDomainUpdateDeviceFlags(dom, nic_xml, VIR_DOMAIN_AFFECT_LIVE);
	if (rc < 0)
		fail(err, name);
	virDomainFree(dom);
	return rc < 0 ? -1 : 0;
}

static int hv_agent(void *ctx, const char *name, const char *cmd,
		    int timeout_s, char **reply, struct errbuf *err)
{
	virDomainPtr dom = lookup_live(ctx, name, err);

	*reply = NULL;
	if (!dom)
		return -1;
	*reply = virDomainQemuAgentCommand(
		dom, cmd,
		timeout_s < 0 ? VIR_DOMAIN_QEMU_AGENT_COMMAND_BLOCK : timeout_s,
		0);
	if (!*reply)
		fail(err, name);
	virDomainFree(dom);
	return *reply ? 0 : -1;
}

/* virDomainSuspend or virDomainResume on a running domain. */
static int run_state(void *ctx, const char *name, int (*set)(virDomainPtr),
		     struct errbuf *err)
{
	virDomainPtr dom = lookup_live(ctx, name, err);
	int rc;

	if (!dom)
		return -1;
	rc = set(dom);
	if (rc < 0)
		fail(err, name);
	virDomainFree(dom);
	return rc < 0 ? -1 : 0;
}

static int hv_pause(void *ctx, const char *name, struct errbuf *err)
{
	return run_state(ctx, name, virDomainSuspend, err);
}

static int hv_resume(void *ctx, const char *name, struct errbuf *err)
{
	return run_state(ctx, name, virDomainResume, err);
}

/* libvirt-qemu's passthrough: the domain is marked "custom-monitor"
 * in libvirt's log, which is what it is. */
static int hv_monitor(void *ctx, const char *name, const char *cmd, int fd,
		      char **reply, struct errbuf *err)
{
	virDomainPtr dom = lookup_live(ctx, name, err);
	unsigned int nfd = fd >= 0 ? 1 : 0;
	int rc;

	*reply = NULL;
	if (!dom)
		return -1;
	if (nfd)
		rc = virDomainQemuMonitorCommandWithFiles(dom, cmd, nfd, &fd,
							  NULL, NULL, reply,
							  0);
	else
		rc = virDomainQemuMonitorCommand(dom, cmd, reply, 0);
	if (rc < 0)
		fail(err, name);
	virDomainFree(dom);
	return rc < 0 ? -1 : 0;
}

static int hv_description(void *ctx, const char *name, char *out, size_t len,
			  struct errbuf *err)
{
	virDomainPtr dom = lookup_live(ctx, name, err);
	char *text;

	if (!dom)
		return -1;
	text = virDomainGetMetadata(dom, VIR_DOMAIN_METADATA_DESCRIPTION, NULL,
				    VIR_DOMAIN_AFFECT_LIVE);
	virDomainFree(dom);
	if (!text)
		return fail(err, name);
	snprintf(out, len, "%s", text);
	free(text);
	return 0;
}

const struct hv_ops hv_libvirt_ops = {
	.start = hv_start,
	.destroy = hv_destroy,
	.running = hv_running,
	.state = hv_state,
	.description = hv_description,
	.set_link = hv_set_link,
	.agent = hv_agent,
	.pause = hv_pause,
	.resume = hv_resume,
	.monitor = hv_monitor,
};
