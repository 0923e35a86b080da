// SPDX-License-Identifier: MIT
/*
 * mstd status for the control socket: bridge, trees, per-tree port roles
 * and states, per-port counters, as text or JSON (libmst's printer).
 */
#include "daemon.h"
#include "print.h"

#include <string.h>
#include <time.h>

static const char *bid_str(const struct bridge_id *id, char buf[24])
{
	snprintf(buf, 24, "%04x.%02x%02x%02x%02x%02x%02x", id->prio,
		 id->mac[0], id->mac[1], id->mac[2], id->mac[3], id->mac[4],
		 id->mac[5]);
	return buf;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static const char *port_name(const struct mstd *d, int port)
{
	return port >= 0 && (unsigned int)port < d->nports ?
	       d->ports[port].name : NULL;
}

/* Milliseconds since @t (a now_ms() value), or null when never. */
static void ms_ago(struct printer *pr, const char *key, const char *fmt,
		   uint64_t t)
{
	if (t)
		print_uint(pr, PRINT_ANY, key, fmt,
			   (unsigned int)(now_ms() - t));
	else
		print_null(pr, PRINT_ANY, key, " last_tc never");
}

static const char *cost_src(bool is_auto)
{
	return is_auto ? "auto" : "set";
}

/* What explains the port's role: the vector it holds (13.27 portPriority)
 * and the handshake's flags. */
static void status_designated(struct printer *pr,
			      const struct mstp_port_status *ps, unsigned int t)
{
	static const uint8_t none[6];
	char b[24];

	/* A disabled port holds no vector (13.27 infoIs Disabled). */
	if (!memcmp(ps->designated_bridge.mac, none, sizeof(none))) {
		print_null(pr, PRINT_ANY, "designated_root",
			   "\n      designated none");
		goto flags;
	}
	print_string(pr, PRINT_ANY, "designated_root", "\n      designated root %s",
		     bid_str(&ps->designated_root, b));
	if (t == 0) {
		print_uint(pr, PRINT_ANY, "designated_ext_cost", " ext_cost %u",
			   ps->designated_ext_cost);
		print_string(pr, PRINT_ANY, "designated_regional_root",
			     " regional_root %s",
			     bid_str(&ps->designated_rroot, b));
	}
	print_uint(pr, PRINT_ANY, "designated_cost", " cost %u",
		   ps->designated_cost);
	print_string(pr, PRINT_ANY, "designated_bridge", " bridge %s",
		     bid_str(&ps->designated_bridge, b));
	snprintf(b, sizeof(b), "%x.%03x", ps->designated_port >> 12,
		 ps->designated_port & 0xfff);
	print_string(pr, PRINT_ANY, "designated_port", " port %s", b);
	print_bool(pr, PRINT_ANY, "info_received", " received %s",
		   ps->info_received);
flags:
	print_string(pr, PRINT_FP, NULL, "%s", "\n      flags");
	print_bool(pr, PRINT_ANY, "disputed", " disputed %s", ps->disputed);
	print_bool(pr, PRINT_ANY, "proposing", " proposing %s", ps->proposing);
	print_bool(pr, PRINT_ANY, "proposed", " proposed %s", ps->proposed);
	print_bool(pr, PRINT_ANY, "agreed", " agreed %s", ps->agreed);
	print_bool(pr, PRINT_ANY, "agree", " agree %s", ps->agree);
	print_bool(pr, PRINT_ANY, "learning", " learning %s", ps->learning);
	print_bool(pr, PRINT_ANY, "forwarding", " forwarding %s",
		   ps->forwarding);
	print_bool(pr, PRINT_ANY, "root_inconsistent", " root_inconsistent %s",
		   ps->root_inconsistent);
	print_bool(pr, PRINT_ANY, "loop_inconsistent", " loop_inconsistent %s",
		   ps->loop_inconsistent);
}

static void status_port_tree(struct mstd *d, struct printer *pr,
			     unsigned int i, unsigned int t)
{
	struct mstp_port_status ps;
	char pid[12];

	if (mstp_get_port_status(d->br, i, t, &ps))
		return;
	snprintf(pid, sizeof(pid), "%x.%03x", ps.port_id >> 12,
		 ps.port_id & 0xfff);
	print_open_object(pr, NULL);
	print_string(pr, PRINT_ANY, "port", "  %-10s", d->ports[i].name);
	print_string(pr, PRINT_ANY, "role", " %-10s", mstp_role_name(ps.role));
	print_string(pr, PRINT_ANY, "state", " %-10s",
		     mstp_state_name(ps.state));
	print_string(pr, PRINT_ANY, "port_id", " id %s", pid);
	print_uint(pr, PRINT_ANY, "path_cost", " cost %u", ps.path_cost);
	print_uint(pr, PRINT_ANY, "int_path_cost", " int_cost %u",
		   ps.int_path_cost);
	print_string(pr, PRINT_ANY, "int_cost_source", " (%s)",
		     cost_src(ps.int_cost_auto));
	if (t == 0) {
		print_uint(pr, PRINT_ANY, "ext_path_cost", " ext_cost %u",
			   ps.ext_path_cost);
		print_string(pr, PRINT_ANY, "ext_cost_source", " (%s)",
			     cost_src(ps.ext_cost_auto));
	}
	print_bool(pr, PRINT_ANY, "edge", " edge %s", ps.oper_edge);
	print_bool(pr, PRINT_ANY, "p2p", " p2p %s", ps.oper_p2p);
	print_bool(pr, PRINT_ANY, "enabled", " enabled %s", ps.enabled);
	print_bool(pr, PRINT_ANY, "boundary", " boundary %s", ps.boundary);
	print_bool(pr, PRINT_ANY, "send_rstp", " rstp %s", ps.send_rstp);
	print_uint(pr, PRINT_ANY, "tc_while", " tc_while %u", ps.tc_while);
	ms_ago(pr, "last_tc_ms_ago", " last_tc %ums_ago", ps.last_tc_ms);
	print_string(pr, PRINT_ANY, "kernel_state", " kernel %s",
		     d->ports[i].kstate[t] == 0xff ? "unset" :
		     mstnl_state_name(d->ports[i].kstate[t]));
	status_designated(pr, &ps, t);
	print_nl(pr);
	print_close_object(pr);
}

static void status_tree(struct mstd *d, struct printer *pr, unsigned int t,
			int only_port)
{
	struct mstp_tree_status ts;
	char b[24];
	const char *rp;

	if (mstp_get_tree_status(d->br, t, &ts))
		return;
	print_open_object(pr, NULL);
	if (t == 0)
		print_string(pr, PRINT_FP, NULL, "tree %s", "cist");
	else
		print_uint(pr, PRINT_FP, NULL, "tree msti %u", ts.mstid);
	print_uint(pr, PRINT_JSON, "msti", NULL, ts.mstid);
	print_string(pr, PRINT_ANY, "bridge_id", " bridge %s",
		     bid_str(&ts.bridge_id, b));
	if (t == 0) {
		print_string(pr, PRINT_ANY, "root_id", " root %s",
			     bid_str(&ts.root_id, b));
		print_uint(pr, PRINT_ANY, "ext_root_path_cost", " ext_cost %u",
			   ts.ext_root_path_cost);
	}
	print_string(pr, PRINT_ANY, "regional_root_id", " regional_root %s",
		     bid_str(&ts.regional_root_id, b));
	print_uint(pr, PRINT_ANY, "int_root_path_cost", " int_cost %u",
		   ts.int_root_path_cost);
	rp = port_name(d, ts.root_port);
	if (rp)
		print_string(pr, PRINT_ANY, "root_port", " root_port %s", rp);
	else
		print_null(pr, PRINT_ANY, "root_port", " root_port none");
	print_uint(pr, PRINT_ANY, "tc_count", " tc %u", ts.tc_count);
	if (ts.last_tc_ms) {
		print_uint(pr, PRINT_ANY, "last_tc_ms_ago", " last_tc %ums_ago",
			   (unsigned int)(now_ms() - ts.last_tc_ms));
		rp = port_name(d, ts.last_tc_port);
		if (rp)
			print_string(pr, PRINT_ANY, "last_tc_port", " on %s",
				     rp);
	} else {
		print_null(pr, PRINT_JSON, "last_tc_ms_ago", NULL);
	}
	print_uint(pr, PRINT_ANY, "remaining_hops", " hops %u",
		   ts.remaining_hops);
	if (t == 0) {
		print_uint(pr, PRINT_ANY, "root_max_age", " max_age %u",
			   ts.max_age);
		print_uint(pr, PRINT_ANY, "root_forward_delay",
			   " forward_delay %u", ts.fwd_delay);
		print_uint(pr, PRINT_ANY, "root_message_age",
			   " message_age %u", ts.message_age);
	}
	print_nl(pr);
	print_open_array(pr, "ports");
	for (unsigned int i = 0; i < d->nports; i++)
		if (only_port < 0 || (unsigned int)only_port == i)
			status_port_tree(d, pr, i, t);
	print_close_array(pr);
	print_close_object(pr);
}

static void status_counters(struct mstd *d, struct printer *pr, unsigned int i)
{
	const struct mstd_port *p = &d->ports[i];
	struct mstp_port_status ps;

	if (mstp_get_port_status(d->br, i, 0, &ps))
		return;
	print_open_object(pr, NULL);
	print_string(pr, PRINT_ANY, "port", "port %s", p->name);
	print_int(pr, PRINT_ANY, "ifindex", " ifindex %d", p->ifindex);
	print_bool(pr, PRINT_ANY, "link_up", " up %s", p->up);
	print_uint(pr, PRINT_ANY, "speed_mbps", " speed %u",
		   (unsigned int)p->speed_mbps);
	print_bool(pr, PRINT_ANY, "bpdu_guard", " bpdu_guard %s", ps.bpdu_guard);
	print_bool(pr, PRINT_ANY, "bpdu_filter", " bpdu_filter %s",
		   ps.bpdu_filter);
	print_bool(pr, PRINT_ANY, "root_guard", " root_guard %s",
		   ps.restricted_role);
	print_bool(pr, PRINT_ANY, "tcn_guard", " tcn_guard %s",
		   ps.restricted_tcn);
	print_bool(pr, PRINT_ANY, "loop_guard", " loop_guard %s", ps.loop_guard);
	print_bool(pr, PRINT_ANY, "guard_tripped", " guard_tripped %s",
		   ps.guard_tripped);
	print_uint(pr, PRINT_ANY, "guard_recovery_in", " recovery_in %u",
		   ps.guard_recovery_in);
	print_uint(pr, PRINT_ANY, "guard_trips", " guard_trips %u",
		   (unsigned int)ps.counters.guard_trips);
	print_uint(pr, PRINT_ANY, "rapid_ageing", " rapid_ageing %u",
		   ps.rapid_ageing);
	print_uint(pr, PRINT_ANY, "rx_filtered", " rx_filtered %u",
		   (unsigned int)ps.counters.rx_filtered);
	print_uint(pr, PRINT_ANY, "tx_filtered", " tx_filtered %u",
		   (unsigned int)ps.counters.tx_filtered);
	print_uint(pr, PRINT_ANY, "rx_bpdus", " rx %u",
		   (unsigned int)ps.counters.rx_bpdus);
	print_uint(pr, PRINT_ANY, "tx_bpdus", " tx %u",
		   (unsigned int)ps.counters.tx_bpdus);
	print_uint(pr, PRINT_ANY, "rx_invalid", " rx_invalid %u",
		   (unsigned int)ps.counters.rx_invalid);
	print_uint(pr, PRINT_ANY, "rx_bad_frames", " rx_bad_frames %u",
		   (unsigned int)p->rx_bad_frames);
	print_uint(pr, PRINT_ANY, "rx_early", " rx_early %u",
		   (unsigned int)p->rx_early);
	print_uint(pr, PRINT_ANY, "rx_config", " rx_config %u",
		   (unsigned int)ps.counters.rx_config);
	print_uint(pr, PRINT_ANY, "rx_tcn", " rx_tcn %u",
		   (unsigned int)ps.counters.rx_tcn);
	print_uint(pr, PRINT_ANY, "rx_rst", " rx_rst %u",
		   (unsigned int)ps.counters.rx_rst);
	print_uint(pr, PRINT_ANY, "rx_mst", " rx_mst %u",
		   (unsigned int)ps.counters.rx_mst);
	print_uint(pr, PRINT_ANY, "tx_config", " tx_config %u",
		   (unsigned int)ps.counters.tx_config);
	print_uint(pr, PRINT_ANY, "tx_tcn", " tx_tcn %u",
		   (unsigned int)ps.counters.tx_tcn);
	print_uint(pr, PRINT_ANY, "tx_rst", " tx_rst %u",
		   (unsigned int)ps.counters.tx_rst);
	print_uint(pr, PRINT_ANY, "tx_mst", " tx_mst %u",
		   (unsigned int)ps.counters.tx_mst);
	print_uint(pr, PRINT_ANY, "tx_errors", " tx_errors %u",
		   (unsigned int)p->tx_errors);
	print_uint(pr, PRINT_ANY, "kernel_errors", " kernel_errors %u",
		   (unsigned int)p->kernel_errors);
	print_uint(pr, PRINT_ANY, "flushes", " flushes %u",
		   (unsigned int)p->flushes);
	print_nl(pr);
	print_close_object(pr);
}

static const char *const versions[] = { [MSTP_FORCE_STP] = "stp",
	[MSTP_FORCE_RSTP] = "rstp", [MSTP_FORCE_MSTP] = "mstp" };

/* The bridge's settings in force, and the control socket's counters. */
static void status_settings(struct mstd *d, struct printer *pr)
{
	const struct mstd_conf *c = &d->conf;

	print_string(pr, PRINT_FP, NULL, "%s", "\n ");
	print_uint(pr, PRINT_ANY, "max_age", " max_age %u", c->max_age);
	print_uint(pr, PRINT_ANY, "forward_delay", " forward_delay %u",
		   c->fwd_delay);
	print_uint(pr, PRINT_ANY, "max_hops", " max_hops %u", c->max_hops);
	print_uint(pr, PRINT_ANY, "tx_hold", " tx_hold %u", c->tx_hold);
	print_string(pr, PRINT_ANY, "force_version", " force_version %s",
		     versions[c->force_version]);
	print_uint(pr, PRINT_ANY, "ageing_time", " ageing_time %u",
		   d->ageing_cs / 100);
	print_bool(pr, PRINT_ANY, "rapid_ageing", " rapid_ageing %s",
		   d->ageing_fast);
	print_uint(pr, PRINT_ANY, "guard_recovery", " guard_recovery %u",
		   c->guard_recovery);
	print_uint(pr, PRINT_ANY, "ctl_requests", " ctl_requests %u",
		   (unsigned int)d->ctl_requests);
	print_uint(pr, PRINT_ANY, "ctl_refused", " ctl_refused %u",
		   (unsigned int)d->ctl_refused);
	print_uint(pr, PRINT_ANY, "ports_added", " ports_added %u",
		   (unsigned int)d->ports_added);
}

void status_print(struct mstd *d, FILE *fp, bool json, const char *port)
{
	struct printer pr;
	char name[MST_CONFIG_NAME_LEN + 1], dig[2 * MST_CONFIG_DIGEST_LEN + 1];
	int only = port ? mstd_port_by_name(d, port) : -1;

	for (int i = 0; i < MST_CONFIG_DIGEST_LEN; i++)
		snprintf(dig + 2 * i, 3, "%02X", d->mcid.digest[i]);
	mst_config_name(&d->mcid, name);
	print_init(&pr, fp, json);
	print_open_object(&pr, NULL);
	print_string(&pr, PRINT_ANY, "bridge", "bridge %s", d->conf.bridge);
	print_string(&pr, PRINT_ANY, "region", " region \"%s\"", name);
	print_uint(&pr, PRINT_ANY, "revision", " revision %u",
		   d->mcid.revision);
	print_string(&pr, PRINT_ANY, "digest", " digest %s", dig);
	print_string(&pr, PRINT_ANY, "flush_scope", " flush_scope %s",
		     d->conf.flush_scope == MSTP_FLUSH_PORT ? "port" : "tree");
	print_uint(&pr, PRINT_ANY, "overflows", " overflows %u",
		   (unsigned int)mstp_run_overflows(d->br));
	status_settings(d, &pr);
	print_nl(&pr);
	print_open_array(&pr, "trees");
	for (unsigned int t = 0; t < mstp_ntrees(d->br); t++)
		status_tree(d, &pr, t, only);
	print_close_array(&pr);
	print_open_array(&pr, "ports");
	for (unsigned int i = 0; i < d->nports; i++)
		if (only < 0 || (unsigned int)only == i)
			status_counters(d, &pr, i);
	print_close_array(&pr);
	print_close_object(&pr);
}
