/* SPDX-License-Identifier: MIT */
/*
 * probe-gen's pacing: a flow of PPS frames/s is sent in ticks on absolute
 * CLOCK_MONOTONIC deadlines; each tick sends every frame due by then.
 * Frame k is due k/PPS seconds after the start, so a late wake-up is
 * caught up on the next tick and the long-run rate stays exact.
 */
#ifndef MSTLAB_PACE_H
#define MSTLAB_PACE_H

#include <stdint.h>

/* A tick is at least this long by default (probe-gen -t): one wake-up
 * per frame up to 1000 pps, above that several frames a tick, and a gap
 * still maps to time within a millisecond. A longer tick costs fewer
 * wake-ups (each ~0.1 ms of CPU under TCG) and blurs gaps by as much. */
#define PACE_MIN_TICK_NS	1000000ull
/* Most frames one tick (one BPF_PROG_RUN) sends when catching up, so a
 * stop signal is seen within a bounded time. */
#define PACE_MAX_CHUNK		65536u
/* The kernel's limit for BPF_PROG_RUN's batch_size in live-frames mode. */
#define PACE_MAX_BATCH		256u

/* Frames due @elapsed_ns after the start (frame 0 is due at once). */
uint64_t pace_due(uint64_t elapsed_ns, unsigned pps);

/* The time between wake-ups: one frame interval, at least @min_ns. */
uint64_t pace_tick_ns(unsigned pps, uint64_t min_ns);

/* How many frames to send now: due minus sent, at most what is left of
 * @count (0: unlimited) and PACE_MAX_CHUNK. */
uint32_t pace_chunk(uint64_t due, uint64_t sent, uint64_t count);

/* The most frames one tick sends: PACE_MIN_BURST while a tick holds
 * fewer than half that (probe rates), else PACE_MAX_CHUNK. After the
 * guest stalls (TCG on a busy host, hundreds of ms) a probe flow's
 * backlog goes out over a few ticks rather than at once, which would
 * overflow a veth's 256-frame ring while its NAPI waits for ksoftirqd:
 * frames late rather than lost. A sender at full speed is not held
 * back (each run has a cost of its own). */
#define PACE_MIN_BURST		128u
uint32_t pace_burst(unsigned pps, uint64_t tick_ns);

/* batch_size for a live-frames run of @n frames: the kernel transmits at
 * the end of each batch, so a batch is never larger than the run. */
uint32_t pace_batch(uint32_t n);

#endif
