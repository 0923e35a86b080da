/* SPDX-License-Identifier: MIT */
/*
 * mstd's configuration file: one setting per line, "key args", '#' starts
 * a comment.  The grammar is in docs/man/mstd.conf.5.scd.  Errors name the
 * place as "file:line:col: message" so a seed author can find them.
 */
#ifndef MSTD_CONF_H
#define MSTD_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mst_config.h"
#include "mstp.h"

#define MSTD_IFNAMSIZ		16
#define MSTD_MAX_PORTS		256
#define MSTD_CONF_ERR_MAX	320

/* A per-tree value: index 0 is the CIST, i + 1 is conf.mstids[i]. */
struct mstd_treeval {
	uint32_t v;
	bool set;
};

struct mstd_conf_port {
	char name[MSTD_IFNAMSIZ];
	int edge;			/* -1 unset, 0, 1 */
	int auto_edge;			/* -1 unset, 0, 1 */
	int p2p;			/* -1 unset, else enum mstp_p2p */
	/* -1 unset, 0, 1: the guards (root_guard is restrictedRole,
	 * tcn_guard restrictedTcn). */
	int bpdu_guard, bpdu_filter, root_guard, tcn_guard, loop_guard;
	/* cost cist sets the CIST's internal and external cost; ext_cost
	 * the external one alone.  Unset: from the link speed. */
	struct mstd_treeval cost[MSTP_MAX_MSTIS + 1];
	struct mstd_treeval ext_cost;
	struct mstd_treeval priority[MSTP_MAX_MSTIS + 1];
};

struct mstd_conf {
	char bridge[MSTD_IFNAMSIZ];
	char region[MST_CONFIG_NAME_LEN + 1];
	unsigned int revision;
	unsigned int hello;		/* accepted; the core uses 2 s */
	unsigned int max_age, fwd_delay, max_hops, tx_hold;
	enum mstp_force_version force_version;
	enum mstp_flush_scope flush_scope;
	enum mstp_log_level log_level;
	unsigned int ageing_time;	/* s; 0: leave the bridge's */
	unsigned int guard_recovery;	/* s BPDU guard holds; 0: manual */
	unsigned int nmstis;
	uint16_t mstids[MSTP_MAX_MSTIS];
	struct mst_vid_table vids;	/* VID -> MSTID, 0 = CIST */
	struct mstd_treeval priority[MSTP_MAX_MSTIS + 1];
	size_t nports;
	struct mstd_conf_port *ports;	/* heap, nports entries */
};

/* Defaults: no bridge, region "" (mstd then uses the bridge's MAC text),
 * revision 0, Table 13-5 timers. */
void mstd_conf_init(struct mstd_conf *c);
void mstd_conf_free(struct mstd_conf *c);

/*
 * Parses @text (@len bytes, need not be NUL-terminated) read from @file
 * into @c (initialised with mstd_conf_init).  Returns 0, or -EINVAL with
 * the first error in @err as "file:line:col: message", -ENOMEM.
 */
int mstd_conf_parse(struct mstd_conf *c, const char *file, const char *text,
		    size_t len, char err[MSTD_CONF_ERR_MAX]);
/* Reads @path and parses it; I/O errors also land in @err. */
int mstd_conf_load(struct mstd_conf *c, const char *path,
		   char err[MSTD_CONF_ERR_MAX]);

/* Tree slot of @mstid (0 for the CIST), or -1. */
int mstd_conf_tree(const struct mstd_conf *c, uint16_t mstid);
/* The port named @name, or NULL. */
struct mstd_conf_port *mstd_conf_port(const struct mstd_conf *c,
				      const char *name);

/* Word parsers shared with the control socket: 0 or -EINVAL. */
int mstd_parse_uint(const char *s, unsigned long min, unsigned long max,
		    unsigned long *out);
int mstd_parse_bool(const char *s, bool *out);	/* yes|no|on|off|1|0 */
int mstd_parse_p2p(const char *s, enum mstp_p2p *out);	/* auto|yes|no */
int mstd_parse_flush_scope(const char *s, enum mstp_flush_scope *out);
int mstd_parse_log_level(const char *s, enum mstp_log_level *out);
int mstd_parse_force_version(const char *s, enum mstp_force_version *out);
/* "1-5,10" into @vids as @mstid for each VID; 0 or -EINVAL/-ERANGE with
 * the offending item's offset in *@bad. Leaves other VIDs alone. */
int mstd_parse_vid_list(const char *s, uint16_t mstid,
			struct mst_vid_table *vids, size_t *bad);

/* Ranges (Table 13-5, 802.1Q Table 8-6 for the ageing time). */
#define MSTD_AGEING_MIN		10
#define MSTD_AGEING_MAX		1000000
#define MSTD_GUARD_RECOVERY_MAX	86400

#endif
