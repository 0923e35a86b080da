// SPDX-License-Identifier: MIT
/*
 * The FDB-flush verdicts on synthesised captures of a triangle: MSTI 1
 * blocks sw3:p2 and moves when sw1-sw2 fails, MSTI 2 blocks sw2:p1 and
 * does not. h3 hangs off sw3, on no flow's path: a probe frame there is
 * flooding. Also the sink-vs-capture agreement of each probe flow.
 */
#include <jansson.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bpdu.h"
#include "child.h"
#include "cmd_checks.h"
#include "flows.h"
#include "plan.h"
#include "probe_wire.h"
#include "checks_fixture.h"
#include "unit.h"

static const char yaml_head[] =
	"name: tri\n"
	"mst: { region: tri, instances: { 1: [10], 2: [20] } }\n"
	"nodes:\n"
	"  sw1: { role: bridge }\n  sw2: { role: bridge }\n";
/* sw3 alone, or a region of its own mapping the VLANs the other way. */
static const char sw3_same[] = "  sw3: { role: bridge }\n",
		  sw3_own[] = "  sw3: { role: bridge, mst: { instances: "
			      "{ 1: [20], 2: [10] } } }\n";
static const char yaml[] =
	"  h1: { role: host }\n  h2: { role: host }\n  h3: { role: host }\n"
	"links:\n"
	"  - [sw1:p1, sw2:p1]\n  - [sw2:p2, sw3:p1]\n  - [sw3:p2, sw1:p2]\n"
	"  - [h1:eth1, sw1:p3]\n  - [h2:eth1, sw2:p3]\n  - [h3:eth1, sw3:p3]\n"
	"scenarios:\n"
	"  s:\n    steps:\n      - fail: sw1:p1\n"
	"    expect: { flush: per-msti, blocked: { 1: [sw3:p2] }";

#define MS(x) ((int64_t)(x) * 1000000LL)
enum { SW1, SW2, SW3, H1, H2, H3 };
enum { L1, L2, L3, L4, L5, L6, N_LINKS };
#define N_SEQ 650u	/* probe frames a flow sends: 1.5 s to 8 s at 100/s */

struct run {
	char dir[64];
	struct topo *t;
	struct plan *p;
	pcap_t *dead;
	pcap_dumper_t *d[N_LINKS];
	unsigned long on_link5[3];	/* frames per flow reaching h2 */
	bool regions;			/* sw3 maps VLAN 10 to MSTI 2 */
};

static void put(struct run *r, int link, int64_t ns, const uint8_t *f,
		size_t len)
{
	struct pcap_pkthdr h = { .caplen = (bpf_u_int32)len,
				 .len = (bpf_u_int32)len };

	h.ts.tv_sec = ns / 1000000000;
	h.ts.tv_usec = ns % 1000000000;
	pcap_dump((u_char *)r->d[link], &h, f);
}

/* An MST BPDU from node:port with the CIST, MSTI 1 and MSTI 2 flags. */
static void bpdu(struct run *r, int link, int64_t ns, int node, int port,
		 const struct fx_adv adv[3])
{
	uint8_t f[BPDU_FRAME_MAX_LEN];
	/* sw3's own region: what MSTI 1 does elsewhere, its MSTI 2 does. */
	const struct fx_adv swapped[3] = { adv[0], adv[2], adv[1] };
	size_t len = fx_mst_bpdu(r->p, node, port, SW1,
				 (const int[2]){ SW1, SW1 },
				 r->regions && node == SW3 ? swapped : adv, f,
				 sizeof(f));

	if (len)
		put(r, link, ns, f, len);
}

/* A probe frame of flow (1: VLAN 10, 2: VLAN 20) from h1 to h2. */
static void probe(struct run *r, int link, int64_t ns, unsigned flow,
		  uint32_t seq)
{
	uint8_t f[64] = { 0 };
	struct probe_hdr h = { .flow = (uint16_t)flow,
			       .vid = (uint16_t)(flow * 10), .seq = seq };

	memcpy(f, r->p->nodes[H2].nic[0].mac, 6);
	memcpy(f + 6, r->p->nodes[H1].nic[0].mac, 6);
	f[12] = 0x81;
	f[15] = (uint8_t)h.vid;
	f[16] = PROBE_ETHERTYPE >> 8;
	f[17] = PROBE_ETHERTYPE & 0xff;
	probe_hdr_encode(&h, f + 18);
	put(r, link, ns, f, sizeof(f));
	if (link == L5)
		r->on_link5[flow]++;
}

/* What leaks onto h3's link after the failure. */
struct leak {
	bool flow1, flow2, before;
	bool before_both;	/* flow 2 off its path before the failure too */
	/* After the failure the TC reaches sw3 from sw2 (h2's side), and
	 * sw3 sends none towards h2: sw3 keeps h2. */
	bool tc_from_dest;
	bool silent_root;	/* sw3:p2 was root, went quiet; p1 is now */
	long sink_missing;	/* frames the sink of flow 2 did not count */
	bool sink_dropped;	/* ... because its receive ring was full */
	bool capture_lost;	/* link 5's tcpdump says it dropped 3 */
	bool no_flows;		/* the event log starts no probe flow */
	/* flow 1: seq 100-119 never sent; 200-209 sent, lost after h1's link */
	bool sender_skips;
	/* The sender stalls over seqs 195-214 (due 3.45-3.64 s) and sends
	 * them in one burst at 3.64 s; flow 1 loses, after h1's link,
	 * 1: seqs 200-209, inside the burst; 2: seqs 193-194, before it. */
	int burst;
	bool access_down;	/* h1's link down while 100-119 were due */
	bool h3_blocked;	/* sw3:p3 discards: no link left to flood to */
	/* flow 1's first / last frames that never reach h2's link */
	uint32_t head_lost, tail_lost;
	long budget_ms;		/* MSTI 1's outage bound, if not 0 */
	bool access_cut;	/* h1's link down from 7.5 s, past the flows' end */
	bool sink_cut;		/* h2's link down from 7.95 s: 5 frames in flight */
	/* sw3's FDB dumps around the failure: 0 none, 1 it lost h1 in
	 * VLAN 10 (MSTI 1) only, 2 in VLAN 20 (MSTI 2) too. */
	int dumps;
	bool regions;		/* sw3 a region of its own, VLANs swapped */
};

/* The event log: both flows from 1.5 s to 8 s, sw1:p1 failing at 5 s
 * (or h1's link for 200 ms at 2.5 s), and the cuts asked for. */
static const char *events(const struct leak *lk)
{
	static char log[1024];

	snprintf(log, sizeof(log), "1000000000 scenario s\n%s%s%s%s%s%s",
		 lk->no_flows ? "" :
		 "1500000000 probe-start 1 h1 h2 10 100\n"
		 "1500000000 probe-start 2 h1 h2 20 100\n",
		 lk->access_down ?
		 "2495000000 link-down link4 carrier\n"
		 "2695000000 link-up link4\n" :
		 "4999000000 step 1 fail sw1:p1\n"
		 "5000000000 link-down link1 carrier\n"
		 "5600000000 step 2 wait for convergence\n",
		 lk->access_cut ? "7500000000 link-down link4 carrier\n" : "",
		 lk->sink_cut ? "7950000000 link-down link5 carrier\n" : "",
		 lk->no_flows ? "" :
		 "8000000000 probe-stop 1\n"
		 "8000000000 probe-stop 2\n",
		 "9000000000 run-end ok\n");
	return log;
}

static int open_run(struct run *r, const struct leak *lk)
{
	char path[256], topo[1400];
	struct topo_error te;
	int n;

	memset(r, 0, sizeof(*r));
	r->regions = lk->regions;
	snprintf(r->dir, sizeof(r->dir), "/tmp/mstlab-flush-XXXXXX");
	if (!mkdtemp(r->dir))
		return -1;
	n = snprintf(topo, sizeof(topo), "%s%s%s", yaml_head,
		     lk->regions ? sw3_own : sw3_same, yaml);
	if (lk->budget_ms)
		snprintf(topo + n, sizeof(topo) - (size_t)n,
			 ", outage_ms: { 1: %ld } }\n", lk->budget_ms);
	else
		snprintf(topo + n, sizeof(topo) - (size_t)n, " }\n");
	fx_write_file(r->dir, "topology.yaml", topo);
	snprintf(path, sizeof(path), "%s/topology.yaml", r->dir);
	if (topo_parse_file(path, &r->t, &te) || plan_build(r->t, &r->p))
		return -1;
	fx_write_file(r->dir, "events", events(lk));
	snprintf(path, sizeof(path), "%s/fdb", r->dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/pcap", r->dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/share", r->dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/share/h2", r->dir);
	mkdir(path, 0755);
	r->dead = pcap_open_dead_with_tstamp_precision(
		DLT_EN10MB, 65535, PCAP_TSTAMP_PRECISION_NANO);
	for (int l = 0; l < N_LINKS; l++) {
		snprintf(path, sizeof(path), "%s/%s", r->dir,
			 r->p->links[l].pcap);
		r->d[l] = pcap_dump_open(r->dead, path);
		if (!r->d[l])
			return -1;
	}
	return 0;
}

/*
 * BPDUs every second on the ports whose state matters; probe frames of
 * both flows at 100/s along their path (MSTI 1 moves at 5 s); the leaks
 * asked for on link 6; then the sinks' reports.
 */
static void write_run(struct run *r, const struct leak *lk)
{
	const struct fx_adv alt = { BPDU_ROLE_ALT_BACKUP, false, false },
			      desig = { BPDU_ROLE_DESIGNATED, true, false },
			      desig_tc = { BPDU_ROLE_DESIGNATED, true, true },
			      root = { BPDU_ROLE_ROOT, true, false },
			      root_tc = { BPDU_ROLE_ROOT, true, true };
	char json[400];
	uint32_t seq = 0;

	for (int64_t ms = 1000; ms < 9000; ms += 1000) {
		bool after = ms > 5000, tc = ms == 6000;
		struct fx_adv sw3p2[3] = { after ? (tc ? desig_tc : desig) : alt,
					     after ? (tc ? desig_tc : desig) : alt,
					     desig };
		struct fx_adv sw2p1[3] = { root, root, alt };

		if (!lk->silent_root || after)
			bpdu(r, L3, MS(ms), SW3, 1, sw3p2);
		else if (ms == 1000)
			bpdu(r, L3, MS(ms), SW3, 1,
			     (struct fx_adv[3]){ root, root, desig });
		else if (ms == 2000)
			bpdu(r, L2, MS(ms), SW3, 0,
			     (struct fx_adv[3]){ root, root, desig });
		if (!after)
			bpdu(r, L1, MS(ms), SW2, 0, sw2p1);
		/* sw3:p1 designated towards sw2 after the failure, passing
		 * MSTI 1's TC on (802.1Q: every port but the one a TC
		 * arrives on); or sw2's new root port bringing it. */
		if (after && !lk->tc_from_dest)
			bpdu(r, L2, MS(ms), SW3, 0,
			     (struct fx_adv[3]){ tc ? desig_tc : desig,
						 tc ? desig_tc : desig, desig });
		else if (after)
			bpdu(r, L2, MS(ms), SW2, 1,
			     (struct fx_adv[3]){ tc ? root_tc : root,
						 tc ? root_tc : root, root });
		if (lk->h3_blocked)
			bpdu(r, L6, MS(ms), SW3, 2,
			     (struct fx_adv[3]){ alt, alt, alt });
	}
	for (int64_t ms = 1500; ms < 8000; ms += 10, seq++) {
		bool after = ms > 5000;

		if (lk->sender_skips && seq >= 100 && seq <= 119)
			continue;
		if (lk->sender_skips && seq >= 200 && seq <= 209) {
			probe(r, L4, MS(ms) + 1, 1, seq);
			continue;
		}
		if (lk->burst && seq >= 193 && seq <= 214) {
			int64_t t = seq < 195 ? MS(ms) + 1 :
					MS(3640) + (seq - 195) * 100000;
			bool lost = lk->burst == 1 ? seq >= 200 && seq <= 209 :
						     seq <= 194;

			probe(r, L4, t, 1, seq);
			probe(r, L4, t + 1, 2, seq);
			if (!lost)
				probe(r, L1, t + 1000, 1, seq);
			probe(r, L1, t + 1001, 2, seq);
			if (!lost)
				probe(r, L5, t + 3000, 1, seq);
			probe(r, L5, t + 3001, 2, seq);
			continue;
		}
		probe(r, L4, MS(ms) + 1, 1, seq);
		probe(r, L4, MS(ms) + 1, 2, seq);
		probe(r, after ? L3 : L1, MS(ms) + 2, 1, seq);
		probe(r, L3, MS(ms) + 2, 2, seq);
		if (after)
			probe(r, L2, MS(ms) + 3, 1, seq);
		probe(r, L2, MS(ms) + 3, 2, seq);
		if (seq >= lk->head_lost && seq + lk->tail_lost < N_SEQ)
			probe(r, L5, MS(ms) + 4, 1, seq);
		probe(r, L5, MS(ms) + 4, 2, seq);
		if (ms > 5100 && ms < 5600) {
			if (lk->flow1)
				probe(r, L6, MS(ms) + 5, 1, seq);
			if (lk->flow2)
				probe(r, L6, MS(ms) + 5, 2, seq);
		}
		if ((lk->before || lk->before_both) && ms > 4200 && ms < 4300)
			probe(r, L6, MS(ms) + 5, 1, seq);
		if (lk->before_both && ms > 4200 && ms < 4300)
			probe(r, L6, MS(ms) + 6, 2, seq);
	}
	for (int l = 0; l < N_LINKS; l++)
		pcap_dump_close(r->d[l]);
	if (lk->dumps) {
		char e[3][160], json[600];
		const char *mac = r->p->nodes[H1].nic[0].mac_str;

		for (int k = 0; k < 2; k++)
			snprintf(e[k], sizeof(e[k]),
				 "{\"mac\":\"%s\",\"ifname\":\"p1\",\"vlan\":%d,"
				 "\"flags\":[],\"master\":\"br0\",\"state\":\"\"}",
				 mac, (k + 1) * 10);
		snprintf(json, sizeof(json), "[%s,%s]\n", e[0], e[1]);
		fx_write_file(r->dir, "fdb/s-step1-before-sw3.json", json);
		snprintf(json, sizeof(json), "[%s]\n", lk->dumps == 1 ? e[1] : "");
		fx_write_file(r->dir, "fdb/s-step2-converged-sw3.json", json);
	}
	if (lk->capture_lost) {
		char log[256];

		snprintf(log, sizeof(log), "%s.log", r->p->links[L5].pcap);
		fx_write_file(r->dir, log, "650 packets captured\n"
			      "3 packets dropped by kernel\n");
	}
	for (unsigned f = 1; f <= 2; f++) {
		char name[32];
		long got = (long)r->on_link5[f] - (f == 2 ? lk->sink_missing : 0);

		const char *gaps = lk->sender_skips ?
			"{\"first\":100,\"last\":119},{\"first\":200,\"last\":209}" :
			f == 2 ? "" :
			lk->burst == 1 ? "{\"first\":200,\"last\":209}" :
			lk->burst == 2 ? "{\"first\":193,\"last\":194}" : "";
		snprintf(json, sizeof(json),
			 "{\"flows\":[{\"flow\":%u,\"vid\":%u,\"received\":%ld,"
			 "\"lost\":%d,\"duplicated\":0,\"reordered\":0,"
			 "\"first_seq\":%u,\"last_seq\":%u,\"gaps\":[%s]}],"
			 "\"malformed\":0,\"dropped\":%ld}\n",
			 f, f * 10, got, lk->sender_skips ? 30 : 0,
			 f == 1 ? lk->head_lost : 0,
			 N_SEQ - 1 - (f == 1 ? lk->tail_lost : 0), gaps,
			 f == 2 && lk->sink_dropped ? lk->sink_missing : 0L);
		snprintf(name, sizeof(name), "share/h2/probe-%u.json", f);
		fx_write_file(r->dir, name, json);
	}
}

static void close_run(struct run *r)
{
	char *argv[] = { "rm", "-rf", r->dir, NULL };

	fx_run_done(r->dir);
	plan_free(r->p);
	topo_free(r->t);
	pcap_close(r->dead);
	spawn_run(argv, NULL, 10000);
}

/* The verdict lines of one synthesised run. */
static char *verdicts(const struct leak *lk)
{
	struct run r;
	char *out = NULL;
	size_t len = 0;
	int tap = 0;
	FILE *o;

	if (open_run(&r, lk))
		return strdup("cannot build the run");
	write_run(&r, lk);
	o = open_memstream(&out, &len);
	run_verdicts(r.t, r.dir, o, &tap, NULL);
	fclose(o);
	close_run(&r);
	if (getenv("UNIT_VERBOSE"))
		fputs(out, stderr);
	return out;
}

/* The summary.json mstlab verdict writes for one synthesised run. */
static json_t *summary(const struct leak *lk)
{
	char *argv[2] = { "verdict" }, *out, *err, path[256];
	struct run r;
	json_t *j;
	int rc;

	if (open_run(&r, lk))
		return NULL;
	write_run(&r, lk);
	argv[1] = r.dir;
	out = unit_capture(cmd_verdict, 2, argv, &rc, &err);
	free(out);
	free(err);
	snprintf(path, sizeof(path), "%s/summary.json", r.dir);
	j = json_load_file(path, 0, NULL);
	close_run(&r);
	return j;
}

TEST(a_flush_in_the_changed_msti_only_is_per_msti)
{
	char *out = verdicts(&(struct leak){ .flow1 = true });

	CHECK(strstr(out, "ok 9 - check s: link-down link1 carrier: FDB flush "
			  "per-msti (expected per-msti)\n") != NULL);
	free(out);
}

TEST(a_flush_leaking_into_an_unchanged_msti_is_whole_port)
{
	char *out = verdicts(&(struct leak){ .flow1 = true, .flow2 = true });

	CHECK(strstr(out, "not ok 9 - check s: link-down link1 carrier: FDB "
			  "flush whole port (expected per-msti)\n# msti 1 "
			  "flooded 49 frames (first: flow 1 vlan 10 on link6); "
			  "msti 2 without a topology change flooded 49 frames "
			  "(first: flow 2 vlan 20 on link6)\n") != NULL);
	free(out);
}

TEST(no_flooding_after_a_topology_change_is_no_flush)
{
	char *out = verdicts(&(struct leak){ 0 });

	CHECK(strstr(out, "not ok 9 - check s: link-down link1 carrier: FDB "
			  "flush none (expected per-msti)\n# msti 1 kept 1 flow "
			  "on its path; msti 2 kept 1 flow on its path\n") != NULL);
	free(out);
}

TEST(a_flow_flooded_before_the_event_proves_nothing)
{
	char *out = verdicts(&(struct leak){ .flow1 = true, .before = true });

	/* Flow 1 is out; flow 2 alone sits in a tree without TC. */
	CHECK(strstr(out, "check s: link-down link1 carrier: FDB flush not "
			  "observable (expected per-msti) # SKIP no probe flow "
			  "that could show a flush in a tree with a topology "
			  "change: it flooded before the event, its destination "
			  "already unknown (flow 1)\n") != NULL);
	free(out);
}

/* Both flows flooded before the failure: the skip says so, not that no
 * flow ran across it (issue 27). */
TEST(flows_flooded_before_the_event_are_named_in_the_skip)
{
	char *out = verdicts(&(struct leak){ .flow1 = true,
					     .before_both = true });

	CHECK(strstr(out, "check s: link-down link1 carrier: FDB flush not "
			  "observable (expected per-msti) # SKIP no probe flow "
			  "could show a flush: it flooded before the event, its "
			  "destination already unknown (flows 1, 2)\n") != NULL);
	free(out);
}

/*
 * Issue 27: the TC reaches sw3, the one bridge on the flows' new path
 * that could flood off it (to h3), from sw2: from the side of the
 * flows' destination h2, on the port h2 is learnt on, which 802.1Q does
 * not flush. A correct flush floods nothing here: not "none", a skip
 * that says why.
 */
TEST(a_tc_only_from_the_destinations_side_shows_no_flush)
{
	char *out = verdicts(&(struct leak){ .tc_from_dest = true });

	CHECK(strstr(out, "ok 9 - check s: link-down link1 carrier: FDB flush "
			  "not observable (expected per-msti) # SKIP no probe "
			  "flow could show a flush: no bridge on its path "
			  "flushed its port towards the destination, none sent "
			  "a TC out of it (802.1Q flushes every port but the "
			  "one a TC arrives on) (flows 1, 2)\n") != NULL);
	free(out);
}

TEST(the_sink_must_count_what_its_link_carried)
{
	char *out = verdicts(&(struct leak){ .flow1 = true, .sink_missing = 3 });

	CHECK(strstr(out, "\nok 6 - check s: flow 1: the sink counted 650 "
			  "frames, its link's capture 650\n") != NULL);
	CHECK(strstr(out, "\nnot ok 8 - check s: flow 2: the sink counted 647 "
			  "frames, its link's capture 650\n# the sink missed 3 "
			  "frames seen in the capture\n") != NULL);
	free(out);
}

/* The sink says its ring overflowed: the check says so too. */
TEST(a_sink_whose_ring_overflowed_says_so)
{
	char *out = verdicts(&(struct leak){ .flow1 = true, .sink_missing = 3,
					     .sink_dropped = true });

	CHECK(strstr(out, "\nnot ok 8 - check s: flow 2: the sink counted 647 "
			  "frames, its link's capture 650\n# the sink missed 3 "
			  "frames seen in the capture; its receive ring had no "
			  "room for 3\n") != NULL);
	free(out);
}

/* sw3:p2 said root once, then sw3 named p1 its root port: p2 went quiet
 * as an alternate, which its last BPDU does not say. */
TEST(a_root_port_gone_quiet_is_an_alternate)
{
	char *out = verdicts(&(struct leak){ .flow1 = true, .silent_root = true });

	CHECK(strstr(out, "\nok 3 - check s: msti 1 blocks exactly sw3:p2 "
			  "before the first failure\n") != NULL);
	free(out);
}

/* The sink counted more than the capture holds: the capture's own loss,
 * when tcpdump reported one, not the sink's error. */
TEST(a_capture_that_lost_frames_cannot_vouch_for_the_sink)
{
	char *out = verdicts(&(struct leak){ .sink_missing = -3 });

	CHECK(strstr(out, "\nnot ok 8 - check s: flow 2: the sink counted 653 "
			  "frames, its link's capture 650\n# the sink counted 3 "
			  "frames more than the capture\n") != NULL);
	free(out);
	out = verdicts(&(struct leak){ .sink_missing = -3, .capture_lost = true });
	CHECK(strstr(out, "\nok 8 - check s: flow 2: the sink counted 653 "
			  "frames, its link's capture 650 # SKIP the capture of "
			  "link5 lost 3 frames\n") != NULL);
	CHECK(strstr(out, "# checks: the capture of link5 lost 3 frames "
			  "(tcpdump: dropped by kernel)\n") != NULL);
	free(out);
}

/* No flow crossed the failure, but sw3's FDB dumps around it show h1
 * lost in MSTI 1's VLAN only; and, with flows that saw a per-MSTI
 * flush, dumps that show MSTI 2's entry lost too overrule them. */
TEST(the_fdb_dumps_judge_the_flush_where_flows_cannot)
{
	char *out = verdicts(&(struct leak){ .no_flows = true, .dumps = 1 });

	CHECK(strstr(out, "ok 5 - check s: link-down link1 carrier: FDB flush "
			  "per-msti in the FDB dumps (expected per-msti)\n") != NULL);
	free(out);
	out = verdicts(&(struct leak){ .flow1 = true, .dumps = 2 });
	CHECK(strstr(out, "\nnot ok 9 - check s: link-down link1 carrier: FDB "
			  "flush whole port in the FDB dumps (expected per-msti)\n"
			  "# msti 1 flooded 49 frames (first: flow 1 vlan 10 on "
			  "link6); msti 2 kept 1 flow on its path; FDB dumps: msti 1 "
			  "lost 1 learnt (sw3 p1 ") != NULL);
	CHECK(strstr(out, "vlan 10), msti 2 (no topology change) lost 1 learnt (sw3 p1 ")
	      != NULL);
	free(out);
}

/* A gap the sender's own link never carried is the sender's, not the
 * network's: 20 frames never sent, then 10 lost on the way, whose
 * neighbours crossed h1's link 110 ms apart. */
TEST(frames_never_sent_are_no_outage_of_the_network)
{
	char *out = verdicts(&(struct leak){ .sender_skips = true });

	CHECK(strstr(out, "\nok 5 - check s: flow 1 h1->h2 vlan 10: outage "
			  "110 ms, no budget\n") != NULL);
	free(out);
}

/* Frames lost before the first that reached the sink are an outage,
 * though the sink lists them in no gap: 0-19, from seq 0 to 20 on the
 * sender's link. */
TEST(frames_lost_before_the_first_arrival_are_an_outage)
{
	char *out = verdicts(&(struct leak){ .head_lost = 20, .budget_ms = 150 });

	CHECK(strstr(out, "\nnot ok 5 - check s: flow 1 h1->h2 vlan 10: outage "
			  "200 ms (at most 150)\n# frames 0-19 missing (20 at 100 "
			  "frames/s) before the first frame that arrived: the "
			  "first of them and the first frame that arrived crossed "
			  "the sender's link 200.0 ms apart, the missing ones "
			  "over 190.0 ms\n") != NULL);
	free(out);
}

/* Frames sent after the last that arrived: the path had not come back
 * when the flow stopped, so the outage is open and no bound holds. */
TEST(frames_sent_after_the_last_arrival_leave_the_outage_open)
{
	char *out = verdicts(&(struct leak){ .tail_lost = 10, .budget_ms = 500 });

	CHECK(strstr(out, "\nnot ok 5 - check s: flow 1 h1->h2 vlan 10: outage "
			  "at least 100 ms, still open at the flow's end (at most "
			  "500)\n# frames 640-649 missing (10 at 100 frames/s) "
			  "after the last frame that arrived: the last frame that "
			  "arrived and the last sent crossed the sender's link "
			  "100.0 ms apart, the missing ones over 90.0 ms; the flow "
			  "stopped before the path came back, so no bound holds\n")
	      != NULL);
	free(out);
	out = verdicts(&(struct leak){ .tail_lost = 10 });
	CHECK(strstr(out, "\nok 5 - check s: flow 1 h1->h2 vlan 10: outage at "
			  "least 100 ms, still open at the flow's end, no budget\n")
	      != NULL);
	free(out);
}

/* A sender whose own link failed before its flow stopped: the frames
 * due after that reached no capture, so only the event log shows the
 * path never came back (500 ms before the stop). */
TEST(a_sender_link_down_at_the_flows_end_leaves_the_outage_open)
{
	char *out = verdicts(&(struct leak){ .access_cut = true,
					     .tail_lost = 5, .budget_ms = 1000 });

	CHECK(strstr(out, "\nnot ok 6 - check s: flow 1 h1->h2 vlan 10: outage "
			  "at least 500 ms, still open at the flow's end (at most "
			  "1000)\n# frames 645-649 missing (5 at 100 frames/s) "
			  "after the last frame that arrived: the last frame that "
			  "arrived and the last sent crossed the sender's link "
			  "50.0 ms apart, the missing ones over 40.0 ms; the "
			  "sender's link had been down 500.0 ms when the flow "
			  "stopped, so no bound holds\n") != NULL);
	free(out);
}

/* The capture saw 5 frames of each flow on h2's link after it failed:
 * the sink may have had them or not, but it must have had the rest. */
TEST(frames_captured_as_the_sinks_link_failed_may_be_missing)
{
	char *out = verdicts(&(struct leak){ .sink_cut = true,
					     .sink_missing = 5 });

	CHECK(strstr(out, "\nok 9 - check s: flow 2: the sink counted 645 frames, "
			  "its link's capture 650 (5 while the link was down)\n")
	      != NULL);
	free(out);
	out = verdicts(&(struct leak){ .sink_cut = true, .sink_missing = 6 });
	CHECK(strstr(out, "\nnot ok 9 - check s: flow 2: the sink counted 644 "
			  "frames, its link's capture 650 (5 while the link was "
			  "down)\n# the sink missed 1 frames seen in the capture\n")
	      != NULL);
	free(out);
}

/* But frames due while the sender's own link was down are the network's
 * outage: 20 frames, between neighbours 210 ms apart. */
TEST(frames_due_on_a_failed_access_link_are_an_outage)
{
	char *out = verdicts(&(struct leak){ .sender_skips = true,
					     .access_down = true });

	CHECK(strstr(out, " - check s: flow 1 h1->h2 vlan 10: outage 210 ms, "
			  "no budget\n") != NULL);
	free(out);
}

/* A stalled sender's catch-up burst: 10 frames lost (100 ms at 100/s)
 * whose neighbours crossed h1's link 1.1 ms apart. The path was down
 * 1.1 ms at most, not 100. */
TEST(frames_lost_in_a_burst_are_timed_on_the_wire)
{
	char *out = verdicts(&(struct leak){ .burst = 1 });

	CHECK(strstr(out, "\nok 5 - check s: flow 1 h1->h2 vlan 10: outage "
			  "1 ms, no budget\n") != NULL);
	free(out);
}

/* And the other way: 2 frames lost (20 ms) just before the sender
 * stalled; the next frame left 200 ms later, so the path may have been
 * down up to 220 ms, and the outage says so. */
TEST(a_stall_after_a_loss_counts_until_the_next_frame_left)
{
	char *out = verdicts(&(struct leak){ .burst = 2 });

	CHECK(strstr(out, "\nok 5 - check s: flow 1 h1->h2 vlan 10: outage "
			  "220 ms, no budget\n") != NULL);
	free(out);
}

/* Wire times on the sender's link, to the us; a frame past the 32 bits
 * of them (71 min into the flow) is still seen, only untimed. */
TEST(the_sender_link_keeps_each_frames_wire_time)
{
	uint8_t f[64] = { 0 };
	unsigned long last = 0;
	struct flows fl;
	int64_t ns = 0;

	flows_init(&fl, 2);
	CHECK_INT(flows_start(&fl, 7, 0, 1, 0, 10, 1000, MS(1000)), 0);
	CHECK(!flows_last_sent(&fl.f[0], &last));
	f[12] = 0x81;
	f[15] = 10;
	f[16] = PROBE_ETHERTYPE >> 8;
	f[17] = PROBE_ETHERTYPE & 0xff;
	probe_hdr_encode(&(struct probe_hdr){ .flow = 7, .vid = 10, .seq = 3 }, f + 18);
	flows_frame(&fl, 0, MS(1003) + 1500, 1, f, sizeof(f));
	flows_frame(&fl, 0, MS(1009), 2, f, sizeof(f));	/* a later copy */
	probe_hdr_encode(&(struct probe_hdr){ .flow = 7, .vid = 10, .seq = 5 }, f + 18);
	flows_frame(&fl, 0, MS(1000) + MS(72 * 60 * 1000), 3, f, sizeof(f));
	CHECK(flows_wire_ns(&fl.f[0], 3, &ns));
	CHECK(ns == MS(1003) + 1000);
	CHECK(flows_sent(&fl.f[0], 3));
	CHECK(!flows_sent(&fl.f[0], 4) && !flows_wire_ns(&fl.f[0], 4, &ns));
	CHECK(flows_sent(&fl.f[0], 5) && !flows_wire_ns(&fl.f[0], 5, &ns));
	CHECK(flows_last_sent(&fl.f[0], &last) && last == 5);
	flows_free(&fl);
}

/* With sw3's last other port discarding, a flush on the new path could
 * flood nowhere off it: no flooding proves nothing (SKIP, not "none"). */
TEST(a_flush_no_flow_could_show_is_not_judged)
{
	char *out = verdicts(&(struct leak){ .h3_blocked = true });

	CHECK(strstr(out, "check s: link-down link1 carrier: FDB flush not "
			  "observable (expected per-msti) # SKIP no probe flow "
			  "could show a flush: the bridges on its path forward "
			  "onto no other captured link (flows 1, 2)\n") != NULL);
	free(out);
}

/*
 * Per-event figures line up (issue 27): each tree's tc_first_s and
 * tc_last_s hold one value per event, as settle_s does, null where the
 * tree had no TC (MSTI 2 here); MSTI 1's first TC came 1 s after the
 * failure.
 */
TEST(tc_figures_line_up_with_the_settle_times)
{
	json_t *j = summary(&(struct leak){ .flow1 = true }), *trees, *fig;

	CHECK(j != NULL);
	trees = json_object_get(json_array_get(json_object_get(j, "scenarios"),
					       0), "trees");
	CHECK_INT(json_array_size(trees), 3);
	for (size_t i = 0; i < json_array_size(trees); i++) {
		fig = json_object_get(json_array_get(trees, i), "figures");
		CHECK_INT(json_array_size(json_object_get(fig, "settle_s")), 1);
		CHECK_INT(json_array_size(json_object_get(fig, "tc_first_s")), 1);
		CHECK_INT(json_array_size(json_object_get(fig, "tc_last_s")), 1);
	}
	fig = json_object_get(json_array_get(trees, 1), "figures");
	CHECK(json_real_value(json_array_get(json_object_get(fig, "tc_first_s"),
					     0)) == 1.0);
	fig = json_object_get(json_array_get(trees, 2), "figures");
	CHECK(json_is_null(json_array_get(json_object_get(fig, "tc_first_s"), 0)));
	CHECK(json_is_null(json_array_get(json_object_get(fig, "tc_last_s"), 0)));
	json_decref(j);
}

/* The figures of one tree (tree: 0 CIST, 1.. MSTIs) of summary.json. */
static json_t *tree_figures(json_t *j, size_t tree)
{
	json_t *trees = json_object_get(json_array_get(
		json_object_get(j, "scenarios"), 0), "trees");

	return json_object_get(json_array_get(trees, tree), "figures");
}

/* The first check of that name in the scenario, or NULL. */
static json_t *check_named(json_t *j, const char *name)
{
	json_t *checks = json_object_get(json_array_get(
		json_object_get(j, "scenarios"), 0), "checks"), *c;
	size_t i;

	json_array_foreach(checks, i, c)
		if (!strcmp(json_string_value(json_object_get(c, "name")), name))
			return c;
	return NULL;
}

/* Its message, or "". */
static const char *check_message(json_t *j, const char *name)
{
	const char *m = json_string_value(json_object_get(check_named(j, name),
							  "message"));

	return m ? m : "";
}

/*
 * Issue 43: sw3 is a region of its own that puts VLAN 10 in MSTI 2 (and
 * 20 in MSTI 1). Flow 1's flooding onto h3's link, sw3's, is MSTI 2's
 * there, not MSTI 1's as the lab's map has it; both trees' bridges
 * carry flow 1, so both count it.
 */
TEST(flooding_counts_in_the_tree_of_its_region)
{
	json_t *j = summary(&(struct leak){ .flow1 = true, .regions = true });
	json_t *f1, *f2;

	CHECK(j != NULL);
	CHECK_STR(check_message(j, "flush-link-down"),
		  "msti 1 kept 2 flows on their path; msti 2 flooded 49 "
		  "frames (first: flow 1 vlan 10 on link6)");
	f1 = json_object_get(tree_figures(j, 1), "flooded_frames");
	f2 = json_object_get(tree_figures(j, 2), "flooded_frames");
	CHECK(json_number_value(json_array_get(f1, 0)) == 0.0);
	CHECK(json_number_value(json_array_get(f2, 0)) == 49.0);
	json_decref(j);
}

/*
 * An outage names the frames on the sender's link whose times bound it:
 * flow 1's frames 0-19 missing, the first of them (seq 0) and the first
 * that arrived (seq 20), frames 1 and 41 of h1's link (flow 2's frames
 * between); none without a gap.
 */
TEST(an_outage_names_the_frames_that_bound_it)
{
	json_t *j = summary(&(struct leak){ .head_lost = 20, .budget_ms = 150 });
	json_t *ev = json_object_get(check_named(j, "outage"), "evidence");

	CHECK_INT(json_array_size(ev), 2);
	CHECK_STR(json_string_value(json_object_get(json_array_get(ev, 0),
						    "pcap")),
		  "pcap/link4-h1.eth1-sw1.p3.pcap");
	CHECK_INT(json_integer_value(json_object_get(json_array_get(ev, 0),
						     "frame")), 1);
	CHECK_INT(json_integer_value(json_object_get(json_array_get(ev, 1),
						     "frame")), 41);
	CHECK(json_integer_value(json_object_get(json_array_get(ev, 1),
						 "time_ns")) == MS(1700));
	json_decref(j);
	j = summary(&(struct leak){ 0 });
	ev = json_object_get(check_named(j, "outage"), "evidence");
	CHECK_INT(json_array_size(ev), 0);
	json_decref(j);
}
