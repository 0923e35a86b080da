/* SPDX-License-Identifier: MIT */
/*
 * hsmp-test: the in-guest suite for /dev/hsmp over the emulated SMU.
 * TAP on stdout; each group resets the emulator first.
 */
#ifndef MSTLAB_HSMP_TEST_H
#define MSTLAB_HSMP_TEST_H

#include <stdbool.h>
#include <stdint.h>

#include "hsmp_dev.h"

struct suite {
	int fd;			/* O_RDWR */
	unsigned int nsock;
	unsigned int boot_proto;	/* the protocol the SMU booted with */
	struct hsmp_cpu cpus[HSMP_MAX_CPUS];
	int ncpus;
	int run, failed;
	unsigned int stress_threads, stress_msgs;
};

bool ok(struct suite *t, bool cond, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Resets the emulator (state, rules, counters) and has it answer
 * protocol 5; false if it cannot. */
bool reset(struct suite *t);
/* One message with the driver's counts and a single argument. */
int msg1(struct suite *t, unsigned int sock, uint32_t id, uint32_t arg,
	 uint32_t *r);
/* Milliseconds of CLOCK_MONOTONIC. */
double now_ms(void);
/* The running kernel's HZ (100/250/300/1000), measured; 0 if unknown. */
int kernel_hz(void);
/* The kernel's jiffies now (/proc/timer_list); -1 if unreadable. */
long long kernel_jiffies(void);

void test_topology(struct suite *t);
void test_messages(struct suite *t);
void test_faults(struct suite *t);
/* @fresh: reset the emulator first (a benchmark keeps its knobs). */
void test_stress(struct suite *t, bool fresh);

#endif
