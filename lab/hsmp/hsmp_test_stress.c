// SPDX-License-Identifier: MIT
/*
 * Threads hammer the mailbox of every socket at once. The driver must
 * serialise each socket (the emulator counts any write that lands while a
 * message is pending) and every answer must belong to its own question.
 */
#include <asm/amd_hsmp.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "hsmp_sim.h"
#include "hsmp_test.h"

struct worker {
	struct suite *t;
	unsigned int id, sock;
	unsigned int sent, wrong, failed;
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
		if (ret) {
			w->failed++;
			if (!w->first_err)
				w->first_err = ret;
		} else if (r != q + 1) {
			w->wrong++;
		}
	}
	return NULL;
}

void test_stress(struct suite *t, bool fresh)
{
	unsigned int n = t->stress_threads, wrong = 0, failed = 0;
	long long violations = 0, served = 0, before = 0, expect;
	struct worker w[64];
	pthread_t th[64];
	int first_err = 0;
	double t0, secs;

	if (fresh)
		reset(t);
	else
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
	ok(t, failed == 0 && wrong == 0,
	   "stress: %lld messages, %u failed (first %d), %u wrong answers",
	   expect, failed, first_err, wrong);
	ok(t, violations == 0 && served == expect,
	   "stress: the emulator saw %lld of them, %lld interleaved mailbox writes",
	   served, violations);
}
