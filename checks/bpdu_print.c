// SPDX-License-Identifier: MIT
#include "bpdu_print.h"

#include <stdio.h>

static const char *const role_name[] = { "master", "alternate/backup",
					 "root", "designated" };

static void mac_str(const uint8_t m[6], char out[18])
{
	snprintf(out, 18, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
		 m[3], m[4], m[5]);
}

static void bridge(struct printer *p, const char *prio_key,
		   const char *hw_key, const char *label,
		   const struct bridge_id *id)
{
	char mac[18], text[64];

	mac_str(id->mac, mac);
	snprintf(text, sizeof(text), " %s %u/%s", label, id->prio, mac);
	print_string(p, PRINT_FP, NULL, "%s", text);
	print_uint(p, PRINT_JSON, prio_key, NULL, id->prio);
	print_string(p, PRINT_JSON, hw_key, NULL, mac);
}

static void flags(struct printer *p, const char *key,
		  const struct bpdu_flags *f)
{
	char text[64];

	snprintf(text, sizeof(text), " %s%s%s%s%s%s", role_name[f->role],
		 f->proposal ? ",P" : "", f->agreement ? ",A" : "",
		 f->learning ? ",L" : "", f->forwarding ? ",F" : "",
		 f->tc ? ",TC" : "");
	print_string(p, PRINT_FP, NULL, "%s", text);
	print_open_object(p, key);
	print_bool(p, PRINT_JSON, "tc", NULL, f->tc);
	print_bool(p, PRINT_JSON, "proposal", NULL, f->proposal);
	print_string(p, PRINT_JSON, "port_role", NULL, role_name[f->role]);
	print_bool(p, PRINT_JSON, "learning", NULL, f->learning);
	print_bool(p, PRINT_JSON, "forwarding", NULL, f->forwarding);
	print_bool(p, PRINT_JSON, "agreement", NULL, f->agreement);
	print_close_object(p);
}

/* The 32-octet name as a C string; bytes no terminal should get are '?'. */
static const char *region_name(const struct mst_config_id *id,
			       char out[MST_CONFIG_NAME_LEN + 1])
{
	size_t i;

	for (i = 0; i < MST_CONFIG_NAME_LEN && id->name[i]; i++)
		out[i] = id->name[i] >= 0x20 && id->name[i] < 0x7f ?
			 (char)id->name[i] : '?';
	out[i] = 0;
	return out;
}

void bpdu_print(struct printer *p, int64_t ts_ns, const struct bpdu_frame *f,
		const struct bpdu *b)
{
	char src[18], ts[32], region[MST_CONFIG_NAME_LEN + 1];

	mac_str(f->src, src);
	snprintf(ts, sizeof(ts), "%lld.%09lld", (long long)(ts_ns / 1000000000),
		 (long long)(ts_ns % 1000000000));
	print_open_object(p, NULL);
	print_string(p, PRINT_ANY, "frame.time_epoch", "%s", ts);
	print_string(p, PRINT_ANY, "eth.src", " %s", src);
	print_string(p, PRINT_ANY, "stp.type", " %s", bpdu_type_name(b->type));
	print_uint(p, PRINT_JSON, "stp.version", NULL, b->version);
	if (b->type == BPDU_TYPE_TCN) {
		print_close_object(p);
		print_nl(p);
		return;
	}
	flags(p, "stp.flags", &b->flags);
	bridge(p, "stp.root.prio", "stp.root.hw", "root", &b->root_id);
	print_uint(p, PRINT_ANY, "stp.root.cost", " cost %u",
		   b->ext_root_path_cost);
	bridge(p, "stp.bridge.prio", "stp.bridge.hw",
	       b->type == BPDU_TYPE_MST ? "rroot" : "bridge",
	       &b->regional_root_id);
	print_uint(p, PRINT_ANY, "stp.port", " port 0x%04x", b->port_id);
	print_uint(p, PRINT_JSON, "stp.msg_age", NULL, b->message_age / 256);
	print_uint(p, PRINT_JSON, "stp.max_age", NULL, b->max_age / 256);
	print_uint(p, PRINT_JSON, "stp.hello", NULL, b->hello_time / 256);
	print_uint(p, PRINT_JSON, "stp.forward", NULL, b->forward_delay / 256);
	if (b->type == BPDU_TYPE_MST) {
		print_string(p, PRINT_ANY, "mstp.config_name", " region %s",
			     region_name(&b->mcid, region));
		print_uint(p, PRINT_ANY, "mstp.config_revision_level",
			   " rev %u", b->mcid.revision);
		print_uint(p, PRINT_ANY, "mstp.cist_internal_root_path_cost",
			   " icost %u", b->int_root_path_cost);
		bridge(p, "mstp.cist_bridge.prio", "mstp.cist_bridge.hw",
		       "bridge", &b->bridge_id);
		print_uint(p, PRINT_ANY, "mstp.cist_remaining_hops", " hops %u",
			   b->remaining_hops);
		print_open_array(p, "mstp.msti");
		for (unsigned i = 0; i < b->msti_count; i++) {
			const struct bpdu_msti *m = &b->msti[i];

			print_open_object(p, NULL);
			print_uint(p, PRINT_ANY, "mstp.msti.id", " | msti %u",
				   bpdu_msti_mstid(m));
			flags(p, "mstp.msti.flags", &m->flags);
			bridge(p, "mstp.msti.root.prio", "mstp.msti.root.hw",
			       "rroot", &m->regional_root);
			print_uint(p, PRINT_ANY, "mstp.msti.root_cost",
				   " cost %u", m->int_root_path_cost);
			print_uint(p, PRINT_JSON, "mstp.msti.bridge_priority",
				   NULL, bpdu_msti_bridge_prio(m));
			print_uint(p, PRINT_JSON, "mstp.msti.port_priority",
				   NULL, bpdu_msti_port_prio(m));
			print_uint(p, PRINT_ANY, "mstp.msti.remaining_hops",
				   " hops %u", m->remaining_hops);
			print_close_object(p);
		}
		print_close_array(p);
	}
	print_close_object(p);
	print_nl(p);
}
