// SPDX-License-Identifier: GPL-2.0
/*
 * VTU, STU, ATU and PVT operations, with the get-next rules the driver's
 * walks rely on: a start key of all ones searches from the lowest key
 * inclusive, any other strictly above; "not found" answers all ones.
 */
#include <linux/jiffies.h>

#include "sim.h"
#include "../mv88e6xxx/global1.h"
#include "../mv88e6xxx/global2.h"

#define VID_VALID	MV88E6XXX_G1_VTU_VID_VALID
#define ATU_PORTVEC(d)	(((d) >> 4) & SIM_PORT_MASK)
#define ATU_STATE(d)	((d) & 0xf)
#define ATU_MOVE	0xf
#define AGE_UNIT_SECS	15

/* The per-port nibbles of VTU/STU data registers 1-3. */
static void data_regs_get(struct sim *s, u8 *out, int shift)
{
	int p;

	for (p = 0; p < SIM_PORTS; p++)
		out[p] = (s->g1[MV88E6XXX_G1_VTU_DATA1 + p / 4] >> ((p % 4) * 4 + shift)) & 3;
}

static void data_regs_set(struct sim *s, const u8 *in, int shift)
{
	int p;

	for (p = 0; p < 3; p++)
		s->g1[MV88E6XXX_G1_VTU_DATA1 + p] = 0;
	for (p = 0; p < SIM_PORTS; p++)
		s->g1[MV88E6XXX_G1_VTU_DATA1 + p / 4] |= (in[p] & 3) << ((p % 4) * 4 + shift);
}

static void vtu_get_next(struct sim *s)
{
	u16 start = s->g1[MV88E6XXX_G1_VTU_VID] & 0xfff;
	unsigned int vid = start == 0xfff ? 0 : start + 1;
	struct sim_vtu *e;

	for (; vid < SIM_NUM_VIDS; vid++) {
		e = &s->vtu[vid];
		if (!e->valid)
			continue;
		s->g1[MV88E6XXX_G1_VTU_VID] = vid | VID_VALID;
		s->g1[MV88E6352_G1_VTU_FID] = e->fid |
			(e->policy ? MV88E6352_G1_VTU_FID_VID_POLICY : 0);
		s->g1[MV88E6352_G1_VTU_SID] = e->sid;
		data_regs_set(s, e->member, 0);
		return;
	}
	s->g1[MV88E6XXX_G1_VTU_VID] = 0xfff;
}

static void vtu_load_purge(struct sim *s)
{
	u16 vid = s->g1[MV88E6XXX_G1_VTU_VID];
	struct sim_vtu *e = &s->vtu[vid & 0xfff];

	memset(e, 0, sizeof(*e));
	if (!(vid & VID_VALID))
		return;
	e->valid = true;
	e->fid = s->g1[MV88E6352_G1_VTU_FID] & MV88E6352_G1_VTU_FID_MASK;
	e->policy = s->g1[MV88E6352_G1_VTU_FID] & MV88E6352_G1_VTU_FID_VID_POLICY;
	e->sid = s->g1[MV88E6352_G1_VTU_SID] & MV88E6352_G1_VTU_SID_MASK;
	data_regs_get(s, e->member, 0);
}

static void stu_get_next(struct sim *s)
{
	u16 start = s->g1[MV88E6352_G1_VTU_SID] & MV88E6352_G1_VTU_SID_MASK;
	unsigned int sid = start == 0x3f ? 0 : start + 1;

	for (; sid < SIM_NUM_SIDS; sid++) {
		if (!s->stu[sid].valid)
			continue;
		s->g1[MV88E6352_G1_VTU_SID] = sid;
		s->g1[MV88E6XXX_G1_VTU_VID] = VID_VALID;
		data_regs_set(s, s->stu[sid].state, 2);
		return;
	}
	s->g1[MV88E6352_G1_VTU_SID] = 0x3f;
	s->g1[MV88E6XXX_G1_VTU_VID] = 0;
}

static void stu_load_purge(struct sim *s)
{
	struct sim_stu *e = &s->stu[s->g1[MV88E6352_G1_VTU_SID] & MV88E6352_G1_VTU_SID_MASK];

	memset(e, 0, sizeof(*e));
	if (!(s->g1[MV88E6XXX_G1_VTU_VID] & VID_VALID))
		return;
	e->valid = true;
	data_regs_get(s, e->state, 2);
}

void sim_vtu_op(struct sim *s, u16 op)
{
	switch (op) {
	case MV88E6XXX_G1_VTU_OP_FLUSH_ALL:
		/* Flushes the STU too: the driver loads SID 0 right after. */
		memset(s->vtu, 0, sizeof(s->vtu));
		memset(s->stu, 0, sizeof(s->stu));
		break;
	case MV88E6XXX_G1_VTU_OP_VTU_LOAD_PURGE:
		vtu_load_purge(s);
		break;
	case MV88E6XXX_G1_VTU_OP_VTU_GET_NEXT:
		vtu_get_next(s);
		break;
	case MV88E6XXX_G1_VTU_OP_STU_LOAD_PURGE:
		stu_load_purge(s);
		break;
	case MV88E6XXX_G1_VTU_OP_STU_GET_NEXT:
		stu_get_next(s);
		break;
	}
}

static void atu_mac_get(struct sim *s, u8 *mac)
{
	int i;

	for (i = 0; i < 3; i++) {
		mac[2 * i] = s->g1[MV88E6XXX_G1_ATU_MAC01 + i] >> 8;
		mac[2 * i + 1] = s->g1[MV88E6XXX_G1_ATU_MAC01 + i] & 0xff;
	}
}

static void atu_mac_set(struct sim *s, const u8 *mac)
{
	int i;

	for (i = 0; i < 3; i++)
		s->g1[MV88E6XXX_G1_ATU_MAC01 + i] = mac[2 * i] << 8 | mac[2 * i + 1];
}

/* Unicast states 8-15 and every multicast entry are static. */
static bool atu_static(const struct sim_atu *e)
{
	return is_multicast_ether_addr(e->mac) || e->state >= 8;
}

struct sim_atu *sim_atu_find(struct sim *s, u16 fid, const u8 *mac)
{
	unsigned int i;

	for (i = 0; i < s->n_atu; i++)
		if (s->atu[i].fid == fid && ether_addr_equal(s->atu[i].mac, mac))
			return &s->atu[i];
	return NULL;
}

static void atu_delete(struct sim *s, struct sim_atu *e)
{
	*e = s->atu[--s->n_atu];
}

static struct sim_atu *atu_insert(struct sim *s, u16 fid, const u8 *mac)
{
	struct sim_atu *e = sim_atu_find(s, fid, mac);

	if (e)
		return e;
	if (s->n_atu >= SIM_ATU_MAX)
		return NULL;	/* full: the entry is not learned */
	e = &s->atu[s->n_atu++];
	memset(e, 0, sizeof(*e));
	e->fid = fid;
	ether_addr_copy(e->mac, mac);
	return e;
}

static void atu_load(struct sim *s, u16 fid)
{
	u16 data = s->g1[MV88E6XXX_G1_ATU_DATA];
	struct sim_atu *e;
	u8 mac[ETH_ALEN];

	atu_mac_get(s, mac);
	if (!ATU_STATE(data)) {
		e = sim_atu_find(s, fid, mac);
		if (e)
			atu_delete(s, e);
		return;
	}
	e = atu_insert(s, fid, mac);
	if (!e)
		return;
	e->state = ATU_STATE(data);
	e->portvec = ATU_PORTVEC(data);
	e->trunk = data & MV88E6XXX_G1_ATU_DATA_TRUNK;
	e->seen = jiffies;
}

static void atu_get_next(struct sim *s, u16 fid)
{
	struct sim_atu *best = NULL;
	u8 start[ETH_ALEN];
	u64 from, key;
	bool incl;
	unsigned int i;

	atu_mac_get(s, start);
	incl = is_broadcast_ether_addr(start);
	from = incl ? 0 : ether_addr_to_u64(start);
	for (i = 0; i < s->n_atu; i++) {
		struct sim_atu *e = &s->atu[i];

		if (e->fid != fid)
			continue;
		key = ether_addr_to_u64(e->mac);
		if (key < from || (!incl && key == from))
			continue;
		if (!best || key < ether_addr_to_u64(best->mac))
			best = e;
	}
	if (!best) {
		s->g1[MV88E6XXX_G1_ATU_DATA] = 0;
		eth_broadcast_addr(start);
		atu_mac_set(s, start);
		return;
	}
	s->g1[MV88E6XXX_G1_ATU_DATA] = (best->trunk ? MV88E6XXX_G1_ATU_DATA_TRUNK : 0) |
				       best->portvec << 4 | best->state;
	atu_mac_set(s, best->mac);
}

/*
 * Flush (DATA state 0) or move (state 0xf: FromPort in 7:4, ToPort in
 * 11:8) the matching entries. A ToPort beyond the chip means "remove":
 * the driver writes 0xf masked to 7 bits of port vector, i.e. 7.
 */
static void atu_flush_move(struct sim *s, u16 fid, bool all_dbs, bool statics)
{
	u16 data = s->g1[MV88E6XXX_G1_ATU_DATA];
	bool move = ATU_STATE(data) == ATU_MOVE;
	unsigned int from = (data >> 4) & 0xf, to = (data >> 8) & 0xf;
	unsigned int i = 0;

	while (i < s->n_atu) {
		struct sim_atu *e = &s->atu[i];

		if ((!all_dbs && e->fid != fid) || (!statics && atu_static(e))) {
			i++;
			continue;
		}
		if (move) {
			if (!(e->portvec & BIT(from))) {
				i++;
				continue;
			}
			e->portvec &= ~BIT(from);
			if (to < SIM_PORTS)
				e->portvec |= BIT(to);
			if (e->portvec) {
				i++;
				continue;
			}
		}
		atu_delete(s, e);	/* the last entry moved into slot i */
	}
}

void sim_atu_op(struct sim *s, u16 op)
{
	u16 fid = s->g1[MV88E6352_G1_ATU_FID] & 0xfff;

	switch (op) {
	case MV88E6XXX_G1_ATU_OP_LOAD_DB:
		atu_load(s, fid);
		break;
	case MV88E6XXX_G1_ATU_OP_GET_NEXT_DB:
		atu_get_next(s, fid);
		break;
	case MV88E6XXX_G1_ATU_OP_FLUSH_MOVE_ALL:
		atu_flush_move(s, fid, true, true);
		break;
	case MV88E6XXX_G1_ATU_OP_FLUSH_MOVE_NON_STATIC:
		atu_flush_move(s, fid, true, false);
		break;
	case MV88E6XXX_G1_ATU_OP_FLUSH_MOVE_ALL_DB:
		atu_flush_move(s, fid, false, true);
		break;
	case MV88E6XXX_G1_ATU_OP_FLUSH_MOVE_NON_STATIC_DB:
		atu_flush_move(s, fid, false, false);
		break;
	}
}

/* A frame's source address, seen on a port: a dynamic entry, newest age. */
void sim_atu_learn(struct sim *s, u16 fid, const u8 *mac, int port)
{
	struct sim_atu *e = sim_atu_find(s, fid, mac);

	if (e && atu_static(e))
		return;
	if (!e) {
		e = atu_insert(s, fid, mac);
		if (!e)
			return;
		s->port[port].learned++;
	}
	e->state = 7;
	e->portvec = BIT(port);
	e->seen = jiffies;
}

/* Dynamic entries not refreshed for the age time (ATU Ctl 11:4 x 15 s). */
void sim_atu_age(struct sim *s)
{
	unsigned long age = ((s->g1[MV88E6XXX_G1_ATU_CTL] >> 4) & 0xff) * AGE_UNIT_SECS * HZ;
	unsigned int i = 0;

	if (!age)
		return;
	while (i < s->n_atu) {
		struct sim_atu *e = &s->atu[i];

		if (!atu_static(e) && time_after(jiffies, e->seen + age))
			atu_delete(s, e);
		else
			i++;
	}
}

void sim_pvt_op(struct sim *s, u16 cmd)
{
	unsigned int ptr = cmd & MV88E6XXX_G2_PVT_ADDR_PTR_MASK, i;

	switch (cmd & MV88E6XXX_G2_PVT_ADDR_OP_MASK) {
	case MV88E6XXX_G2_PVT_ADDR_OP_INIT_ONES:
		for (i = 0; i < SIM_PVT_SIZE; i++)
			s->pvt[i] = MV88E6XXX_G2_PVT_DATA_MASK;
		break;
	case MV88E6XXX_G2_PVT_ADDR_OP_WRITE_PVLAN:
		s->pvt[ptr] = s->g2[MV88E6XXX_G2_PVT_DATA] & MV88E6XXX_G2_PVT_DATA_MASK;
		break;
	case MV88E6XXX_G2_PVT_ADDR_OP_READ:
		s->g2[MV88E6XXX_G2_PVT_DATA] = s->pvt[ptr];
		break;
	}
}
