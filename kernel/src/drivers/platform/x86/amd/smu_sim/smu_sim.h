/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emulated AMD SMU mailbox (HSMP) for lab guests: shared definitions.
 *
 * The emulator presents, on a private PCI domain, the root complex and
 * data-fabric functions amd_nb looks for, and serves the HSMP mailbox
 * registers behind the root's SMN index/data pair from a firmware model,
 * so that the unmodified amd_hsmp driver runs on a QEMU EPYC guest.
 */
#ifndef _AMD_SMU_SIM_H
#define _AMD_SMU_SIM_H

#include <linux/prandom.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#define SMU_SIM_MAX_SOCKETS	8
#define SMU_SIM_MAX_CORES	64
#define SMU_SIM_MAX_FAULTS	8
#define SMU_SIM_NUM_MSGS	0x23	/* message ids the 6.1 driver accepts */
#define SMU_SIM_MAX_ARGS	8
#define SMU_SIM_NUM_NBIO	4
#define SMU_SIM_NUM_DIMMS	4
#define SMU_SIM_FW_VER		0x00452b00	/* 69.43.0 */

/* Mailbox status codes (the driver's HSMP_STATUS_* and HSMP_ERR_*). */
#define SMU_SIM_ST_NOT_READY	0x00
#define SMU_SIM_ST_OK		0x01
#define SMU_SIM_ST_INVALID_MSG	0xfe
#define SMU_SIM_ST_INVALID_IN	0xff

/* SMN addresses of the mailbox registers (amd_hsmp.c) and of Tctl (k10temp). */
#define SMU_SIM_SMN_MSG_ID	0x3b10534
#define SMU_SIM_SMN_MSG_RESP	0x3b10980
#define SMU_SIM_SMN_MSG_DATA	0x3b109e0
#define SMU_SIM_SMN_TCTL	0x59800

/*
 * The driver gives up on a message once jiffies reach the value they had
 * after its id write plus 100 ms (HSMP_MSG_TIMEOUT). Counted in jiffies, as
 * the driver does: in real time that can be well under 100 ms when a tick
 * comes late, as under TCG. A write this many jiffies after the id is the
 * driver's next message, not interleaving.
 */
#define SMU_SIM_DRIVER_TIMEOUT_MS	100

enum smu_sim_fault_action {
	SMU_SIM_FAULT_DROP,	/* never answer this message */
	SMU_SIM_FAULT_BUSY,	/* the mailbox is wedged: answer nothing */
	SMU_SIM_FAULT_STATUS,	/* answer with a given status, no side effects */
	SMU_SIM_FAULT_DELAY,	/* answer late */
	SMU_SIM_FAULT_CORRUPT,	/* answer with a wrong first response word */
	SMU_SIM_FAULT_NR,
};

struct smu_sim_fault {
	u8 msg;			/* 0 matches every message */
	u8 action;
	u8 status;
	u32 delay_us;
	int count;		/* messages left to hit; -1 = until cleared */
};

/* What the firmware knows and controls, per socket. */
struct smu_sim_fw {
	struct rnd_state rnd;
	u32 power_limit_mw;
	u32 power_mw;
	u32 c0_pct;
	u32 prochot;
	unsigned int ncores;
	u32 apic[SMU_SIM_MAX_CORES];
	u16 boost_mhz[SMU_SIM_MAX_CORES];
	u8 xgmi_min, xgmi_max;
	s8 df_pstate;		/* pinned DF P-state, or -1 for automatic */
	u8 df_range_min, df_range_max;	/* lowest and highest allowed */
	u8 nbio_min[SMU_SIM_NUM_NBIO], nbio_max[SMU_SIM_NUM_NBIO];
	u8 gmi3_min, gmi3_max;
	u8 pci_rate;
	u8 power_mode;
};

struct smu_sim_stats {
	u64 served[SMU_SIM_NUM_MSGS];
	u64 total;		/* answered, whatever the status */
	u64 errors;		/* answered with a status other than OK */
	u64 violations;		/* mailbox written while a message was pending */
	u64 abandoned;		/* pending messages the driver gave up on */
	u64 overruns;		/* a new message id over a pending one */
	u64 dropped;		/* messages a fault left unanswered */
	u64 faulted;		/* messages a fault rule acted on */
	u64 latency_max_ns;
	u64 latency_sum_ns;
};

struct smu_sim_socket {
	raw_spinlock_t lock;	/* config accesses run in atomic context */
	unsigned int id;
	u16 command[9];		/* root, then data-fabric functions 0-7 */
	u32 smn_index;		/* generic SMN pair, root 0x60/0x64 */
	u32 hsmp_index;		/* HSMP pair, root 0xc4/0xc8 */

	u32 msg_id;
	u32 status;
	u32 args[SMU_SIM_MAX_ARGS];
	bool pending;
	bool unanswered;	/* a fault swallowed the pending message */
	u8 forced_status;	/* set by a fault, 0 if none */
	bool corrupt;
	u64 issued_ns, ready_ns;
	unsigned long issued_jiffies;

	u32 latency_us, jitter_us;
	struct smu_sim_fault faults[SMU_SIM_MAX_FAULTS];
	unsigned int nfaults;
	struct smu_sim_fw fw;
	struct smu_sim_stats stats;
};

struct smu_sim {
	unsigned int nsockets;
	/* The driver's probe handshake, measured until late_initcall. */
	bool booted;
	unsigned int boot_msgs;
	u64 boot_first_ns, boot_last_ns;
	u32 proto_ver;
	u32 smu_fw_ver;
	u64 seed;
	struct smu_sim_socket sock[SMU_SIM_MAX_SOCKETS];
};

extern struct smu_sim smu_sim;

/* mailbox.c: the SMN address space of one socket (caller holds s->lock). */
u32 smu_sim_smn_read(struct smu_sim_socket *s, u32 addr);
void smu_sim_smn_write(struct smu_sim_socket *s, u32 addr, u32 val);
void smu_sim_socket_reset(struct smu_sim_socket *s, u32 latency_us, bool stuck);

/* fw.c: the firmware model. */
void smu_sim_fw_reset(struct smu_sim_socket *s);
u8 smu_sim_fw_run(struct smu_sim_socket *s, u32 id, u32 *args);
bool smu_sim_proto_valid(u32 proto);
u32 smu_sim_fw_tctl(struct smu_sim_socket *s);
int smu_sim_fw_show(struct smu_sim_socket *s, char *buf, size_t size);

/* fault.c: fault rules. */
int smu_sim_fault_parse(char *rule, struct smu_sim_fault *f);
int smu_sim_fault_add(struct smu_sim_socket *s, const struct smu_sim_fault *f);
struct smu_sim_fault *smu_sim_fault_match(struct smu_sim_socket *s, u32 id);
int smu_sim_fault_show(struct smu_sim_socket *s, char *buf, size_t size);

/* debugfs.c */
void smu_sim_debugfs_init(void);
void smu_sim_reset_all(void);	/* pci.c */

#endif /* _AMD_SMU_SIM_H */
