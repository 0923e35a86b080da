// SPDX-License-Identifier: MIT
#include "xdp_attach.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/if_link.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "probe_xdp.h"

#define MODE XDP_FLAGS_DRV_MODE

/* The pid in program @prog_fd's probe_plan: 0 when it has none (an
 * older probe-gen's program) or it cannot be read. */
static pid_t plan_owner(int prog_fd)
{
	uint32_t ids[4], len, key = 0;
	struct bpf_prog_info info = { 0 };
	struct probe_xdp_plan plan;
	pid_t owner = 0;

	info.nr_map_ids = 4;
	info.map_ids = (uint64_t)(uintptr_t)ids;
	len = sizeof(info);
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return 0;
	for (uint32_t i = 0; i < info.nr_map_ids && i < 4 && !owner; i++) {
		struct bpf_map_info m = { 0 };
		int fd = bpf_map_get_fd_by_id(ids[i]);

		len = sizeof(m);
		if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &m, &len) &&
		    !strcmp(m.name, "probe_plan") &&
		    m.value_size == sizeof(plan) &&
		    !bpf_map_lookup_elem(fd, &key, &plan))
			owner = (pid_t)plan.owner;
		if (fd >= 0)
			close(fd);
	}
	return owner;
}

/* Program @id as a new fd when it is probe-gen's and no running
 * probe-gen uses it; -ENOENT when it is gone already (another probe-gen
 * replaced it since we looked); else -1, with @how saying why it
 * stays. */
static int stale_prog(uint32_t id, const char **how)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);
	int fd = bpf_prog_get_fd_by_id(id);
	pid_t owner;

	if (fd < 0 && errno == ENOENT)
		return -ENOENT;
	*how = "not attached: another XDP program is there";
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		goto keep;
	if (!strcmp(info.name, "probe_pass"))
		return fd;
	if (strcmp(info.name, "probe_stamp"))
		goto keep;
	/* A process of that pid that we may not signal is alive too. */
	owner = plan_owner(fd);
	if (owner <= 0 || (kill(owner, 0) && errno == ESRCH))
		return fd;
	*how = "not attached: a running probe-gen's is there";
keep:
	if (fd >= 0)
		close(fd);
	return -1;
}

int xdp_attach_stamp(unsigned ifindex, int prog_fd, const char **how)
{
	int err = -EBUSY;

	/* Up to three tries while other probe-gens attach at once. */
	for (int tries = 0; tries < 3; tries++) {
		uint32_t id = 0;
		int old;

		if (bpf_xdp_query_id((int)ifindex, MODE, &id))
			id = 0;
		if (!id) {
			*how = "attached";
			err = bpf_xdp_attach((int)ifindex, prog_fd,
					     MODE | XDP_FLAGS_UPDATE_IF_NOEXIST,
					     NULL);
			if (err != -EBUSY)
				return err ? err : 1;
			continue;
		}
		old = stale_prog(id, how);
		if (old == -ENOENT)
			continue;
		if (old < 0)
			return 0;
		LIBBPF_OPTS(bpf_xdp_attach_opts, opts, .old_prog_fd = old);
		err = bpf_xdp_attach((int)ifindex, prog_fd, MODE, &opts);
		close(old);
		*how = "attached in place of an earlier probe-gen's";
		if (!err)
			return 1;
		/* EEXIST: another probe-gen replaced it first. */
		*how = "not attached: replacing an earlier probe-gen's failed";
		if (err != -EEXIST)
			return 0;
	}
	*how = "not attached: other probe-gens attach at once";
	return 0;
}
