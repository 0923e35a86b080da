// SPDX-License-Identifier: MIT
/*
 * Injected faults and what the driver makes of them: no answer ->
 * ETIMEDOUT after its 100 ms, invalid message -> ENOMSG, invalid input ->
 * EINVAL, any other status -> EIO, a late answer still arrives, a wedged
 * mailbox times out every message; after each, the next message works.
 */
#include <asm/amd_hsmp.h>
#include <errno.h>
#include <stdio.h>

#include "hsmp_sim.h"
#include "hsmp_test.h"

struct fault_case {
	const char *rule;
	int expect;
	const char *what;
};

static const struct fault_case cases[] = {
	{ "msg=0x02 action=drop count=1", -ETIMEDOUT, "no answer" },
	{ "msg=0x02 action=status status=0xfe count=1", -ENOMSG, "invalid message" },
	{ "msg=0x02 action=status status=0xff count=1", -EINVAL, "invalid input" },
	{ "msg=any action=status status=0x02 count=1", -EIO, "unknown status 0x02" },
	{ "msg=any action=status status=0xfc count=1", -EIO, "status 0xfc (busy, newer kernels)" },
	{ "msg=0x02 action=delay us=30000 count=1", 0, "30 ms late answer" },
};

/*
 * @hz: the guest kernel's. The driver gives up once jiffies reach their
 * value after its id write plus 100 ms' worth, so a dropped message costs
 * at least that many jiffies. In real time that can fall more than a
 * jiffy short of 100 ms when a tick comes late (TCG), so the check counts
 * jiffies.
 */
static void one_case(struct suite *t, unsigned int sock, const struct fault_case *c, int hz)
{
	long long j0, j1, least = (100LL * hz + 999) / 1000;	/* msecs_to_jiffies */
	char file[32];
	double t0, ms;
	uint32_t r;
	int ret, next;

	snprintf(file, sizeof(file), "sock%u/fault", sock);
	if (!ok(t, sim_write(file, c->rule) == 0, "socket %u: rule '%s' accepted", sock, c->rule))
		return;
	j0 = kernel_jiffies();
	t0 = now_ms();
	ret = msg1(t, sock, HSMP_GET_SMU_VER, 0, &r);
	ms = now_ms() - t0;
	j1 = kernel_jiffies();
	next = msg1(t, sock, HSMP_TEST, 41, &r);
	ok(t, ret == c->expect && next == 0 && r == 42,
	   "socket %u: %s -> %s; the next message works (got %d in %.1f ms, then %d)",
	   sock, c->what, c->expect ? hsmp_strerror(c->expect) : "answered", ret, ms, next);
	if (c->expect == -ETIMEDOUT)
		ok(t, j0 >= 0 && j1 - j0 >= least && ms < 400,
		   "socket %u: the driver waited its 100 ms timeout in jiffies (%lld >= %lld at HZ %d, %.1f ms)",
		   sock, j1 - j0, least, hz, ms);
	if (c->expect == 0)
		ok(t, ms >= 30, "socket %u: the answer takes 30 ms or more (%.1f ms)", sock, ms);
}

void test_faults(struct suite *t)
{
	long long dropped, abandoned, faulted;
	uint32_t r = 0;
	int a, b, hz = kernel_hz();

	if (!hz) {
		diag("the kernel's HZ is unknown (no /proc/timer_list): assuming 100, the coarsest");
		hz = 100;
	}
	reset(t);
	for (unsigned int s = 0; s < t->nsock; s++)
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			one_case(t, s, &cases[i], hz);
	dropped = sim_stat(0, "dropped");
	abandoned = sim_stat(0, "abandoned");
	faulted = sim_stat(0, "faulted");
	ok(t, dropped == 1 && abandoned == 1 && faulted == 6,
	   "socket 0 counted 1 dropped, 1 abandoned, 6 faulted (%lld %lld %lld)",
	   dropped, abandoned, faulted);

	/* A wedged mailbox on every socket, then cleared. */
	ok(t, sim_write("fault", "msg=any action=busy") == 0, "a busy mailbox on every socket");
	a = msg1(t, 0, HSMP_TEST, 1, &r);
	b = msg1(t, t->nsock - 1, HSMP_GET_PROTO_VER, 0, &r);
	ok(t, a == -ETIMEDOUT && b == -ETIMEDOUT, "every message times out (%d %d)", a, b);
	sim_write("fault", "clear");
	a = msg1(t, 0, HSMP_TEST, 1, &r);
	ok(t, a == 0 && r == 2, "after 'clear' the mailbox answers again (%d)", a);

	/* A corrupted answer is the one thing only the caller can see. */
	sim_write("sock0/fault", "msg=0x01 action=corrupt count=1");
	a = msg1(t, 0, HSMP_TEST, 1, &r);
	ok(t, a == 0 && r == 3, "a corrupted TEST answer reaches the caller (%u)", r);
	ok(t, sim_write("sock0/fault", "msg=0x01 action=explode") == -EINVAL &&
		      sim_write("sock0/fault", "msg=0x99 action=drop") == -EINVAL &&
		      sim_write("sock0/fault", "action=status") == -EINVAL,
	   "malformed rules are EINVAL");
}
