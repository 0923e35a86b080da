// SPDX-License-Identifier: GPL-2.0
/*
 * The HSMP mailbox of one emulated socket: its SMN registers and the
 * message state machine in front of the firmware model.
 *
 * Completion is lazy: writing the message id only records when the answer
 * is due, and the first read of the status or an argument register after
 * that moment runs the firmware. This needs no timer, never sleeps (config
 * accessors run with interrupts off) and is deterministic.
 */
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/string.h>

#include "smu_sim.h"

static bool is_arg_reg(u32 addr, unsigned int *i)
{
	if (addr < SMU_SIM_SMN_MSG_DATA ||
	    addr >= SMU_SIM_SMN_MSG_DATA + 4 * SMU_SIM_MAX_ARGS || addr % 4)
		return false;
	*i = (addr - SMU_SIM_SMN_MSG_DATA) / 4;
	return true;
}

static void complete_if_due(struct smu_sim_socket *s)
{
	u64 now = ktime_get_ns(), took;
	u32 id = s->msg_id;

	if (!s->pending || s->unanswered || now < s->ready_ns)
		return;
	s->pending = false;
	if (s->forced_status) {
		s->status = s->forced_status;
	} else {
		s->status = smu_sim_fw_run(s, id, s->args);
		if (s->corrupt && s->status == SMU_SIM_ST_OK)
			s->args[0] += 1;
	}
	took = now - s->issued_ns;
	if (!READ_ONCE(smu_sim.booted)) {
		smu_sim.boot_msgs++;
		smu_sim.boot_last_ns = now;
	}
	s->stats.total++;
	if (id < SMU_SIM_NUM_MSGS)
		s->stats.served[id]++;
	if (s->status != SMU_SIM_ST_OK)
		s->stats.errors++;
	s->stats.latency_sum_ns += took;
	if (took > s->stats.latency_max_ns)
		s->stats.latency_max_ns = took;
}

/*
 * The driver clears the status, writes the arguments, then the id, all
 * under its per-socket semaphore. A write while a message is pending is
 * therefore another user interleaving, unless the driver gave up waiting.
 */
static void check_pending_write(struct smu_sim_socket *s)
{
	if (!s->pending)
		return;
	if (time_after_eq(jiffies, s->issued_jiffies +
			  msecs_to_jiffies(SMU_SIM_DRIVER_TIMEOUT_MS)))
		s->stats.abandoned++;
	else
		s->stats.violations++;
	s->pending = false;
}

static void start_message(struct smu_sim_socket *s, u32 id)
{
	struct smu_sim_fault *f = smu_sim_fault_match(s, id);
	u64 now = ktime_get_ns(), delay_ns;

	if (s->pending) {
		s->stats.overruns++;
		s->pending = false;
	}
	s->msg_id = id;
	s->unanswered = false;
	s->forced_status = 0;
	s->corrupt = false;
	delay_ns = (u64)s->latency_us * NSEC_PER_USEC;
	if (s->jitter_us)
		delay_ns += (u64)(prandom_u32_state(&s->fw.rnd) %
				  (s->jitter_us + 1)) * NSEC_PER_USEC;
	if (f) {
		s->stats.faulted++;
		switch (f->action) {
		case SMU_SIM_FAULT_DROP:
		case SMU_SIM_FAULT_BUSY:
			s->unanswered = true;
			s->stats.dropped++;
			break;
		case SMU_SIM_FAULT_STATUS:
			s->forced_status = f->status;
			break;
		case SMU_SIM_FAULT_DELAY:
			delay_ns += (u64)f->delay_us * NSEC_PER_USEC;
			break;
		case SMU_SIM_FAULT_CORRUPT:
			s->corrupt = true;
			break;
		}
	}
	/* Boot is one thread: the probe's first message starts the clock. */
	if (!READ_ONCE(smu_sim.booted) && !smu_sim.boot_first_ns)
		smu_sim.boot_first_ns = now;
	s->pending = true;
	s->issued_ns = now;
	s->issued_jiffies = jiffies;
	s->ready_ns = now + delay_ns;
}

u32 smu_sim_smn_read(struct smu_sim_socket *s, u32 addr)
{
	unsigned int i;

	if (addr == SMU_SIM_SMN_MSG_ID)
		return s->msg_id;
	if (addr == SMU_SIM_SMN_MSG_RESP) {
		complete_if_due(s);
		return s->pending ? SMU_SIM_ST_NOT_READY : s->status;
	}
	if (is_arg_reg(addr, &i)) {
		complete_if_due(s);
		return s->args[i];
	}
	if (addr == SMU_SIM_SMN_TCTL)
		return smu_sim_fw_tctl(s);
	/* amd_smn_read() takes all-ones for a dead device: unmapped is 0. */
	return 0;
}

void smu_sim_smn_write(struct smu_sim_socket *s, u32 addr, u32 val)
{
	unsigned int i;

	if (addr == SMU_SIM_SMN_MSG_ID) {
		start_message(s, val);
	} else if (addr == SMU_SIM_SMN_MSG_RESP) {
		check_pending_write(s);
		s->status = val;
	} else if (is_arg_reg(addr, &i)) {
		check_pending_write(s);
		s->args[i] = val;
	}
}

/* Back to the state the boot parameters describe. */
void smu_sim_socket_reset(struct smu_sim_socket *s, u32 latency_us, bool stuck)
{
	s->msg_id = 0;
	s->status = 0;
	memset(s->args, 0, sizeof(s->args));
	s->pending = false;
	s->unanswered = false;
	s->latency_us = latency_us;
	s->jitter_us = 0;
	s->nfaults = 0;
	memset(&s->stats, 0, sizeof(s->stats));
	smu_sim_fw_reset(s);
	if (stuck) {
		struct smu_sim_fault busy = {
			.action = SMU_SIM_FAULT_BUSY, .count = -1,
		};

		smu_sim_fault_add(s, &busy);
	}
}
