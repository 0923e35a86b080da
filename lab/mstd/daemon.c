// SPDX-License-Identifier: MIT
/*
 * mstd set-up, the ops table the MSTP core calls, and the event loop.
 */
#include "daemon.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/if_bridge.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

/* epoll tags: the kind in the high half, an index in the low half. */
enum { EV_TIMER = 1, EV_SIGNAL, EV_MONITOR, EV_PORT, EV_CTL };
#define EV_TAG(kind, idx) ((uint64_t)(kind) << 32 | (uint32_t)(idx))

/* ---- the ops table ------------------------------------------------------ */

static void op_tx_bpdu(void *ctx, unsigned int port, const uint8_t *bpdu,
		       size_t len)
{
	dport_tx(ctx, port, bpdu, len);
}

static void op_set_state(void *ctx, unsigned int port, uint16_t mstid,
			 enum mstp_port_state state)
{
	struct mstd *d = ctx;
	static const uint8_t map[] = {
		[MSTP_DISCARDING] = BR_STATE_BLOCKING,
		[MSTP_LEARNING] = BR_STATE_LEARNING,
		[MSTP_FORWARDING] = BR_STATE_FORWARDING,
	};
	int slot = mstd_conf_tree(&d->conf, mstid);

	if (slot < 0 || port >= d->nports)
		return;
	kernel_set_state(d, port, (unsigned int)slot, map[state]);
}

static void op_commit_states(void *ctx)
{
	kernel_commit_states(ctx);
}

static void op_flush(void *ctx, unsigned int port, int mstid)
{
	kernel_flush(ctx, port, mstid);
}

static void op_log(void *ctx, enum mstp_log_level level, const char *msg)
{
	mstd_log(ctx, level, "%s", msg);
}

uint64_t mstd_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static uint64_t op_now_ms(void *ctx)
{
	(void)ctx;
	return mstd_now_ms();
}

static void op_rapid_ageing(void *ctx, unsigned int port, unsigned int secs)
{
	ageing_rapid(ctx, port, secs);
}

static const struct mstp_ops ops = {
	.rapid_ageing = op_rapid_ageing,
	.tx_bpdu = op_tx_bpdu,
	.set_state = op_set_state,
	.flush = op_flush,
	.commit_states = op_commit_states,
	.log = op_log,
	.now_ms = op_now_ms,
};

/* ---- set-up --------------------------------------------------------------- */

static int epoll_add(struct mstd *d, int fd, uint64_t tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = tag };

	if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		mstd_log(d, MSTP_LOG_ERR, "epoll_ctl: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

void mstd_port_configure(struct mstd *d, unsigned int i)
{
	const struct mstd_conf *c = &d->conf;
	const struct mstd_conf_port *cp = mstd_conf_port(c, d->ports[i].name);

	if (!cp)
		return;
	if (cp->edge >= 0)
		mstp_set_admin_edge(d->br, i, cp->edge);
	if (cp->auto_edge >= 0)
		mstp_set_auto_edge(d->br, i, cp->auto_edge);
	if (cp->p2p >= 0)
		mstp_set_p2p(d->br, i, (enum mstp_p2p)cp->p2p);
	if (cp->bpdu_guard >= 0)
		mstp_set_bpdu_guard(d->br, i, cp->bpdu_guard);
	if (cp->bpdu_filter >= 0)
		mstp_set_bpdu_filter(d->br, i, cp->bpdu_filter);
	if (cp->loop_guard >= 0)
		mstp_set_loop_guard(d->br, i, cp->loop_guard);
	if (cp->root_guard >= 0 || cp->tcn_guard >= 0)
		mstp_set_restricted(d->br, i, cp->root_guard > 0,
				    cp->tcn_guard > 0);
	for (unsigned int t = 0; t <= c->nmstis; t++) {
		if (cp->priority[t].set)
			mstp_set_port_priority(d->br, i, t,
					       (uint8_t)cp->priority[t].v);
		if (!cp->cost[t].set)
			continue;
		mstp_set_port_path_cost(d->br, i, t, cp->cost[t].v);
		if (t == 0)
			mstp_set_port_ext_path_cost(d->br, i, cp->cost[t].v);
	}
	if (cp->ext_cost.set)
		mstp_set_port_ext_path_cost(d->br, i, cp->ext_cost.v);
}

static int make_core(struct mstd *d)
{
	const struct mstd_conf *c = &d->conf;
	struct mstp_bridge_config bc;
	int r;

	r = region_mcid(d);
	if (r) {
		fprintf(stderr, "mstd: cannot compute the MST configuration identifier: %s\n",
			strerror(-r));
		return r;
	}
	mstp_bridge_config_default(&bc, d->br_mac);
	bc.nports = d->nports;
	bc.nmstis = c->nmstis;
	memcpy(bc.mstids, c->mstids, sizeof(bc.mstids));
	bc.mcid = d->mcid;
	bc.force_version = c->force_version;
	bc.max_age = c->max_age;
	bc.fwd_delay = c->fwd_delay;
	bc.max_hops = c->max_hops;
	bc.tx_hold_count = c->tx_hold;
	bc.flush_scope = c->flush_scope;
	bc.guard_recovery = c->guard_recovery;
	bc.log_level = d->log_level;	/* fixed for the core at start */
	d->br = mstp_bridge_new(&bc, &ops, d);
	if (!d->br) {
		fprintf(stderr, "mstd: the MSTP core refused the configuration: %s\n",
			strerror(errno));
		return -EINVAL;
	}
	for (unsigned int t = 0; t <= c->nmstis; t++)
		if (c->priority[t].set)
			mstp_set_bridge_priority(d->br, t,
						 (uint16_t)c->priority[t].v);
	for (unsigned int i = 0; i < d->nports; i++) {
		mstd_port_configure(d, i);
		if (d->ports[i].speed_mbps)
			mstp_set_port_speed(d->br, i, d->ports[i].speed_mbps);
	}
	return 0;
}

int mstd_init(struct mstd *d)
{
	struct itimerspec its = { { 1, 0 }, { 1, 0 } };
	sigset_t mask;
	int err = 0;

	d->epfd = d->tfd = d->sigfd = d->ctlfd = -1;
	d->nl = mstnl_open(&err);
	if (!d->nl) {
		fprintf(stderr, "mstd: cannot open rtnetlink: %s\n",
			strerror(-err));
		return -1;
	}
	/* The control socket doubles as the one-instance lock: take it
	 * before touching the bridge. */
	if (ctl_listen(d))
		return -1;
	/* Subscribe before reading any state: a port whose carrier comes up
	 * between the scan and the subscription would otherwise stay down
	 * for mstd until its next change. What queues up meanwhile is
	 * handled once the loop runs. */
	d->mon = mstnl_open_monitor(MSTNL_GRP_LINK | MSTNL_GRP_VLAN, &err);
	if (!d->mon) {
		fprintf(stderr, "mstd: cannot subscribe to rtnetlink notifications: %s\n",
			strerror(-err));
		return -1;
	}
	if (kernel_check_bridge(d) || kernel_scan_ports(d))
		return -1;
	if (kernel_sync_vlans(d))
		return -1;
	if (make_core(d))
		return -1;
	if (ageing_init(d, d->ageing_cs)) {
		fprintf(stderr, "mstd: ageing_time out of range\n");
		return -1;
	}

	d->epfd = epoll_create1(EPOLL_CLOEXEC);
	d->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	d->sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (d->epfd < 0 || d->tfd < 0 || d->sigfd < 0) {
		fprintf(stderr, "mstd: cannot set up the event loop: %s\n",
			strerror(errno));
		return -1;
	}
	if (timerfd_settime(d->tfd, 0, &its, NULL) < 0 ||
	    epoll_add(d, d->tfd, EV_TAG(EV_TIMER, 0)) ||
	    epoll_add(d, d->sigfd, EV_TAG(EV_SIGNAL, 0)) ||
	    epoll_add(d, mstnl_fd(d->mon), EV_TAG(EV_MONITOR, 0)))
		return -1;
	if (epoll_add(d, d->ctlfd, EV_TAG(EV_CTL, 0)))
		return -1;
	/*
	 * Ports of a bridge that ran without STP are forwarding, and a new
	 * MSTI's states are whatever the kernel chose: start from discarding
	 * everywhere so no loop exists before the protocol has spoken.
	 */
	d->live = true;
	for (unsigned int i = 0; i < d->nports; i++)
		for (unsigned int t = 0; t <= d->conf.nmstis; t++)
			kernel_set_state(d, i, t, BR_STATE_BLOCKING);
	kernel_commit_states(d);
	/* Sockets first, then carrier: the first BPDUs go out at once. */
	for (unsigned int i = 0; i < d->nports; i++) {
		struct mstd_port *p = &d->ports[i];

		if (p->ifindex > 0 && dport_open(d, i) == 0)
			epoll_add(d, p->fd, EV_TAG(EV_PORT, i));
	}
	for (unsigned int i = 0; i < d->nports; i++) {
		struct mstd_port *p = &d->ports[i];

		mstd_log(d, MSTP_LOG_INFO, "port %s (index %u) %s", p->name,
			 i + 1, p->ifindex ? (p->up ? "up" : "down") :
			 "not in the bridge");
		if (p->up)
			mstp_port_set_link(d->br, i, true, p->full_duplex);
	}
	return 0;
}

/*
 * A signalfd wakes epoll through the sighand of the process that added it
 * to the epoll set: after fork() the child must make its own.
 */
int mstd_after_fork(struct mstd *d)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	if (d->sigfd >= 0)
		close(d->sigfd);	/* also leaves the epoll set */
	d->sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (d->sigfd < 0)
		return -errno;
	return epoll_add(d, d->sigfd, EV_TAG(EV_SIGNAL, 0));
}

/* ---- events ------------------------------------------------------------- */

/* A port joined the bridge or came back: socket and states. */
void mstd_port_attach(struct mstd *d, unsigned int i, int ifindex)
{
	struct mstd_port *p = &d->ports[i];

	if (p->ifindex == ifindex && p->fd >= 0)
		return;
	if (p->fd >= 0)
		dport_close(d, i);
	p->ifindex = ifindex;
	if (dport_open(d, i) == 0)
		epoll_add(d, p->fd, EV_TAG(EV_PORT, i));
	mstd_log(d, MSTP_LOG_INFO, "port %s joined the bridge (ifindex %d)",
		 p->name, ifindex);
	/* With user-space STP the kernel lets a new port forward: what the
	 * core holds (discarding, for a port just up) goes in at once. */
	for (unsigned int t = 0; t <= d->conf.nmstis; t++)
		kernel_set_state(d, i, t, p->kstate[t] == 0xff ?
				 BR_STATE_BLOCKING : p->kstate[t]);
	kernel_commit_states(d);
}

int mstd_port_add(struct mstd *d, const char *name, int ifindex)
{
	struct mstd_port *ports, *p;
	int i;

	if (d->nports >= MSTD_MAX_PORTS || d->nports >= MSTP_MAX_PORTS) {
		mstd_log(d, MSTP_LOG_ERR, "port %s joined: more than %u ports, "
			 "it stays blocking", name, d->nports);
		return -1;
	}
	ports = realloc(d->ports, (d->nports + 1) * sizeof(*ports));
	if (!ports)
		goto nomem;
	d->ports = ports;
	p = &ports[d->nports];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->fd = -1;
	memset(p->kstate, 0xff, sizeof(p->kstate));
	i = mstp_add_port(d->br);
	if (i < 0)
		goto nomem;
	d->nports++;
	d->ports_added++;
	mstd_log(d, MSTP_LOG_INFO, "port %s: new port %d", name, i + 1);
	mstd_port_configure(d, (unsigned int)i);
	mstd_port_attach(d, (unsigned int)i, ifindex);
	return i;
nomem:
	mstd_log(d, MSTP_LOG_ERR, "port %s joined: out of memory, it stays "
		 "blocking", name);
	return -1;
}

static void on_tick(struct mstd *d)
{
	uint64_t n = 0;

	if (read(d->tfd, &n, sizeof(n)) != sizeof(n))
		return;
	/* Missed ticks (a stopped VM) still count: the timers are in s. */
	while (n--) {
		mstp_tick(d->br);
		d->ticks++;
	}
	/* VLANs changed, or a slow safety net against lost notifications. */
	if (d->vlans_dirty || d->ticks % 10 == 0)
		kernel_sync_vlans(d);
}

static void on_signal(struct mstd *d)
{
	struct signalfd_siginfo si;

	if (read(d->sigfd, &si, sizeof(si)) != sizeof(si))
		return;
	if (si.ssi_signo == SIGHUP) {
		mstd_log(d, MSTP_LOG_INFO, "SIGHUP: re-checking the bridge");
		d->vlans_dirty = true;
		return;
	}
	mstd_log(d, MSTP_LOG_INFO, "signal %u: exiting", si.ssi_signo);
	d->stop = true;
}

int mstd_run(struct mstd *d)
{
	struct epoll_event evs[16];

	while (!d->stop) {
		int n;

		/* What the last events logged, now that they are handled. */
		mstd_log_flush(d);
		n = epoll_wait(d->epfd, evs, 16, -1);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			mstd_log(d, MSTP_LOG_ERR, "epoll_wait: %s",
				 strerror(errno));
			return 1;
		}
		for (int k = 0; k < n; k++) {
			uint32_t kind = (uint32_t)(evs[k].data.u64 >> 32);
			uint32_t idx = (uint32_t)evs[k].data.u64;

			switch (kind) {
			case EV_TIMER:
				on_tick(d);
				break;
			case EV_SIGNAL:
				on_signal(d);
				break;
			case EV_MONITOR:
				kernel_monitor(d);
				break;
			case EV_PORT:
				if (idx < d->nports && d->ports[idx].fd >= 0)
					dport_rx(d, idx);
				break;
			case EV_CTL:
				ctl_accept(d);
				break;
			}
		}
	}
	return 0;
}

void mstd_fini(struct mstd *d)
{
	ageing_fini(d);
	for (unsigned int i = 0; i < d->nports; i++)
		if (d->ports[i].fd >= 0)
			dport_close(d, i);
	ctl_close(d);
	if (d->br)
		mstp_bridge_free(d->br);
	if (d->mon)
		mstnl_close(d->mon);
	if (d->nl)
		mstnl_close(d->nl);
	if (d->tfd >= 0)
		close(d->tfd);
	if (d->sigfd >= 0)
		close(d->sigfd);
	if (d->epfd >= 0)
		close(d->epfd);
	if (d->pid_path[0])
		unlink(d->pid_path);
	free(d->ports);
	mstd_conf_free(&d->conf);
}
