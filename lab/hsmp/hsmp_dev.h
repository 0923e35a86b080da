/* SPDX-License-Identifier: MIT */
/*
 * /dev/hsmp for user space: one call per mailbox message, with the
 * argument and response counts the 6.1 driver insists on taken from its
 * uapi table, and the CPUs (socket, APIC id) the per-core messages name.
 */
#ifndef MSTLAB_HSMP_DEV_H
#define MSTLAB_HSMP_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HSMP_DEV_PATH "/dev/hsmp"
#define HSMP_MAX_WORDS 8
#define HSMP_MAX_CPUS 256

enum hsmp_kind { HSMP_KIND_RSVD = -1, HSMP_KIND_SET = 0, HSMP_KIND_GET = 1 };

/* The driver's view of message @id; false for ids it does not know. */
bool hsmp_msg_shape(uint32_t id, int *kind, unsigned int *nargs,
		    unsigned int *nresp);
/* One past the highest message id the driver accepts. */
uint32_t hsmp_msg_limit(void);

/* Sends @id to @sock with exactly the driver's counts; 0 or -errno. */
int hsmp_call(int fd, uint16_t sock, uint32_t id, const uint32_t *args,
	      uint32_t *resp);
/* Sends with the given counts, right or wrong (for tests); 0 or -errno. */
int hsmp_call_raw(int fd, uint16_t sock, uint32_t id, uint16_t nargs,
		  uint16_t nresp, uint32_t *words);

/* Opens the device; on failure -errno and a sentence in @err. */
int hsmp_open(const char *path, int flags, char *err, size_t len);
/* How many sockets answer (TEST until -ENODEV); -errno on other errors. */
int hsmp_count_sockets(int fd);

struct hsmp_cpu {
	unsigned int socket;
	unsigned int apic;
};

/* CPUs from /proc/cpuinfo ("physical id", "apicid"); count or -errno. */
int hsmp_cpus(const char *cpuinfo, struct hsmp_cpu *cpus, size_t max);

/* What a failed message means, in the driver's own terms. */
const char *hsmp_strerror(int err);

#endif
