// SPDX-License-Identifier: MIT
/*
 * hsmpctl cpu: the processor as AMD's own user space counts it (E-SMI's
 * esmi_init(), which e_smi_tool prints first): family, model, CPUs,
 * threads per core, and the sockets as CPUs divided by CPUID's logical
 * processors per package, a division by zero where CPUID counts none.
 */
#include "hsmpctl.h"

#include <errno.h>
#include <string.h>

#include "hsmp_cpuid.h"

int hsmpctl_cpu(struct hsmpctl *c, int argc, char **argv)
{
	struct hsmp_cpuid_raw raw;
	struct hsmp_cpuid id;
	int cpus, sockets, ret;

	(void)argv;
	if (argc) {
		fprintf(c->err, "hsmpctl: cpu takes nothing\n");
		return 2;
	}
	cpus = hsmp_cpus_present("/sys/devices/system/cpu/present");
	ret = cpus < 0 ? cpus : hsmp_cpuid_read(-1, &raw);
	if (ret) {
		fprintf(c->err, "hsmpctl: cannot read the CPUs: %s\n",
			strerror(-ret));
		return 1;
	}
	hsmp_cpuid_decode(&raw, &id);
	sockets = hsmp_cpuid_sockets((unsigned int)cpus, &id);
	print_open_object(&c->pr, NULL);
	print_uint(&c->pr, PRINT_ANY, "family", "cpu family           %#x\n",
		   id.family);
	print_uint(&c->pr, PRINT_ANY, "model", "cpu model            %#x\n",
		   id.model);
	print_uint(&c->pr, PRINT_ANY, "cpus", "cpus                 %u\n",
		   (unsigned int)cpus);
	print_uint(&c->pr, PRINT_ANY, "logical_per_package",
		   "logical per package  %u\n", id.per_package);
	if (id.has_ext1e)
		print_uint(&c->pr, PRINT_ANY, "threads_per_core",
			   "threads per core     %u\n", id.threads_per_core);
	else
		print_null(&c->pr, PRINT_ANY, "threads_per_core",
			   "threads per core     n/a\n");
	if (sockets >= 0)
		print_uint(&c->pr, PRINT_ANY, "sockets",
			   "sockets              %u\n", (unsigned int)sockets);
	else
		print_null(&c->pr, PRINT_ANY, "sockets",
			   "sockets              n/a\n");
	print_close_object(&c->pr);
	if (sockets >= 0)
		return 0;
	fprintf(c->err, "hsmpctl: CPUID 1 counts 0 logical processors per "
		"package: AMD's tools divide the CPUs by it\n");
	return 1;
}
