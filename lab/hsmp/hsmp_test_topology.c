// SPDX-License-Identifier: MIT
/*
 * One platform, told four ways, must tell one story: CPUID (leaves 1, 0Bh
 * and 8000_001Eh, as QEMU builds them from the domain's <topology>), the
 * kernel's CPU topology in sysfs, amd_nb's northbridges (the emulated
 * ones, through the emulator's debugfs) and the SMU's own list of cores
 * per socket; and AMD's user space, which counts sockets as the present
 * CPUs divided by CPUID's logical processors per package, must find as
 * many sockets as /dev/hsmp answers for.
 */
#include <stdio.h>
#include <string.h>

#include "hsmp_cpuid.h"
#include "hsmp_sim.h"
#include "hsmp_test.h"

#define SYS_CPU "/sys/devices/system/cpu"
#define MAX_CPUS 64

struct cpu_view {
	struct hsmp_cpuid id;
	int pkg, die, core;		/* sysfs topology */
	int threads, package;		/* sysfs: CPUs of its core, package */
	int apic;			/* /proc/cpuinfo */
	bool ok;			/* all of it read */
};

static int read_int(int cpu, const char *name)
{
	char path[128];
	int v = -1;
	FILE *f;

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/%s", cpu, name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* How many CPUs a sysfs CPU list ("0-1", "2,3") names; -1 if unreadable. */
static int count_list(int cpu, const char *name)
{
	char path[128], list[256], *p;
	int n = 0, a, b, k;
	FILE *f;

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/%s", cpu, name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	p = fgets(list, sizeof(list), f);
	fclose(f);
	for (p = p ? strtok(list, ",\n") : NULL; p; p = strtok(NULL, ",\n")) {
		k = sscanf(p, "%d-%d", &a, &b);
		if (k < 1)
			return -1;
		n += k == 2 ? b - a + 1 : 1;
	}
	return n;
}

static void read_cpu(struct suite *t, int cpu, struct cpu_view *v)
{
	struct hsmp_cpuid_raw raw;

	memset(v, 0, sizeof(*v));
	v->pkg = read_int(cpu, "physical_package_id");
	v->die = read_int(cpu, "die_id");
	v->core = read_int(cpu, "core_id");
	v->threads = count_list(cpu, "thread_siblings_list");
	v->package = count_list(cpu, "core_siblings_list");
	v->apic = cpu < t->ncpus ? (int)t->cpus[cpu].apic : -1;
	v->ok = hsmp_cpuid_read(cpu, &raw) == 0 && v->pkg >= 0 &&
		v->die >= 0 && v->core >= 0 && v->threads > 0 &&
		v->package > 0 && v->apic >= 0;
	hsmp_cpuid_decode(&raw, &v->id);
}

/* amd_nb's node count, and whether node n's DF function 3 sits at slot
 * 18h + n (where k10temp and amd_pci_dev_to_node_id() look for it). */
static int northbridges(bool *slots_ok)
{
	char line[128], misc[64];
	unsigned int node, slot, n = 0;
	int count = -1;
	FILE *f;

	*slots_ok = true;
	f = fopen(HSMP_SIM_DIR "/northbridges", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "amd_nb %d", &count) == 1)
			continue;
		if (sscanf(line, "node %u root %*s misc %63s", &node, misc) != 2)
			continue;
		if (node != n++ || !strchr(misc, ':') ||
		    sscanf(strchr(misc, ':') + 1, "00:%x.3", &slot) != 1 ||
		    slot != 0x18 + node)
			*slots_ok = false;
	}
	fclose(f);
	if ((int)n != count)
		*slots_ok = false;
	return count;
}

/* Whether the SMU's socket @s limits exactly the APIC ids of package s. */
static bool smu_cores_match(const struct cpu_view *v, int ncpu, unsigned int s)
{
	char path[96], line[128];
	int mine = 0, listed = 0;
	bool all_mine = true;
	unsigned int apic;
	FILE *f;

	for (int i = 0; i < ncpu; i++)
		mine += v[i].pkg == (int)s;
	snprintf(path, sizeof(path), HSMP_SIM_DIR "/sock%u/state", s);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		bool in_pkg = false;

		if (sscanf(line, "core apic=%u", &apic) != 1)
			continue;
		for (int i = 0; i < ncpu; i++)
			in_pkg |= v[i].pkg == (int)s && v[i].apic == (int)apic;
		all_mine &= in_pkg;
		listed++;
	}
	fclose(f);
	return all_mine && listed == mine;
}

void test_topology(struct suite *t)
{
	static struct cpu_view v[MAX_CPUS];
	int ncpu = hsmp_cpus_present(SYS_CPU "/present");
	int packages = 0, nb, esmi;
	bool l1 = true, lb = true, l1e = true, slots_ok, smu = true;

	if (ncpu <= 0 || ncpu > MAX_CPUS) {
		ok(t, false, "the present CPUs can be counted (%d)", ncpu);
		return;
	}
	for (int i = 0; i < ncpu; i++) {
		const struct hsmp_cpuid *c = &v[i].id;

		read_cpu(t, i, &v[i]);
		if (v[i].pkg + 1 > packages)
			packages = v[i].pkg + 1;
		/* leaf 1: per package as many as sysfs has in the package */
		l1 &= v[i].ok && c->htt == (c->per_package > 1) &&
		      (int)c->per_package == v[i].package &&
		      (int)c->apic == v[i].apic;
		/* leaf 0Bh: per core and per package, x2APIC id */
		lb &= v[i].ok && c->has_leafb &&
		      (int)c->smt_count == v[i].threads &&
		      (int)c->core_count == v[i].package &&
		      (int)c->x2apic == v[i].apic;
		/* 8000_001Eh: node = package = die (one node per socket, the
		 * amd_nb node cacheinfo looks up), core id, threads */
		l1e &= v[i].ok && c->has_ext1e &&
		       (int)c->node_id == v[i].pkg && v[i].die == v[i].pkg &&
		       c->nodes_per_package == 1 &&
		       (int)c->core_id == v[i].core &&
		       (int)c->threads_per_core == v[i].threads;
		if (!(l1 && lb && l1e))
			diag("cpu%d: CPUID apic %u per-package %u htt %d 0Bh %u/%u x2apic %u "
			     "8000_001E core %u node %u threads %u; sysfs package %d die %d "
			     "core %d threads %d package-cpus %d apic %d", i, c->apic,
			     c->per_package, c->htt, c->smt_count, c->core_count,
			     c->x2apic, c->core_id, c->node_id, c->threads_per_core,
			     v[i].pkg, v[i].die, v[i].core, v[i].threads, v[i].package,
			     v[i].apic);
	}
	ok(t, l1, "CPUID 1 on %d CPUs: %u logical processors per package (HTT %s), "
	   "as many as sysfs puts in each", ncpu, v[0].id.per_package,
	   v[0].id.htt ? "set" : "clear");
	ok(t, lb, "CPUID 0Bh on %d CPUs: %u thread(s) per core, %u per package, "
	   "x2APIC id = APIC id", ncpu, v[0].id.smt_count, v[0].id.core_count);
	ok(t, l1e, "CPUID 8000_001Eh on %d CPUs: node id = package = die id, "
	   "core id and threads per core as in sysfs", ncpu);

	nb = northbridges(&slots_ok);
	esmi = hsmp_cpuid_sockets((unsigned int)ncpu, &v[0].id);
	ok(t, esmi == packages && nb == packages && t->nsock == (unsigned int)packages,
	   "sockets: %d by AMD's count (%d CPUs / %u per package), %d CPU packages, "
	   "%d amd_nb nodes, %u answering /dev/hsmp", esmi, ncpu,
	   v[0].id.per_package, packages, nb, t->nsock);
	ok(t, nb > 0 && slots_ok,
	   "amd_nb node n is socket n's data fabric, function 3 at 00:(18+n).3");
	for (unsigned int s = 0; s < t->nsock; s++)
		smu &= smu_cores_match(v, ncpu, s);
	ok(t, smu, "the SMU of socket n limits exactly the cores of package n");
}
