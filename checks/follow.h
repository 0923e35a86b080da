/* SPDX-License-Identifier: MIT */
/*
 * Following a run while it grows: every link's pcap (tcpdump writes them
 * packet-buffered, -U) and the event log, read like `tail -f` and merged
 * in time order into a live tree-state engine (trees.h). A BPDU captured
 * at the same instant as an event goes first, as the engine's history
 * has it.
 *
 * The files do not grow in step: tcpdump writes a frame a little after
 * its capture, and a link change is logged once it is made, stamped when
 * it began, while the guests already answer it on the wire. So an item
 * read at t waits until every other file has shown it holds nothing
 * older (it has read something from t on), or until t is no later than
 * a horizon: now - FOLLOW_LAG_NS while the run is being written (a file
 * that lags more than that can still put its item late), everything for
 * a finished run.
 *
 * Why the files and not our own libpcap handles on the link bridges:
 * the files hold the run from its first frame, and RSTP/MSTP root and
 * alternate ports only speak during a handshake, so a watcher started
 * later would never learn their roles from live traffic; reading files
 * needs no capture privilege and adds no socket to the links; and a run
 * that already ended can be watched (replayed) the same way.
 */
#ifndef MSTLAB_FOLLOW_H
#define MSTLAB_FOLLOW_H

#include <limits.h>
#include <pcap/pcap.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bpdu.h"
#include "clock_sync.h"
#include "errbuf.h"
#include "events.h"
#include "trees.h"

/* How far behind the clock a growing run is merged: longer than tcpdump
 * takes to write a frame (a few ms, 16 at most in the VM test) or mstlab
 * to fail or restore a link (tens of ms), short enough for a screen. */
#define FOLLOW_LAG_NS (200 * 1000000LL)
/* A capture made on another host reaches this run folder by a mirror's
 * passes (lab/orchestrator/mirror.h, every 0.5 s): a run that has one is
 * merged that much further behind the clock, and its frames are put on
 * this host's timeline with the clock file's start measurement (the
 * verdicts interpolate to the end one: within its error bound). */
#define FOLLOW_FAR_LAG_NS (1000 * 1000000LL)

struct follow_source {
	char path[PATH_MAX];
	int link;		/* link position; -1: the event log */
	/* A capture of another host: its name, its clock. */
	const char *host;
	bool far_clock;
	struct clock_map clock;
	/* A capture: libpcap over a FILE we can rewind. */
	FILE *f;
	pcap_t *pc;
	uint32_t frames;	/* records read: the pcap's frame numbers */
	/* The event log: bytes read but not yet a whole line. */
	int fd;
	char buf[EVENT_LINE_MAX];
	size_t have;
	/* The next item, not yet given to the engine. */
	bool pending;
	int64_t ns;
	uint32_t frame_no;
	bool bpdu;		/* else one the follower's keep() took */
	size_t len;
	uint8_t frame[BPDU_FRAME_MAX_LEN + 64];
	struct event ev;
	int64_t seen;		/* the newest record or line read, or 0 */
	struct errbuf err;	/* why it cannot be read */
};

struct follow {
	size_t n;
	struct follow_source *src;
	char clock_path[PATH_MAX];	/* the run's clock file */
	int64_t lag;			/* follow_lag */
	/* Other frames than BPDUs, when set: those keep() takes are merged
	 * in time order too and given to frame() (mstlab serve's probe
	 * frames), after the engine has had every earlier item. */
	bool (*keep)(void *ctx, const uint8_t *frame, size_t len);
	void (*frame)(void *ctx, int64_t ns, int link, uint32_t frame_no,
		      const uint8_t *frame, size_t len);
	void *ctx;
};

/* Sources for run_dir's event log and every link's capture; nothing is
 * opened yet (files appear as the lab comes up). 0 or -1 (no memory). */
int follow_init(struct follow *fw, const struct topo *t, const struct plan *p,
		const char *run_dir);
void follow_close(struct follow *fw);

/*
 * Gives tr at most max items (frames to the bridge group address, event
 * lines; and the frames keep() takes to frame()) that the files hold now, oldest first across files, each once
 * every file is past it or it is no later than horizon (above; INT64_MAX:
 * a finished run, all of it). A record or line still being written is
 * left for the next call. Returns the number given.
 */
size_t follow_pump(struct follow *fw, struct trees *tr, size_t max,
		   int64_t horizon);

/* The time of the oldest item the files hold that tr has not been given
 * (held back, or not read yet); INT64_MAX if none. */
int64_t follow_next(struct follow *fw);

/* An inotify fd that is readable when run_dir's event log or a capture
 * grows or appears (to wait on, between pumps), or -1: then poll on a
 * timer. */
int follow_inotify(const char *run_dir);

/* How far behind the clock the run is merged (the horizon's lag):
 * FOLLOW_LAG_NS, plus FOLLOW_FAR_LAG_NS when a capture is another
 * host's. */
int64_t follow_lag(const struct follow *fw);

/* The first source that cannot be read (not Ethernet, …), or NULL. */
const char *follow_error(const struct follow *fw);

#endif
