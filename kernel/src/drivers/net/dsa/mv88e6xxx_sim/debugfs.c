// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/mv88e6xxx_sim/: the tables and counters as the
 * emulator holds them, for tests that compare them with the driver's
 * devlink regions and the bridge's view.
 *   vtu    vid fid sid members (per port: = unmodified, u untagged, t tagged, - none)
 *   stu    sid states (per port: d disabled, b blocking, l learning, f forwarding)
 *   atu    fid mac state portvec
 *   ports  per-port link, state, rx/tx/trapped/learned and drop counters
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "sim.h"
#include "../mv88e6xxx/port.h"

static int vtu_show(struct seq_file *m, void *v)
{
	static const char member[] = "=ut-";
	struct sim *s = m->private;
	int vid, p;

	spin_lock_bh(&s->lock);
	for (vid = 0; vid < SIM_NUM_VIDS; vid++) {
		struct sim_vtu *e = &s->vtu[vid];

		if (!e->valid)
			continue;
		seq_printf(m, "%4d fid %4u sid %2u ", vid, e->fid, e->sid);
		for (p = 0; p < SIM_PORTS; p++)
			seq_putc(m, member[e->member[p]]);
		seq_putc(m, '\n');
	}
	spin_unlock_bh(&s->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vtu);

static const char state_char[] = "dblf";

static int stu_show(struct seq_file *m, void *v)
{
	struct sim *s = m->private;
	int sid, p;

	spin_lock_bh(&s->lock);
	for (sid = 0; sid < SIM_NUM_SIDS; sid++) {
		if (!s->stu[sid].valid)
			continue;
		seq_printf(m, "%2d ", sid);
		for (p = 0; p < SIM_PORTS; p++)
			seq_putc(m, state_char[s->stu[sid].state[p]]);
		seq_putc(m, '\n');
	}
	spin_unlock_bh(&s->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stu);

static int atu_show(struct seq_file *m, void *v)
{
	struct sim *s = m->private;
	unsigned int i;

	spin_lock_bh(&s->lock);
	for (i = 0; i < s->n_atu; i++)
		seq_printf(m, "%4u %pM %x %02x\n", s->atu[i].fid, s->atu[i].mac,
			   s->atu[i].state, s->atu[i].portvec);
	spin_unlock_bh(&s->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(atu);

static int ports_show(struct seq_file *m, void *v)
{
	struct sim *s = m->private;
	int p;

	spin_lock_bh(&s->lock);
	for (p = 0; p < SIM_PORTS; p++) {
		struct sim_port *sp = &s->port[p];

		seq_printf(m, "%d %s link %d state %c rx %llu tx %llu trapped %llu learned %llu drops link %llu state %llu vtu %llu tagging %llu no_dest %llu tag %llu\n",
			   p, sp->nic ? sp->nic->name : "-", sim_port_link(s, p),
			   state_char[sp->reg[MV88E6XXX_PORT_CTL0] & 3], sp->rx, sp->tx,
			   sp->trapped, sp->learned, sp->drops[SIM_DROP_LINK],
			   sp->drops[SIM_DROP_STATE], sp->drops[SIM_DROP_VTU],
			   sp->drops[SIM_DROP_TAGGING], sp->drops[SIM_DROP_NO_DEST],
			   sp->drops[SIM_DROP_TAG]);
	}
	spin_unlock_bh(&s->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ports);

void sim_debugfs_init(struct sim *s)
{
	s->debugfs = debugfs_create_dir("mv88e6xxx_sim", NULL);
	debugfs_create_file("vtu", 0400, s->debugfs, s, &vtu_fops);
	debugfs_create_file("stu", 0400, s->debugfs, s, &stu_fops);
	debugfs_create_file("atu", 0400, s->debugfs, s, &atu_fops);
	debugfs_create_file("ports", 0400, s->debugfs, s, &ports_fops);
}
