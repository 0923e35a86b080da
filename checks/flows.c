// SPDX-License-Identifier: MIT
#include "flows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "probe_wire.h"

/* Frames further apart than this many intervals start a new run: a lost
 * frame or two keeps the run, a path that stopped carrying the flow and
 * started again does not. */
#define RUN_GAP_INTERVALS 3
/* Sequence numbers whose wire time is kept: 70 min at 1000 frames/s.
 * Times are us from the flow's start plus one; past 71 min (32 bits) a
 * frame is only marked seen. */
#define WIRE_MAX_SEQ (1UL << 22)
#define WIRE_UNTIMED UINT32_MAX

void flows_init(struct flows *fl, size_t n_links)
{
	memset(fl, 0, sizeof(*fl));
	fl->n_links = n_links;
}

void flows_free(struct flows *fl)
{
	for (size_t i = 0; i < fl->n; i++) {
		for (size_t l = 0; fl->f[i].link && l < fl->n_links; l++)
			free(fl->f[i].link[l].r);
		free(fl->f[i].link);
		free(fl->f[i].wire);
		free(fl->f[i].wire_frame);
	}
	fl->n = 0;
}

static struct flow *find(struct flows *fl, unsigned id)
{
	for (size_t i = 0; i < fl->n; i++)
		if (fl->f[i].id == id)
			return &fl->f[i];
	return NULL;
}

int flows_start(struct flows *fl, unsigned id, int from, int to,
		int sender_link, unsigned vid, unsigned pps, int64_t ns)
{
	struct flow *f;

	if (fl->n == FLOWS_MAX || find(fl, id) || !pps)
		return -1;
	f = &fl->f[fl->n];
	*f = (struct flow){ .id = id, .vid = vid, .pps = pps, .from = from,
			    .to = to, .sender_link = sender_link,
			    .start_ns = ns, .stop_ns = INT64_MAX };
	f->link = calloc(fl->n_links + 1, sizeof(*f->link));
	if (!f->link)
		return -1;
	fl->n++;
	return 0;
}

void flows_stop(struct flows *fl, unsigned id, int64_t ns)
{
	struct flow *f = find(fl, id);

	if (f && f->stop_ns == INT64_MAX)
		f->stop_ns = ns;
}

/* The probe header and the VLAN the frame carries (0: untagged). */
static bool parse(const uint8_t *frame, size_t len, struct probe_hdr *h,
		  unsigned *vid)
{
	size_t off = 12;

	*vid = 0;
	if (len >= 18 && frame[12] == 0x81 && frame[13] == 0x00) {
		*vid = ((unsigned)frame[14] << 8 | frame[15]) & 0xfff;
		off = 16;
	}
	if (len < off + 2 ||
	    ((unsigned)frame[off] << 8 | frame[off + 1]) != PROBE_ETHERTYPE)
		return false;
	return !probe_hdr_decode(frame + off + 2, len - off - 2, h);
}

static void mark_sent(struct flow *f, unsigned long seq, int64_t ns,
		      uint32_t frame_no)
{
	int64_t us = ns > f->start_ns ? (ns - f->start_ns) / 1000 : 0;

	if (seq >= WIRE_MAX_SEQ)
		return;
	if (seq >= f->wire_n) {
		size_t n = seq * 2 + 64;
		uint32_t *m, *fr;

		if (n > WIRE_MAX_SEQ)
			n = WIRE_MAX_SEQ;
		m = realloc(f->wire, n * sizeof(*m));
		if (m)
			f->wire = m;
		fr = realloc(f->wire_frame, n * sizeof(*fr));
		if (fr)
			f->wire_frame = fr;
		if (!m || !fr)
			return;
		memset(m + f->wire_n, 0, (n - f->wire_n) * sizeof(*m));
		memset(fr + f->wire_n, 0, (n - f->wire_n) * sizeof(*fr));
		f->wire_n = n;
	}
	if (f->wire[seq])	/* the first copy: a resent one is later */
		return;
	f->wire[seq] = us < WIRE_UNTIMED - 1 ? (uint32_t)us + 1 : WIRE_UNTIMED;
	f->wire_frame[seq] = frame_no;
}

bool flows_sent(const struct flow *f, unsigned long seq)
{
	if (!f->wire || seq >= WIRE_MAX_SEQ)
		return true;
	return seq < f->wire_n && f->wire[seq];
}

bool flows_last_sent(const struct flow *f, unsigned long *seq)
{
	for (size_t s = f->wire_n; s-- > 0;)
		if (f->wire[s]) {
			*seq = s;
			return true;
		}
	return false;
}

bool flows_wire_frame(const struct flow *f, unsigned long seq,
		      uint32_t *frame)
{
	if (seq >= f->wire_n || !f->wire_frame[seq])
		return false;
	*frame = f->wire_frame[seq];
	return true;
}

bool flows_wire_ns(const struct flow *f, unsigned long seq, int64_t *ns)
{
	if (seq >= f->wire_n || !f->wire[seq] || f->wire[seq] == WIRE_UNTIMED)
		return false;
	*ns = f->start_ns + (int64_t)(f->wire[seq] - 1) * 1000;
	return true;
}

void flows_frame(struct flows *fl, size_t link, int64_t ns, uint32_t frame_no,
		 const uint8_t *frame, size_t len)
{
	struct probe_hdr h;
	struct flow_link *fk;
	struct flow *f;
	unsigned vid;
	int64_t gap;

	if (link >= fl->n_links || !parse(frame, len, &h, &vid))
		return;
	f = find(fl, h.flow);
	/* The header names the flow's VLAN: a frame that crossed into
	 * another VLAN is not this flow's any more. */
	if (!f || h.vid != f->vid || vid != f->vid)
		return;
	if ((int)link == f->sender_link)
		mark_sent(f, h.seq, ns, frame_no);
	fk = &f->link[link];
	gap = RUN_GAP_INTERVALS * (1000000000LL / f->pps);
	if (fk->n && ns >= fk->r[fk->n - 1].last_ns &&
	    ns - fk->r[fk->n - 1].last_ns <= gap) {
		fk->r[fk->n - 1].last_ns = ns;
		fk->r[fk->n - 1].frames++;
		return;
	}
	if (grow((void **)&fk->r, &fk->cap, fk->n, sizeof(*fk->r), 8))
		return;	/* out of memory: a run less */
	fk->r[fk->n++] = (struct flow_run){ ns, ns, 1, frame_no };
}

unsigned long flows_count(const struct flow *f, size_t link, int64_t from,
			  int64_t to, uint32_t *first, int64_t *first_ns)
{
	const struct flow_link *fk = &f->link[link];
	unsigned long n = 0;

	*first = 0;
	*first_ns = 0;
	for (size_t i = 0; i < fk->n; i++) {
		const struct flow_run *r = &fk->r[i];
		int64_t lo = r->first_ns > from ? r->first_ns : from;
		int64_t hi = r->last_ns < to - 1 ? r->last_ns : to - 1;
		double d = r->frames > 1 ? (double)(r->last_ns - r->first_ns) /
						   (double)(r->frames - 1) : 0;
		double k0, k1;

		if (lo > hi)
			continue;
		if (!*first) {
			*first = r->first_frame;
			*first_ns = r->first_ns;
		}
		if (!d) {
			n += r->frames;
			continue;
		}
		/* A run cut by the window: the frames it would hold were the
		 * run's evenly spaced (they are at most a few intervals
		 * apart). */
		k0 = ceil((double)(lo - r->first_ns) / d - 1e-9);
		k1 = floor((double)(hi - r->first_ns) / d + 1e-9);
		n += k1 >= k0 ? (unsigned long)(k1 - k0) + 1 : 1;
	}
	return n;
}
