// SPDX-License-Identifier: MIT
/*
 * Threads hammer the mailbox of every socket at once. The driver must
 * serialise each socket (the emulator counts any write that lands while a
 * message is pending) and every answer must belong to its own question.
 */
#include <asm/amd_hsmp.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "hsmp_sim.h"
#include "hsmp_test.h"

struct worker {
	struct suite *t;
	unsigned int id, sock;
	unsigned int sent, wrong, failed, busy;
	int first_err;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	uint32_t q, r;
	int ret;

	for (unsigned int k = 0; k < w->t->stress_msgs; k++) {
		q = w->id << 24 | k;
		ret = msg1(w->t, w->sock, HSMP_TEST, q, &r);
		w->sent++;
		if (ret == -ETIME) {
			w->busy++;	/* waited 100 ms for the socket's semaphore */
		} else if (ret) {
			w->failed++;
			if (!w->first_err)
				w->first_err = ret;
		} else if (r != q + 1) {
			w->wrong++;
		}
	}
	return NULL;
}

/* Socket 0's root complex, whose HSMP index/data pair is at 0xc4/0xc8. */
#define ROOT0_CONFIG "/sys/bus/pci/devices/10000:00:00.0/config"
#define SMN_MSG_ID 0x3b10534
#define SMN_MSG_ARG0 0x3b109e0

static bool smn_write(int fd, uint32_t addr, uint32_t val)
{
	return pwrite(fd, &addr, 4, 0xc4) == 4 && pwrite(fd, &val, 4, 0xc8) == 4;
}

/*
 * The detector itself: start a message behind the driver's back through
 * the root's config space, then write an argument while it is pending.
 */
static void test_detector(struct suite *t)
{
	long long before = sim_stat(0, "violations"), after;
	int fd = open(ROOT0_CONFIG, O_RDWR | O_CLOEXEC);
	bool wrote;

	wrote = fd >= 0 && smn_write(fd, SMN_MSG_ID, HSMP_TEST) &&
		smn_write(fd, SMN_MSG_ARG0, 1);
	if (fd >= 0)
		close(fd);
	after = sim_stat(0, "violations");
	ok(t, wrote && after == before + 1,
	   "a mailbox write while a message is pending counts as a violation (%lld -> %lld)",
	   before, after);
	reset(t);
}

/* KASAN and lockdep make the debug kernel several times slower. */
static bool debug_kernel(void)
{
	struct utsname u;
	size_t len;

	if (uname(&u))
		return false;
	len = strlen(u.release);
	return len > 6 && !strcmp(u.release + len - 6, "-debug");
}

void test_stress(struct suite *t, bool fresh)
{
	unsigned int n = t->stress_threads, wrong = 0, failed = 0, busy = 0;
	long long violations = 0, served = 0, before = 0, expect;
	struct worker w[64];
	pthread_t th[64];
	int first_err = 0;
	double t0, secs;

	if (fresh) {
		test_detector(t);
		reset(t);
	} else
		for (unsigned int s = 0; s < t->nsock; s++)
			before += sim_stat(s, "msg 0x01");
	t0 = now_ms();
	for (unsigned int i = 0; i < n; i++) {
		w[i] = (struct worker){ .t = t, .id = i, .sock = i % t->nsock };
		pthread_create(&th[i], NULL, work, &w[i]);
	}
	for (unsigned int i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		wrong += w[i].wrong;
		failed += w[i].failed;
		busy += w[i].busy;
		if (!first_err)
			first_err = w[i].first_err;
	}
	secs = (now_ms() - t0) / 1e3;
	for (unsigned int s = 0; s < t->nsock; s++) {
		violations += sim_stat(s, "violations");
		served += sim_stat(s, "msg 0x01");
	}
	served -= before;
	expect = (long long)n * t->stress_msgs;
	diag("stress: %u threads x %u messages on %u socket(s) in %.2f s (%.0f msg/s)",
	     n, t->stress_msgs, t->nsock, secs, (double)expect / secs);
	/*
	 * A caller that waits 100 ms for the socket's semaphore gets ETIME
	 * (6.1's down_timeout): its message never reaches the SMU. Only the
	 * debug kernel is slow enough for that; nothing may go missing.
	 */
	ok(t, failed == 0 && wrong == 0 && (busy == 0 || debug_kernel()),
	   "stress: %lld messages, %u failed (first %d), %u wrong answers, %u ETIME",
	   expect, failed, first_err, wrong, busy);
	ok(t, violations == 0 && served == expect - busy,
	   "stress: the emulator answered %lld of them (all but the ETIME), %lld interleaved mailbox writes",
	   served, violations);
}
