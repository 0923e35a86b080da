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
	print_bool(pr, PRINT_ANY, "edge", " edge %s", ps.oper_edge);
	print_bool(pr, PRINT_ANY, "p2p", " p2p %s", ps.oper_p2p);
	print_bool(pr, PRINT_ANY, "enabled", " enabled %s", ps.enabled);
	print_bool(pr, PRINT_ANY, "boundary", " boundary %s", ps.boundary);
	print_bool(pr, PRINT_ANY, "send_rstp", " rstp %s", ps.send_rstp);
	print_uint(pr, PRINT_ANY, "tc_while", " tc_while %u", ps.tc_while);
	print_string(pr, PRINT_ANY, "kernel_state", " kernel %s",
		     d->ports[i].kstate[t] == 0xff ? "unset" :
		     mstnl_state_name(d->ports[i].kstate[t]));
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
	print_uint(pr, PRINT_ANY, "rx_bpdus", " rx %u",
		   (unsigned int)ps.counters.rx_bpdus);
	print_uint(pr, PRINT_ANY, "tx_bpdus", " tx %u",
		   (unsigned int)ps.counters.tx_bpdus);
	print_uint(pr, PRINT_ANY, "rx_invalid", " rx_invalid %u",
		   (unsigned int)ps.counters.rx_invalid);
	print_uint(pr, PRINT_ANY, "rx_bad_frames", " rx_bad_frames %u",
		   (unsigned int)p->rx_bad_frames);
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
