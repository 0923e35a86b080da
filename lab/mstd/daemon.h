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
	/* What mstd last set, per tree slot (for re-apply and status). */
	uint8_t kstate[MSTP_MAX_MSTIS + 1];	/* BR_STATE_* */
	bool kdirty[MSTP_MAX_MSTIS + 1];	/* not yet in the kernel */
	unsigned long rx_bad_frames;	/* failed the Ethernet/LLC parse */
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

/* dport.c: per-port BPDU sockets. */
int dport_open(struct mstd *d, unsigned int port);
void dport_close(struct mstd *d, unsigned int port);
void dport_rx(struct mstd *d, unsigned int port);
void dport_tx(struct mstd *d, unsigned int port, const uint8_t *bpdu,
	      size_t len);
/* Link settings: full duplex (true if unknown). */
bool dport_full_duplex(const char *ifname);
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
void kernel_monitor(struct mstd *d);	/* read notifications */

/* ctlsock.c: the control socket. */
int ctl_listen(struct mstd *d);
void ctl_accept(struct mstd *d);
void ctl_close(struct mstd *d);
/* One request (words, modified in place) -> its reply in @out; 0 or
 * -EINVAL for a refusal ("error: ..." written). */
int ctl_request(struct mstd *d, FILE *out, char *req);

/* status.c: status as text or JSON into @fp. */
void status_print(struct mstd *d, FILE *fp, bool json, const char *port);

#endif
