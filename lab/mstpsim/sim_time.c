// SPDX-License-Identifier: MIT
/*
 * The simulator's timed model: one clock in µs and the events due on it,
 * taken in order of time - carrier changes scheduled at each end of a
 * link, BPDUs arriving (mstp_sim.c keeps them in order of arrival), and
 * each bridge's tick at its own phase.  At one instant carrier changes
 * go first, then BPDUs, then ticks in bridge order: one seed, one run.
 */
#include "mstp_sim.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

unsigned int sim_rnd(uint64_t *state, unsigned int n)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (unsigned int)(*state % n);
}

void sim_time_start(struct sim *sim)
{
	struct sim_model *m = &sim->model;

	m->timed = true;
	if (!m->rng)
		m->rng = 1;
	m->now_us = 1000ull * sim->now_ms;
	for (unsigned int b = 0; b < SIM_MAX_BRIDGES; b++)
		m->next_tick_us[b] = m->now_us + m->phase_us[b] % 1000000;
}

static void set_now(struct sim *sim, uint64_t at_us)
{
	sim->model.now_us = at_us;
	sim->now_ms = (unsigned long)(at_us / 1000);
}

/* The port at one end of @link sees its carrier change. */
static void carrier(struct sim *sim, unsigned int link, bool end_b, bool up)
{
	struct sim_link *k = &sim->links[link];
	unsigned int b = end_b ? k->b : k->a, p = end_b ? k->pb : k->pa;
	char event[64];

	if (sim->model.down[b])
		return;
	mstp_port_set_link(sim->br[b], p, up, true);
	snprintf(event, sizeof(event), "L%u %s at B%u", link,
		 up ? "up" : "down", b);
	sim_check_loops(sim, event);
}

static void schedule(struct sim *sim, unsigned int link, bool end_b,
		     bool up, unsigned int after_us)
{
	struct sim_model *m = &sim->model;

	if (!after_us || m->nev == SIM_MAX_EVENTS) {
		carrier(sim, link, end_b, up);
		return;
	}
	m->ev[m->nev++] = (struct sim_event){ m->now_us + after_us, link,
					      end_b, up };
}

/* The first carrier change due (the earliest scheduled of those due at
 * the same time), or -1. */
static int next_event(const struct sim_model *m)
{
	int first = -1;

	for (unsigned int i = 0; i < m->nev; i++)
		if (first < 0 || m->ev[i].at_us < m->ev[first].at_us)
			first = (int)i;
	return first;
}

static void run_event(struct sim *sim, unsigned int i)
{
	struct sim_model *m = &sim->model;
	struct sim_event e = m->ev[i];

	memmove(&m->ev[i], &m->ev[i + 1], (m->nev - i - 1) * sizeof(e));
	m->nev--;
	carrier(sim, e.link, e.end_b, e.up);
}

static void tick(struct sim *sim, unsigned int b)
{
	char event[32];

	sim->model.next_tick_us[b] += 1000000;
	mstp_tick(sim->br[b]);
	snprintf(event, sizeof(event), "B%u's tick", b);
	sim_check_loops(sim, event);
}

void sim_run_until(struct sim *sim, uint64_t at_us)
{
	struct sim_model *m = &sim->model;

	for (;;) {
		int ev = next_event(m), tb = -1;
		uint64_t tick_at = UINT64_MAX, fr_at = UINT64_MAX;
		uint64_t ev_at = ev < 0 ? UINT64_MAX : m->ev[ev].at_us;

		for (unsigned int b = 0; b < sim->nbridges; b++)
			if (!m->down[b] && m->next_tick_us[b] < tick_at) {
				tick_at = m->next_tick_us[b];
				tb = (int)b;
			}
		sim_next_frame_us(&fr_at);
		if (ev_at <= fr_at && ev_at <= tick_at && ev_at <= at_us) {
			set_now(sim, ev_at);
			run_event(sim, (unsigned int)ev);
		} else if (fr_at <= tick_at && fr_at <= at_us) {
			set_now(sim, fr_at);
			sim_deliver(sim, 1);
		} else if (tb >= 0 && tick_at <= at_us) {
			set_now(sim, tick_at);
			tick(sim, (unsigned int)tb);
		} else {
			break;
		}
	}
	set_now(sim, at_us);
}

void sim_link_skewed(struct sim *sim, unsigned int link, bool up,
		     unsigned int skew_a_us, unsigned int skew_b_us)
{
	sim_link_medium(sim, link, up);
	schedule(sim, link, false, up, skew_a_us);
	schedule(sim, link, true, up, skew_b_us);
}

/* Each of @b's links, with the end at @b and the neighbour's end. */
static void each_link(struct sim *sim, unsigned int b, bool up,
		      unsigned int skew_us)
{
	struct sim_model *m = &sim->model;

	for (unsigned int l = 0; l < sim->nlinks; l++) {
		struct sim_link *k = &sim->links[l];
		unsigned int skew = skew_us ? sim_rnd(&m->rng, skew_us + 1) : 0;

		if (k->a != b && k->b != b)
			continue;
		sim_link_medium(sim, l, up);
		carrier(sim, l, k->b == b, up);
		schedule(sim, l, k->a == b, up, skew);
	}
}

void sim_bridge_fail(struct sim *sim, unsigned int b, unsigned int skew_us)
{
	each_link(sim, b, false, skew_us);
	sim->model.down[b] = true;
}

void sim_bridge_restore(struct sim *sim, unsigned int b, unsigned int skew_us)
{
	struct sim_model *m = &sim->model;
	char event[32];

	m->down[b] = false;
	m->next_tick_us[b] = m->now_us +
		(m->phase_us[b] % 1000000 + 1000000 - m->now_us % 1000000) %
		1000000;
	mstp_set_mcid(sim->br[b], &mstp_config(sim->br[b])->mcid);
	snprintf(event, sizeof(event), "B%u boots", b);
	sim_check_loops(sim, event);
	each_link(sim, b, true, skew_us);
}
