// SPDX-License-Identifier: MIT
#include "hsmp_cpuid.h"

#include <cpuid.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

void hsmp_cpuid_decode(const struct hsmp_cpuid_raw *raw,
		       struct hsmp_cpuid *c)
{
	uint32_t eax = raw->leaf1.eax, ebx = raw->leaf1.ebx;

	memset(c, 0, sizeof(*c));
	/* AMD APM vol. 3, CPUID Fn0000_0001_EAX: the extended fields add
	 * to the family and prefix the model (for family 0Fh and up). */
	c->family = (eax >> 8 & 0xf) + (eax >> 20 & 0xff);
	c->model = (eax >> 16 & 0xf) << 4 | (eax >> 4 & 0xf);
	c->apic = ebx >> 24;
	c->htt = raw->leaf1.edx >> 28 & 1;
	c->per_package = ebx >> 16 & 0xff;
	if (raw->max_leaf >= 0xb && raw->leafb[0].ebx) {
		c->has_leafb = true;
		c->smt_count = raw->leafb[0].ebx & 0xffff;
		c->core_count = raw->leafb[1].ebx & 0xffff;
		c->x2apic = raw->leafb[0].edx;
	}
	if (raw->max_ext_leaf >= 0x8000001e) {
		c->has_ext1e = true;
		c->core_id = raw->ext1e.ebx & 0xff;
		c->threads_per_core = (raw->ext1e.ebx >> 8 & 0xff) + 1;
		c->node_id = raw->ext1e.ecx & 0xff;
		c->nodes_per_package = (raw->ext1e.ecx >> 8 & 7) + 1;
	}
}

static void leaf(uint32_t l, uint32_t sub, struct hsmp_cpuid_regs *r)
{
	__cpuid_count(l, sub, r->eax, r->ebx, r->ecx, r->edx);
}

int hsmp_cpuid_read(int cpu, struct hsmp_cpuid_raw *raw)
{
	cpu_set_t was, one;
	int err = 0;

	memset(raw, 0, sizeof(*raw));
	if (cpu >= 0) {
		if (sched_getaffinity(0, sizeof(was), &was))
			return -errno;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			return -errno;
	}
	raw->max_leaf = __get_cpuid_max(0, NULL);
	raw->max_ext_leaf = __get_cpuid_max(0x80000000, NULL);
	leaf(1, 0, &raw->leaf1);
	if (raw->max_leaf >= 0xb) {
		leaf(0xb, 0, &raw->leafb[0]);
		leaf(0xb, 1, &raw->leafb[1]);
	}
	if (raw->max_ext_leaf >= 0x8000001e)
		leaf(0x8000001e, 0, &raw->ext1e);
	if (cpu >= 0 && sched_setaffinity(0, sizeof(was), &was))
		err = -errno;
	return err;
}

int hsmp_cpuid_sockets(unsigned int cpus, const struct hsmp_cpuid *c)
{
	if (!c->per_package)
		return -EDOM;
	return (int)(cpus / c->per_package);
}

int hsmp_cpus_present(const char *path)
{
	unsigned int last = 0, a, b;
	char list[256], *p;
	FILE *f = fopen(path, "re");
	int n = 0;

	if (!f)
		return -errno;
	if (!fgets(list, sizeof(list), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	/* "0-3" or "0,2-5": the last range's end is the last index */
	for (p = strtok(list, ",\n"); p; p = strtok(NULL, ",\n")) {
		n = sscanf(p, "%u-%u", &a, &b);
		if (n < 1)
			return -EIO;
		last = n == 2 ? b : a;
	}
	return n ? (int)last + 1 : -EIO;
}
