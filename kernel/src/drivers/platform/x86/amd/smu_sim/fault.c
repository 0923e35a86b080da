// SPDX-License-Identifier: GPL-2.0
/*
 * Fault rules: "msg=<id|any> action=<name> [status=<code>] [us=<n>]
 * [count=<n>]". The first rule that matches a message acts on it; a rule
 * with a count stops acting after that many messages.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "smu_sim.h"

static const char *const action_names[SMU_SIM_FAULT_NR] = {
	[SMU_SIM_FAULT_DROP] = "drop",
	[SMU_SIM_FAULT_BUSY] = "busy",
	[SMU_SIM_FAULT_STATUS] = "status",
	[SMU_SIM_FAULT_DELAY] = "delay",
	[SMU_SIM_FAULT_CORRUPT] = "corrupt",
};

static int parse_field(struct smu_sim_fault *f, const char *key, const char *val)
{
	u32 x;
	int ret;

	if (!strcmp(key, "action")) {
		ret = match_string(action_names, SMU_SIM_FAULT_NR, val);
		if (ret < 0)
			return -EINVAL;
		f->action = ret;
		return 0;
	}
	if (!strcmp(key, "msg") && !strcmp(val, "any")) {
		f->msg = 0;
		return 0;
	}
	ret = kstrtou32(val, 0, &x);
	if (ret)
		return ret;
	if (!strcmp(key, "msg") && x >= 1 && x < SMU_SIM_NUM_MSGS)
		f->msg = x;
	else if (!strcmp(key, "status") && x >= 1 && x <= 0xff)
		f->status = x;	/* 0 would read as "not ready" forever */
	else if (!strcmp(key, "us") && x <= 10 * USEC_PER_SEC)
		f->delay_us = x;
	else if (!strcmp(key, "count") && x >= 1 && x <= INT_MAX)
		f->count = x;
	else
		return -EINVAL;
	return 0;
}

int smu_sim_fault_parse(char *rule, struct smu_sim_fault *f)
{
	bool have_action = false;
	char *tok, *val;
	int ret;

	*f = (struct smu_sim_fault){ .count = -1 };
	while ((tok = strsep(&rule, " \t\n"))) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		ret = parse_field(f, tok, val);
		if (ret)
			return ret;
		have_action |= !strcmp(tok, "action");
	}
	if (!have_action)
		return -EINVAL;
	if (f->action == SMU_SIM_FAULT_STATUS && !f->status)
		return -EINVAL;
	if (f->action == SMU_SIM_FAULT_DELAY && !f->delay_us)
		return -EINVAL;
	return 0;
}

int smu_sim_fault_add(struct smu_sim_socket *s, const struct smu_sim_fault *f)
{
	if (s->nfaults >= SMU_SIM_MAX_FAULTS)
		return -ENOSPC;
	s->faults[s->nfaults++] = *f;
	return 0;
}

struct smu_sim_fault *smu_sim_fault_match(struct smu_sim_socket *s, u32 id)
{
	struct smu_sim_fault *f;
	unsigned int i;

	for (i = 0; i < s->nfaults; i++) {
		f = &s->faults[i];
		if (!f->count || (f->msg && f->msg != id))
			continue;
		if (f->count > 0)
			f->count--;
		return f;
	}
	return NULL;
}

int smu_sim_fault_show(struct smu_sim_socket *s, char *buf, size_t size)
{
	struct smu_sim_fault *f;
	unsigned int i;
	int n = 0;

	for (i = 0; i < s->nfaults; i++) {
		f = &s->faults[i];
		if (f->msg)
			n += scnprintf(buf + n, size - n, "msg=0x%02x", f->msg);
		else
			n += scnprintf(buf + n, size - n, "msg=any");
		n += scnprintf(buf + n, size - n, " action=%s",
			       action_names[f->action]);
		if (f->action == SMU_SIM_FAULT_STATUS)
			n += scnprintf(buf + n, size - n, " status=0x%02x", f->status);
		if (f->action == SMU_SIM_FAULT_DELAY)
			n += scnprintf(buf + n, size - n, " us=%u", f->delay_us);
		if (f->count >= 0)
			n += scnprintf(buf + n, size - n, " count=%d", f->count);
		n += scnprintf(buf + n, size - n, "\n");
	}
	return n;
}
