/* SPDX-License-Identifier: MIT */
/*
 * Following a run while it grows: every link's pcap (tcpdump writes them
 * packet-buffered, -U, capture.c) and the event log, read like `tail -f`
 * and merged in time order into a struct watch_model.
 *
 * Why the files and not our own libpcap handles on the link bridges:
 * the files hold the run from its first frame, and RSTP/MSTP root and
 * alternate ports only speak during a handshake, so a watcher started
 * later would never learn their roles from live traffic; reading files
 * needs no capture privilege and adds no socket to the links; and a run
 * that already ended can be watched (replayed) the same way.
 */
#ifndef MSTLAB_WATCH_FOLLOW_H
#define MSTLAB_WATCH_FOLLOW_H

#include <limits.h>
#include <pcap/pcap.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bpdu.h"
#include "errbuf.h"
#include "watch_model.h"

#define WATCH_EVENT_LINE_MAX 1024

struct watch_source {
	char path[PATH_MAX];
	int link;		/* link position; -1: the event log */
	/* A capture: libpcap over a FILE we can rewind. */
	FILE *f;
	pcap_t *pc;
	/* The event log: bytes read but not yet a whole line. */
	int fd;
	char buf[WATCH_EVENT_LINE_MAX];
	size_t have;
	/* The next item, not yet given to the model. */
	bool pending;
	int64_t ns;
	size_t len;
	uint8_t frame[BPDU_FRAME_MAX_LEN + 64];
	char line[WATCH_EVENT_LINE_MAX];
	struct errbuf err;	/* why it cannot be read */
};

struct watch_follow {
	size_t n;
	struct watch_source *src;
};

/* Sources for run_dir's event log and every link's capture; nothing is
 * opened yet (files appear as the lab comes up). 0 or -1 (no memory). */
int watch_follow_init(struct watch_follow *wf, const struct topo *t,
		      const struct plan *p, const char *run_dir);
void watch_follow_close(struct watch_follow *wf);

/*
 * Gives m at most max items (frames to the bridge group address, event
 * lines) that the files hold now, oldest first across files. A record
 * or line still being written is left for the next call. Returns the
 * number given.
 */
size_t watch_follow_pump(struct watch_follow *wf, struct watch_model *m,
			 size_t max);

/* The first source that cannot be read (not Ethernet, …), or NULL. */
const char *watch_follow_error(const struct watch_follow *wf);

#endif
