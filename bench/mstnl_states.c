// SPDX-License-Identifier: MIT
/*
 * mstnl-states-bench PORT... : what one MSTP event's kernel state writes
 * cost mstd, run in a guest by `bench/mstp kernel`. Every round flips
 * every tree (CIST, MSTI 1, MSTI 2) of every PORT between blocking and
 * forwarding, as a re-rooting does: first one request per (port, tree),
 * each waiting for its ack (mstd before batching, the baseline), then
 * all of it in one mstnl_port_states_set() batch. Rounds alternate
 * A B A B so that a change in the host's load weighs on both alike.
 * Prints "single US" and "batch US" per round (wall time, CLOCK_MONOTONIC)
 * and "cpu_single US", "cpu_batch US" (this process, syscalls included).
 */
#include <errno.h>
#include <linux/if_bridge.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mstnl.h"

#define ROUNDS	200
#define MAX_PORTS	16
#define NMSTIS	2

static double now_us(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int single(struct mstnl *nl, const int *ifindex, int n, uint8_t st)
{
	struct mstnl_err err;

	for (int i = 0; i < n; i++) {
		if (mstnl_port_state_set(nl, ifindex[i], st, &err) < 0)
			return err.code;
		for (uint16_t m = 1; m <= NMSTIS; m++) {
			struct mstnl_msti_state e = { m, st };

			if (mstnl_port_msti_set(nl, ifindex[i], &e, 1, &err) < 0)
				return err.code;
		}
	}
	return 0;
}

static int batch(struct mstnl *nl, const int *ifindex, int n, uint8_t st)
{
	struct mstnl_msti_state e[NMSTIS] = { { 1, st }, { 2, st } };
	struct mstnl_port_states r[MAX_PORTS];

	for (int i = 0; i < n; i++)
		r[i] = (struct mstnl_port_states){ .ifindex = ifindex[i],
						   .cist = st, .mstis = e,
						   .nmstis = NMSTIS };
	return mstnl_port_states_set(nl, r, (size_t)n);
}

int main(int argc, char **argv)
{
	int (*const how[2])(struct mstnl *, const int *, int, uint8_t) = {
		single, batch };
	static const char *const name[2] = { "single", "batch" };
	int ifindex[MAX_PORTS], n = argc - 1, e = 0;
	struct mstnl *nl;

	if (n < 1 || n > MAX_PORTS) {
		fprintf(stderr, "usage: mstnl-states-bench PORT... (1..%d)\n",
			MAX_PORTS);
		return 2;
	}
	for (int i = 0; i < n; i++) {
		ifindex[i] = (int)if_nametoindex(argv[i + 1]);
		if (!ifindex[i]) {
			fprintf(stderr, "mstnl-states-bench: no device \"%s\"\n",
				argv[i + 1]);
			return 1;
		}
	}
	nl = mstnl_open(&e);
	if (!nl) {
		fprintf(stderr, "mstnl-states-bench: netlink: %s\n",
			strerror(-e));
		return 1;
	}
	for (int r = 0; r < 2 * ROUNDS; r++) {
		/* each call flips every state the one before it set */
		uint8_t st = r % 2 ? BR_STATE_FORWARDING : BR_STATE_BLOCKING;
		double w = now_us(CLOCK_MONOTONIC);
		double c = now_us(CLOCK_PROCESS_CPUTIME_ID);

		e = how[r % 2](nl, ifindex, n, st);
		if (e) {
			fprintf(stderr, "mstnl-states-bench: %s: %s\n",
				name[r % 2], strerror(-e));
			mstnl_close(nl);
			return 1;
		}
		printf("%s %.1f\ncpu_%s %.1f\n", name[r % 2],
		       now_us(CLOCK_MONOTONIC) - w, name[r % 2],
		       now_us(CLOCK_PROCESS_CPUTIME_ID) - c);
	}
	mstnl_close(nl);
	return 0;
}
