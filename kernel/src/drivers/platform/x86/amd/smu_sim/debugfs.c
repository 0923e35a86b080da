// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs: /sys/kernel/debug/amd_smu_sim/ for tests and trainers.
 *
 *   proto_ver, smu_fw_ver   what GET_PROTO_VER / GET_SMU_VER answer
 *   northbridges            what amd_nb made of the emulated devices
 *   reset                   write anything: boot state, no rules, no counters
 *   fault                   write a rule for every socket ("clear" drops all)
 *   sockN/fault             the rules of socket N
 *   sockN/stats             counters: served per message, violations, ...
 *   sockN/state             the firmware's SET state
 *   sockN/latency_us, jitter_us, prochot, c0_pct   timing and telemetry knobs
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/pci.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/amd_nb.h>

#include "smu_sim.h"

#define SHOW_SIZE	4096

static struct dentry *smu_sim_dir;

typedef int (*show_fn)(struct smu_sim_socket *s, char *buf, size_t size);

static int show_stats(struct smu_sim_socket *s, char *buf, size_t size)
{
	struct smu_sim_stats *st = &s->stats;
	int n, i;

	n = scnprintf(buf, size,
		      "served %llu\nerrors %llu\nviolations %llu\nabandoned %llu\n"
		      "overruns %llu\ndropped %llu\nfaulted %llu\n"
		      "latency_max_us %llu\nlatency_avg_us %llu\n",
		      st->total, st->errors, st->violations, st->abandoned,
		      st->overruns, st->dropped, st->faulted,
		      div_u64(st->latency_max_ns, NSEC_PER_USEC),
		      st->total ? div64_u64(st->latency_sum_ns, st->total * NSEC_PER_USEC) : 0);
	for (i = 1; i < SMU_SIM_NUM_MSGS; i++)
		if (st->served[i])
			n += scnprintf(buf + n, size - n, "msg 0x%02x %llu\n", i,
				       st->served[i]);
	return n;
}

/* Fill a buffer under the socket lock, then copy it out without it. */
static ssize_t read_shown(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos, show_fn show)
{
	struct smu_sim_socket *s = file->private_data;
	unsigned long flags;
	ssize_t ret;
	char *buf;
	int n;

	buf = kmalloc(SHOW_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	raw_spin_lock_irqsave(&s->lock, flags);
	n = show(s, buf, SHOW_SIZE);
	raw_spin_unlock_irqrestore(&s->lock, flags);
	ret = simple_read_from_buffer(ubuf, count, ppos, buf, n);
	kfree(buf);
	return ret;
}

static ssize_t stats_read(struct file *f, char __user *u, size_t c, loff_t *p)
{
	return read_shown(f, u, c, p, show_stats);
}

static ssize_t state_read(struct file *f, char __user *u, size_t c, loff_t *p)
{
	return read_shown(f, u, c, p, smu_sim_fw_show);
}

static ssize_t fault_read(struct file *f, char __user *u, size_t c, loff_t *p)
{
	return read_shown(f, u, c, p, smu_sim_fault_show);
}

/* Apply a rule (or "clear") to one socket, or to all when s is NULL. */
static ssize_t fault_store(struct smu_sim_socket *s, const char __user *ubuf,
			   size_t count)
{
	struct smu_sim_fault f;
	unsigned long flags;
	unsigned int n;
	bool clear;
	char *buf;
	int ret = 0;

	buf = memdup_user_nul(ubuf, min_t(size_t, count, 256));
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	clear = sysfs_streq(buf, "clear");
	if (!clear)
		ret = smu_sim_fault_parse(buf, &f);
	kfree(buf);
	if (ret)
		return ret;
	for (n = 0; n < smu_sim.nsockets; n++) {
		struct smu_sim_socket *t = &smu_sim.sock[n];

		if (s && s != t)
			continue;
		raw_spin_lock_irqsave(&t->lock, flags);
		if (clear)
			t->nfaults = 0;
		else
			ret = smu_sim_fault_add(t, &f);
		raw_spin_unlock_irqrestore(&t->lock, flags);
		if (ret)
			return ret;
	}
	return count;
}

static ssize_t fault_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	return fault_store(file->private_data, ubuf, count);
}

static const struct file_operations stats_fops = {
	.open = simple_open,
	.read = stats_read,
	.llseek = default_llseek,
};

static const struct file_operations state_fops = {
	.open = simple_open,
	.read = state_read,
	.llseek = default_llseek,
};

static const struct file_operations fault_fops = {
	.open = simple_open,
	.read = fault_read,
	.write = fault_write,
	.llseek = default_llseek,
};

static ssize_t all_fault_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	return fault_store(NULL, ubuf, count);
}

static const struct file_operations all_fault_fops = {
	.open = simple_open,
	.write = all_fault_write,
	.llseek = noop_llseek,
};

static ssize_t reset_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	smu_sim_reset_all();
	return count;
}

static const struct file_operations reset_fops = {
	.open = simple_open,
	.write = reset_write,
	.llseek = noop_llseek,
};

static int proto_get(void *data, u64 *val)
{
	*val = smu_sim.proto_ver;
	return 0;
}

static int proto_set(void *data, u64 val)
{
	if (!smu_sim_proto_valid(val))
		return -EINVAL;
	smu_sim.proto_ver = val;
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(proto_fops, proto_get, proto_set, "%llu\n");

/*
 * amd_nb's node count and, per node, the root and data-fabric function 3
 * it paired: the socket count amd_hsmp goes by, and the node cacheinfo
 * looks up by a CPU's die id, for tests to hold against the CPU topology.
 */
static int northbridges_show(struct seq_file *m, void *v)
{
	struct amd_northbridge *nb;
	u16 i;

	seq_printf(m, "amd_nb %u\n", amd_nb_num());
	for (i = 0; i < amd_nb_num(); i++) {
		nb = node_to_amd_nb(i);
		seq_printf(m, "node %u root %s misc %s\n", i,
			   nb && nb->root ? pci_name(nb->root) : "-",
			   nb && nb->misc ? pci_name(nb->misc) : "-");
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(northbridges);

void smu_sim_debugfs_init(void)
{
	struct smu_sim_socket *s;
	struct dentry *d;
	char name[16];
	unsigned int n;

	smu_sim_dir = debugfs_create_dir("amd_smu_sim", NULL);
	debugfs_create_file_unsafe("proto_ver", 0644, smu_sim_dir, NULL, &proto_fops);
	debugfs_create_x32("smu_fw_ver", 0644, smu_sim_dir, &smu_sim.smu_fw_ver);
	debugfs_create_file("northbridges", 0444, smu_sim_dir, NULL,
			    &northbridges_fops);
	debugfs_create_file("reset", 0200, smu_sim_dir, NULL, &reset_fops);
	debugfs_create_file("fault", 0200, smu_sim_dir, NULL, &all_fault_fops);
	for (n = 0; n < smu_sim.nsockets; n++) {
		s = &smu_sim.sock[n];
		snprintf(name, sizeof(name), "sock%u", n);
		d = debugfs_create_dir(name, smu_sim_dir);
		debugfs_create_file("fault", 0600, d, s, &fault_fops);
		debugfs_create_file("stats", 0400, d, s, &stats_fops);
		debugfs_create_file("state", 0400, d, s, &state_fops);
		debugfs_create_u32("latency_us", 0600, d, &s->latency_us);
		debugfs_create_u32("jitter_us", 0600, d, &s->jitter_us);
		debugfs_create_u32("prochot", 0600, d, &s->fw.prochot);
		debugfs_create_u32("c0_pct", 0600, d, &s->fw.c0_pct);
	}
}
