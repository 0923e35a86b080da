// SPDX-License-Identifier: MIT
/*
 * The checks on synthesised captures: BPDUs encoded with the daemon's
 * codec, written by libpcap with nanosecond stamps, then decoded back
 * (mstlab decode) and judged against a scenario's expectations.
 */
#include <pcap/pcap.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze.h"
#include "bpdu.h"
#include "cmd_checks.h"
#include "plan.h"
#include "child.h"
#include "report_svg.h"
#include "result.h"
#include "checks_fixture.h"
#include "unit.h"

static const char lab_yaml[] =
	"name: duo\n"
	"mst: { region: duo, instances: { 1: [10] } }\n"
	"nodes:\n"
	"  sw1: { role: bridge, priority: { cist: 4096, 1: 32768 } }\n"
	"  sw2: { role: bridge, priority: { cist: 32768, 1: 4096 } }\n"
	"links:\n"
	"  - [sw1:p1, sw2:p1]\n"
	"scenarios:\n"
	"  s:\n"
	"    steps:\n"
	"      - fail: sw1:p1\n"
	"    expect:\n"
	"      roots: { cist: sw1, 1: sw2 }\n"
	"      blocked: { 1: [sw1:p1] }\n"
	"      settle: 1s\n"
	"  wrong:\n"
	"    steps:\n"
	"      - sleep: 1s\n"
	"    expect:\n"
	"      roots: { 1: sw1 }\n";

#define S(x) ((int64_t)(x) * 1000000000LL)

/* An MST BPDU from one of the lab's ports. */
static size_t frame(const struct plan *p, int node, int port, int cist_root,
		    enum bpdu_role role1, bool fwd1, int msti_root,
		    uint8_t *buf, size_t size)
{
	struct bpdu b;
	size_t len = 0;

	bpdu_init(&b, BPDU_TYPE_MST);
	b.flags.role = BPDU_ROLE_DESIGNATED;
	b.flags.forwarding = b.flags.learning = true;
	b.root_id.prio = 4096;
	memcpy(b.root_id.mac, p->nodes[cist_root].bridge_mac, 6);
	b.regional_root_id = b.root_id;
	b.bridge_id.prio = 32768;
	memcpy(b.bridge_id.mac, p->nodes[node].bridge_mac, 6);
	memcpy(b.mcid.name, "duo", 3);
	b.port_id = 0x8001;
	b.max_age = 20 * 256;
	b.hello_time = 2 * 256;
	b.forward_delay = 15 * 256;
	b.remaining_hops = 20;
	b.msti_count = 1;
	b.msti[0].flags.role = role1;
	b.msti[0].flags.forwarding = fwd1;
	b.msti[0].flags.learning = fwd1;
	b.msti[0].regional_root.prio = 4096 | 1;
	memcpy(b.msti[0].regional_root.mac, p->nodes[msti_root].bridge_mac, 6);
	b.msti[0].bridge_prio_octet = 0x80;
	b.msti[0].port_prio_octet = 0x80;
	b.msti[0].remaining_hops = 20;
	if (bpdu_frame_encode(p->nodes[node].nic[port].mac, &b, buf, size,
			      &len) != BPDU_OK)
		return 0;
	return len;
}

struct fixture {
	char dir[64];
	struct topo *t;
	struct plan *p;
	pcap_t *dead;
	pcap_dumper_t *d;
};

/* Added to every timestamp put: a capture on a clock that is off. */
static int64_t put_shift;

static void put(struct fixture *fx, int64_t ns, const uint8_t *f, size_t len)
{
	struct pcap_pkthdr h = { .caplen = (bpf_u_int32)len,
				 .len = (bpf_u_int32)len };

	ns += put_shift;
	h.ts.tv_sec = ns / 1000000000;
	h.ts.tv_usec = ns % 1000000000;	/* nanoseconds: nano precision */
	pcap_dump((u_char *)fx->d, &h, f);
}

/* A run folder: topology.yaml, events and the link's capture. */
static int make_run_of(struct fixture *fx, const char *yaml)
{
	char path[256];
	struct topo_error te;
	FILE *f;

	snprintf(fx->dir, sizeof(fx->dir), "/tmp/mstlab-checks-XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(path, sizeof(path), "%s/topology.yaml", fx->dir);
	f = fopen(path, "w");
	fputs(yaml, f);
	fclose(f);
	if (topo_parse_file(path, &fx->t, &te) || plan_build(fx->t, &fx->p))
		return -1;
	snprintf(path, sizeof(path), "%s/events", fx->dir);
	f = fopen(path, "w");
	fprintf(f, "%lld scenario s\n%lld link-down link1 carrier\n"
		"%lld scenario wrong\n%lld run-end ok\n", (long long)S(1),
		(long long)S(5), (long long)S(8), (long long)S(9));
	fclose(f);
	snprintf(path, sizeof(path), "%s/pcap", fx->dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s", fx->dir, fx->p->links[0].pcap);
	fx->dead = pcap_open_dead_with_tstamp_precision(
		DLT_EN10MB, 65535, PCAP_TSTAMP_PRECISION_NANO);
	fx->d = pcap_dump_open(fx->dead, path);
	return fx->d ? 0 : -1;
}

static int make_run(struct fixture *fx)
{
	return make_run_of(fx, lab_yaml);
}

static void fixture_free(struct fixture *fx)
{
	char *argv[] = { "rm", "-rf", fx->dir, NULL };

	fx_run_done(fx->dir);
	plan_free(fx->p);
	topo_free(fx->t);
	pcap_close(fx->dead);
	spawn_run(argv, NULL, 10000);
}

/* sw1:p1 is designated for the CIST and alternate in MSTI 1; sw2:p1 is
 * MSTI 1's designated port. At 5.5 s (after the failure at 5 s) sw2
 * changes what it says: a 0.5 s settle. */
static int write_captures(struct fixture *fx)
{
	uint8_t f[BPDU_FRAME_MAX_LEN];
	size_t n;

	for (int s = 2; s <= 4; s++) {
		n = frame(fx->p, 0, 0, 0, BPDU_ROLE_ALT_BACKUP, false, 1, f,
			  sizeof(f));
		put(fx, S(s), f, n);
		n = frame(fx->p, 1, 0, 0, BPDU_ROLE_DESIGNATED, true, 1, f,
			  sizeof(f));
		put(fx, S(s) + 1000, f, n);
	}
	n = frame(fx->p, 1, 0, 0, BPDU_ROLE_DESIGNATED, false, 1, f,
		  sizeof(f));
	put(fx, S(5) + S(1) / 2, f, n);
	pcap_dump_close(fx->d);
	fx->d = NULL;
	return n ? 0 : -1;
}

TEST(decode_prints_one_line_per_bpdu_text_and_json)
{
	struct fixture fx;
	char path[256], *err, *out;
	char *argv[3] = { "decode" };
	int rc;

	CHECK(make_run(&fx) == 0);
	CHECK(write_captures(&fx) == 0);
	snprintf(path, sizeof(path), "%s/%s", fx.dir, fx.p->links[0].pcap);
	argv[1] = path;
	out = unit_capture(cmd_decode, 2, argv, &rc, &err);
	CHECK_INT(rc, 0);
	CHECK(strncmp(out, "1 2.000000000 02:", 17) == 0);
	CHECK(strstr(out, " MST designated,L,F root 4096/") != NULL);
	CHECK(strstr(out, " region duo rev 0 ") != NULL);
	CHECK(strstr(out, "| msti 1 alternate/backup rroot 4097/") != NULL);
	CHECK(strstr(out, "\n7 5.500000000 ") != NULL);
	free(out);
	free(err);
	argv[2] = "--json";
	out = unit_capture(cmd_decode, 3, argv, &rc, &err);
	CHECK_INT(rc, 0);
	CHECK(strncmp(out, "{\"frame.number\":1,\"frame.time_epoch\":"
		      "\"2.000000000\",", 51) == 0);
	CHECK(strstr(out, "\"stp.root.prio\":4096,\"stp.root.ext\":0,") != NULL);
	CHECK(strstr(out, "\"mstp.msti\":[{\"mstp.msti.flags\":") != NULL);
	CHECK(strstr(out, "\"mstp.msti.msti_id\":1,") != NULL);
	/* one object a line, no blank lines between */
	CHECK(strstr(out, "}\n{\"frame.number\":2,") != NULL);
	CHECK(strstr(out, "\n\n") == NULL);
	free(out);
	free(err);
	fixture_free(&fx);
}

TEST(decode_names_a_missing_file)
{
	char *argv[] = { "decode", "/nonexistent/x.pcap" }, *err, *out;
	int rc;

	out = unit_capture(cmd_decode, 2, argv, &rc, &err);
	CHECK_INT(rc, 1);
	CHECK(strncmp(err, "mstlab: /nonexistent/x.pcap: ", 29) == 0);
	free(out);
	free(err);
}

TEST(verdicts_find_roots_blocked_ports_and_settle_times)
{
	struct fixture fx;
	char *out = NULL;
	size_t len = 0;
	FILE *o;
	int tap = 0, failed;

	CHECK(make_run(&fx) == 0);
	CHECK(write_captures(&fx) == 0);
	o = open_memstream(&out, &len);
	failed = run_verdicts(fx.t, fx.dir, o, &tap, NULL);
	fclose(o);
	CHECK(strstr(out, "ok 3 - check s: cist root is sw1 before the first "
			  "failure\n") != NULL);
	CHECK(strstr(out, "ok 4 - check s: msti 1 root is sw2 before") != NULL);
	CHECK(strstr(out, "ok 5 - check s: msti 1 blocks exactly sw1:p1 ")
	      != NULL);
	CHECK(strstr(out, "ok 8 - check s: link-down link1 carrier settles in "
			  "0.500 s (msti 1)\n") != NULL);
	/* At the end link1 is down: no port that is up names a root (its
	 * ends' last BPDUs are history). */
	CHECK(strstr(out, "\nnot ok 6 - check s: cist root is sw1 at the end\n"
			  "# the BPDUs name no root (every port that spoke is "
			  "down)\n") != NULL);
	/* The second scenario expects the wrong MSTI 1 root. */
	CHECK(strstr(out, "\nok 11 - check s: region boundaries are where the "
			  "topology puts them: none\n") != NULL);
	CHECK(strstr(out, "not ok 14 - check wrong: msti 1 root is sw1 before "
			  "the first failure\n# the BPDUs name no root") != NULL);
	CHECK(strstr(out, "ok 2 - check s: no frame goes round a loop\n"));
	CHECK(strstr(out, "ok 10 - check s: every step of the scenario succeeded\n"));
	CHECK_INT(failed, 3);
	free(out);
	fixture_free(&fx);
}

/* DSA user ports all send with the switch's own address, which is no
 * planned NIC's: such a BPDU belongs to the link's end whose bridge its
 * bridge id names. */
TEST(bpdus_from_an_unplanned_address_are_placed_by_bridge_id)
{
	static const uint8_t dsa_mac[6] = { 0x4e, 0x06, 0xf8, 0x90, 0xe1, 0xe6 };
	uint8_t f[BPDU_FRAME_MAX_LEN];
	struct fixture fx;
	char *out = NULL;
	size_t len = 0, n;
	FILE *o;
	int tap = 0;

	CHECK(make_run(&fx) == 0);
	for (int s = 2; s <= 4; s++) {
		n = frame(fx.p, 0, 0, 0, BPDU_ROLE_ALT_BACKUP, false, 1, f,
			  sizeof(f));
		memcpy(f + 6, dsa_mac, 6);
		put(&fx, S(s), f, n);
	}
	pcap_dump_close(fx.d);
	fx.d = NULL;
	o = open_memstream(&out, &len);
	run_verdicts(fx.t, fx.dir, o, &tap, NULL);
	fclose(o);
	CHECK(strstr(out, "\nok 5 - check s: msti 1 blocks exactly sw1:p1 ")
	      != NULL);
	free(out);
	fixture_free(&fx);
}

/* sw2 declares its own region, but both ends' BPDUs carry one
 * configuration id: the boundary the topology puts on link1 is missing. */
TEST(a_boundary_the_bpdus_do_not_show_fails)
{
	static const char yaml[] =
		"name: duo\nmst: { region: duo, instances: { 1: [10] } }\n"
		"nodes:\n  sw1: { role: bridge }\n"
		"  sw2: { role: bridge, mst: { region: other } }\n"
		"links:\n  - [sw1:p1, sw2:p1]\n"
		"scenarios:\n  s:\n    steps:\n      - fail: sw1:p1\n";
	struct fixture fx;
	char *out = NULL;
	size_t len = 0;
	FILE *o;
	int tap = 0;

	CHECK(make_run_of(&fx, yaml) == 0);
	CHECK(write_captures(&fx) == 0);
	o = open_memstream(&out, &len);
	run_verdicts(fx.t, fx.dir, o, &tap, NULL);
	fclose(o);
	CHECK(strstr(out, "check s: region boundaries are where the topology "
			  "puts them: link1\n# the BPDUs show none\n") != NULL);
	CHECK(strstr(out, "\nnot ok ") != NULL);
	free(out);
	fixture_free(&fx);
}

/* A bridge forced to RSTP is a region of its own whatever its
 * configuration id: the topology puts a boundary on its link. */
TEST(a_bridge_forced_to_rstp_is_a_boundary)
{
	static const char yaml[] =
		"name: duo\nmst: { region: duo, instances: { 1: [10] } }\n"
		"nodes:\n  sw1: { role: bridge }\n"
		"  sw2: { role: bridge, mst: { force_version: rstp } }\n"
		"links:\n  - [sw1:p1, sw2:p1]\n"
		"scenarios:\n  s:\n    steps:\n      - fail: sw1:p1\n";
	struct fixture fx;
	char *out = NULL;
	size_t len = 0;
	FILE *o;
	int tap = 0;

	CHECK(make_run_of(&fx, yaml) == 0);
	CHECK(write_captures(&fx) == 0);
	o = open_memstream(&out, &len);
	run_verdicts(fx.t, fx.dir, o, &tap, NULL);
	fclose(o);
	/* the fixture's BPDUs are MST ones from both ends */
	CHECK(strstr(out, "check s: region boundaries are where the topology "
			  "puts them: link1\n# the BPDUs show none\n") != NULL);
	free(out);
	fixture_free(&fx);
}

TEST(a_frame_going_round_is_a_loop)
{
	static const uint8_t bcast[60] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					   2, 0, 0, 0, 0, 1, 0x08, 0x06 };
	struct fixture fx;
	char *out = NULL;
	size_t len = 0;
	FILE *o;
	int tap = 0;

	CHECK(make_run(&fx) == 0);
	CHECK(write_captures(&fx) == 0);
	{
		char path[256];
		pcap_dumper_t *d;

		snprintf(path, sizeof(path), "%s/%s", fx.dir,
			 fx.p->links[0].pcap);
		d = pcap_dump_open_append(fx.dead, path);
		CHECK(d != NULL);
		fx.d = d;
		/* One ARP broadcast, 25 times within 50 ms at 6 s: the
		 * 20th copy, at 6.038 s, makes it a loop. */
		for (int i = 0; i < 25; i++)
			put(&fx, S(6) + i * 2000000LL, bcast, sizeof(bcast));
		pcap_dump_close(fx.d);
		fx.d = NULL;
	}
	o = open_memstream(&out, &len);
	run_verdicts(fx.t, fx.dir, o, &tap, NULL);
	fclose(o);
	CHECK(strstr(out, "not ok 2 - check s: no frame goes round a loop\n"
			  "# a frame crossed link 1 20 times within a second, "
			  "5.038 s into the scenario\n") != NULL);
	free(out);
	fixture_free(&fx);
}

TEST(a_lab_without_bridges_expects_no_bpdus)
{
	static const char hosts[] = "name: duo\nnodes:\n  a: { role: host }\n"
				    "  b: { role: host }\nlinks:\n  - [a:eth1, b:eth1]\n"
				    "scenarios:\n  s:\n    steps:\n      - sleep: 1s\n"
				    "  wrong:\n    steps:\n      - sleep: 1s\n";
	struct fixture fx;
	char *out = NULL;
	size_t len = 0;
	FILE *o;
	int tap = 0, failed;

	CHECK(make_run_of(&fx, hosts) == 0);
	pcap_dump_close(fx.d);
	fx.d = NULL;
	o = open_memstream(&out, &len);
	failed = run_verdicts(fx.t, fx.dir, o, &tap, NULL);
	fclose(o);
	CHECK(strstr(out, "hold BPDUs") == NULL);
	CHECK(strstr(out, "ok 1 - check s: no frame goes round a loop\n"));
	CHECK_INT(failed, 0);
	free(out);
	fixture_free(&fx);
}

TEST(probe_outages_are_judged_per_tree_from_the_sinks)
{
	static const char yaml[] =
		"name: duo\nmst: { region: duo, instances: { 1: [10] } }\n"
		"nodes:\n  sw1: { role: bridge }\n  h2: { role: host }\n"
		"links:\n  - [sw1:p1, h2:eth1]\n"
		"scenarios:\n  s:\n    steps:\n      - sleep: 1s\n"
		"    expect:\n      outage_ms: { 1: 50, cist: { max: 20 } }\n";
	struct fixture fx;
	char *out = NULL, share[300];
	size_t len = 0;
	FILE *o;
	int tap = 0;

	CHECK(make_run_of(&fx, yaml) == 0);
	pcap_dump_close(fx.d);
	fx.d = NULL;
	fx_write_file(fx.dir, "events",
		   "1000000000 scenario s\n"
		   "2000000000 probe-start 1 sw1 h2 10 200\n"
		   "2000000000 probe-start 2 sw1 h2 20 200\n"
		   "2000000000 probe-start 3 sw1 h2 30 200\n"
		   "2000000000 probe-start 4 sw1 h2 10 200\n"
		   "9000000000 run-end ok\n");
	snprintf(share, sizeof(share), "%s/share", fx.dir);
	mkdir(share, 0755);
	snprintf(share, sizeof(share), "%s/share/h2", fx.dir);
	mkdir(share, 0755);
	/* 8 frames missing at 200/s: 40 ms, within MSTI 1's 50. */
	fx_write_file(share, "probe-1.json",
		   "{\"flows\":[{\"flow\":1,\"vid\":10,\"received\":992,\"lost\":8,"
		   "\"duplicated\":0,\"reordered\":0,\"first_seq\":0,\"last_seq\":999,"
		   "\"gaps\":[{\"first\":10,\"last\":17,"
		   "\"ms\":45.1},{\"first\":30,\"last\":31,\"ms\":15.0}]}]}\n");
	/* 5 frames: 25 ms, over the CIST's 20. */
	fx_write_file(share, "probe-2.json",
		   "{\"flows\":[{\"flow\":2,\"vid\":20,\"received\":995,\"lost\":5,"
		   "\"duplicated\":1,\"reordered\":2,\"first_seq\":0,\"last_seq\":999,"
		   "\"gaps\":[{\"first\":5,\"last\":9,"
		   "\"ms\":30.0}]}]}\n");
	/* Nothing arrived: no outage bound can hold. */
	fx_write_file(share, "probe-4.json",
		   "{\"flows\":[{\"flow\":4,\"vid\":10,\"received\":0,\"lost\":0,"
		   "\"duplicated\":0,\"reordered\":0,\"gaps\":[]}]}\n");
	o = open_memstream(&out, &len);
	run_verdicts(fx.t, fx.dir, o, &tap, NULL);
	fclose(o);
	CHECK(strstr(out, "\nok 3 - check s: flow 1 sw1->h2 vlan 10: outage 40 ms "
			  "(at most 50)\n") != NULL);
	/* The fixture captured none of the frames the sinks counted. */
	CHECK(strstr(out, "\nnot ok 4 - check s: flow 1: the sink counted 992 frames, "
			  "its link's capture 0\n# the sink counted 992 frames more "
			  "than the capture\n") != NULL);
	CHECK(strstr(out, "\nnot ok 5 - check s: flow 2 sw1->h2 vlan 20: outage 25 ms "
			  "(at most 20)\n# 5 frames missing in a row at 200 frames/s\n") != NULL);
	CHECK(strstr(out, "\nnot ok 7 - check s: flow 3 sw1->h2 vlan 30 has a sink "
			  "report\n# unable to open ") != NULL);
	CHECK(strstr(out, "\nnot ok 8 - check s: flow 4 sw1->h2 vlan 10: no frame "
			  "arrived (at most 50)\n# the sender's link carried none "
			  "of its frames\n") != NULL);
	free(out);
	fixture_free(&fx);
}

TEST(a_failed_step_and_a_guest_suite_land_in_the_checks)
{
	static const char hosts[] = "name: duo\nnodes:\n  a: { role: host }\n"
				    "  b: { role: host }\nlinks:\n  - [a:eth1, b:eth1]\n"
				    "scenarios:\n  s:\n    steps:\n      - sleep: 1s\n";
	struct fixture fx;
	char *out = NULL, dir[300];
	size_t len = 0;
	FILE *o;
	int tap = 0, failed;

	CHECK(make_run_of(&fx, hosts) == 0);
	pcap_dump_close(fx.d);
	fx.d = NULL;
	fx_write_file(fx.dir, "events",
		   "1000000000 scenario s\n"
		   "2000000000 step 1 exec on a: suite\n"
		   "3000000000 step 2 exec on a: false\n"
		   "3100000000 step-failed 2\n"
		   "9000000000 run-end fail\n");
	snprintf(dir, sizeof(dir), "%s/exec", fx.dir);
	mkdir(dir, 0755);
	fx_write_file(dir, "s-step1-a.txt", "TAP version 14\nok 1 - first\n"
		   "not ok 2 - second\n# it broke\nok 3 third\n1..3\n");
	/* Another scenario's output is not this one's. */
	fx_write_file(dir, "t-step1-a.txt", "not ok 1 - elsewhere\n");
	o = open_memstream(&out, &len);
	failed = run_verdicts(fx.t, fx.dir, o, &tap, NULL);
	fclose(o);
	CHECK(strstr(out, "not ok 2 - check s: every step of the scenario succeeded\n"
			  "# step 2 failed: exec on a: false\n") != NULL);
	CHECK(strstr(out, "ok 3 - check s: step 1 on a: first\n") != NULL);
	CHECK(strstr(out, "not ok 4 - check s: step 1 on a: second\n# it broke\n") != NULL);
	CHECK(strstr(out, "ok 5 - check s: step 1 on a: third\n") != NULL);
	CHECK(strstr(out, "elsewhere") == NULL);
	CHECK_INT(failed, 2);
	free(out);
	fixture_free(&fx);
}

/* Every expect: key yields a line: a failure when a failed step kept it
 * from being judged, a skip saying why otherwise (issue 27: settle and
 * outage_ms had produced nothing at all). */
TEST(an_expectation_not_judged_is_a_line_that_says_why)
{
	static const char hosts[] = "name: duo\nnodes:\n  a: { role: host }\n"
		"  b: { role: host }\nlinks:\n  - [a:eth1, b:eth1]\n"
		"scenarios:\n"
		"  s:\n    steps:\n      - sleep: 1s\n      - sleep: 1s\n"
		"    expect: { settle: 5s, outage_ms: { cist: 100 } }\n"
		"  t:\n    steps:\n      - sleep: 1s\n"
		"    expect: { settle: 5s, flush: none }\n";
	struct fixture fx;
	char *out = NULL;
	size_t len = 0;
	FILE *o;
	int tap = 0, failed;

	CHECK(make_run_of(&fx, hosts) == 0);
	pcap_dump_close(fx.d);
	fx.d = NULL;
	fx_write_file(fx.dir, "events",
		   "1000000000 scenario s\n"
		   "2000000000 step 1 exec on a: true\n"
		   "3000000000 step 2 exec on a: false\n"
		   "3100000000 step-failed 2\n"
		   "4000000000 scenario t\n"
		   "5000000000 step 1 sleep 1s\n"
		   "9000000000 run-end fail\n");
	o = open_memstream(&out, &len);
	failed = run_verdicts(fx.t, fx.dir, o, &tap, NULL);
	fclose(o);
	CHECK(strstr(out, " - check s: expect.settle\n"
			  "# not judged: step 2 failed: exec on a: false\n"));
	CHECK(strstr(out, " - check s: expect.outage_ms cist\n# not judged: "
			  "step 2 failed: exec on a: false\n"));
	CHECK(strstr(out, "ok 7 - check t: expect.settle # SKIP not judged: "
			  "no link failed or came back in the scenario\n"));
	CHECK(strstr(out, "ok 8 - check t: expect.flush # SKIP"));
	CHECK_INT(failed, 3);	/* s's steps and its two expectations */
	free(out);
	fixture_free(&fx);
}

static char *slurp(const char *dir, const char *name)
{
	char path[256], *buf = NULL;
	size_t len = 0;
	FILE *f, *m;
	int c;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(m);
	fclose(f);
	return buf;
}

/* mstlab verdict: the TAP of before, one RESULT line, and the reports
 * naming the BPDUs that decided: write_captures' 7th frame (5.5 s) is
 * the last change after the failure, its 6th (4 s) names the roots. */
static const struct provenance fx_provenance = {
	.mstlab = "v9", .n_nodes = 1,
	.nodes = { { "sw1", "ci-3", "tcg", "default", "6.1.158", "#1a2b3c4d",
		     "sha256:0011223344556677" } },
};

TEST(verdict_writes_reports_with_evidence_and_a_result_line)
{
	struct errbuf e;
	struct fixture fx;
	char *argv[2] = { "verdict" }, *out, *err, *json, *junit, *html, *md;
	char want[256];
	int rc;

	CHECK(make_run(&fx) == 0);
	CHECK(write_captures(&fx) == 0);
	CHECK_INT(provenance_save(&fx_provenance, fx.dir, &e), 0);
	argv[1] = fx.dir;
	out = unit_capture(cmd_verdict, 2, argv, &rc, &err);
	CHECK_INT(rc, 1);
	/* The RESULT line counts as every report does (skips too). */
	snprintf(want, sizeof(want), "\n1..16\nRESULT: FAIL 16 checks, 3 failed"
		 ", 1 skipped \xe2\x80\x94 %s/report.html\n", fx.dir);
	CHECK(strlen(out) > strlen(want));
	CHECK_STR(out + strlen(out) - strlen(want), want);
	CHECK(strstr(out, "ok 8 - check s: link-down link1 carrier settles in "
			  "0.500 s (msti 1)\n") != NULL);
	json = slurp(fx.dir, "summary.json");
	junit = slurp(fx.dir, "junit.xml");
	html = slurp(fx.dir, "report.html");
	md = slurp(fx.dir, "report.md");
	CHECK(json && junit && html && md);
	CHECK(strstr(json, "\"name\": \"settle-link-down\",\n"
			   "          \"id\": \"settle-link-down[link1]\",\n"
			   "          \"text\": \"link-down link1 carrier "
			   "settles in 0.500 s (msti 1)\"") != NULL);
	/* What produced it, from the run folder's provenance.json. */
	CHECK(strstr(json, "\"release\": \"6.1.158\"") != NULL);
	CHECK(strstr(junit, "<property name=\"node.sw1.release\" "
			    "value=\"6.1.158\"/>") != NULL);
	CHECK(strstr(md, "| sw1 | ci-3 | tcg | default | 6.1.158 |") != NULL);
	CHECK(strstr(html, "<td>6.1.158</td>") != NULL);
	CHECK(strstr(json, "\"msti 1\": {\n              \"settle_s\": 0.5\n")
	      != NULL);
	CHECK(strstr(json, "\"pcap\": \"pcap/link1-sw1.p1-sw2.p1.pcap\",\n"
			   "              \"frame\": 7,\n"
			   "              \"time_ns\": 5500000000\n") != NULL);
	CHECK(strstr(junit, "<testcase classname=\"duo.s\" "
			    "name=\"settle-link-down[link1]\" time=\"0.500\">")
	      != NULL);
	CHECK(strstr(junit, "<testcase classname=\"duo.wrong\" "
			    "name=\"root-before-failure[msti 1]\" time=\"0.000\">"
			    "\n      <failure message=\"the BPDUs name no root "
			    "(every port that spoke is down)\"")
	      != NULL);
	CHECK(strstr(junit, "evidence: pcap/link1-sw1.p1-sw2.p1.pcap frame 6 "
			    "at 4.000001000 ") != NULL);
	CHECK(strstr(junit, "[[ATTACHMENT|pcap/link1-sw1.p1-sw2.p1.pcap]]")
	      != NULL);
	CHECK(strstr(html, "<tr class=\"fail\" id=\"wrong-root-before-failure"
			   "_msti_1_\">") != NULL);
	CHECK(strstr(md, "\n## wrong: FAIL (5 checks, 1 failed)\n") != NULL);
	/* One count everywhere: the RESULT line's, above. */
	CHECK(strstr(json, "\"counts\": {\n    \"checks\": 16,\n    "
			   "\"failed\": 3,\n    \"skipped\": 1\n  }") != NULL);
	CHECK(strstr(junit, "tests=\"16\" failures=\"3\" errors=\"0\" "
			    "skipped=\"1\"") != NULL);
	CHECK(strstr(md, "16 checks, 3 failed, 1 skipped") != NULL);
	free(json);
	free(junit);
	free(html);
	free(md);
	free(out);
	free(err);
	fixture_free(&fx);
}

/* The run's verdicts as a model, straight from the analysis. */
static bool analyse(struct fixture *fx, struct result_run *r)
{
	struct analysis a;
	struct errbuf err;

	if (analysis_load(&a, fx->t, fx->p, fx->dir, &err))
		return false;
	result_init(r, fx->t->name);
	analysis_results(&a, r);
	analysis_free(&a);
	return true;
}

/* The id of scenario s's check whose text starts with text, or NULL. */
static const char *id_of(const struct result_run *r, const char *text)
{
	const struct result_scenario *sc = &r->scenarios[0];

	for (size_t i = 0; i < sc->n_checks; i++)
		if (!strncmp(sc->checks[i].text, text, strlen(text)))
			return sc->checks[i].id;
	return NULL;
}

static void sink_report(const char *share, unsigned flow, unsigned vid)
{
	char name[32], text[300];

	snprintf(name, sizeof(name), "probe-%u.json", flow);
	snprintf(text, sizeof(text), "{\"flows\":[{\"flow\":%u,\"vid\":%u,"
		 "\"received\":1000,\"lost\":0,\"duplicated\":0,"
		 "\"reordered\":0,\"first_seq\":0,\"last_seq\":999,"
		 "\"gaps\":[]}]}\n", flow, vid);
	fx_write_file(share, name, text);
}

/*
 * Scenario s with a probe flow sw1->h2 on VLAN 10 and a guest suite on
 * h2; with @inserted, a step before each that has nothing to do with
 * them: a flow on VLAN 11 (the same tree) started first, and a suite on
 * sw1 run first, so the flow is number 2 and the suite step 2; and the
 * suite saw another value.
 */
static bool run_with(struct fixture *fx, bool inserted, struct result_run *r)
{
	static const char yaml[] =
		"name: duo\nmst: { region: duo, instances: { 1: [10, 11] } }\n"
		"nodes:\n  sw1: { role: bridge }\n  h2: { role: host }\n"
		"links:\n  - [sw1:p1, h2:eth1]\n"
		"scenarios:\n  s:\n    steps:\n      - sleep: 1s\n";
	static const char *const subs[] = { "share", "share/h2", "exec" };
	char dir[300], share[300];

	if (make_run_of(fx, yaml))
		return false;
	pcap_dump_close(fx->d);
	fx->d = NULL;
	fx_write_file(fx->dir, "events", inserted ?
		      "1000000000 scenario s\n"
		      "2000000000 probe-start 1 sw1 h2 11 200\n"
		      "2000000000 probe-start 2 sw1 h2 10 200\n"
		      "9000000000 run-end ok\n" :
		      "1000000000 scenario s\n"
		      "2000000000 probe-start 1 sw1 h2 10 200\n"
		      "9000000000 run-end ok\n");
	for (size_t i = 0; i < 3; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", fx->dir, subs[i]);
		mkdir(dir, 0755);
	}
	snprintf(share, sizeof(share), "%s/share/h2", fx->dir);
	if (inserted) {
		sink_report(share, 1, 11);
		sink_report(share, 2, 10);
		fx_write_file(dir, "s-step1-sw1.txt", "ok 1 - reads\n");
		fx_write_file(dir, "s-step2-h2.txt", "ok 1 - reads (got 42)\n"
			      "ok 2 - (7)\n");
	} else {
		sink_report(share, 1, 10);
		fx_write_file(dir, "s-step1-h2.txt", "ok 1 - reads (got 41)\n"
			      "ok 2 - (7)\n");
	}
	return analyse(fx, r);
}

/* A check's id is what it is about: a step put before it, which has
 * nothing to do with it, leaves it as it was (issue 38/39: "outage#2"
 * and "guest" depended on the order). */
TEST(a_step_inserted_before_a_check_does_not_rename_it)
{
	struct fixture fa, fb;
	struct result_run a, b;
	const struct result_scenario *sc;

	CHECK(run_with(&fa, false, &a));
	CHECK(run_with(&fb, true, &b));
	CHECK_STR(id_of(&a, "flow 1 sw1->h2 vlan 10:"),
		  "outage[msti 1][sw1->h2 vlan 10]");
	CHECK_STR(id_of(&b, "flow 2 sw1->h2 vlan 10:"),
		  "outage[msti 1][sw1->h2 vlan 10]");
	CHECK_STR(id_of(&b, "flow 1 sw1->h2 vlan 11:"),
		  "outage[msti 1][sw1->h2 vlan 11]");
	CHECK_STR(id_of(&a, "flow 1: the sink counted"),
		  "sink-vs-capture[msti 1][link1][sw1->h2 vlan 10]");
	CHECK_STR(id_of(&b, "flow 2: the sink counted"),
		  "sink-vs-capture[msti 1][link1][sw1->h2 vlan 10]");
	CHECK_STR(id_of(&a, "step 1 on h2: reads"), "guest[h2: reads]");
	CHECK_STR(id_of(&b, "step 2 on h2: reads"), "guest[h2: reads]");
	/* A description that is nothing but parentheses stays whole. */
	CHECK_STR(id_of(&b, "step 2 on h2: (7)"), "guest[h2: (7)]");
	CHECK_STR(id_of(&b, "step 1 on sw1: reads"), "guest[sw1: reads]");
	/* Every check of the first run keeps its id; ids are unique. */
	sc = &a.scenarios[0];
	for (size_t i = 0; i < sc->n_checks; i++) {
		bool found = false;

		for (size_t k = 0; k < b.scenarios[0].n_checks; k++)
			found |= !strcmp(sc->checks[i].id,
					 b.scenarios[0].checks[k].id);
		CHECK(found);
	}
	sc = &b.scenarios[0];
	for (size_t i = 0; i < sc->n_checks; i++)
		for (size_t k = i + 1; k < sc->n_checks; k++)
			CHECK(strcmp(sc->checks[i].id, sc->checks[k].id));
	result_free(&a);
	result_free(&b);
	fixture_free(&fa);
	fixture_free(&fb);
}

/* Scenario s: before the failure at 5 s, MSTI 1's root is sw2 and
 * sw1:p1 is its alternate (blocked); the CIST's root is sw1 with both
 * ends designated. At the end link1 is down: no port of it blocks. */
TEST(snapshots_show_each_trees_root_roles_and_blocked_ports)
{
	struct fixture fx;
	struct result_run r;
	const struct result_scenario *sc;
	const struct result_snapshot *s;

	CHECK(make_run(&fx) == 0);
	CHECK(write_captures(&fx) == 0);
	CHECK(analyse(&fx, &r));
	CHECK_INT(r.n_nodes, 2);
	CHECK_INT(r.n_links, 1);
	CHECK_STR(r.links[0].name, "link1");
	CHECK_STR(r.links[0].port[1], "p1");
	sc = &r.scenarios[0];
	CHECK_STR(sc->name, "s");
	CHECK_INT(sc->n_snapshots, 4);	/* 2 instants x 2 trees */
	s = &sc->snapshots[0];
	CHECK_STR(s->at, "before-failure");
	CHECK_INT(s->ns, S(5));
	CHECK_INT(s->msti, 0);
	CHECK_INT(s->root, 0);
	CHECK_INT(s->ports[0].role, PORT_ROLE_DESIGNATED);
	CHECK(!result_port_blocked(&s->ports[0]));
	CHECK_INT(s->ports[0].frame, 5);	/* sw1's BPDU at 4 s */
	s = &sc->snapshots[1];
	CHECK_INT(s->msti, 1);
	CHECK_INT(s->root, 1);
	CHECK_INT(s->ports[0].role, PORT_ROLE_ALTERNATE);
	CHECK(result_port_blocked(&s->ports[0]));
	CHECK(!s->ports[0].inferred);
	CHECK_INT(s->ports[1].role, PORT_ROLE_DESIGNATED);
	CHECK(!result_port_blocked(&s->ports[1]));
	s = &sc->snapshots[3];
	CHECK_STR(s->at, "end");
	CHECK_STR(s->event, "link-down link1 carrier");
	CHECK_INT(s->ns, S(8) - 1);
	CHECK(s->ports[0].down && s->ports[1].down);
	CHECK(!result_port_blocked(&s->ports[0]));
	/* No link event in "wrong": only its end. */
	CHECK_INT(r.scenarios[1].n_snapshots, 2);
	CHECK_STR(r.scenarios[1].snapshots[0].at, "end");
	result_free(&r);
	fixture_free(&fx);
}

/* RSTP root ports go silent: only sw2 sends (designated, the root of
 * both trees), so sw1:p1 must be sw1's root port, and says so only as
 * a deduction. */
TEST(a_silent_port_facing_the_designated_one_is_the_root_port)
{
	struct fixture fx;
	struct result_run r;
	uint8_t f[BPDU_FRAME_MAX_LEN];
	const struct result_snapshot *s;
	size_t n;

	CHECK(make_run(&fx) == 0);
	n = frame(fx.p, 1, 0, 1, BPDU_ROLE_DESIGNATED, true, 1, f, sizeof(f));
	CHECK(n > 0);
	put(&fx, S(2), f, n);
	pcap_dump_close(fx.d);
	fx.d = NULL;
	CHECK(analyse(&fx, &r));
	for (size_t k = 0; k < 2; k++) {
		s = &r.scenarios[0].snapshots[k];
		CHECK_INT(s->root, 1);
		CHECK_INT(s->ports[0].role, PORT_ROLE_ROOT);
		CHECK(s->ports[0].inferred &&
		      s->ports[0].state == PORT_STATE_FORWARDING);
		CHECK_INT(s->ports[1].role, PORT_ROLE_DESIGNATED);
		CHECK(!s->ports[1].inferred);
	}
	result_free(&r);
	fixture_free(&fx);
}

/* A triangle whose sw3 sits in another region: link2 and link3 are
 * region boundaries. */
static const char other_region_yaml[] =
	"name: tri\n"
	"mst: { region: tri, instances: { 1: [10], 2: [20] } }\n"
	"nodes:\n"
	"  sw1: { role: bridge }\n  sw2: { role: bridge }\n"
	"  sw3: { role: bridge, mst: { region: other } }\n"
	"links:\n"
	"  - [sw1:p1, sw2:p1]\n  - [sw2:p2, sw3:p1]\n  - [sw3:p2, sw1:p2]\n"
	"scenarios:\n  s:\n    steps:\n      - fail: sw1:p1\n"
	"    expect:\n      roots: { cist: sw1 }\n"
	"      blocked: { cist: [sw3:p1], 1: [sw3:p1], 2: [sw3:p1] }\n";

/* One BPDU of node:port (sw1 the root of every tree) into its link's
 * capture. */
static void put_bpdu(struct fixture *fx, pcap_dumper_t *const d[3],
		     int64_t ns, int node, int port,
		     const struct fx_bpdu_kind *kind, const struct fx_adv adv[3])
{
	uint8_t f[BPDU_FRAME_MAX_LEN];
	size_t n = fx_bpdu(fx->p, node, port, 0, (const int[2]){ 0, 0 }, adv,
			   kind, f, sizeof(f));

	fx->d = d[fx->t->nodes[node].ports[port].link];
	put(fx, ns, f, n);
}

/* The line of out that holds what, from its start ("" if none). */
static const char *line_of(const char *out, const char *what)
{
	static char line[512];
	const char *p = strstr(out, what), *start, *end;

	if (!p)
		return "";
	for (start = p; start > out && start[-1] != '\n'; start--)
		;
	end = strchr(p, '\n');
	snprintf(line, sizeof(line), "%.*s",
		 (int)((end ? end : p + strlen(p)) - start), start);
	return line;
}

/*
 * Issue 27: sw3 sits in another region. 0.2 s after its boot it names
 * p1 (to sw2) its root port, master in both MSTIs; 5 ms later p2 (to
 * sw1, the root), and p1 goes quiet as an alternate. Every bridge's
 * roles were right, yet the MSTIs kept the master role p1's one frame
 * said and blocked nothing: at a boundary port the MSTIs follow the
 * CIST. p1 is blocked in every tree, deduced (so marked in summary.json
 * and drawn with a "?"), on the evidence of p2's BPDU.
 */
TEST(a_stale_master_role_at_a_boundary_port_follows_the_cist)
{
	const struct fx_adv df[3] = { { BPDU_ROLE_DESIGNATED, true, false },
				      { BPDU_ROLE_DESIGNATED, true, false },
				      { BPDU_ROLE_DESIGNATED, true, false } },
			    rf[3] = { { BPDU_ROLE_ROOT, true, false },
				      { BPDU_ROLE_ROOT, true, false },
				      { BPDU_ROLE_ROOT, true, false } },
			    master[3] = { { BPDU_ROLE_ROOT, true, false },
					  { BPDU_ROLE_MASTER, true, false },
					  { BPDU_ROLE_MASTER, true, false } };
	const struct fx_bpdu_kind other = { .region = "other" };
	pcap_dumper_t *d[3];
	struct fixture fx;
	struct result_run r;
	const struct result_snapshot *snap;
	char *out = NULL, path[256];
	size_t len = 0;
	struct sbuf dot;
	FILE *o;
	int tap = 0;

	CHECK(make_run_of(&fx, other_region_yaml) == 0);
	d[0] = fx.d;
	for (int l = 1; l < 3; l++) {
		snprintf(path, sizeof(path), "%s/%s", fx.dir,
			 fx.p->links[l].pcap);
		d[l] = pcap_dump_open(fx.dead, path);
		CHECK(d[l] != NULL);
	}
	put_bpdu(&fx, d, S(1), 0, 0, NULL, df);
	put_bpdu(&fx, d, S(1) + 1000, 0, 1, NULL, df);
	put_bpdu(&fx, d, S(1) + 2000, 1, 1, NULL, df);
	put_bpdu(&fx, d, S(1) + 10000000, 1, 0, NULL, rf);
	put_bpdu(&fx, d, S(1) + 200000000, 2, 0, &other, master);
	put_bpdu(&fx, d, S(1) + 205000000, 2, 1, &other, master);
	for (int sec = 2; sec <= 4; sec++) {
		put_bpdu(&fx, d, S(sec), 0, 0, NULL, df);
		put_bpdu(&fx, d, S(sec) + 1000, 0, 1, NULL, df);
		put_bpdu(&fx, d, S(sec) + 2000, 1, 1, NULL, df);
	}
	for (int l = 0; l < 3; l++)
		pcap_dump_close(d[l]);
	fx.d = NULL;
	o = open_memstream(&out, &len);
	run_verdicts(fx.t, fx.dir, o, &tap, NULL);
	fclose(o);
	if (getenv("UNIT_VERBOSE"))
		fputs(out, stderr);
	CHECK_STR(line_of(out, "cist blocks exactly"), "ok 4 - check s: cist "
		  "blocks exactly sw3:p1 before the first failure");
	CHECK_STR(line_of(out, "msti 1 blocks exactly"), "ok 5 - check s: "
		  "msti 1 blocks exactly sw3:p1 before the first failure");
	CHECK_STR(line_of(out, "msti 2 blocks exactly"), "ok 6 - check s: "
		  "msti 2 blocks exactly sw3:p1 before the first failure");
	CHECK(strstr(out, "ok 11 - check s: region boundaries are where the "
			  "topology puts them: link2 link3\n") != NULL);
	free(out);
	CHECK(analyse(&fx, &r));
	/* The evidence is the BPDU p1's role was deduced from: p2's, the
	 * later root port (link3's 2nd frame), not p1's stale one. */
	for (size_t k = 0; k < r.scenarios[0].n_checks; k++) {
		const struct result_check *c = &r.scenarios[0].checks[k];

		if (strcmp(c->name, "blocked-before-failure"))
			continue;
		CHECK_INT(c->n_evidence, 1);
		CHECK_STR(c->evidence[0].pcap, fx.p->links[2].pcap);
		CHECK_INT(c->evidence[0].frame, 2);
	}
	snap = &r.scenarios[0].snapshots[1];	/* msti 1 before failure */
	CHECK_INT(snap->msti, 1);
	CHECK_INT(snap->ports[3].role, PORT_ROLE_ALTERNATE);	/* sw3:p1 */
	CHECK(snap->ports[3].inferred && result_port_blocked(&snap->ports[3]));
	CHECK_INT(snap->ports[4].role, PORT_ROLE_MASTER);	/* sw3:p2 */
	CHECK(!snap->ports[4].inferred);
	sbuf_init(&dot);
	report_topo_dot(&r, snap, &dot);
	CHECK(strstr(sbuf_str(&dot), "taillabel=\"p1 A?\", class=\"port "
				     "blocked inferred\"") != NULL);
	sbuf_free(&dot);
	result_free(&r);
	fixture_free(&fx);
}

static struct fixture fx_browser;

static unsigned count_of(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* report.html in a real browser: the window's size, in CSS pixels. */
#define SHOT_W 1000
#define SHOT_H 2600

/* Chromium, headless, on the run's report.html: extra is --dump-dom or
 * --screenshot=...; its stdout and stderr go to log. */
static int chromium(const char *dir, const char *extra, const char *log)
{
	char url[300], profile[300], size[64];
	char *argv[] = { "chromium", "--headless", "--no-sandbox",
			 "--disable-gpu", "--hide-scrollbars",
			 "--force-device-scale-factor=1", profile, size,
			 (char *)extra, url, NULL };

	snprintf(url, sizeof(url), "file://%s/report.html", dir);
	snprintf(profile, sizeof(profile), "--user-data-dir=%s/chromium", dir);
	snprintf(size, sizeof(size), "--window-size=%d,%d", SHOT_W, SHOT_H);
	return spawn_run(argv, log, 60000);
}

struct colours {
	unsigned long fail_row, root_fill, red, green, white;
};

/* Counts the pixels of the report's own colours in a PNG (libpng). */
static bool png_colours(const char *path, unsigned *w, unsigned *h,
			struct colours *c)
{
	png_image img = { .version = PNG_IMAGE_VERSION };
	uint8_t *px;

	memset(c, 0, sizeof(*c));
	if (!png_image_begin_read_from_file(&img, path))
		return false;
	img.format = PNG_FORMAT_RGB;
	px = malloc(PNG_IMAGE_SIZE(img));
	if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
		free(px);
		png_image_free(&img);
		return false;
	}
	*w = img.width;
	*h = img.height;
	for (size_t i = 0; i < (size_t)img.width * img.height; i++) {
		uint32_t rgb = (uint32_t)px[3 * i] << 16 |
			       (uint32_t)px[3 * i + 1] << 8 | px[3 * i + 2];

		c->fail_row += rgb == 0xfde8e8;
		c->root_fill += rgb == 0xffd54f;
		c->red += rgb == 0xb02a37;
		c->green += rgb == 0x1e7e34;
		c->white += rgb == 0xffffff;
	}
	free(px);
	return true;
}

/*
 * The report of the crafted run (scenario s passes, "wrong" fails),
 * opened by headless Chromium: its DOM has the failing row, a timeline
 * and a topology drawing per tree, the root filled and the blocked
 * port's half of the link dashed; its screenshot is a real render of
 * the window's size with the pass and fail colours and the root's fill.
 */
TEST(report_html_renders_in_headless_chromium)
{
	static const char fail_row[] =
		"<tr class=\"fail\" id=\"wrong-root-before-failure_msti_1_\">";
	char *argv[2] = { "verdict" }, *out, *err, *dom, log[300], shot[300];
	unsigned w = 0, h = 0;
	struct colours c;
	const char *blocked;
	int rc;

	if (spawn_run((char *[]){ "chromium", "--version", NULL }, NULL,
		      30000))
		SKIP("chromium is not installed (deps.txt: chromium)");
	CHECK(make_run(&fx_browser) == 0);
	CHECK(write_captures(&fx_browser) == 0);
	argv[1] = fx_browser.dir;
	out = unit_capture(cmd_verdict, 2, argv, &rc, &err);
	free(out);
	free(err);
	CHECK_INT(rc, 1);
	snprintf(log, sizeof(log), "%s/dom.html", fx_browser.dir);
	CHECK_INT(chromium(fx_browser.dir, "--dump-dom", log), 0);
	dom = slurp(fx_browser.dir, "dom.html");
	CHECK(dom != NULL);
	CHECK(strstr(dom, fail_row) != NULL);
	CHECK(strstr(dom, "<script") == NULL);
	/* Two scenarios, two trees, one with link events (timelines only
	 * there); s has two instants, wrong one. */
	CHECK_INT(count_of(dom, "class=\"timeline\""), 2);
	CHECK_INT(count_of(dom, "<svg class=\"topology\""), 6);
	CHECK(strstr(dom, "<g id=\"node2\" class=\"node bridge root\">\n"
			  "<title>sw2</title>\n<polygon fill=\"#ffd54f\"")
	      != NULL);
	blocked = strstr(dom, "<g id=\"edge1\" class=\"edge port blocked\">"
			      "\n<title>sw1--link1</title>");
	CHECK(blocked != NULL);
	CHECK(strstr(blocked, "stroke-dasharray=\"5,2\"") != NULL);
	free(dom);
	snprintf(shot, sizeof(shot), "--screenshot=%s/shot.png",
		 fx_browser.dir);
	snprintf(log, sizeof(log), "%s/shot.log", fx_browser.dir);
	CHECK_INT(chromium(fx_browser.dir, shot, log), 0);
	snprintf(shot, sizeof(shot), "%s/shot.png", fx_browser.dir);
	CHECK(png_colours(shot, &w, &h, &c));
	printf("# screenshot %ux%u: fail rows %lu, root fill %lu, red %lu, "
	       "green %lu, white %lu pixels\n", w, h, c.fail_row, c.root_fill,
	       c.red, c.green, c.white);
	CHECK_INT(w, SHOT_W);
	CHECK_INT(h, SHOT_H);
	/* The failing row's background, the root's fill in the drawings
	 * (the legend's swatch alone is far smaller), red and green text
	 * and lines; and not a blank page. */
	CHECK(c.fail_row > 5000);
	CHECK(c.root_fill > 4000);
	CHECK(c.red > 100);
	CHECK(c.green > 100);
	CHECK(c.white < (unsigned long)w * h * 97 / 100);
	fixture_free(&fx_browser);
}

/* lab_yaml with both bridges on another host: link1 is captured there. */
static const char far_yaml[] =
	"name: duo\n"
	"hosts:\n"
	"  local: { address: 10.9.0.1 }\n"
	"  far: { uri: 'qemu+ssh://10.9.0.2/system', address: 10.9.0.2 }\n"
	"mst: { region: duo, instances: { 1: [10] } }\n"
	"nodes:\n"
	"  sw1: { role: bridge, host: far, priority: { cist: 4096, 1: 32768 } }\n"
	"  sw2: { role: bridge, host: far, priority: { cist: 32768, 1: 4096 } }\n"
	"links:\n"
	"  - [sw1:p1, sw2:p1]\n"
	"scenarios:\n"
	"  s:\n"
	"    steps:\n"
	"      - fail: sw1:p1\n"
	"    expect:\n"
	"      settle: 1s\n";

static const struct result_check *check_named(const struct result_run *r,
					      const char *name)
{
	for (size_t i = 0; i < r->scenarios[0].n_checks; i++)
		if (!strcmp(r->scenarios[0].checks[i].name, name))
			return &r->scenarios[0].checks[i];
	return NULL;
}

/* The far host's clock is 3 s ahead (its frames say 3 s later than they
 * were here), measured within 1 ms: the settle is judged on this host's
 * timeline, with the bound beside it; without the measurement it is
 * judged late and the run warns. */
TEST(a_capture_of_another_host_is_put_on_this_hosts_timeline)
{
	struct fixture fx;
	struct result_run r;
	const struct result_check *c;
	const struct result_figure *f;

	CHECK(make_run_of(&fx, far_yaml) == 0);
	CHECK(fx.p->links[0].capture_host == 1);
	put_shift = S(3);
	CHECK(write_captures(&fx) == 0);
	put_shift = 0;
	fx_write_file(fx.dir, "clock",
		      "far start 1000000000 3000000000 1000000 2000000 16\n"
		      "far end 9000000000 3000000000 1000000 2000000 16\n");
	CHECK(analyse(&fx, &r));
	c = check_named(&r, "settle-link-down");
	CHECK(c != NULL);
	CHECK(c->status == RESULT_PASS);
	f = result_figure(c, "settle_s", 1);
	CHECK(f && f->value > 0.499 && f->value < 0.501);
	f = result_figure(c, "clock_bound_ms", 1);
	CHECK(f && f->value > 0.999 && f->value < 1.001);
	CHECK(r.warning == NULL);
	result_free(&r);
	fx_write_file(fx.dir, "clock", "");
	CHECK(analyse(&fx, &r));
	CHECK(r.warning && strstr(r.warning, "link1 was captured on host far, "
				  "whose clock was not measured"));
	/* On the far clock every frame is 3 s late: after the failure
	 * (history, on a link that is down), and the settle is not the
	 * 0.5 s it was. */
	c = check_named(&r, "settle-link-down");
	CHECK(c != NULL);
	f = result_figure(c, "settle_s", 1);
	if (f && f->value > 0.45 && f->value < 0.55)
		unit_fail(__FILE__, __LINE__, "settle %.3f s, status %d",
			  f ? f->value : -1, (int)c->status);
	result_free(&r);
	fixture_free(&fx);
}
