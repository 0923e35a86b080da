// SPDX-License-Identifier: MIT
#include "follow.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#define PCAP_FILE_HDR_LEN 24

int follow_init(struct follow *wf, const struct topo *t, const struct plan *p,
		const char *run_dir)
{
	*wf = (struct follow){ .n = 1 + t->n_links, .lag = FOLLOW_LAG_NS };
	wf->src = calloc(wf->n, sizeof(*wf->src));
	if (!wf->src)
		return -1;
	for (size_t i = 0; i < wf->n; i++) {
		struct follow_source *s = &wf->src[i];

		s->fd = -1;
		s->link = (int)i - 1;
		if (i == 0) {
			snprintf(s->path, sizeof(s->path), "%s/events",
				 run_dir);
			continue;
		}
		snprintf(s->path, sizeof(s->path), "%s/%s", run_dir,
			 p->links[i - 1].pcap);
		if (p->links[i - 1].capture_host != TOPO_LOCAL_HOST) {
			wf->lag = FOLLOW_LAG_NS + FOLLOW_FAR_LAG_NS;
			s->host = t->hosts[p->links[i - 1].capture_host].name;
		}
	}
	snprintf(wf->clock_path, sizeof(wf->clock_path), "%s/clock", run_dir);
	return 0;
}

void follow_close(struct follow *wf)
{
	for (size_t i = 0; wf->src && i < wf->n; i++) {
		if (wf->src[i].pc)
			pcap_close(wf->src[i].pc);	/* closes f too */
		else if (wf->src[i].f)
			fclose(wf->src[i].f);
		if (wf->src[i].fd >= 0)
			close(wf->src[i].fd);
	}
	free(wf->src);
	wf->src = NULL;
	wf->n = 0;
}

/* The clock of s's host, from the run's clock file (written before
 * any capture starts); without it, its frames stay on its clock, as
 * the verdicts then leave them. */
static void far_clock(const struct follow *fw, struct follow_source *s)
{
	char text[4096];
	size_t n;
	FILE *f = fopen(fw->clock_path, "re");

	if (!f)
		return;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	s->far_clock = !clock_parse(text, s->host, &s->clock);
}

/* tcpdump creates the file, then writes its header: wait for both. */
static bool capture_open(const struct follow *fw, struct follow_source *s)
{
	char perr[PCAP_ERRBUF_SIZE] = "";
	struct stat st;

	if (s->err.msg[0])
		return false;
	if (!s->f) {
		s->f = fopen(s->path, "re");
		if (!s->f)
			return false;
	}
	if (fstat(fileno(s->f), &st) || st.st_size < PCAP_FILE_HDR_LEN)
		return false;
	s->pc = pcap_fopen_offline_with_tstamp_precision(
		s->f, PCAP_TSTAMP_PRECISION_NANO, perr);
	if (!s->pc) {
		errbuf_set(&s->err, "%s: %s", s->path, perr);
		fclose(s->f);
		s->f = NULL;
		return false;
	}
	if (pcap_datalink(s->pc) != DLT_EN10MB) {
		errbuf_set(&s->err, "%s: not an Ethernet capture", s->path);
		return false;
	}
	if (s->host)
		far_clock(fw, s);
	return true;
}

/* A BPDU, or a frame the follower's keep() takes. */
static bool wanted(const struct follow *fw, const uint8_t *data, size_t len,
		   bool *bpdu)
{
	*bpdu = len >= 6 && !memcmp(data, bpdu_group_addr, 6);
	return *bpdu || (fw->keep && fw->keep(fw->ctx, data, len));
}

static bool capture_peek(const struct follow *fw, struct follow_source *s)
{
	struct pcap_pkthdr *h;
	const u_char *data;

	if (!s->pc && !capture_open(fw, s))
		return false;
	if (s->err.msg[0])
		return false;
	for (;;) {
		long pos = ftell(s->f);
		int rc = pcap_next_ex(s->pc, &h, &data);

		if (rc != 1) {
			/* End of what tcpdump wrote so far, or a record it
			 * is still writing: back to its start, try later. */
			clearerr(s->f);
			if (pos >= 0)
				fseek(s->f, pos, SEEK_SET);
			return false;
		}
		s->frames++;
		s->seen = (int64_t)h->ts.tv_sec * 1000000000LL +
			  h->ts.tv_usec;
		if (s->far_clock)
			s->seen = clock_map_to_local(&s->clock, s->seen);
		if (!wanted(fw, data, h->caplen, &s->bpdu))
			continue;
		s->frame_no = s->frames;
		s->ns = s->seen;
		s->len = h->caplen < sizeof(s->frame) ? h->caplen :
							sizeof(s->frame);
		memcpy(s->frame, data, s->len);
		return s->pending = true;
	}
}

/* The next whole line that is an event (comments and junk skipped). */
static bool line_peek(struct follow_source *s)
{
	char *nl;

	if (s->fd < 0) {
		s->fd = open(s->path, O_RDONLY | O_CLOEXEC);
		if (s->fd < 0)
			return false;
	}
	for (;;) {
		while (!(nl = memchr(s->buf, '\n', s->have))) {
			ssize_t n;

			if (s->have == sizeof(s->buf))
				s->have = 0;	/* no line is this long */
			n = read(s->fd, s->buf + s->have,
				 sizeof(s->buf) - s->have);
			if (n <= 0)
				return false;
			s->have += (size_t)n;
		}
		*nl = 0;
		s->pending = !event_parse(s->buf, &s->ev);
		s->have -= (size_t)(nl + 1 - s->buf);
		memmove(s->buf, nl + 1, s->have);
		if (s->pending) {
			s->ns = s->seen = s->ev.ns;
			return true;
		}
	}
}

/* Oldest first; at one instant a BPDU before an event (trees.h), and
 * links in their order. */
static bool before(const struct follow_source *s,
		   const struct follow_source *next)
{
	return s->ns < next->ns ||
	       (s->ns == next->ns && s->link >= 0 && next->link < 0);
}

/* Whether s can hold nothing that goes before next, the oldest item
 * read: what s reads from now on is no older than what it read last
 * (and at one instant an event goes after a BPDU). */
static bool past(const struct follow_source *s,
		 const struct follow_source *next)
{
	return s == next || s->pending || s->seen > next->ns ||
	       (s->seen == next->ns && s->link < 0 && next->link >= 0);
}

/* The oldest item read and not given; NULL if none. */
static struct follow_source *oldest(struct follow *wf)
{
	struct follow_source *next = NULL;

	for (size_t i = 0; i < wf->n; i++) {
		struct follow_source *s = &wf->src[i];

		if (!s->pending &&
		    !(s->link < 0 ? line_peek(s) : capture_peek(wf, s)))
			continue;
		if (!next || before(s, next))
			next = s;
	}
	return next;
}

size_t follow_pump(struct follow *wf, struct trees *tr, size_t max,
		   int64_t horizon)
{
	size_t given = 0;

	while (given < max) {
		struct follow_source *next = oldest(wf);
		bool all_past = true;

		if (!next)
			break;
		for (size_t i = 0; i < wf->n && all_past; i++)
			all_past = past(&wf->src[i], next);
		/* Held: some file may still put one before it. */
		if (!all_past && next->ns > horizon)
			break;
		if (next->link < 0)
			trees_event(tr, &next->ev);
		else if (next->bpdu)
			trees_frame(tr, next->ns, next->link, next->frame_no,
				    next->frame, next->len);
		else
			wf->frame(wf->ctx, next->ns, next->link,
				  next->frame_no, next->frame, next->len);
		next->pending = false;
		given++;
	}
	return given;
}

int64_t follow_next(struct follow *wf)
{
	const struct follow_source *next = oldest(wf);

	return next ? next->ns : INT64_MAX;
}

int64_t follow_lag(const struct follow *wf)
{
	return wf->lag;
}

int follow_inotify(const char *run_dir)
{
	char pcap_dir[PATH_MAX + 8];
	int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);

	if (fd < 0)
		return -1;
	snprintf(pcap_dir, sizeof(pcap_dir), "%s/pcap", run_dir);
	inotify_add_watch(fd, run_dir, IN_MODIFY | IN_CREATE);
	inotify_add_watch(fd, pcap_dir, IN_MODIFY | IN_CREATE);
	return fd;
}

const char *follow_error(const struct follow *wf)
{
	for (size_t i = 0; i < wf->n; i++)
		if (wf->src[i].err.msg[0])
			return wf->src[i].err.msg;
	return NULL;
}
