/* SPDX-License-Identifier: MIT */
/*
 * The CPU topology as CPUID tells it, read the way AMD's E-SMI library
 * reads it (esmi_ib_library src/e_smi.c, detect_packages()): family and
 * model from leaf 1, logical processors per package from leaf 1
 * EBX[23:16], threads per core from leaf 8000_001E, and the sockets as
 * present CPUs divided by the logical processors per package. Leaf 0Bh
 * and the rest of 8000_001E besides, for tests to hold against sysfs.
 * Decoding is pure; only hsmp_cpuid_read() runs the instruction.
 */
#ifndef MSTLAB_HSMP_CPUID_H
#define MSTLAB_HSMP_CPUID_H

#include <stdbool.h>
#include <stdint.h>

struct hsmp_cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

/* The leaves as the CPU answered them; a leaf past the maximum is 0. */
struct hsmp_cpuid_raw {
	uint32_t max_leaf, max_ext_leaf;
	struct hsmp_cpuid_regs leaf1;
	struct hsmp_cpuid_regs leafb[2];	/* subleaf 0 (SMT), 1 (core) */
	struct hsmp_cpuid_regs ext1e;		/* 8000_001E */
};

struct hsmp_cpuid {
	unsigned int family, model;	/* with the extended fields */
	unsigned int apic;		/* leaf 1 EBX[31:24], initial APIC id */
	bool htt;			/* leaf 1 EDX[28]: more than one */
	unsigned int per_package;	/* leaf 1 EBX[23:16]; 0 without HTT */
	bool has_leafb;
	unsigned int smt_count;		/* leaf 0Bh: logical per core, */
	unsigned int core_count;	/* and per package */
	unsigned int x2apic;		/* leaf 0Bh EDX */
	bool has_ext1e;
	unsigned int core_id;		/* 8000_001E EBX[7:0] */
	unsigned int threads_per_core;	/* 8000_001E EBX[15:8] + 1 */
	unsigned int node_id;		/* 8000_001E ECX[7:0] */
	unsigned int nodes_per_package;	/* 8000_001E ECX[10:8] + 1 */
};

void hsmp_cpuid_decode(const struct hsmp_cpuid_raw *raw,
		       struct hsmp_cpuid *c);
/* Runs CPUID on @cpu (-1: wherever this thread runs); 0 or -errno. */
int hsmp_cpuid_read(int cpu, struct hsmp_cpuid_raw *raw);
/* E-SMI's socket count: @cpus / logical processors per package; -EDOM
 * when CPUID says 0 per package (E-SMI then divides by zero). */
int hsmp_cpuid_sockets(unsigned int cpus, const struct hsmp_cpuid *c);
/* The present CPUs, as E-SMI counts them: the last index of
 * /sys/devices/system/cpu/present, plus one; -errno on failure. */
int hsmp_cpus_present(const char *path);

#endif
