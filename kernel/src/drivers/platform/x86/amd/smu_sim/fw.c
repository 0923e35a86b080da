// SPDX-License-Identifier: GPL-2.0
/*
 * The SMU firmware model behind the HSMP mailbox: what every message of
 * the 6.1 uapi (asm/amd_hsmp.h) does, per socket. SET messages change the
 * state GET messages read back; telemetry drifts with a seeded generator,
 * so a run is reproducible. Encodings follow the uapi header and AMD's
 * E-SMI library; the platform figures are those of a Milan part.
 */
#include <linux/kernel.h>
#include <linux/minmax.h>

#include "smu_sim.h"

#define POWER_MAX_MW	280000		/* the socket's TDP ceiling */
#define POWER_MIN_MW	120000
#define POWER_IDLE_MW	60000
#define FMAX_MHZ	3700
#define FMIN_MHZ	1500
#define MCLK_MHZ	1600
#define DDR_MAX_GBPS	204
#define DF_PSTATES_V4	4		/* P0..P3 before protocol 5 */
#define DF_PSTATES	3

static const u16 fclk_mhz[DF_PSTATES_V4] = { 1600, 1467, 1333, 1200 };
static const u8 dimm_addr[SMU_SIM_NUM_DIMMS] = { 0x80, 0x81, 0x90, 0x91 };

/* The protocols of the EPYC parts of the 6.1 uapi's time (see below). */
bool smu_sim_proto_valid(u32 proto)
{
	return proto == 2 || proto == 4 || proto == 5 || proto == 7;
}

/*
 * Message ids each SMU protocol version answers, up to what 6.1 knows:
 * E-SMI's tables by protocol (src/e_smi_plat.c): tbl_milan (2) 1h-14h,
 * tbl_trento (4) 1h-15h, tbl_genoa (5) 1h-22h without 15h, tbl_turin (7)
 * likewise up to 22h.
 */
static bool proto_supports(u32 proto, u32 id)
{
	if (id < 1 || id >= SMU_SIM_NUM_MSGS)
		return false;
	switch (proto) {
	case 2:
		return id <= 0x14;
	case 4:
		return id <= 0x15;
	default:
		return id != 0x15;
	}
}

static u32 rnd_range(struct smu_sim_fw *fw, u32 span)
{
	return span ? prandom_u32_state(&fw->rnd) % span : 0;
}

/* Telemetry moves a little on every reading: activity wanders, power
 * follows the demand it implies but never exceeds the limit.
 */
static void telemetry_step(struct smu_sim_fw *fw)
{
	u32 demand, target;
	int c0 = fw->c0_pct + (int)rnd_range(fw, 7) - 3;

	fw->c0_pct = clamp(c0, 5, 95);
	demand = POWER_IDLE_MW + (POWER_MAX_MW - POWER_IDLE_MW) / 100 * fw->c0_pct;
	target = min(demand, fw->power_limit_mw);
	fw->power_mw = (3 * fw->power_mw + target) / 4;
	fw->power_mw = min(fw->power_mw + rnd_range(fw, 1000), fw->power_limit_mw);
}

static int core_index(struct smu_sim_fw *fw, u32 apic)
{
	unsigned int i;

	for (i = 0; i < fw->ncores; i++)
		if (fw->apic[i] == apic)
			return i;
	return -1;
}

static u32 socket_boost_mhz(struct smu_sim_fw *fw)
{
	u32 mhz = FMAX_MHZ;
	unsigned int i;

	for (i = 0; i < fw->ncores; i++)
		mhz = min_t(u32, mhz, fw->boost_mhz[i]);
	return mhz;
}

static u32 core_limit_mhz(struct smu_sim_fw *fw, unsigned int core)
{
	return fw->prochot ? FMIN_MHZ : fw->boost_mhz[core];
}

static u32 throttle_mhz(struct smu_sim_fw *fw)
{
	return fw->prochot ? FMIN_MHZ : socket_boost_mhz(fw);
}

/* Bit i of the frequency-limit source mask, as E-SMI decodes it. */
#define SRC_PROCHOT	BIT(1)
#define SRC_PPT		BIT(3)
#define SRC_OPN_MAX	BIT(4)
#define SRC_HSMP	BIT(7)

static u32 freq_limit_source(struct smu_sim_fw *fw)
{
	u32 src = 0;

	if (fw->prochot)
		src |= SRC_PROCHOT;
	if (fw->power_mw >= fw->power_limit_mw / 100 * 98)
		src |= SRC_PPT;
	if (socket_boost_mhz(fw) < FMAX_MHZ)
		src |= SRC_HSMP;
	return src ? src : SRC_OPN_MAX;
}

static unsigned int df_pstate(struct smu_sim_fw *fw)
{
	if (fw->df_pstate >= 0)
		return fw->df_pstate;
	/* Automatic: the fastest allowed state, the slowest under PROCHOT. */
	return fw->prochot ? fw->df_range_min : fw->df_range_max;
}

static u32 temp_mc(struct smu_sim_fw *fw)
{
	return 30000 + fw->power_mw / 8;
}

static u32 ddr_used_gbps(struct smu_sim_fw *fw)
{
	return DDR_MAX_GBPS * fw->c0_pct * 6 / 1000;
}

static int dimm_index(u32 addr)
{
	unsigned int i;

	for (i = 0; i < SMU_SIM_NUM_DIMMS; i++)
		if (dimm_addr[i] == addr)
			return i;
	return -1;
}

/* Tctl for k10temp: bits 31:21 in units of 0.125 degree C. */
u32 smu_sim_fw_tctl(struct smu_sim_socket *s)
{
	return (temp_mc(&s->fw) / 125) << 21;
}

/* A link id is one bit: P0..P3 are 0x01..0x08, G0..G3 0x10..0x80. */
static bool link_bandwidth(struct smu_sim_fw *fw, u32 arg, u32 types, u32 *mbps)
{
	u32 link = (arg >> 8) & 0xff, type = arg & 0x7;

	if (!link || (link & (link - 1)) || !type || (type & (type - 1)) ||
	    !(type & types))
		return false;
	/* An aggregate is the sum of read and write. */
	*mbps = (ilog2(link) + 1) * 1000 + fw->c0_pct * 100;
	if (type == 1 && types != 1)
		*mbps *= 2;
	return true;
}

static u8 set_range(u32 arg, u8 top, u8 *lo, u8 *hi, bool hi_first)
{
	u8 a = (arg >> 8) & 0xff, b = arg & 0xff;
	u8 min = hi_first ? b : a, max = hi_first ? a : b;

	if (min > top || max > top || min > max)
		return SMU_SIM_ST_INVALID_IN;
	*lo = min;
	*hi = max;
	return SMU_SIM_ST_OK;
}

static u8 run_power(struct smu_sim_fw *fw, u32 id, u32 *a)
{
	switch (id) {
	case 0x04:		/* GET_SOCKET_POWER */
		telemetry_step(fw);
		a[0] = fw->power_mw;
		break;
	case 0x05:		/* SET_SOCKET_POWER_LIMIT: the SMU clamps */
		fw->power_limit_mw = clamp_t(u32, a[0], POWER_MIN_MW, POWER_MAX_MW);
		fw->power_mw = min(fw->power_mw, fw->power_limit_mw);
		break;
	case 0x06:		/* GET_SOCKET_POWER_LIMIT */
		a[0] = fw->power_limit_mw;
		break;
	case 0x07:		/* GET_SOCKET_POWER_LIMIT_MAX */
		a[0] = POWER_MAX_MW;
		break;
	case 0x1b:		/* GET_RAILS_SVI */
		telemetry_step(fw);
		a[0] = fw->power_mw + fw->power_mw / 20;
		break;
	default:
		return SMU_SIM_ST_INVALID_MSG;
	}
	return SMU_SIM_ST_OK;
}

static u8 run_boost(struct smu_sim_fw *fw, u32 id, u32 *a)
{
	unsigned int i;
	int core;
	u32 mhz;

	switch (id) {
	case 0x08:		/* SET_BOOST_LIMIT: [31:16] APIC id, [15:0] MHz */
		core = core_index(fw, a[0] >> 16);
		if (core < 0)
			return SMU_SIM_ST_INVALID_IN;
		fw->boost_mhz[core] = clamp_t(u32, a[0] & 0xffff, FMIN_MHZ, FMAX_MHZ);
		break;
	case 0x09:		/* SET_BOOST_LIMIT_SOCKET */
		mhz = clamp_t(u32, a[0] & 0xffff, FMIN_MHZ, FMAX_MHZ);
		for (i = 0; i < fw->ncores; i++)
			fw->boost_mhz[i] = mhz;
		break;
	case 0x0a:		/* GET_BOOST_LIMIT */
	case 0x1a:		/* GET_CCLK_CORE_LIMIT */
		core = core_index(fw, a[0]);
		if (core < 0)
			return SMU_SIM_ST_INVALID_IN;
		a[0] = id == 0x0a ? fw->boost_mhz[core] : core_limit_mhz(fw, core);
		break;
	case 0x10:		/* GET_CCLK_THROTTLE_LIMIT */
		a[0] = throttle_mhz(fw);
		break;
	case 0x19:		/* GET_SOCKET_FREQ_LIMIT */
		a[0] = throttle_mhz(fw) << 16 | freq_limit_source(fw);
		break;
	case 0x1c:		/* GET_SOCKET_FMAX_FMIN */
		a[0] = FMAX_MHZ << 16 | FMIN_MHZ;
		break;
	default:
		return SMU_SIM_ST_INVALID_MSG;
	}
	return SMU_SIM_ST_OK;
}

static u8 run_fabric(struct smu_sim_socket *s, u32 id, u32 *a)
{
	struct smu_sim_fw *fw = &s->fw;
	u32 top = smu_sim.proto_ver < 5 ? DF_PSTATES_V4 - 1 : DF_PSTATES - 1;
	u8 nbio = (a[0] >> 16) & 0xff, prev;

	switch (id) {
	case 0x0c:		/* SET_XGMI_LINK_WIDTH: no xGMI on one socket */
		if (smu_sim.nsockets < 2)
			return SMU_SIM_ST_INVALID_IN;
		return set_range(a[0], 2, &fw->xgmi_min, &fw->xgmi_max, false);
	case 0x0d:		/* SET_DF_PSTATE (APB disable) */
		if (a[0] > top)
			return SMU_SIM_ST_INVALID_IN;
		fw->df_pstate = a[0];
		break;
	case 0x0e:		/* SET_AUTO_DF_PSTATE (APB enable) */
		fw->df_pstate = -1;
		break;
	case 0x0f:		/* GET_FCLK_MCLK */
		a[0] = fclk_mhz[df_pstate(fw)];
		a[1] = MCLK_MHZ;
		break;
	case 0x12:		/* SET_NBIO_DPM_LEVEL: [23:16] NBIO, [15:8] max, [7:0] min */
		if (nbio >= SMU_SIM_NUM_NBIO)
			return SMU_SIM_ST_INVALID_IN;
		return set_range(a[0], 3, &fw->nbio_min[nbio], &fw->nbio_max[nbio], true);
	case 0x13:		/* GET_NBIO_DPM_LEVEL */
		if (nbio >= SMU_SIM_NUM_NBIO)
			return SMU_SIM_ST_INVALID_IN;
		a[0] = fw->nbio_max[nbio] << 8 | fw->nbio_min[nbio];
		break;
	case 0x1d:		/* GET_IOLINK_BANDWITH: aggregate only */
		return link_bandwidth(fw, a[0], 1, &a[0]) ? SMU_SIM_ST_OK
							  : SMU_SIM_ST_INVALID_IN;
	case 0x1e:		/* GET_XGMI_BANDWITH: aggregate, read or write */
		return link_bandwidth(fw, a[0], 7, &a[0]) ? SMU_SIM_ST_OK
							  : SMU_SIM_ST_INVALID_IN;
	case 0x1f:		/* SET_GMI3_WIDTH */
		return set_range(a[0], 2, &fw->gmi3_min, &fw->gmi3_max, false);
	case 0x20:		/* SET_PCI_RATE: answers the previous setting */
		if (a[0] > 2)
			return SMU_SIM_ST_INVALID_IN;
		prev = fw->pci_rate;
		fw->pci_rate = a[0];
		a[0] = prev;
		break;
	case 0x21:		/* SET_POWER_MODE */
		if (a[0] > 3)
			return SMU_SIM_ST_INVALID_IN;
		fw->power_mode = a[0];
		break;
	case 0x22:		/* SET_PSTATE_MAX_MIN: [15:8] min, [7:0] max, max <= min */
		return set_range(a[0], DF_PSTATES - 1, &fw->df_range_max,
				 &fw->df_range_min, true);
	default:
		return SMU_SIM_ST_INVALID_MSG;
	}
	return SMU_SIM_ST_OK;
}

static u8 run_memory(struct smu_sim_fw *fw, u32 id, u32 *a)
{
	int dimm = dimm_index(a[0] & 0xff);
	u32 used, t;

	switch (id) {
	case 0x14:		/* GET_DDR_BANDWIDTH: [31:20] max, [19:8] used, [7:0] % */
		telemetry_step(fw);
		used = ddr_used_gbps(fw);
		a[0] = DDR_MAX_GBPS << 20 | used << 8 | used * 100 / DDR_MAX_GBPS;
		return SMU_SIM_ST_OK;
	case 0x15:		/* GET_TEMP_MONITOR: [15:8] degrees, [7:5] eighths */
		t = temp_mc(fw);
		a[0] = (t / 1000) << 8 | ((t % 1000) / 125) << 5;
		return SMU_SIM_ST_OK;
	}
	if (dimm < 0)
		return SMU_SIM_ST_INVALID_IN;
	/* DIMMs warm with memory traffic: 40 degrees plus up to 15. */
	t = 40000 + ddr_used_gbps(fw) * 15000 / DDR_MAX_GBPS + dimm * 250;
	switch (id) {
	case 0x16:		/* GET_DIMM_TEMP_RANGE: [2:0] range, [3] 2x refresh */
		a[0] = t >= 85000 ? 0x5 | BIT(3) : 0x1;
		break;
	case 0x17:		/* GET_DIMM_POWER: [31:17] mW, [16:8] ms, [7:0] addr */
		a[0] = (1000 + ddr_used_gbps(fw) * 20) << 17 | 10 << 8 | dimm_addr[dimm];
		break;
	case 0x18:		/* GET_DIMM_THERMAL: [31:21] quarter degrees */
		a[0] = (t / 250) << 21 | 10 << 8 | dimm_addr[dimm];
		break;
	default:
		return SMU_SIM_ST_INVALID_MSG;
	}
	return SMU_SIM_ST_OK;
}

u8 smu_sim_fw_run(struct smu_sim_socket *s, u32 id, u32 *a)
{
	struct smu_sim_fw *fw = &s->fw;

	if (!proto_supports(smu_sim.proto_ver, id))
		return SMU_SIM_ST_INVALID_MSG;
	switch (id) {
	case 0x01:		/* TEST */
		a[0] += 1;
		return SMU_SIM_ST_OK;
	case 0x02:		/* GET_SMU_VER */
		a[0] = smu_sim.smu_fw_ver;
		return SMU_SIM_ST_OK;
	case 0x03:		/* GET_PROTO_VER */
		a[0] = smu_sim.proto_ver;
		return SMU_SIM_ST_OK;
	case 0x0b:		/* GET_PROC_HOT */
		a[0] = !!fw->prochot;
		return SMU_SIM_ST_OK;
	case 0x11:		/* GET_C0_PERCENT */
		telemetry_step(fw);
		a[0] = fw->c0_pct;
		return SMU_SIM_ST_OK;
	case 0x04 ... 0x07:
	case 0x1b:
		return run_power(fw, id, a);
	case 0x08 ... 0x0a:
	case 0x10:
	case 0x19:
	case 0x1a:
	case 0x1c:
		return run_boost(fw, id, a);
	case 0x14 ... 0x18:
		return run_memory(fw, id, a);
	default:
		return run_fabric(s, id, a);
	}
}

void smu_sim_fw_reset(struct smu_sim_socket *s)
{
	struct smu_sim_fw *fw = &s->fw;
	unsigned int i;

	prandom_seed_state(&fw->rnd, smu_sim.seed + s->id);
	fw->power_limit_mw = 240000;
	fw->c0_pct = 40;
	fw->power_mw = POWER_IDLE_MW;
	fw->prochot = 0;
	for (i = 0; i < fw->ncores; i++)
		fw->boost_mhz[i] = FMAX_MHZ;
	fw->xgmi_min = 0;
	fw->xgmi_max = 2;
	fw->df_pstate = -1;
	fw->df_range_max = 0;
	fw->df_range_min = DF_PSTATES - 1;
	for (i = 0; i < SMU_SIM_NUM_NBIO; i++) {
		fw->nbio_min[i] = 0;
		fw->nbio_max[i] = 3;
	}
	fw->gmi3_min = 0;
	fw->gmi3_max = 2;
	fw->pci_rate = 0;
	fw->power_mode = 0;
}

/* The whole SET state, for tests that cannot read a setting back. */
int smu_sim_fw_show(struct smu_sim_socket *s, char *buf, size_t size)
{
	struct smu_sim_fw *fw = &s->fw;
	int n, i;

	n = scnprintf(buf, size,
		      "power_limit_mw %u\npower_mw %u\nc0_pct %u\nprochot %u\n"
		      "xgmi_width %u %u\ndf_pstate %d\ndf_pstate_range %u %u\n"
		      "gmi3_width %u %u\npci_rate %u\npower_mode %u\n",
		      fw->power_limit_mw, fw->power_mw, fw->c0_pct, fw->prochot,
		      fw->xgmi_min, fw->xgmi_max, fw->df_pstate, fw->df_range_max,
		      fw->df_range_min, fw->gmi3_min, fw->gmi3_max, fw->pci_rate,
		      fw->power_mode);
	for (i = 0; i < SMU_SIM_NUM_NBIO; i++)
		n += scnprintf(buf + n, size - n, "nbio%d_dpm %u %u\n", i,
			       fw->nbio_min[i], fw->nbio_max[i]);
	for (i = 0; i < fw->ncores; i++)
		n += scnprintf(buf + n, size - n, "core apic=%u boost_mhz=%u\n",
			       fw->apic[i], fw->boost_mhz[i]);
	return n;
}
