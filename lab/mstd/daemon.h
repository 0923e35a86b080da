/* SPDX-License-Identifier: MIT */
/*
 * mstd: the daemon around the MSTP core.  One epoll loop owns every fd:
 * a 1 s timerfd (mstp_tick), a signalfd, an rtnetlink monitor (links,
 * VLANs), one AF_PACKET socket per bridge port (BPDUs) and the control
 * socket.  The core talks back through struct mstp_ops (daemon.c), which
 * lands in kernel.c (mstnl) and dport.c (frames).
 */
#ifndef MSTD_DAEMON_H
#define MSTD_DAEMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "conf.h"
#include "early.h"
#include "mstnl.h"
#include "mstp.h"

#define MSTD_RUN_DIR	"/run"

struct mstd_port {
	char name[MSTD_IFNAMSIZ];
	int ifindex;			/* 0: not a port of the bridge now */
	int fd;				/* AF_PACKET, -1 if none */
	uint8_t mac[6];
	bool up;			/* carrier as given to the core */
	bool full_duplex;
	uint64_t speed_mbps;		/* ethtool; 0: unknown */
	bool rapid_ageing;		/* STP compatibility ages it fast */
	/* What mstd last set, per tree slot (for re-apply and status). */
	uint8_t kstate[MSTP_MAX_MSTIS + 1];	/* BR_STATE_* */
	bool kdirty[MSTP_MAX_MSTIS + 1];	/* not yet in the kernel */
	unsigned long rx_bad_frames;	/* failed the Ethernet/LLC parse */
	unsigned long rx_early;		/* taken at a link-up that came after */
	struct early_bpdu early;	/* before its link-up (early.h) */
	unsigned long tx_errors;
	unsigned long kernel_errors;	/* state/flush requests refused */
	unsigned long flushes;
};

struct mstd {
	struct mstd_conf conf;
	struct mstp_bridge *br;
	struct mstnl *nl;		/* requests */
	struct mstnl *mon;		/* notifications */
	int br_ifindex;
	uint8_t br_mac[6];
	struct mst_config_id mcid;
	unsigned int nports;
	struct mstd_port *ports;	/* one per core port index */
	struct mstnl_vid_map kmap;	/* the bridge's VLANs as last read */
	bool vlans_dirty;		/* re-check the VID -> MSTI mapping */
	int epfd, tfd, sigfd, ctlfd;
	char sock_path[108];
	char pid_path[108];
	enum mstp_log_level log_level;
	FILE *logf;
	unsigned long ticks;
	bool live;			/* set-up done: ops may reach the kernel */
	uint32_t ageing_cs;		/* the bridge's Ageing Time, cs */
	bool ageing_fast;		/* Forward Delay in force instead */
	unsigned int ageing_fast_s;	/* that Forward Delay, s */
	unsigned long ctl_requests, ctl_refused;	/* control socket */
	unsigned long ports_added;	/* joined while mstd ran */
	bool stop;
};

/* Sets up everything from d->conf; on failure prints why to stderr. */
int mstd_init(struct mstd *d);
/* In the background child: a signalfd of its own. */
int mstd_after_fork(struct mstd *d);
/* Runs the loop until SIGTERM/SIGINT; returns the exit code. */
int mstd_run(struct mstd *d);
void mstd_fini(struct mstd *d);

__attribute__((format(printf, 3, 4)))
void mstd_log(struct mstd *d, enum mstp_log_level level, const char *fmt, ...);
/* Writes out the lines logged since the last call (errors go at once). */
void mstd_log_flush(struct mstd *d);

/* Core port index of a bridge port ifindex / name, or -1. */
int mstd_port_by_ifindex(const struct mstd *d, int ifindex);
int mstd_port_by_name(const struct mstd *d, const char *name);

/* A port (index @i) is now in the bridge as @ifindex: open its socket. */
void mstd_port_attach(struct mstd *d, unsigned int i, int ifindex);
/* @name (@ifindex) joined the bridge and mstd has no port of that name:
 * a new core port.  Returns its index or -1 (logged). */
int mstd_port_add(struct mstd *d, const char *name, int ifindex);
/* The configuration's settings for port @i, if it names the port. */
void mstd_port_configure(struct mstd *d, unsigned int i);

/* region.c: the MST Configuration Identifier, at start and run time. */
/* The Configuration Name in force: the configured one, else the
 * bridge's MAC as text (13.8). */
void region_name(const struct mstd *d, char out[MST_CONFIG_NAME_LEN + 1]);
/* mstd's d->mcid from d->conf; 0 or -errno. */
int region_mcid(struct mstd *d);
/*
 * The region becomes @name (NULL: unchanged, "" the default), @rev (<0:
 * unchanged), with the MSTIs @mstids (@n of them; NULL: unchanged) and
 * the VID map @vids (NULL: unchanged).  The protocol, the digest and the
 * kernel's VID -> MSTI map change together.  0 or -EINVAL (nothing
 * changed, @why says why).
 */
int region_change(struct mstd *d, const char *name, long rev,
		  const uint16_t *mstids, int n,
		  const struct mst_vid_table *vids, const char **why);

/* ageing.c: the bridge's Ageing Time and STP compatibility's rapid
 * ageing (the kernel has one ageing time per bridge). */
int ageing_init(struct mstd *d, uint32_t bridge_cs);
int ageing_set(struct mstd *d, unsigned int secs);
void ageing_rapid(struct mstd *d, unsigned int port, unsigned int secs);
void ageing_fini(struct mstd *d);

/* dport.c: per-port BPDU sockets. */
int dport_open(struct mstd *d, unsigned int port);
void dport_close(struct mstd *d, unsigned int port);
void dport_rx(struct mstd *d, unsigned int port);
void dport_tx(struct mstd *d, unsigned int port, const uint8_t *bpdu,
	      size_t len);
/* Link settings: full duplex (true if unknown), speed in Mb/s (0 if
 * unknown). */
bool dport_full_duplex(const char *ifname);
uint64_t dport_speed(const char *ifname);
/* Whether the port is a switchdev port (its FDB lives in hardware). */
bool dport_offloaded(const char *ifname);

/* kernel.c: the bridge through mstnl. */
int kernel_check_bridge(struct mstd *d);
int kernel_sync_vlans(struct mstd *d);	/* map VIDs, refresh kmap */
void kernel_set_state(struct mstd *d, unsigned int port, unsigned int slot,
		      uint8_t br_state);
void kernel_reapply_states(struct mstd *d, unsigned int port);
/* Sends the states set since the last call, in one batch. */
void kernel_commit_states(struct mstd *d);
void kernel_flush(struct mstd *d, unsigned int port, int mstid);
int kernel_scan_ports(struct mstd *d);	/* initial ports and carrier */
uint64_t mstd_now_ms(void);		/* CLOCK_MONOTONIC */
void kernel_monitor(struct mstd *d);	/* read notifications */

/* ctlsock.c: the control socket. */
int ctl_listen(struct mstd *d);
void ctl_accept(struct mstd *d);
void ctl_close(struct mstd *d);
/* One request (words, modified in place) -> its reply in @out; 0 or
 * -EINVAL for a refusal ("error: ..." written). */
int ctl_request(struct mstd *d, FILE *out, char *req);
/* "error: ..." into @out; returns -EINVAL. */
__attribute__((format(printf, 2, 3)))
int ctl_refuse(FILE *out, const char *fmt, ...);
/* ctlset.c: 0, -EINVAL (refused, said so) or -ENOENT (not theirs). */
int ctl_set_bridge(struct mstd *d, FILE *out, char **w, int n);
int ctl_set_port_more(struct mstd *d, FILE *out, unsigned int port, char **w,
		      int n);
int ctl_delete(struct mstd *d, FILE *out, char **w, int n);
int ctl_recover(struct mstd *d, FILE *out, char **w, int n);

/* status.c: status as text or JSON into @fp. */
void status_print(struct mstd *d, FILE *fp, bool json, const char *port);

#endif
