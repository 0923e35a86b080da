/* SPDX-License-Identifier: MIT */
/*
 * The lab model: what a topology file declares, after validation.
 *
 * topo_parse_*() turn YAML (libyaml) into a struct topo or fail with one
 * precise error (file:line:col: message) and no side effects. Everything
 * later stages need is resolved here: link ends point at ports, ports carry
 * their effective settings (port > link > defaults), scenario references
 * point at nodes, links and ports. docs/topology.md documents the file format.
 */
#ifndef MSTLAB_TOPO_H
#define MSTLAB_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"

#define TOPO_LAB_NAME_MAX	12	/* [a-z0-9-]{1,12} */
#define TOPO_NODE_NAME_MAX	15	/* [a-z][a-z0-9-]{0,14} */
#define TOPO_PORT_NAME_MAX	10	/* leaves room for ".4094" */
#define TOPO_TEXT_MAX		256	/* cpu model, region, marks, ... */
#define TOPO_MAX_NODES		64
#define TOPO_MAX_PORTS		24	/* NICs per node (free PCI slots) */
#define TOPO_MAX_LINKS		999
#define TOPO_MAX_MSTI		64	/* per 802.1Q: MSTI messages per BPDU */
#define TOPO_MAX_TREES		(TOPO_MAX_MSTI + 1)
#define TOPO_MAX_STEPS		1024
#define TOPO_MAX_SCENARIOS	64
#define TOPO_MAX_DEPTH		32	/* YAML nesting; the schema needs 7 */
#define TOPO_DSA_PORTS		5	/* lan1..lan5 */
#define TOPO_HOST_NAME_MAX	15	/* as node names */
#define TOPO_MAX_HOSTS		16	/* local included */
#define TOPO_LOCAL_HOST		0	/* hosts[0]: where mstlab runs */
#define TOPO_ADDR_MAX		46	/* INET6_ADDRSTRLEN */
/* A host's run folders: room in sun_path (108) for
 * <results>/<lab>-<stamp>-NN/qga/<node>.sock */
#define TOPO_RESULTS_MAX	48
#define TOPO_CIST		0	/* tree id of the CIST */
/* 802.1Q defaults; virtio NICs report no speed: mstd takes the cost of
 * an unknown speed (Table 13-4, 1 Gb/s) for a port given none. */
#define TOPO_DEFAULT_BRIDGE_PRIO	32768
#define TOPO_DEFAULT_PORT_PRIO		128
#define TOPO_DEFAULT_COST		20000

struct topo_mark {
	unsigned line, col;		/* 1-based */
};

struct topo_error {
	char file[256];
	struct topo_mark mark;
	char msg[256];
};

/* "file:line:col: message" into out; returns out->msg. */
const char *topo_error_format(const struct topo_error *err,
			      struct errbuf *out);

enum topo_role {
	TOPO_ROLE_BRIDGE,
	TOPO_ROLE_DSA_SWITCH,
	TOPO_ROLE_HSMP_HOST,
	TOPO_ROLE_HOST,
};
const char *topo_role_name(enum topo_role role);
/* Roles that run MSTP (a bridge in the guest with mstd). */
bool topo_role_is_bridge(enum topo_role role);

/* The guest kernels by name (kernels.h says what each is). */
enum topo_kernel {
	TOPO_KERNEL_DEFAULT,		/* 6.1 */
	TOPO_KERNEL_DEBUG,		/* 6.1, KASAN and lockdep */
	TOPO_KERNEL_612,
	TOPO_KERNEL_612_DEBUG,
	TOPO_KERNEL_COUNT
};
const char *topo_kernel_name(enum topo_kernel k);

struct topo_vlanset {
	uint64_t bits[4096 / 64];
};
static inline bool topo_vlan_has(const struct topo_vlanset *s, unsigned vid)
{
	return vid < 4096 && (s->bits[vid / 64] >> (vid % 64)) & 1;
}
static inline void topo_vlan_add(struct topo_vlanset *s, unsigned vid)
{
	s->bits[vid / 64] |= 1ULL << (vid % 64);
}
bool topo_vlanset_empty(const struct topo_vlanset *s);
/*
 * Iterates the set as ranges: start with *vid = 0; each call returns the
 * next range [*lo, *hi] and false when there is none left.
 */
bool topo_vlan_next_range(const struct topo_vlanset *s, unsigned *vid,
			  unsigned *lo, unsigned *hi);

struct topo_vlans {
	bool set;			/* written in the file */
	struct topo_vlanset tagged;
	uint16_t untagged;		/* also the PVID; 0 = none */
};

/* A value per spanning tree: "all trees" plus per-tree overrides. */
struct topo_treeval {
	uint16_t tree;			/* TOPO_CIST or an MSTI */
	uint32_t value;
};
struct topo_treevals {
	bool has_all;
	uint32_t all;
	size_t n;
	struct topo_treeval v[TOPO_MAX_TREES];
};
/* The value for tree, or dflt when neither tree nor "all" was given. */
uint32_t topo_treevals_get(const struct topo_treevals *tv, uint16_t tree,
			   uint32_t dflt);

struct topo_msti {
	uint16_t id;			/* 1..4094 */
	struct topo_vlanset vlans;
};

struct topo_mst {
	char region[33];		/* 802.1Q: at most 32 octets */
	uint16_t revision;
	size_t n_msti;
	struct topo_msti msti[TOPO_MAX_MSTI];	/* sorted by id */
	unsigned hello_s, max_age_s, forward_delay_s, max_hops;
	unsigned tx_hold;		/* BPDUs per second at most, 1..10 */
	enum topo_force_version {	/* 802.1Q ForceProtocolVersion */
		TOPO_FORCE_MSTP,
		TOPO_FORCE_RSTP,
		TOPO_FORCE_STP,
	} force_version;
	unsigned ageing_time_s;		/* 0: the bridge's (300 s) */
	unsigned guard_recovery_s;	/* BPDU guard; 0: by hand */
};
const char *topo_force_version_name(enum topo_force_version v);

struct topo_port {
	char name[TOPO_PORT_NAME_MAX + 1];
	struct topo_mark mark;		/* first mention (node ports or link) */
	unsigned index;			/* 1-based NIC index; lanN for DSA */
	int link;			/* index into topo.links */
	int end;			/* 0 or 1 */
	struct topo_treevals cost;	/* effective: port > link */
	struct topo_treevals priority;
	int edge;			/* -1 unset, 0, 1 */
	struct topo_vlans vlans;	/* effective: port > link > default */
	uint32_t ext_cost;		/* CIST external cost; 0: unset */
	/* Operator guards, each -1 unset, 0, 1 (mstd.conf's names). */
	int bpdu_guard, bpdu_filter, root_guard, tcn_guard, loop_guard;
};

/*
 * Where ssh goes to reach a host: what its libvirt URI
 * (qemu+ssh://[USER@]HOST[:PORT]/system[?mode=..&proxy=..]) says, so
 * mstlab's agent session and libvirt's connection reach the same sshd as
 * the same user. How (the ssh program, the key) is the user's to say, in
 * their host settings (host_settings.h), never the topology's.
 */
struct topo_ssh {
	char user[33];			/* "": ssh's default */
	char host[254];			/* a DNS name or an address */
	unsigned port;			/* 0: ssh's default */
};

/* A machine the lab runs on (docs/topology.md#hosts). */
struct topo_host {
	char name[TOPO_HOST_NAME_MAX + 1];
	struct topo_mark mark;
	char uri[TOPO_TEXT_MAX];	/* libvirt's; "" for local */
	struct topo_ssh ssh;		/* from uri */
	char address[TOPO_ADDR_MAX];	/* tunnel end, canonical; "": none */
	int family;			/* AF_INET, AF_INET6; 0: no address */
	char results[TOPO_RESULTS_MAX + 1];	/* its run folders; "": its
						 * mstlab's default */
};

struct topo_node {
	char name[TOPO_NODE_NAME_MAX + 1];
	struct topo_mark mark;
	unsigned index;			/* 0-based declaration order */
	unsigned host;			/* index into topo.hosts; 0: local */
	enum topo_role role;
	unsigned memory_mib, vcpus, sockets;
	struct topo_mark cpu_mark;	/* where its vCPUs were given */
	/* hsmp-host: the HSMP protocol its SMU answers; 0 = the CPU's own */
	unsigned hsmp_protocol;
	char cpu[TOPO_TEXT_MAX];	/* "" = planner's default */
	enum topo_kernel kernel;
	char overlay[TOPO_TEXT_MAX];	/* absolute path, "" = none */
	struct topo_mark overlay_mark;
	struct topo_treevals priority;	/* bridge priority per tree */
	bool kernel_stp;		/* the kernel's 802.1D STP, no mstd */
	const struct topo_mst *mst;	/* region this node joins */
	struct topo_mst *own_mst;	/* node-level override, or NULL */
	size_t n_ports;
	struct topo_port ports[TOPO_MAX_PORTS];	/* sorted by index */
};

struct topo_impair {
	unsigned delay_ms;
	unsigned loss_ppm;		/* parts per million */
};

struct topo_end {
	int node, port;			/* indexes */
};

struct topo_link {
	struct topo_mark mark;
	unsigned index;			/* 1-based */
	struct topo_end end[2];
	struct topo_impair impair;	/* applied at both ends' egress */
	/* As written on the link; ports inherit what they do not set. */
	struct topo_treevals cost;
	int edge;			/* -1 unset */
	struct topo_vlans vlans;
};

enum topo_step_kind {
	TOPO_STEP_WAIT,
	TOPO_STEP_FAIL,
	TOPO_STEP_RESTORE,
	TOPO_STEP_FLAP,
	TOPO_STEP_IMPAIR,
	TOPO_STEP_PROBE_START,
	TOPO_STEP_PROBE_STOP,
	TOPO_STEP_EXEC,
	TOPO_STEP_SLEEP,
	TOPO_STEP_MARK,
	TOPO_STEP_SEND,
};
const char *topo_step_name(enum topo_step_kind kind);
struct topo_step;
struct topo;
/* "500ms", "2s", "1m" (at most a day) in ms: 0, -EINVAL (not one),
 * -ERANGE (longer than a day). */
int topo_parse_duration_ms(const char *s, unsigned *ms);
/* One line for people, as the run's log and event log name the step:
 * "fail sw1:p2--sw4:p2 (carrier)", "exec on h1: ping ...". */
void topo_step_describe(const struct topo *t, const struct topo_step *st,
			char *buf, size_t len);

enum topo_wait_for {
	TOPO_WAIT_CONVERGED,
	TOPO_WAIT_AGENTS,
	TOPO_WAIT_COMMAND,
};

enum topo_fail_mode {
	TOPO_FAIL_CARRIER,
	TOPO_FAIL_SILENT,
};

/* Frames a send step may list; octets of one after its source address
 * (an untagged frame of 1514 octets without the FCS). */
#define TOPO_SEND_FRAMES_MAX	16
#define TOPO_SEND_OCTETS_MAX	1502
#define TOPO_SEND_COUNT_MAX	1000

/* send: crafted frames out of one port of a node, from the guest. */
struct topo_send {
	int node, port;
	char dst[18];			/* "01:80:c2:00:00:00", lower case */
	size_t n_frames;
	char *frames[TOPO_SEND_FRAMES_MAX];	/* hex digits only */
	unsigned count;			/* copies of each frame */
	bool pad;			/* to 60 octets (false: runts) */
};

#define TOPO_ARGV_MAX 32
struct topo_cmd {
	int node;
	size_t argc;
	char *argv[TOPO_ARGV_MAX];	/* string form: sh -c STRING */
};

struct topo_step {
	struct topo_mark mark;
	enum topo_step_kind kind;
	unsigned timeout_ms;		/* wait, exec */
	enum topo_wait_for wait_for;
	char *match;			/* wait command: substring of stdout */
	int link;			/* fail, restore, flap, impair */
	enum topo_fail_mode mode;	/* fail, flap */
	/* fail silent one way: the end (0, 1) that stops hearing the other;
	 * -1 both ways. */
	int deaf_end;
	unsigned count, up_ms, down_ms;	/* flap */
	struct topo_impair impair;
	int from, to;			/* probe */
	struct topo_vlanset vlans;	/* probe; empty = untagged */
	unsigned rate_pps;
	struct topo_cmd cmd;		/* exec, wait command */
	unsigned sleep_ms;
	char *label;			/* mark */
	struct topo_send send;		/* send */
};

enum topo_flush {
	TOPO_FLUSH_UNSET,
	TOPO_FLUSH_PER_MSTI,
	TOPO_FLUSH_ALL,
	TOPO_FLUSH_NONE,
};

struct topo_portref {
	uint16_t tree;
	int node, port;
};

struct topo_expect {
	bool set;
	int root[TOPO_MAX_TREES];	/* node index or -1; by tree slot */
	size_t n_blocked;
	struct topo_portref *blocked;
	long outage_max_ms[TOPO_MAX_TREES];	/* -1 = no bound */
	enum topo_flush flush;
	unsigned settle_ms;		/* 0 = no bound */
};

struct topo_scenario {
	char name[TOPO_TEXT_MAX];
	struct topo_mark mark;
	char *description;
	size_t n_steps;
	struct topo_step *steps;
	struct topo_expect expect;
};

struct topo_defaults {
	unsigned memory_mib, vcpus;
	char cpu[TOPO_TEXT_MAX];
	enum topo_kernel kernel;
};

struct topo {
	char file[256];
	char name[TOPO_LAB_NAME_MAX + 1];
	/* hosts[0] is always "local", the machine mstlab runs on; the
	 * others come from a hosts: section (hosts_given). */
	bool hosts_given;
	size_t n_hosts;
	struct topo_host hosts[TOPO_MAX_HOSTS];
	struct topo_defaults defaults;
	struct topo_mst mst;
	size_t n_nodes;
	struct topo_node *nodes;
	size_t n_links;
	struct topo_link *links;
	size_t n_scenarios;
	struct topo_scenario *scenarios;
};

/*
 * Parse a topology. On success *out owns a model (topo_free it) and 0 is
 * returned; on failure err is filled, *out is NULL and -1 is returned.
 * file is only used for messages (and as the base of relative paths).
 * topo_parse_file reads "-" as standard input and refuses anything but
 * a regular file (a directory, a FIFO) without blocking.
 */
int topo_parse_file(const char *path, struct topo **out,
		    struct topo_error *err);
/*
 * What the parser does not look at because it is on the host: every
 * overlay is a directory. 0, or -1 with err at the key (for check, plan
 * and up; a run's copy of its topology is read without it).
 */
int topo_check_host(const struct topo *t, struct topo_error *err);
int topo_parse_buffer(const char *file, const void *buf, size_t len,
		      struct topo **out, struct topo_error *err);
void topo_free(struct topo *t);

/*
 * What a topology may say but should not, one warning a call: *i starts
 * at 0; fills w (file:line:col and message, as topo_error_format() writes
 * an error) and returns true, or false when there are no more.
 */
bool topo_warning_next(const struct topo *t, size_t *i, struct topo_error *w);

/* Lookups; -1 when absent. */
int topo_node_find(const struct topo *t, const char *name);
int topo_host_find(const struct topo *t, const char *name);
/* Whether link (position) joins nodes on two hosts: a tunnel then. */
bool topo_link_crosses(const struct topo *t, size_t link);
/* Whether a host runs a node of the lab. */
bool topo_host_used(const struct topo *t, size_t host);
int topo_port_find(const struct topo_node *n, const char *name);
/* Tree slot: 0 for CIST, 1.. for msti[slot - 1] of mst; -1 if unknown. */
int topo_tree_slot(const struct topo_mst *mst, uint16_t tree);
uint16_t topo_tree_id(const struct topo_mst *mst, int slot);

/* Name rules (exported for the planner and tests). */
bool topo_valid_lab_name(const char *s);
/* Why s is a name the guests give interfaces of their own (lo, br0 and
 * the like, eth<N>), or NULL. Nodes are never named so, nor bridges'
 * ports; a host's ports may be eth<N>. */
const char *topo_guest_iface_name(const char *s);
bool topo_valid_node_name(const char *s);
bool topo_valid_host_name(const char *s);
/*
 * A word that may go to another host's shell in an ssh command line or
 * be a path there: 1-255 of A-Z a-z 0-9 / . _ + - (no quoting needed,
 * nothing a shell expands), and no ".." component.
 */
bool topo_safe_word(const char *s);
bool topo_valid_port_name(enum topo_role role, const char *s);

#endif
