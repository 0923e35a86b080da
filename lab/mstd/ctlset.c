// SPDX-License-Identifier: MIT
/*
 * The control socket's run-time settings beyond priorities and edges:
 * bridge timers and versions, the ageing time, the region and its MSTIs,
 * the port guards and costs, BPDU guard recovery.  Each value is checked
 * with its range in the refusal; nothing changes on a refusal.
 */
#include "daemon.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int out_of_range(FILE *out, const char *what, const char *w,
			unsigned long min, unsigned long max)
{
	return ctl_refuse(out, "%s \"%s\": want %lu..%lu", what, w, min, max);
}

/* @w as a number in min..max, or a refusal naming @what. */
static int num(FILE *out, const char *what, const char *w, unsigned long min,
	       unsigned long max, unsigned long *v)
{
	if (mstd_parse_uint(w, min, max, v))
		return out_of_range(out, what, w, min, max);
	return 0;
}

static int timers(struct mstd *d, FILE *out, const char *k, const char *w)
{
	unsigned long v;
	unsigned int age = d->conf.max_age, fd = d->conf.fwd_delay;

	if (!strcmp(k, "max_age")) {
		if (num(out, "max_age", w, 6, 40, &v))
			return -EINVAL;
		age = (unsigned int)v;
	} else {
		if (num(out, "forward_delay", w, 4, 30, &v))
			return -EINVAL;
		fd = (unsigned int)v;
	}
	/* 13.25: the two are checked together. */
	if (2 * (fd - 1) < age)
		return ctl_refuse(out, "need 2 * (forward_delay - 1) >= max_age, "
				  "would have forward_delay %u and max_age %u",
				  fd, age);
	if (mstp_set_bridge_times(d->br, age, fd))
		return ctl_refuse(out, "refused by the protocol core");
	d->conf.max_age = age;
	d->conf.fwd_delay = fd;
	return 0;
}

static int bridge_value(struct mstd *d, FILE *out, const char *k,
			const char *w)
{
	unsigned long v;

	if (!strcmp(k, "max_age") || !strcmp(k, "forward_delay"))
		return timers(d, out, k, w);
	if (!strcmp(k, "max_hops")) {
		if (num(out, k, w, MSTP_MIN_MAX_HOPS, MSTP_MAX_MAX_HOPS, &v) ||
		    mstp_set_max_hops(d->br, (unsigned int)v))
			return -EINVAL;
		d->conf.max_hops = (unsigned int)v;
		return 0;
	}
	if (!strcmp(k, "tx_hold")) {
		if (num(out, k, w, 1, MSTP_MAX_TX_HOLD, &v) ||
		    mstp_set_tx_hold_count(d->br, (unsigned int)v))
			return -EINVAL;
		d->conf.tx_hold = (unsigned int)v;
		return 0;
	}
	if (!strcmp(k, "force_version")) {
		enum mstp_force_version fv;

		if (mstd_parse_force_version(w, &fv))
			return ctl_refuse(out, "force_version \"%s\": want stp, "
					  "rstp or mstp", w);
		if (mstp_set_force_version(d->br, fv))
			return ctl_refuse(out, "refused by the protocol core");
		d->conf.force_version = fv;
		return 0;
	}
	if (!strcmp(k, "ageing_time")) {
		if (num(out, k, w, MSTD_AGEING_MIN, MSTD_AGEING_MAX, &v))
			return -EINVAL;
		return ageing_set(d, (unsigned int)v);
	}
	if (!strcmp(k, "guard_recovery")) {
		if (num(out, k, w, 0, MSTD_GUARD_RECOVERY_MAX, &v))
			return -EINVAL;
		mstp_set_guard_recovery(d->br, (unsigned int)v);
		d->conf.guard_recovery = (unsigned int)v;
		return 0;
	}
	return -ENOENT;
}

static int region(struct mstd *d, FILE *out, char **w, int n)
{
	const char *why = NULL;
	unsigned long v;

	if (n == 2 && !strcmp(w[0], "region")) {
		if (strlen(w[1]) > MST_CONFIG_NAME_LEN)
			return ctl_refuse(out, "region name longer than %d bytes",
					  MST_CONFIG_NAME_LEN);
		if (region_change(d, w[1], -1, NULL, 0, NULL, &why))
			return ctl_refuse(out, "%s", why);
		return 0;
	}
	if (n == 2 && !strcmp(w[0], "revision")) {
		if (num(out, "revision", w[1], 0, 65535, &v))
			return -EINVAL;
		if (region_change(d, NULL, (long)v, NULL, 0, NULL, &why))
			return ctl_refuse(out, "%s", why);
		return 0;
	}
	return -ENOENT;
}

/* set msti ID vlans LIST: ID (created if new) has exactly the VLANs of
 * LIST ("none": no VLAN); VLANs it had besides go back to the CIST. */
static int msti_vlans(struct mstd *d, FILE *out, char **w, int n)
{
	struct mst_vid_table vids = d->conf.vids;
	uint16_t ids[MSTP_MAX_MSTIS];
	unsigned int nm = d->conf.nmstis;
	const char *why = NULL;
	unsigned long id;
	size_t bad;
	int r;

	if (n != 4 || strcmp(w[2], "vlans"))
		return ctl_refuse(out, "usage: set msti ID vlans LIST|none");
	if (num(out, "MSTI", w[1], 1, MST_MSTID_MAX, &id))
		return -EINVAL;
	memcpy(ids, d->conf.mstids, sizeof(ids));
	if (mstd_conf_tree(&d->conf, (uint16_t)id) < 0) {
		if (nm == MSTP_MAX_MSTIS)
			return ctl_refuse(out, "already %d MSTIs",
					  MSTP_MAX_MSTIS);
		ids[nm++] = (uint16_t)id;
	}
	for (unsigned int v = 1; v <= 4094; v++)
		if (vids.mstid[v] == id)
			vids.mstid[v] = 0;
	r = strcmp(w[3], "none") ?
	    mstd_parse_vid_list(w[3], (uint16_t)id, &vids, &bad) : 0;
	if (r)
		return ctl_refuse(out, "bad VLAN list \"%s\" at \"%s\": "
				  "VID[-VID][,...] in 1..4094", w[3],
				  w[3] + bad);
	if (region_change(d, NULL, -1, ids, (int)nm, &vids, &why))
		return ctl_refuse(out, "%s", why);
	return 0;
}

int ctl_set_bridge(struct mstd *d, FILE *out, char **w, int n)
{
	int r;

	if (n == 2) {
		r = bridge_value(d, out, w[0], w[1]);
		if (r != -ENOENT)
			return r;
	}
	r = region(d, out, w, n);
	if (r != -ENOENT)
		return r;
	if (n >= 1 && !strcmp(w[0], "msti"))
		return msti_vlans(d, out, w, n);
	return -ENOENT;
}

/* delete msti ID: its VLANs go to the CIST. */
int ctl_delete(struct mstd *d, FILE *out, char **w, int n)
{
	struct mst_vid_table vids = d->conf.vids;
	uint16_t ids[MSTP_MAX_MSTIS];
	unsigned int nm = 0;
	const char *why = NULL;
	unsigned long id;

	if (n != 2 || strcmp(w[0], "msti"))
		return ctl_refuse(out, "usage: delete msti ID");
	if (num(out, "MSTI", w[1], 1, MST_MSTID_MAX, &id))
		return -EINVAL;
	if (mstd_conf_tree(&d->conf, (uint16_t)id) < 0)
		return ctl_refuse(out, "no MSTI %lu on %s", id, d->conf.bridge);
	for (unsigned int k = 0; k < d->conf.nmstis; k++)
		if (d->conf.mstids[k] != id)
			ids[nm++] = d->conf.mstids[k];
	for (unsigned int v = 1; v <= 4094; v++)
		if (vids.mstid[v] == id)
			vids.mstid[v] = 0;
	if (region_change(d, NULL, -1, ids, (int)nm, &vids, &why))
		return ctl_refuse(out, "%s", why);
	mstd_log(d, MSTP_LOG_INFO, "control: MSTI %lu deleted", id);
	return 0;
}

static const char *const guards[] = { "bpdu_guard", "bpdu_filter",
				      "root_guard", "tcn_guard",
				      "loop_guard" };

static int guard(struct mstd *d, unsigned int i, const char *k, bool on)
{
	struct mstp_port_status ps;

	if (!strcmp(k, "bpdu_guard"))
		return mstp_set_bpdu_guard(d->br, i, on);
	if (!strcmp(k, "bpdu_filter"))
		return mstp_set_bpdu_filter(d->br, i, on);
	if (!strcmp(k, "loop_guard"))
		return mstp_set_loop_guard(d->br, i, on);
	if (mstp_get_port_status(d->br, i, 0, &ps))
		return -EINVAL;
	if (!strcmp(k, "root_guard"))
		return mstp_set_restricted(d->br, i, on, ps.restricted_tcn);
	return mstp_set_restricted(d->br, i, ps.restricted_role, on);
}

/* set port NAME GUARD yes|no, ext_cost N|auto, cost TREE auto. */
int ctl_set_port_more(struct mstd *d, FILE *out, unsigned int i, char **w,
		      int n)
{
	unsigned long v = 0;
	bool b;

	for (size_t g = 0; n == 2 && g < sizeof(guards) / sizeof(*guards); g++) {
		if (strcmp(w[0], guards[g]))
			continue;
		if (mstd_parse_bool(w[1], &b))
			return ctl_refuse(out, "%s must be yes or no", w[0]);
		return guard(d, i, w[0], b) ?
		       ctl_refuse(out, "refused by the protocol core") : 0;
	}
	if (n == 2 && !strcmp(w[0], "ext_cost")) {
		if (strcmp(w[1], "auto") &&
		    num(out, "ext_cost", w[1], 1, MSTP_MAX_PATH_COST, &v))
			return -EINVAL;
		return mstp_set_port_ext_path_cost(d->br, i, (uint32_t)v) ?
		       ctl_refuse(out, "refused by the protocol core") : 0;
	}
	return -ENOENT;
}

int ctl_recover(struct mstd *d, FILE *out, char **w, int n)
{
	int i;

	if (n != 1)
		return ctl_refuse(out, "usage: recover PORT");
	i = mstd_port_by_name(d, w[0]);
	if (i < 0)
		return ctl_refuse(out, "no port \"%s\" on %s", w[0],
				  d->conf.bridge);
	if (mstp_port_recover(d->br, (unsigned int)i))
		return ctl_refuse(out, "port %s is not disabled by BPDU guard",
				  w[0]);
	mstd_log(d, MSTP_LOG_INFO, "control: recover %s", w[0]);
	return 0;
}
