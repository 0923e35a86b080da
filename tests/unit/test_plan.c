// SPDX-License-Identifier: MIT
/*
 * Planner: names, MACs and interface names are deterministic, unique and
 * lab-specific; domain XML and seeds say what the design requires. Run
 * from the repository root (reads topologies/).
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "lab_args.h"
#include "paths.h"
#include "plan.h"
#include "print.h"
#include "runtime.h"
#include "topo.h"
#include "unit.h"

static struct topo *load(const char *path)
{
	struct topo_error e;
	struct topo *t;
	struct errbuf msg;

	if (topo_parse_file(path, &t, &e)) {
		printf("# %s\n", topo_error_format(&e, &msg));
		return NULL;
	}
	return t;
}

static struct topo *parse(const char *yaml)
{
	struct topo_error e;
	struct topo *t;
	struct errbuf msg;

	if (topo_parse_buffer("t.yaml", yaml, strlen(yaml), &t, &e)) {
		printf("# %s\n", topo_error_format(&e, &msg));
		return NULL;
	}
	return t;
}

/* s begins with the literal lit */
#define STARTS(s, lit) (strncmp((s), (lit), sizeof(lit) - 1) == 0)

static const struct plan_params params = {
	.virt = PLAN_VIRT_QEMU,
	.run_dir = "/srv/results/run1",
	.kernel = { "/k/bzImage", "/k/bzImage-debug" },
	.initrd = "/k/initramfs.cpio.gz",
};

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* Every host interface name of a plan, for collision checks. */
static size_t ifnames(const struct plan *p, char (*out)[IFNAMSIZ], size_t max)
{
	const struct topo *t = p->topo;
	size_t n = 0;

	for (size_t l = 0; l < t->n_links && n < max; l++)
		memcpy(out[n++], p->links[l].bridge, IFNAMSIZ);
	for (size_t i = 0; i < t->n_nodes; i++)
		for (size_t j = 0; j < t->nodes[i].n_ports && n < max; j++)
			memcpy(out[n++], p->nodes[i].nic[j].tap, IFNAMSIZ);
	return n;
}

TEST(names_follow_the_scheme)
{
	struct topo *t = load("topologies/ring4.yaml");
	struct plan *p;

	CHECK(t != NULL);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	CHECK_STR(p->nodes[0].domain, "mstlab-ring4-sw1");
	CHECK_STR(p->nodes[5].domain, "mstlab-ring4-h2");
	CHECK_INT(strlen(p->lab_id), PLAN_LAB_ID_LEN);
	for (const char *c = p->lab_id; *c; c++)
		CHECK(islower((unsigned char)*c) || (*c >= '2' && *c <= '7'));
	CHECK(STARTS(p->links[0].bridge, "ml-"));
	CHECK(strncmp(p->links[0].bridge + 3, p->lab_id, 5) == 0);
	CHECK_STR(p->links[0].bridge + 8, "b1");
	/* sw1:p1 is end a of link 1 */
	CHECK_STR(p->nodes[0].nic[0].tap + 8, "t1a");
	CHECK_STR(p->links[0].pcap, "pcap/link1-sw1.p1-sw2.p1.pcap");
	plan_free(p);
	topo_free(t);
}

TEST(ifnames_fit_and_are_unique)
{
	/* the largest lab: 64 nodes with 24 ports each = 768 links */
	enum { LINKS = TOPO_MAX_NODES * TOPO_MAX_PORTS / 2 };
	static char names[3 * LINKS][IFNAMSIZ];
	struct sbuf y;
	struct topo *t;
	struct plan *p;
	size_t n;

	sbuf_init(&y);
	sbuf_puts(&y, "name: abcdefghijkl\nnodes:\n");
	for (int i = 0; i < TOPO_MAX_NODES; i++)
		sbuf_printf(&y, "  n%d: { role: bridge }\n", i);
	sbuf_puts(&y, "links:\n");
	for (int l = 0; l < LINKS; l++)
		sbuf_printf(&y, "  - [n%d:p%d, n%d:q%d]\n", l % TOPO_MAX_NODES,
			    l / TOPO_MAX_NODES, (l + 1) % TOPO_MAX_NODES,
			    l / TOPO_MAX_NODES);
	t = parse(sbuf_str(&y));
	sbuf_free(&y);
	CHECK(t != NULL);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	n = ifnames(p, names, 3 * LINKS);
	CHECK_INT(n, 3 * LINKS);
	for (size_t i = 0; i < n; i++) {
		CHECK(strlen(names[i]) >= 4);
		CHECK(strlen(names[i]) < IFNAMSIZ);
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(names[i], names[j]) != 0);
	}
	CHECK_STR(p->links[LINKS - 1].bridge + 8, "b768");
	plan_free(p);
	topo_free(t);
}

TEST(two_labs_do_not_collide)
{
	/* Labs with near-identical names get different ids and MACs. */
	static const char *const labs[] = { "ring4", "ring5", "ring", "ring4a",
		"a", "b", "smoke", "smoke2", "triangle", "dsa", "hsmp", "lab-1",
		"lab-2", "lab1", "x", "y", "z0", "z1", "0", "1" };
	enum { N = sizeof(labs) / sizeof(labs[0]) };
	char ids[N][PLAN_LAB_ID_LEN + 1];
	uint8_t macs[N][6];

	for (size_t i = 0; i < N; i++) {
		char yaml[256];
		struct topo *t;
		struct plan *p;

		snprintf(yaml, sizeof(yaml), "name: %s\nnodes:\n"
			 "  a: { role: host }\n  b: { role: host }\n"
			 "links:\n  - [a:eth1, b:eth1]\n", labs[i]);
		t = parse(yaml);
		CHECK(t != NULL);
		CHECK_INT(plan_build(t, &p), PLAN_OK);
		memcpy(ids[i], p->lab_id, sizeof(ids[i]));
		memcpy(macs[i], p->nodes[0].nic[0].mac, 6);
		for (size_t j = 0; j < i; j++) {
			CHECK(strcmp(ids[i], ids[j]) != 0);
			CHECK(memcmp(macs[i], macs[j], 6) != 0);
		}
		plan_free(p);
		topo_free(t);
	}
}

TEST(macs_are_local_unicast_unique_deterministic)
{
	struct topo *t = load("topologies/ring4.yaml");
	struct plan *p, *q;
	uint8_t seen[64][6];
	size_t n = 0;

	CHECK(t != NULL);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	CHECK_INT(plan_build(t, &q), PLAN_OK);
	for (size_t i = 0; i < t->n_nodes; i++) {
		for (size_t j = 0; j < t->nodes[i].n_ports; j++) {
			const uint8_t *m = p->nodes[i].nic[j].mac;

			CHECK(m[0] & 0x02);		/* locally administered */
			CHECK(!(m[0] & 0x01));		/* unicast */
			CHECK(m[0] != 0xfe);		/* never a libvirt tap's */
			CHECK_MEM(m, 6, q->nodes[i].nic[j].mac, 6);
			CHECK_STR(p->nodes[i].nic[j].tap,
				  q->nodes[i].nic[j].tap);
			for (size_t k = 0; k < n; k++)
				CHECK(memcmp(seen[k], m, 6) != 0);
			memcpy(seen[n++], m, 6);
		}
		for (size_t k = 0; k < n; k++)
			CHECK(memcmp(seen[k], p->nodes[i].bridge_mac, 6) != 0);
	}
	/* known answer: a change here changes every lab's MACs */
	CHECK_STR(p->nodes[0].nic[0].mac_str, "02:02:cd:75:01:01");
	CHECK_STR(p->nodes[0].bridge_mac_str, "02:02:cd:75:01:00");
	CHECK_STR(p->lab_id, "algxl");
	plan_free(p);
	plan_free(q);
	topo_free(t);
}

TEST(bridge_ids_break_ties_in_declaration_order)
{
	struct topo *t = load("topologies/ring4.yaml");
	struct plan *p;

	CHECK(t != NULL);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	for (size_t i = 1; i < t->n_nodes; i++)
		CHECK(memcmp(p->nodes[i - 1].bridge_mac,
			     p->nodes[i].bridge_mac, 6) < 0);
	plan_free(p);
	topo_free(t);
}

/* The tools share goes in read-only, keeping the programs' modes; none
 * without one. */
TEST(domain_xml_mounts_the_tools_share)
{
	struct topo *t = load("topologies/ring4.yaml");
	struct plan_params pp = params;
	struct plan *p;
	struct sbuf x;

	CHECK(t != NULL);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	sbuf_init(&x);
	CHECK_INT(plan_domain_xml(p, &pp, 0, &x), PLAN_OK);
	CHECK(!strstr(sbuf_str(&x), "<target dir='tools'/>"));
	sbuf_free(&x);
	pp.tools = "/k/initramfs.tools";
	sbuf_init(&x);
	CHECK_INT(plan_domain_xml(p, &pp, 0, &x), PLAN_OK);
	CHECK(strstr(sbuf_str(&x), "<filesystem type='mount' accessmode='passthrough'>\n"
		     "      <source dir='/k/initramfs.tools'/>\n"
		     "      <target dir='tools'/>\n      <readonly/>\n"));
	sbuf_free(&x);
	pp.tools = "relative/tools";
	sbuf_init(&x);
	CHECK_INT(plan_domain_xml(p, &pp, 0, &x), PLAN_EPATH);
	sbuf_free(&x);
	plan_free(p);
	topo_free(t);
}

/*
 * overlay: resolved against the topology file's folder, shared read-only
 * with that node alone, copied over / by its user-data before anything
 * else; a missing directory is an error at the key.
 */
TEST(overlay_is_shared_and_copied_first)
{
	char dir[] = "/tmp/mstlab-overlay-XXXXXX", path[128], real[PATH_MAX];
	const char *yaml = "name: ov\nnodes:\n"
		"  h1: { role: host, overlay: files }\n"
		"  h2: { role: host }\n"
		"links:\n  - { ends: [h1:eth1, h2:eth1] }\n";
	struct topo_error e;
	struct plan *p;
	struct topo *t;
	struct sbuf x;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/files", dir);
	CHECK_INT(mkdir(path, 0755), 0);
	CHECK(realpath(path, real) != NULL);
	snprintf(path, sizeof(path), "%s/ov.yaml", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fputs(yaml, f);
	fclose(f);
	/* From another folder: the path is the file's, not the cwd's. */
	CHECK_INT(topo_parse_file(path, &t, &e), 0);
	CHECK_STR(t->nodes[0].overlay, real);
	CHECK_STR(t->nodes[1].overlay, "");
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	sbuf_init(&x);
	CHECK_INT(plan_domain_xml(p, &params, 0, &x), PLAN_OK);
	CHECK(strstr(sbuf_str(&x), "<target dir='overlay'/>\n      <readonly/>"));
	CHECK(strstr(sbuf_str(&x), real));
	sbuf_free(&x);
	sbuf_init(&x);
	CHECK_INT(plan_domain_xml(p, &params, 1, &x), PLAN_OK);
	CHECK(!strstr(sbuf_str(&x), "overlay"));
	sbuf_free(&x);
	sbuf_init(&x);
	CHECK_INT(plan_user_data(p, 0, &x), PLAN_OK);
	/* Mounted and copied before the NICs are renamed. */
	CHECK(strstr(sbuf_str(&x), "overlay /run/mstlab/overlay\n"
		     "cp -a /run/mstlab/overlay/. /\n"));
	CHECK(strstr(sbuf_str(&x), "cp -a") < strstr(sbuf_str(&x), "mstlab_nic"));
	sbuf_free(&x);
	plan_free(p);
	topo_free(t);

	/* Missing: the file still parses (a run's copy of its topology
	 * must), the host check points at the key's value, and so do
	 * check and plan. */
	snprintf(path, sizeof(path), "%s/files", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/ov.yaml", dir);
	CHECK_INT(topo_parse_file(path, &t, &e), 0);
	CHECK_INT(topo_check_host(t, &e), -1);
	topo_free(t);
	CHECK_INT(e.mark.line, 3);
	CHECK_INT(e.mark.col, 30);
	CHECK(strstr(e.msg, "No such file or directory") != NULL);
	{
		char *argv[] = { "mstlab", "check", path, NULL }, *err, *out;
		int rc;

		out = unit_capture(mstlab_cli, 3, argv, &rc, &err);
		CHECK_INT(rc, 1);
		CHECK(strstr(err, "ov.yaml:3:30: overlay '") != NULL);
		free(out);
		free(err);
	}
	/* A symbolic link out of the topology's folder: refused at the
	 * key, though the name is inside. */
	{
		char link[160];

		snprintf(link, sizeof(link), "%s/files", dir);
		CHECK_INT(symlink("/etc", link), 0);
		CHECK_INT(topo_parse_file(path, &t, &e), 0);
		CHECK_INT(topo_check_host(t, &e), -1);
		topo_free(t);
		CHECK_INT(e.mark.line, 3);
		CHECK(strstr(e.msg, "a symbolic link leads it out of the "
			     "topology's folder") != NULL);
		unlink(link);
	}
	unlink(path);
	rmdir(dir);
}

TEST(domain_xml_has_what_it_must)
{
	struct topo *t = load("topologies/ring4.yaml");
	struct plan *p;
	struct sbuf x;
	const char *s;

	CHECK(t != NULL);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	sbuf_init(&x);
	CHECK_INT(plan_domain_xml(p, &params, 0, &x), PLAN_OK);
	s = sbuf_str(&x);
	CHECK(STARTS(s, "<domain type='qemu'>"));
	CHECK(strstr(s, "<name>mstlab-ring4-sw1</name>"));
	CHECK(strstr(s, "<memory unit='MiB'>128</memory>"));
	CHECK(strstr(s, "<vcpu placement='static'>1</vcpu>"));
	CHECK(strstr(s, "<kernel>/k/bzImage</kernel>"));
	CHECK(strstr(s, "<initrd>/k/initramfs.cpio.gz</initrd>"));
	CHECK(strstr(s, "<cmdline>console=ttyS0 panic=-1 loglevel=4 no_timer_check acpi=noirq norandmaps noapictimer noreplace-smp</cmdline>"));
	CHECK(strstr(s, "<tb-cache unit='MiB'>24</tb-cache>"));
	CHECK(strstr(s, "<memballoon model='virtio' freePageReporting='on'/>"));
	/* a bridge is under test: it comes first for the host's CPU */
	CHECK(strstr(s, "<cputune>\n    <shares>4096</shares>\n  </cputune>"));
	CHECK(strstr(s, "<label>+0:+0</label>"));
	CHECK(strstr(s, "<model fallback='forbid'>qemu64</model>"));
	CHECK(strstr(s, "<source file='/srv/results/run1/seed/sw1.img'/>"));
	CHECK(strstr(s, "<driver name='qemu' type='raw'/>"));
	CHECK(strstr(s, "<source dir='/srv/results/run1'/>"));
	CHECK(strstr(s, "<target dir='lab'/>"));
	CHECK(strstr(s, "path='/srv/results/run1/qga/sw1.sock'"));
	CHECK(strstr(s, "name='org.qemu.guest_agent.0'"));
	CHECK(strstr(s, "<log file='/srv/results/run1/console/sw1.log'"));
	CHECK_INT(count(s, "<interface type='bridge'>"), 3);
	CHECK_INT(count(s, "</interface>"), 3);
	CHECK_INT(count(s, "<model type='virtio'/>"), 3);
	CHECK(!strstr(s, "<driver queues="));	/* bridges send no XDP */
	for (size_t j = 0; j < 3; j++) {
		char want[128];

		snprintf(want, sizeof(want), "<mac address='%s'/>",
			 p->nodes[0].nic[j].mac_str);
		CHECK(strstr(s, want));
		snprintf(want, sizeof(want), "<target dev='%s'/>",
			 p->nodes[0].nic[j].tap);
		CHECK(strstr(s, want));
	}
	CHECK(strstr(s, "<source bridge='ml-algxlb1'/>"));
	CHECK(strstr(s, "<alias name='ua-p3'/>"));
	CHECK_INT(count(s, "<"), count(s, ">"));
	CHECK(strstr(s, "</domain>\n"));

	sbuf_reset(&x);
	{
		struct plan_params kvm = params;

		kvm.virt = PLAN_VIRT_KVM;
		CHECK_INT(plan_domain_xml(p, &kvm, 0, &x), PLAN_OK);
		CHECK(STARTS(sbuf_str(&x), "<domain type='kvm'>"));
		CHECK(strstr(sbuf_str(&x), "<cpu mode='host-passthrough'"));
		/* KVM has a TSC deadline timer: nothing to calibrate */
		CHECK(!strstr(sbuf_str(&x), "noapictimer"));
		/* KVM runs guest code as is: random maps cost nothing */
		CHECK(!strstr(sbuf_str(&x), "norandmaps"));
	}
	sbuf_free(&x);
	plan_free(p);
	topo_free(t);
}

TEST(domain_xml_dsa_switch_names_its_nics_by_lan_port)
{
	struct topo *t = parse("name: t\nnodes:\n"
			       "  d: { role: dsa-switch }\n"
			       "  a: { role: host }\n  b: { role: host }\n"
			       "links:\n  - [a:eth1, d:lan3]\n  - [b:eth1, d:lan1]\n");
	struct plan *p;
	struct sbuf x;
	char want[128];

	CHECK(t != NULL);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	sbuf_init(&x);
	CHECK_INT(plan_domain_xml(p, &params, 0, &x), PLAN_OK);
	/* Ports are kept in name order: lan1, lan3; lan2 has no NIC. */
	snprintf(want, sizeof(want), " mv88e6xxx_sim.ports=%s,,%s</cmdline>",
		 p->nodes[0].nic[0].mac_str, p->nodes[0].nic[1].mac_str);
	CHECK(strstr(sbuf_str(&x), want) != NULL);
	sbuf_free(&x);
	plan_free(p);
	topo_free(t);
}

TEST(domain_xml_hsmp_and_debug_kernel)
{
	struct topo *t = parse("name: t\nnodes:\n"
			       "  e: { role: hsmp-host, sockets: 2, vcpus: 4, kernel: debug }\n"
			       "  h: { role: host, cpu: Haswell }\n"
			       "  h2: { role: host, vcpus: 2 }\n"
			       "links:\n  - [e:eth1, h:eth1]\n  - [e:eth2, h2:eth1]\n");
	struct plan *p;
	struct sbuf x;

	CHECK(t != NULL);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	sbuf_init(&x);
	CHECK_INT(plan_domain_xml(p, &params, 0, &x), PLAN_OK);
	CHECK(strstr(sbuf_str(&x), "<model fallback='allow'>EPYC-Milan</model>"));
	CHECK(strstr(sbuf_str(&x), "<topology sockets='2' dies='1' cores='2' "
				   "threads='1'/>"));
	CHECK(strstr(sbuf_str(&x), "<kernel>/k/bzImage-debug</kernel>"));
	CHECK(strstr(sbuf_str(&x), " amd_smu_sim.sockets=2</cmdline>"));
	/* four vCPUs keep their local APIC timers */
	CHECK(!strstr(sbuf_str(&x), "noapictimer"));
	sbuf_reset(&x);
	CHECK_INT(plan_domain_xml(p, &params, 1, &x), PLAN_OK);
	CHECK(strstr(sbuf_str(&x), ">Haswell</model>"));
	CHECK(!strstr(sbuf_str(&x), "amd_smu_sim"));
	CHECK(!strstr(sbuf_str(&x), "host-passthrough"));
	/* hosts: queue pairs for XDP transmit on top of one per vCPU */
	CHECK(strstr(sbuf_str(&x), "<model type='virtio'/>\n"
				   "      <driver queues='2'/>\n"));
	sbuf_reset(&x);
	CHECK_INT(plan_domain_xml(p, &params, 2, &x), PLAN_OK);
	CHECK(strstr(sbuf_str(&x), "<driver queues='4'/>"));
	/* an end host is the measuring side: default shares */
	CHECK(!strstr(sbuf_str(&x), "<cputune>"));
	CHECK(!strstr(sbuf_str(&x), "noapictimer"));
	sbuf_reset(&x);
	CHECK_INT(plan_domain_xml(p, &params, 0, &x), PLAN_OK);
	CHECK(!strstr(sbuf_str(&x), "<driver queues="));
	sbuf_free(&x);
	plan_free(p);
	topo_free(t);
}

/* Node @name's domain XML, in @x. */
static const char *xml_of(const struct plan *p, const char *name,
			  struct sbuf *x)
{
	sbuf_reset(x);
	if (plan_domain_xml(p, &params, topo_node_find(p->topo, name), x))
		return "";
	return sbuf_str(x);
}

/* An hsmp-host's CPU: sockets x cores from vcpus, the SMU's protocol. */
TEST(domain_xml_hsmp_cpu_topology_and_protocol)
{
	struct topo *t = parse("name: t\nnodes:\n"
			       "  a: { role: hsmp-host, sockets: 2 }\n"
			       "  b: { role: hsmp-host, vcpus: 4, hsmp: { protocol: 5 } }\n");
	struct topo *shipped = load("topologies/hsmp.yaml");
	struct plan *p = NULL, *ps = NULL;
	const char *two_by_two = "<vcpu placement='static'>4</vcpu>",
		   *shape = "<topology sockets='2' dies='1' cores='2' threads='1'/>";
	struct sbuf x;

	sbuf_init(&x);
	CHECK(t && shipped && !plan_build(t, &p) && !plan_build(shipped, &ps));
	/* no vcpus given: 2 cores a socket, the CPU's own protocol */
	CHECK(strstr(xml_of(p, "a", &x), two_by_two));
	CHECK(strstr(sbuf_str(&x), shape));
	CHECK(strstr(sbuf_str(&x), " amd_smu_sim.sockets=2</cmdline>"));
	CHECK(strstr(xml_of(p, "b", &x),
		     "<topology sockets='1' dies='1' cores='4' threads='1'/>"));
	CHECK(strstr(sbuf_str(&x),
		     " amd_smu_sim.sockets=1 amd_smu_sim.proto_ver=5</cmdline>"));
	CHECK(strstr(xml_of(ps, "epyc", &x), two_by_two));
	CHECK(strstr(sbuf_str(&x), shape));
	CHECK(!strstr(sbuf_str(&x), "proto_ver"));
	sbuf_free(&x);
	plan_free(ps);
	plan_free(p);
	topo_free(shipped);
	topo_free(t);
}

TEST(domain_xml_escapes_and_checks_paths)
{
	struct topo *t = load("topologies/smoke.yaml");
	struct plan_params pp = params;
	struct plan *p;
	struct sbuf x;
	char longdir[200];

	CHECK(t != NULL);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	sbuf_init(&x);
	pp.run_dir = "/r/<a&b>'\"";
	CHECK_INT(plan_domain_xml(p, &pp, 0, &x), PLAN_OK);
	CHECK(strstr(sbuf_str(&x),
		     "<source dir='/r/&lt;a&amp;b&gt;&apos;&quot;'/>"));
	CHECK(!strstr(sbuf_str(&x), "<a&b>"));

	sbuf_reset(&x);
	pp.run_dir = "relative/dir";
	CHECK_INT(plan_domain_xml(p, &pp, 0, &x), PLAN_EPATH);
	memset(longdir, 'd', sizeof(longdir) - 1);
	longdir[0] = '/';
	longdir[sizeof(longdir) - 1] = '\0';
	pp.run_dir = longdir;	/* the agent socket would not fit sun_path */
	CHECK_INT(plan_domain_xml(p, &pp, 0, &x), PLAN_EPATH);
	pp = params;
	pp.initrd = NULL;
	CHECK_INT(plan_domain_xml(p, &pp, 0, &x), PLAN_EPATH);
	CHECK_INT(plan_domain_xml(p, &params, 99, &x), PLAN_ENODE);
	CHECK_INT(plan_domain_xml(p, &params, -1, &x), PLAN_ENODE);
	sbuf_free(&x);
	plan_free(p);
	topo_free(t);
}

/* ring4's topology and its plan (NULL if either fails). */
static struct plan *ring4(struct topo **t)
{
	struct plan *p = NULL;

	*t = load("topologies/ring4.yaml");
	if (*t && plan_build(*t, &p) != PLAN_OK)
		p = NULL;
	return p;
}

/* A template of ring4's sw1: nothing of a lab in it. */
TEST(template_xml_boots_to_its_identity_with_nothing_of_a_lab)
{
	struct plan_params pp = params;
	struct topo *t;
	struct plan *p = ring4(&t);
	struct sbuf x;
	const char *s;

	CHECK(p != NULL);
	sbuf_init(&x);
	pp.boot = PLAN_BOOT_TEMPLATE;
	pp.run_dir = "/cache/.build-k";
	pp.template_ram = "/cache/.build-k/ram,x";
	pp.template_name = "mstlab-tpl-k";
	CHECK_INT(plan_domain_xml(p, &pp, 0, &x), PLAN_OK);
	s = sbuf_str(&x);
	CHECK(STARTS(s, "<domain type='qemu' xmlns:qemu='http://libvirt.org/"
		     "schemas/domain/qemu/1.0'>"));
	CHECK(strstr(s, "<name>mstlab-tpl-k</name>"));
	CHECK(strstr(s, "noreplace-smp " PLAN_TEMPLATE_ARG "</cmdline>"));
	/* The RAM is the file, written through; a comma doubled. */
	CHECK(strstr(s, "<qemu:arg value='memory-backend-file,id=mstlab-ram,"
		     "size=128M,mem-path=/cache/.build-k/ram,,x,share=on'/>"));
	CHECK(strstr(s, "<qemu:arg value='memory-backend=mstlab-ram'/>"));
	CHECK(!strstr(s, "-incoming"));
	/* No balloon: a clone would punch holes in the file. */
	CHECK(strstr(s, "<memballoon model='none'/>"));
	CHECK(strstr(s, "path='/cache/.build-k/qga/template.id'/>\n"
		     "      <target type='virtio' name='" PLAN_IDENTITY_PORT
		     "'/>"));
	CHECK(strstr(s, "<source file='/cache/.build-k/seed/template.img'/>"));
	CHECK_INT(count(s, "<interface type='ethernet'>"), 3);
	for (size_t j = 0; j < 3; j++) {
		char mac[18];

		plan_template_mac(j, mac);
		CHECK(strstr(s, mac));
		CHECK(!strstr(s, p->nodes[0].nic[j].mac_str));
		CHECK(!strstr(s, p->nodes[0].nic[j].tap));
	}
	CHECK(!strstr(s, "ring4") && !strstr(s, "sw1") && !strstr(s, "ml-"));
	CHECK(!strstr(s, "<cputune>") && !strstr(s, "<description>"));
	CHECK_INT(count(s, "<"), count(s, ">"));
	/* Its template's RAM file it must have; a dsa-switch has none. */
	sbuf_reset(&x);
	pp.template_ram = NULL;
	CHECK_INT(plan_domain_xml(p, &pp, 0, &x), PLAN_EPATH);
	sbuf_free(&x);
	plan_free(p);
	topo_free(t);
}

TEST(clone_xml_is_the_node_from_its_templates_state)
{
	struct plan_params pp = params;
	struct topo *t;
	struct plan *p = ring4(&t);
	struct sbuf cold, x;
	const char *s;

	CHECK(p != NULL);
	sbuf_init(&cold);
	sbuf_init(&x);
	CHECK_INT(plan_domain_xml(p, &params, 4, &cold), PLAN_OK);
	pp.boot = PLAN_BOOT_CLONE;
	pp.template_ram = "/cache/k/ram";
	CHECK_INT(plan_domain_xml(p, &pp, 4, &x), PLAN_OK);
	s = sbuf_str(&x);
	/* The node's own: name, MACs, taps, seed, run folder. */
	CHECK(strstr(s, "<name>mstlab-ring4-h1</name>"));
	CHECK(strstr(s, p->nodes[4].nic[0].mac_str));
	CHECK(strstr(s, p->nodes[4].nic[0].tap));
	CHECK(strstr(s, "<source file='/srv/results/run1/seed/h1.img'/>"));
	CHECK(strstr(s, "path='/srv/results/run1/qga/h1.id'/>"));
	CHECK(strstr(s, "<description>" PLAN_RUN_LABEL "/srv/results/run1"));
	/* The template's RAM copy-on-write, its state to come. */
	CHECK(strstr(s, "mem-path=/cache/k/ram,share=off'/>"));
	CHECK(strstr(s, "<qemu:arg value='-incoming'/>\n    "
		     "<qemu:arg value='defer'/>"));
	CHECK(!strstr(s, PLAN_TEMPLATE_ARG));
	CHECK(strstr(s, "<memballoon model='none'/>"));
	/* A cold boot is what it was: no template in it. */
	s = sbuf_str(&cold);
	CHECK(STARTS(s, "<domain type='qemu'>"));
	CHECK(!strstr(s, "qemu:") && !strstr(s, PLAN_IDENTITY_PORT));
	CHECK(strstr(s, "freePageReporting='on'"));
	sbuf_free(&cold);
	sbuf_free(&x);
	plan_free(p);
	topo_free(t);
}

/* The shape of a node of one lab against others. */
static int same_shape(const char *yaml_a, int a, const char *yaml_b, int b)
{
	struct topo *ta = parse(yaml_a), *tb = parse(yaml_b);
	struct plan_params other = params;
	struct plan *pa = NULL, *pb = NULL;
	struct sbuf sa, sb;
	int same = -1;

	other.run_dir = "/elsewhere/run2";
	other.kernel[0] = "/other/bzImage";
	sbuf_init(&sa);
	sbuf_init(&sb);
	if (ta && tb && !plan_build(ta, &pa) && !plan_build(tb, &pb) &&
	    !plan_template_shape(pa, &params, a, &sa) &&
	    !plan_template_shape(pb, &other, b, &sb))
		same = strcmp(sbuf_str(&sa), sbuf_str(&sb)) == 0;
	sbuf_free(&sa);
	sbuf_free(&sb);
	plan_free(pa);
	plan_free(pb);
	topo_free(ta);
	topo_free(tb);
	return same;
}

TEST(nodes_share_a_shape_whatever_their_lab_and_names)
{
	static const char pair[] =
		"name: pair\nnodes:\n  h1: { role: host }\n"
		"  h2: { role: host }\nlinks:\n  - [h1:eth1, h2:eth1]\n";
	static const char other[] =
		"name: zz\nnodes:\n  x: { role: bridge }\n"
		"  far: { role: host, overlay: files }\n"
		"  big: { role: host, memory: 256 }\n"
		"  two: { role: host, vcpus: 2 }\n"
		"  nic2: { role: host }\n"
		"  hsmp: { role: hsmp-host, sockets: 2 }\n"
		"  dsa: { role: dsa-switch }\n"
		"links:\n  - [x:p1, far:wan]\n  - [x:p2, big:eth1]\n"
		"  - [x:p3, two:eth1]\n  - [x:p4, nic2:eth1]\n"
		"  - [nic2:eth2, hsmp:eth1]\n  - [dsa:lan1, x:p5]\n";
	struct topo *t = parse(other);
	struct plan *p;
	struct sbuf x;

	/* Another lab, names, MACs, run folder, kernel path: one shape. */
	CHECK_INT(same_shape(pair, 0, pair, 1), 1);
	CHECK_INT(same_shape(pair, 0, other, 1), 0);	/* an overlay */
	CHECK_INT(same_shape(pair, 0, other, 2), 0);	/* memory */
	CHECK_INT(same_shape(pair, 0, other, 3), 0);	/* vCPUs */
	CHECK_INT(same_shape(pair, 0, other, 4), 0);	/* two NICs */
	CHECK_INT(same_shape(pair, 0, other, 0), 0);	/* a bridge */
	CHECK_INT(same_shape(other, 5, other, 5), 1);
	/* A dsa-switch's kernel names its lab MACs: no template. */
	CHECK(t != NULL);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	sbuf_init(&x);
	CHECK(!plan_node_templated(p, 6));
	CHECK(plan_node_templated(p, 5));
	CHECK_INT(plan_template_shape(p, &params, 6, &x), PLAN_ENOTEMPLATE);
	/* An hsmp-host's SMU has the CPU's sockets: in its shape. */
	CHECK_INT(plan_template_shape(p, &params, 5, &x), PLAN_OK);
	CHECK(strstr(sbuf_str(&x), "amd_smu_sim.sockets=2"));
	CHECK(strstr(sbuf_str(&x), "<topology sockets='2'"));
	sbuf_free(&x);
	plan_free(p);
	topo_free(t);
}

TEST(identity_tells_the_clock_entropy_and_each_nics_address)
{
	struct timespec now = { 1765000000, 123456789 };
	uint8_t entropy[32];
	struct topo *t;
	struct plan *p = ring4(&t);
	struct sbuf x;
	char want[128];

	for (int i = 0; i < 32; i++)
		entropy[i] = (uint8_t)(0xa0 + i);
	CHECK(p != NULL);
	sbuf_init(&x);
	CHECK_INT(plan_identity(p, 0, &now, entropy, &x), PLAN_OK);
	CHECK(STARTS(sbuf_str(&x), "mstlab-identity 1\nclock 1765000000 "
		     "123456789\nrandom a0a1a2a3"));
	CHECK(strstr(sbuf_str(&x), "bcbdbebf\nnic 06:00:00:00:00:01 "));
	for (size_t j = 0; j < 3; j++) {
		snprintf(want, sizeof(want), "nic 06:00:00:00:00:%02zx %s\n",
			 j + 1, p->nodes[0].nic[j].mac_str);
		CHECK(strstr(sbuf_str(&x), want));
	}
	CHECK(strstr(sbuf_str(&x), "\nend\n"));
	CHECK_INT(plan_identity(p, 99, &now, entropy, &x), PLAN_ENODE);
	sbuf_free(&x);
	plan_free(p);
	topo_free(t);
}

static const char *after(const char *s, const char *first, const char *then)
{
	const char *a = strstr(s, first);

	return a ? strstr(a + strlen(first), then) : NULL;
}

TEST(user_data_bridge_order)
{
	struct topo *t = load("topologies/ring4.yaml");
	struct plan *p;
	struct sbuf u;
	const char *s;

	CHECK(t != NULL);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	sbuf_init(&u);
	CHECK_INT(plan_user_data(p, 0, &u), PLAN_OK);
	s = sbuf_str(&u);
	CHECK(STARTS(s, "#!/bin/sh\n"));
	CHECK(strstr(s, "\nset -eu\n"));
	/* NICs found by their planned MAC */
	CHECK(strstr(s, "mstlab_nic 02:02:cd:75:01:03; nic2=$nic\n"));
	CHECK(after(s, "nic2=$nic\nip -batch - <<MSTLAB_EOF\n",
		    "link set dev $nic2 name ml.nic2\n"));
	CHECK(after(s, "name ml.nic2\n", "link set dev ml.nic2 name 'p3'\n"));
	/* The meta-data names the guest; the script starts no hostname. */
	CHECK(!strstr(s, "hostname"));
	/* MST on before the first port joins, mstd last */
	CHECK(strstr(s, "ip link add name br0 address 02:02:cd:75:01:00 "
			"type bridge vlan_filtering 1"));
	CHECK(after(s, "ip link add name br0", "mstctl enable dev br0"));
	CHECK(after(s, "mstctl enable dev br0", "link set dev 'p1' master br0"));
	CHECK(!after(s, "master br0", "mstctl enable"));
	CHECK(after(s, "master br0", "bridge -batch - <<'MSTLAB_EOF'\n"));
	CHECK(after(s, "bridge -batch", "vlan add dev 'p3' vid 10\n"));
	CHECK(after(s, "bridge -batch", "vlan add dev 'p3' vid 20\n"));
	CHECK(after(s, "bridge -batch", "vlan add dev 'p3' vid 1 pvid untagged\n"));
	CHECK(after(s, "bridge -batch", "vlan add dev br0 vid 30 self\n"));
	/* mstd maps the VLANs itself, from its configuration */
	CHECK(!strstr(s, "mstctl vlan set"));
	/* User-space STP before the first port joins: ports join blocking */
	CHECK(after(s, "mstctl enable dev br0", "stp_state 1"));
	CHECK(after(s, "stp_state 1", "link set dev 'p1' master br0"));
	CHECK(after(s, "printf '%s' '# mstd configuration for sw1",
		    "\nmsti 1 vlans 10,20\n"));
	CHECK(after(s, "msti 1 vlans 10,20\n", "' > /etc/mstd.conf\n"));
	CHECK(after(s, "> /etc/mstd.conf\n", "link set dev 'p3' up\n"));
	CHECK(after(s, "link set dev 'p3' up\n", "link set dev br0 up\n"
		    "MSTLAB_EOF\n"));
	CHECK(after(s, "link set dev br0 up", "mstd -c /etc/mstd.conf -l "
			"'/lab/share/sw1/mstd.log'"));
	sbuf_free(&u);
	plan_free(p);
	topo_free(t);
}

TEST(user_data_host_and_impairment)
{
	struct topo *t = parse(
		"name: t\nmst: { instances: { 1: [10] } }\nnodes:\n"
		"  a: { role: bridge }\n  h: { role: host }\n"
		"links:\n  - { ends: [a:p1, h:eth1], impair: { delay: 20ms, loss: 0.5 } }\n");
	struct plan *p;
	struct sbuf u;
	const char *s;

	CHECK(t != NULL);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	sbuf_init(&u);
	CHECK_INT(plan_user_data(p, 1, &u), PLAN_OK);
	s = sbuf_str(&u);
	CHECK(after(s, "ip -batch - <<'MSTLAB_EOF'\nlink set dev 'eth1' up\n",
		    "addr add 10.0.1.2/24 dev 'eth1'\n"));
	CHECK(strstr(s, "\nlink add link 'eth1' name 'eth1.10' type vlan id 10\n"));
	CHECK(strstr(s, "\naddr add 10.0.10.2/24 dev 'eth1.10'\n"));
	CHECK(strstr(s, "tc -batch - <<'MSTLAB_EOF'\n"
		       "qdisc add dev 'eth1' root netem delay 20ms loss 0.5000%\n"
		       "MSTLAB_EOF\n"));
	CHECK(!strstr(s, "br0"));
	CHECK(!strstr(s, "mstd"));
	sbuf_reset(&u);
	CHECK_INT(plan_user_data(p, 0, &u), PLAN_OK);
	CHECK(strstr(sbuf_str(&u), "\nqdisc add dev 'p1' root netem"));
	sbuf_free(&u);
	plan_free(p);
	topo_free(t);
}

TEST(user_data_dsa_keeps_driver_names)
{
	struct topo *t = load("topologies/dsa.yaml");
	struct plan *p;
	struct sbuf u;
	int d;

	CHECK(t != NULL);
	d = topo_node_find(t, "dsa1");
	CHECK(d >= 0);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	sbuf_init(&u);
	CHECK_INT(plan_user_data(p, d, &u), PLAN_OK);
	CHECK(!strstr(sbuf_str(&u), "mstlab_nic"));
	CHECK(strstr(sbuf_str(&u), "\nlink set dev 'lan1' master br0\n"));
	CHECK(strstr(sbuf_str(&u), "port lan3 edge yes"));
	/* lanN's NIC carries N in its MAC's last byte */
	CHECK_INT(p->nodes[d].nic[0].mac[5], 1);
	CHECK_INT(p->nodes[d].nic[2].mac[5], 3);
	sbuf_free(&u);
	plan_free(p);
	topo_free(t);
}

/* stp: kernel leaves the bridge to the kernel's 802.1D STP: no MST
 * mode, no mstd, the lab's port costs. */
TEST(user_data_kernel_stp_bridge)
{
	struct topo *t = load("tests/vm/labs/legacy.yaml");
	struct plan *p;
	struct sbuf u;
	const char *s;

	CHECK(t != NULL);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	sbuf_init(&u);
	CHECK_INT(plan_user_data(p, topo_node_find(t, "sw3"), &u), PLAN_OK);
	s = sbuf_str(&u);
	CHECK(strstr(s, "echo br0 >> /run/bridge-stp.kernel\n"
		       "ip -batch - <<'MSTLAB_EOF'\n"
		       "link set dev br0 type bridge stp_state 1\n"));
	CHECK(strstr(s, "forward_delay 400\n"));
	CHECK(after(s, "bridge -batch", "\nlink set dev 'p1' cost 20000\n"));
	CHECK(!strstr(s, "mstctl") && !strstr(s, "mstd -c"));
	sbuf_free(&u);
	sbuf_init(&u);
	CHECK_INT(plan_mstd_conf(p, topo_node_find(t, "sw3"), &u), PLAN_ENOMSTD);
	CHECK_INT(plan_mstd_conf(p, topo_node_find(t, "h1"), &u), PLAN_ENOMSTD);
	sbuf_free(&u);
	sbuf_init(&u);
	CHECK_INT(plan_user_data(p, topo_node_find(t, "sw1"), &u), PLAN_OK);
	CHECK(strstr(sbuf_str(&u), "mstd -c") &&
	      !strstr(sbuf_str(&u), "bridge-stp.kernel"));
	sbuf_free(&u);
	plan_free(p);
	topo_free(t);
}

TEST(meta_data_and_mstd_conf)
{
	struct topo *t = load("topologies/ring4.yaml");
	struct plan *p;
	struct sbuf s;

	CHECK(t != NULL);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	sbuf_init(&s);
	CHECK_INT(plan_meta_data(p, 2, &s), PLAN_OK);
	CHECK_STR(sbuf_str(&s),
		  "instance-id: mstlab-ring4-sw3\nlocal-hostname: sw3\n");
	sbuf_reset(&s);
	CHECK_INT(plan_mstd_conf(p, 2, &s), PLAN_OK);
	CHECK(strstr(sbuf_str(&s), "\nregion ring4\nrevision 1\n"));
	CHECK(strstr(sbuf_str(&s), "\npriority cist 32768\n"));
	CHECK(strstr(sbuf_str(&s), "\npriority 2 4096\n"));
	CHECK(strstr(sbuf_str(&s), "\nport p3 edge yes\n"));
	/* No cost given: mstd's from the link speed. */
	CHECK(!strstr(sbuf_str(&s), "\nport p1 cost"));
	CHECK(strstr(sbuf_str(&s), "\nport p1 priority cist 128\n"));
	CHECK(strstr(sbuf_str(&s), "\nguard_recovery 0\n"));
	CHECK(!strstr(sbuf_str(&s), "ageing_time"));
	sbuf_free(&s);
	plan_free(p);
	topo_free(t);
}

/* The operator controls from the YAML land in mstd.conf as given. */
TEST(mstd_conf_controls)
{
	struct topo *t = load("tests/unit/data/controls.yaml");
	struct plan *p;
	struct sbuf s;
	const char *c;

	CHECK(t != NULL);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	sbuf_init(&s);
	CHECK_INT(plan_mstd_conf(p, topo_node_find(t, "a"), &s), PLAN_OK);
	c = sbuf_str(&s);
	CHECK(strstr(c, "\nforce_version stp\nguard_recovery 30\n"
			"ageing_time 600\n"));
	CHECK(strstr(c, "\nport p1 edge yes\nport p1 bpdu_guard yes\n"
			"port p1 bpdu_filter no\n"));
	CHECK(strstr(c, "\nport p2 root_guard yes\nport p2 tcn_guard yes\n"
			"port p2 loop_guard yes\nport p2 ext_cost 4000\n"
			"port p2 cost cist 100\n"));
	CHECK(!strstr(c, "port p1 cost"));
	sbuf_free(&s);
	plan_free(p);
	topo_free(t);
}

TEST(json_and_dot)
{
	struct topo *t = load("topologies/triangle.yaml");
	struct printer pr;
	struct plan *p;
	struct sbuf s;
	char *json;
	size_t len;
	FILE *f;

	CHECK(t != NULL);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	f = open_memstream(&json, &len);
	CHECK(f != NULL);
	print_init(&pr, f, true);
	plan_print(p, &pr);
	fclose(f);
	CHECK(STARTS(json, "{\"lab\":\"triangle\",\"lab_id\":\""));
	CHECK(strstr(json, "{\"name\":\"sw1\",\"role\":\"bridge\","
			   "\"domain\":\"mstlab-triangle-sw1\","));
	CHECK(strstr(json, "\"ends\":[{\"node\":\"sw3\",\"port\":\"p2\""));
	CHECK_INT(count(json, "\"index\":"), 5 + 10);
	CHECK_INT(count(json, "{"), count(json, "}"));
	CHECK_INT(count(json, "["), count(json, "]"));
	CHECK_INT(count(json, "\n"), 1);
	free(json);

	sbuf_init(&s);
	CHECK_INT(plan_dot(t, &s), PLAN_OK);
	CHECK(STARTS(sbuf_str(&s), "graph \"triangle\" {"));
	CHECK(strstr(sbuf_str(&s), "\"sw3\" -- \"sw1\" [taillabel=\"p2\", "
				   "headlabel=\"p2\"]"));
	CHECK_INT(count(sbuf_str(&s), " -- "), 5);
	sbuf_free(&s);
	plan_free(p);
	topo_free(t);
}

TEST(sbuf_escapes)
{
	struct sbuf s;

	sbuf_init(&s);
	sbuf_shell(&s, "it's");
	CHECK_STR(sbuf_str(&s), "'it'\\''s'");
	sbuf_reset(&s);
	sbuf_xml(&s, "<&>'\"");
	CHECK_STR(sbuf_str(&s), "&lt;&amp;&gt;&apos;&quot;");
	CHECK(!sbuf_failed(&s));
	sbuf_free(&s);
}

TEST(cli_plan_and_graph)
{
	char *json[] = { "mstlab", "plan", "topologies/smoke.yaml", "--json",
			 NULL };
	char *xml[] = { "mstlab", "plan", "topologies/smoke.yaml", "--xml",
			"sw2", "--virt", "kvm", "--run", "/r", "--kernel",
			"/k", "--initrd", "/i", NULL };
	char *nonode[] = { "mstlab", "plan", "topologies/smoke.yaml",
			   "--user-data", "sw9", NULL };
	char *graph[] = { "mstlab", "graph", "topologies/smoke.yaml", NULL };
	char *out, *err;
	int rc;

	out = unit_capture(mstlab_cli, 4, json, &rc, &err);
	CHECK_INT(rc, 0);
	CHECK(STARTS(out, "{\"lab\":\"smoke\","));
	free(out);
	free(err);
	out = unit_capture(mstlab_cli, 13, xml, &rc, &err);
	CHECK_INT(rc, 0);
	CHECK(STARTS(out, "<domain type='kvm'>"));
	CHECK(strstr(out, "<kernel>/k</kernel>"));
	CHECK(strstr(out, "<source dir='/r'/>"));
	free(out);
	free(err);
	out = unit_capture(mstlab_cli, 5, nonode, &rc, &err);
	CHECK_INT(rc, 1);
	CHECK(strstr(err, "has no node 'sw9'"));
	free(out);
	free(err);
	out = unit_capture(mstlab_cli, 3, graph, &rc, &err);
	CHECK_INT(rc, 0);
	CHECK(STARTS(out, "graph \"smoke\" {"));
	free(out);
	free(err);
}

/* What is between <tag> and </tag> in @xml, into @buf ("" if none). */
static void xml_text(const char *xml, const char *tag, char *buf, size_t len)
{
	size_t n = strlen(tag);
	const char *at = strstr(xml, tag), *end = at ? strstr(at, "</") : NULL;

	snprintf(buf, len, "%.*s", end ? (int)(end - at - n) : 0,
		 end ? at + n : "");
}

/* The files `plan --xml sw2` names and those `up` would boot
 * (lab_args_parse), from the cwd @dir. */
struct booted {
	char xml_kernel[PATH_MAX], xml_initrd[PATH_MAX];
	char kernel[PATH_MAX], initrd[PATH_MAX];
};

static int booted_from(const char *dir, const char *topo, struct booted *b)
{
	char *xml[] = { "mstlab", "plan", (char *)topo, "--xml", "sw2", NULL };
	char *argv[] = { "up", (char *)topo, NULL };
	char cwd[PATH_MAX];
	struct runtime rt = { 0 };
	char *out, *err;
	int rc;

	if (!getcwd(cwd, sizeof(cwd)) || chdir(dir))
		return -1;
	out = unit_capture(mstlab_cli, 5, xml, &rc, &err);
	xml_text(out, "<kernel>", b->xml_kernel, sizeof(b->xml_kernel));
	xml_text(out, "<initrd>", b->xml_initrd, sizeof(b->xml_initrd));
	free(out);
	free(err);
	if (rc == 0)
		rc = lab_args_parse(&rt, 2, argv, stdout, stdout, "up");
	if (rc == 0) {
		snprintf(b->kernel, sizeof(b->kernel), "%s", rt.kernel[0]);
		snprintf(b->initrd, sizeof(b->initrd), "%s", rt.initrd);
	}
	runtime_free(&rt);
	return chdir(cwd) ? -1 : rc;
}

/* Both from the build folder of the program (paths.h), wherever it runs. */
TEST(plan_xml_and_up_boot_the_same_files_from_any_cwd)
{
	char topo[PATH_MAX], top[PATH_MAX], want[PATH_MAX + 64];
	struct booted here, root;
	ssize_t n;

	unsetenv(PATHS_BUILD_ENV);
	CHECK(realpath("topologies/smoke.yaml", topo) != NULL);
	n = readlink("/proc/self/exe", top, sizeof(top) - 1);
	CHECK(n > 0);
	top[n] = '\0';
	*strrchr(top, '/') = '\0';	/* BUILD/tests/test_plan -> BUILD */
	*strrchr(top, '/') = '\0';
	CHECK_INT(booted_from(".", topo, &here), 0);
	CHECK_INT(booted_from("/", topo, &root), 0);
	snprintf(want, sizeof(want), "%s/kernel-default/arch/x86/boot/bzImage",
		 top);
	CHECK_STR(here.xml_kernel, want);
	CHECK_STR(here.kernel, want);
	CHECK_STR(root.xml_kernel, want);
	CHECK_STR(root.kernel, want);
	snprintf(want, sizeof(want), "%s/initramfs.cpio.lz4", top);
	CHECK_STR(here.xml_initrd, want);
	CHECK_STR(here.initrd, want);
	CHECK_STR(root.xml_initrd, want);
	CHECK_STR(root.initrd, want);
}

/* @dir/@rel, an empty file, and the folders to it; unlink_under() undoes
 * it. */
static int put_file(const char *dir, const char *rel)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	return f ? fclose(f) : -1;
}

static void unlink_under(const char *dir, const char *rel)
{
	char path[PATH_MAX];
	char *s;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	unlink(path);
	while ((s = strrchr(path, '/')) && s > path + strlen(dir)) {
		*s = '\0';
		rmdir(path);
	}
}

/* `up` with a build folder that lacks a file it boots: nothing starts,
 * and the message names the file and what builds it. */
TEST(up_without_the_images_says_what_to_build)
{
	static const char *const files[] = {
		"kernel-default/arch/x86/boot/bzImage",
		"kernel-debug/arch/x86/boot/bzImage", "initramfs.cpio.lz4",
	};
	char dir[] = "/tmp/mstlab-unit-XXXXXX", topo[64], msg[4096];
	char want[4096];
	char *argv[] = { "up", topo, NULL };
	struct runtime rt = { 0 };
	int rc[4], parsed;
	FILE *err, *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(topo, sizeof(topo), "%s/lab.yaml", dir);
	f = fopen(topo, "w");
	CHECK(f != NULL);
	fputs("name: paths\nnodes:\n  h1: { role: host }\n"
	      "  h2: { role: host, kernel: debug }\n", f);
	fclose(f);
	err = fmemopen(msg, sizeof(msg), "w");
	CHECK(err != NULL);
	setenv(PATHS_BUILD_ENV, dir, 1);
	parsed = lab_args_parse(&rt, 2, argv, stdout, err, "up");
	unsetenv(PATHS_BUILD_ENV);
	for (int i = 0; i < 4 && parsed == 0; i++) {
		rc[i] = runtime_check_images(&rt);
		if (i < 3)
			put_file(dir, files[i]);
	}
	runtime_free(&rt);
	fclose(err);
	for (int i = 0; i < 3; i++)
		unlink_under(dir, files[i]);
	unlink(topo);
	CHECK_INT(rmdir(dir), 0);

	CHECK_INT(parsed, 0);
	CHECK(rc[0] && rc[1] && rc[2]);
	CHECK_INT(rc[3], 0);
	snprintf(want, sizeof(want),
		 "mstlab: no guest kernel at %s/%s: build it with 'make "
		 "kernel'\nmstlab: no guest kernel at %s/%s: build it with "
		 "'make kernel KERNEL=debug'\nmstlab: no guest initramfs at "
		 "%s/%s: build it with 'make image'\n", dir, files[0], dir,
		 files[1], dir, files[2]);
	CHECK_STR(msg, want);
}

/* down by name and down by file agree: a lab that is not up is nothing
 * to do (exit 0) — a CI cleanup step by name after a passing run; other
 * commands by a name that is not up still fail. */
TEST(down_by_name_of_a_lab_not_up_is_nothing_to_do)
{
	char dir[] = "/tmp/mstlab-test-down-XXXXXX";
	char *down[] = { "mstlab", "down", "nosuchlab", NULL };
	char *status[] = { "mstlab", "status", "nosuchlab", NULL };
	char *out, *err;
	int rc;

	CHECK(mkdtemp(dir) != NULL);
	setenv("MSTLAB_RUNTIME_DIR", dir, 1);
	out = unit_capture(mstlab_cli, 3, down, &rc, &err);
	CHECK_INT(rc, 0);
	CHECK(strstr(out, "lab nosuchlab is not up: nothing to do") != NULL);
	free(out);
	free(err);
	out = unit_capture(mstlab_cli, 3, status, &rc, &err);
	CHECK_INT(rc, 1);
	CHECK(strstr(err, "no lab of that name is up") != NULL);
	free(out);
	free(err);
	unsetenv("MSTLAB_RUNTIME_DIR");
	rmdir(dir);
}

/* What check warns of, up says before it boots anything (here it then
 * stops: no guest files in an empty build folder). */
TEST(up_says_what_check_warns_of)
{
	char dir[] = "/tmp/mstlab-unit-XXXXXX", topo[64];
	char *up[] = { "mstlab", "up", topo, NULL };
	char *out, *err;
	FILE *f;
	int rc;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(topo, sizeof(topo), "%s/lab.yaml", dir);
	f = fopen(topo, "w");
	CHECK(f != NULL);
	fputs("name: warn\nnodes:\n"
	      "  one: { role: hsmp-host, sockets: 2, vcpus: 2 }\n", f);
	fclose(f);
	setenv(PATHS_BUILD_ENV, dir, 1);
	setenv("MSTLAB_RUNTIME_DIR", dir, 1);	/* its own registry */
	out = unit_capture(mstlab_cli, 3, up, &rc, &err);
	unsetenv(PATHS_BUILD_ENV);
	unsetenv("MSTLAB_RUNTIME_DIR");
	unlink(topo);
	rmdir(dir);
	CHECK_INT(rc, 1);
	CHECK(strstr(err, "lab.yaml:3:46: warning: hsmp-host 'one' has one "
		      "core a socket") != NULL);
	CHECK(strstr(err, "warning: hsmp-host") < strstr(err, "no guest "
							   "kernel"));
	free(out);
	free(err);
}

/* plan's text says each scenario once, after the nodes and links. */
TEST(plan_says_each_scenario_once)
{
	char *text[] = { "mstlab", "plan", "topologies/ring4.yaml", NULL };
	char *out, *err, *at;
	int rc, n = 0;

	out = unit_capture(mstlab_cli, 3, text, &rc, &err);
	CHECK_INT(rc, 0);
	for (at = out; (at = strstr(at, "\nscenario failover:")); at++)
		n++;
	CHECK_INT(n, 1);
	CHECK(strstr(out, "\nscenario failover:") >
	      strstr(out, "\nlink 1 "));
	free(out);
	free(err);
}

/* --json: every item with its verdict, and whether any FAILs; checked
 * here on this host alone, against libvirt's test driver. */
TEST(hosts_check_json_lists_every_item)
{
	char *argv[] = { "mstlab", "hosts", "check", "topologies/smoke.yaml",
			 "--uri", "test:///default", "--json", NULL };
	char *out, *err;
	int rc;

	out = unit_capture(mstlab_cli, 7, argv, &rc, &err);
	CHECK(STARTS(out, "{\"items\":[{\"host\":\"local\","));
	CHECK(strstr(out, "\"what\":\"libvirt\",\"verdict\":\"ok\","
		     "\"seen\":\"test:///default answers\"") != NULL);
	CHECK(strstr(out, "\"what\":\"tcpdump\"") != NULL);
	CHECK(strstr(out, rc ? "\"failed\":true}\n" : "\"failed\":false}\n")
	      != NULL);
	CHECK(!strstr(out, "nothing missing"));
	free(out);
	free(err);
}
