/* SPDX-License-Identifier: MIT */
/*
 * `mstlab hosts check`: what a lab across hosts needs, checked on each
 * host before the lab is brought up (docs/multihost.md): this host's
 * programs and libvirt; for each other host, in order, SSH without a
 * prompt and with its host key known, its mstlab agent of this
 * protocol version, libvirt at its URI (with the user's host settings,
 * as `up` connects), its programs and guest files, its clock against
 * this one, the path MTU, and the VXLAN port probed both ways between
 * the two hosts' addresses (host_probe.h). Each finding is one item:
 * ok, warn or FAIL, what was seen, and for what is wrong the command
 * that fixes it. The verdicts and their fixes are pure (hc_*_item) so
 * that they are tested apart from the hosts.
 */
#ifndef MSTLAB_HOSTS_CHECK_H
#define MSTLAB_HOSTS_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "clock_sync.h"
#include "host_probe.h"
#include "host_settings.h"
#include "topo.h"

enum hc_verdict { HC_OK, HC_WARN, HC_FAIL };

struct hc_item {
	char host[TOPO_HOST_NAME_MAX + 1];
	char what[24];
	enum hc_verdict v;
	char seen[512];
	char fix[512];		/* "": nothing to do */
};

#define HC_ITEMS_MAX (TOPO_MAX_HOSTS * 12)

struct hc_report {
	size_t n;
	struct hc_item item[HC_ITEMS_MAX];
};

/* A clock bound or offset over this is a warning (ns). */
#define HC_CLOCK_WARN_NS 5000000
/* How long a probe waits for its datagram (ms). */
#define HC_PROBE_MS 2000

/* What ssh's exit status and its error output say. */
enum hc_ssh {
	HC_SSH_OK, HC_SSH_HOST_KEY_UNKNOWN, HC_SSH_HOST_KEY_CHANGED,
	HC_SSH_AUTH, HC_SSH_UNREACHABLE, HC_SSH_OTHER,
};
enum hc_ssh hc_ssh_classify(int exit_status, const char *stderr_text);

/* The verdicts, each into it (its host and what set by the caller). */
void hc_ssh_item(const struct topo_host *th, const struct host_settings *s,
		 int exit_status, const char *stderr_text, struct hc_item *it);
/* A program of a host: path NULL or "-" when missing. */
void hc_tool_item(const char *host, enum host_tool tool, const char *path,
		  struct hc_item *it);
void hc_clock_item(const struct clock_est *e, struct hc_item *it);
/* The MTU of from's interface towards to (family of the addresses). */
void hc_mtu_item(const char *from, const char *to, int family, unsigned mtu,
		 struct hc_item *it);
/* A probe from (host, address) to (host, address): the listener's
 * answer, "received FROM", "none" or "busy DEVICES". */
void hc_udp_item(const char *from_host, const char *from,
		 const char *to_host, const char *to, int family,
		 const char *answer, struct hc_item *it);

/*
 * Checks the hosts of t: this one when want[0], each other host h with
 * want[h]; text is t's file (its agent plans it too). local_uri is this
 * host's libvirt. Progress (a host at a time) on log when not NULL.
 */
void hosts_check(const struct topo *t, const char *text, size_t len,
		 const bool want[TOPO_MAX_HOSTS], const char *local_uri,
		 struct hc_report *r, FILE *log);

/* One line per item ("HOST  WHAT  ok|warn|FAIL  SEEN"), a fix under it. */
void hc_print(const struct hc_report *r, FILE *out);
/* Whether an item FAILed. */
bool hc_failed(const struct hc_report *r);

#endif
