// SPDX-License-Identifier: MIT
/*
 * CPUID as AMD's tools read it (lab/hsmp/hsmp_cpuid.c), on the registers
 * QEMU 7.2's EPYC-Milan gave a guest of 2 sockets x 2 cores (CPU 2, the
 * first of socket 1) and of 2 sockets x 1 core.
 */
#include "unit.h"
#include "hsmp_cpuid.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define HTT (1u << 28)

static const struct hsmp_cpuid_raw milan_2x2_cpu2 = {
	.max_leaf = 0xd,
	.max_ext_leaf = 0x8000001e,
	.leaf1 = { 0x00a00f11, 0x02020800, 0, HTT },
	.leafb = { { 0, 0x1, 0x100, 2 }, { 0x1, 0x2, 0x201, 2 } },
	.ext1e = { 0x2, 0x0, 0x1, 0 },
};

TEST(cpuid_milan_two_sockets_of_two_cores)
{
	struct hsmp_cpuid c;

	hsmp_cpuid_decode(&milan_2x2_cpu2, &c);
	CHECK_INT(c.family, 0x19);
	CHECK_INT(c.model, 0x01);
	CHECK_INT(c.apic, 2);
	CHECK(c.htt);
	CHECK_INT(c.per_package, 2);
	CHECK(c.has_leafb);
	CHECK_INT(c.smt_count, 1);
	CHECK_INT(c.core_count, 2);
	CHECK_INT(c.x2apic, 2);
	CHECK(c.has_ext1e);
	CHECK_INT(c.core_id, 0);
	CHECK_INT(c.threads_per_core, 1);
	CHECK_INT(c.node_id, 1);
	CHECK_INT(c.nodes_per_package, 1);
}

/* AMD's count: CPUs / CPUID 1 EBX[23:16], and no count where that is 0. */
TEST(cpuid_sockets_as_amd_counts_them)
{
	static const struct {
		uint32_t ebx, edx, ext1e_ebx;
		unsigned int per_package, threads, cpus;
		int sockets;
	} cases[] = {
		{ 0x02020800, HTT, 0x000, 2, 1, 4, 2 },	/* as QEMU gave */
		/* 64 cores x 2 threads, as an EPYC 7763 */
		{ 0x02800800, HTT, 0x100, 128, 2, 256, 2 },
		/* one core a socket, what the issue saw: no HTT, 0 */
		{ 0x01000800, 0, 0x000, 0, 1, 2, -EDOM },
	};
	struct hsmp_cpuid_raw raw = milan_2x2_cpu2;
	struct hsmp_cpuid c;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		raw.leaf1.ebx = cases[i].ebx;
		raw.leaf1.edx = cases[i].edx;
		raw.ext1e.ebx = cases[i].ext1e_ebx;
		hsmp_cpuid_decode(&raw, &c);
		CHECK_INT(c.per_package, cases[i].per_package);
		CHECK_INT(c.htt, cases[i].edx != 0);
		CHECK_INT(c.threads_per_core, cases[i].threads);
		CHECK_INT(hsmp_cpuid_sockets(cases[i].cpus, &c),
			  cases[i].sockets);
	}
}

TEST(cpuid_extended_family_and_model)
{
	struct hsmp_cpuid_raw raw = { .max_leaf = 1 };
	struct hsmp_cpuid c;

	raw.leaf1.eax = 0x00a10f11;	/* Genoa: family 19h model 11h */
	hsmp_cpuid_decode(&raw, &c);
	CHECK_INT(c.family, 0x19);
	CHECK_INT(c.model, 0x11);
	raw.leaf1.eax = 0x00b00f21;	/* family 1Ah model 02h */
	hsmp_cpuid_decode(&raw, &c);
	CHECK_INT(c.family, 0x1a);
	CHECK_INT(c.model, 0x02);
	/* leaves past the maximum are not there */
	CHECK(!c.has_leafb);
	CHECK(!c.has_ext1e);
}

static int present(const char *text)
{
	char path[] = "/tmp/mstlab-present-XXXXXX";
	int fd = mkstemp(path), n;

	if (fd < 0)
		return -1000;
	if (write(fd, text, strlen(text)) < 0)
		n = -1001;
	else
		n = hsmp_cpus_present(path);
	close(fd);
	unlink(path);
	return n;
}

TEST(cpus_present_is_the_last_index_plus_one)
{
	CHECK_INT(present("0-3\n"), 4);
	CHECK_INT(present("0\n"), 1);
	CHECK_INT(present("0,2-5\n"), 6);
	CHECK_INT(present("\n"), -EIO);
	CHECK_INT(present("x\n"), -EIO);
	CHECK_INT(hsmp_cpus_present("/nonexistent/present"), -ENOENT);
}
