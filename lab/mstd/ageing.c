// SPDX-License-Identifier: MIT
/*
 * The bridge's Ageing Time (8.8.3) and STP compatibility's rapid ageing:
 * with ForceProtocolVersion 0 a topology change does not flush, the
 * entries age in Forward Delay for Forward Delay (13.27 ageingTime,
 * 802.1D 17.19.1).  The kernel keeps one ageing time per bridge: while
 * any port ages fast, the bridge does (what the kernel's own STP does).
 */
#include "daemon.h"

#include <errno.h>
#include <string.h>

static void apply(struct mstd *d)
{
	struct mstnl_err err = { 0 };
	uint32_t cs = d->ageing_fast ? 100u * d->ageing_fast_s : d->ageing_cs;

	if (!d->nl || !d->br_ifindex)
		return;
	if (mstnl_ageing_set(d->nl, d->br_ifindex, cs, &err) < 0)
		mstd_log(d, MSTP_LOG_ERR, "ageing time %u.%02u s refused: %s",
			 cs / 100, cs % 100,
			 err.msg[0] ? err.msg : strerror(-err.code));
	else
		mstd_log(d, MSTP_LOG_INFO, "ageing time %u s%s", cs / 100,
			 d->ageing_fast ? " (STP compatibility: rapid)" : "");
}

int ageing_init(struct mstd *d, uint32_t bridge_cs)
{
	d->ageing_cs = bridge_cs;
	if (d->conf.ageing_time)
		return ageing_set(d, d->conf.ageing_time);
	if (!d->ageing_cs)
		d->ageing_cs = 100u * 300;	/* Table 8-6 */
	return 0;
}

int ageing_set(struct mstd *d, unsigned int secs)
{
	if (secs < MSTD_AGEING_MIN || secs > MSTD_AGEING_MAX)
		return -EINVAL;
	d->conf.ageing_time = secs;
	d->ageing_cs = 100u * secs;
	if (!d->ageing_fast)
		apply(d);
	return 0;
}

/* ops->rapid_ageing: @port ages fast for @secs, 0 ends it. */
void ageing_rapid(struct mstd *d, unsigned int port, unsigned int secs)
{
	bool fast = false;

	if (port >= d->nports)
		return;
	d->ports[port].rapid_ageing = secs > 0;
	for (unsigned int i = 0; i < d->nports; i++)
		fast |= d->ports[i].rapid_ageing;
	/* The core's FwdDelay: the root's, which may not be ours. */
	if (secs && secs != d->ageing_fast_s) {
		d->ageing_fast_s = secs;
		if (d->ageing_fast)
			apply(d);
	}
	if (fast == d->ageing_fast)
		return;
	d->ageing_fast = fast;
	apply(d);
}

/* On exit: the bridge keeps its own ageing time, not forward delay. */
void ageing_fini(struct mstd *d)
{
	if (!d->ageing_fast)
		return;
	d->ageing_fast = false;
	apply(d);
}
