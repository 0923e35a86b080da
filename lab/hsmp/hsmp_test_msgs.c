// SPDX-License-Identifier: MIT
/*
 * Every message of the 6.1 uapi against the firmware model: what GETs
 * answer, that SETs read back, clamping and range checks, protocol
 * gating, and that sockets keep their own state. The platform figures
 * (power and frequency bounds, clocks) are the model's, see fw.c.
 */
#include <asm/amd_hsmp.h>
#include <errno.h>
#include <stdio.h>

#include "hsmp_sim.h"
#include "hsmp_test.h"

#define POWER_MAX_MW 280000
#define POWER_MIN_MW 120000
#define POWER_DEFAULT_MW 240000
#define FMAX_MHZ 3700
#define FMIN_MHZ 1500
#define MCLK_MHZ 1600
static const uint32_t fclk_mhz[] = { 1600, 1467, 1333 };

static void test_identity(struct suite *t)
{
	uint32_t r = 0;
	int ret;

	ret = msg1(t, 0, HSMP_TEST, 0xdeadbeef, &r);
	ok(t, ret == 0 && r == 0xdeadbef0, "TEST 0xdeadbeef answers 0xdeadbef0 (%d, %#x)", ret, r);
	ret = msg1(t, t->nsock - 1, HSMP_TEST, 0xffffffff, &r);
	ok(t, ret == 0 && r == 0, "TEST wraps at 32 bits on the last socket (%d, %#x)", ret, r);
	ret = msg1(t, 0, HSMP_GET_SMU_VER, 0, &r);
	ok(t, ret == 0 && r == (uint32_t)sim_value("smu_fw_ver", "") , "GET_SMU_VER (%#x)", r);
	sim_write("smu_fw_ver", "0x00010203");
	ret = msg1(t, 0, HSMP_GET_SMU_VER, 0, &r);
	ok(t, ret == 0 && r == 0x00010203, "GET_SMU_VER follows the firmware (%#x)", r);
	ret = msg1(t, 0, HSMP_GET_PROTO_VER, 0, &r);
	ok(t, ret == 0 && r == 5, "GET_PROTO_VER answers the protocol set (%u)", r);
}

/*
 * Protocol 2 (Milan) stops at 0x14, 4 (Trento) adds 0x15, 5 (Genoa) and
 * 7 (Turin) drop it and go on to 0x22.
 */
static void test_protocols(struct suite *t)
{
	uint32_t r;
	int a, b, c;

	sim_write("proto_ver", "2");
	a = msg1(t, 0, HSMP_GET_DDR_BANDWIDTH, 0, &r);
	b = msg1(t, 0, HSMP_GET_TEMP_MONITOR, 0, &r);
	c = msg1(t, 0, HSMP_GET_SOCKET_FMAX_FMIN, 0, &r);
	ok(t, a == 0 && b == -ENOMSG && c == -ENOMSG,
	   "protocol 2: 0x14 answered, 0x15 and 0x1c ENOMSG (%d %d %d)", a, b, c);
	sim_write("proto_ver", "4");
	c = msg1(t, 0, HSMP_GET_DIMM_TEMP_RANGE, 0x80, NULL);
	b = msg1(t, 0, HSMP_GET_TEMP_MONITOR, 0, &r);
	ok(t, b == 0 && (r >> 8 & 0xff) >= 30 && (r >> 8 & 0xff) <= 90 && !(r & 0x1f) &&
		      c == -ENOMSG,
	   "protocol 4: GET_TEMP_MONITOR %u.%03u C; 0x16 ENOMSG (%d)", r >> 8 & 0xff,
	   (r >> 5 & 7) * 125, c);
	sim_write("proto_ver", "5");
	b = msg1(t, 0, HSMP_GET_TEMP_MONITOR, 0, &r);
	c = msg1(t, 0, HSMP_SET_POWER_MODE, 1, &r);
	ok(t, b == -ENOMSG && c == 0, "protocol 5: 0x15 ENOMSG, 0x21 answered (%d %d)", b, c);
	sim_write("proto_ver", "7");
	b = msg1(t, 0, HSMP_GET_TEMP_MONITOR, 0, &r);
	c = msg1(t, 0, HSMP_SET_PSTATE_MAX_MIN, 2 << 8, &r);
	ok(t, b == -ENOMSG && c == 0, "protocol 7: 0x15 ENOMSG, 0x22 answered (%d %d)", b, c);
	ok(t, sim_write("proto_ver", "3") == -EINVAL, "the emulator refuses protocol 3");
	sim_write("reset", "1");
	a = msg1(t, 0, HSMP_GET_PROTO_VER, 0, &r);
	ok(t, a == 0 && r == t->boot_proto,
	   "reset: the protocol it booted with again (%u, booted %u)", r, t->boot_proto);
}

static void test_power(struct suite *t)
{
	uint32_t lim, max, p, svi;
	bool below = true;
	int ret;

	ret = msg1(t, 0, HSMP_GET_SOCKET_POWER_LIMIT, 0, &lim) |
	      msg1(t, 0, HSMP_GET_SOCKET_POWER_LIMIT_MAX, 0, &max);
	ok(t, ret == 0 && lim == POWER_DEFAULT_MW && max == POWER_MAX_MW,
	   "power limit %u mW of at most %u mW", lim, max);
	msg1(t, 0, HSMP_SET_SOCKET_POWER_LIMIT, 150000, NULL);
	msg1(t, 0, HSMP_GET_SOCKET_POWER_LIMIT, 0, &lim);
	for (int i = 0; i < 20; i++) {
		msg1(t, 0, HSMP_GET_SOCKET_POWER, 0, &p);
		below &= p > 0 && p <= 150000;
	}
	ok(t, lim == 150000 && below, "SET_SOCKET_POWER_LIMIT 150 W reads back; power stays below (%u mW)", p);
	msg1(t, 0, HSMP_GET_RAILS_SVI, 0, &svi);
	msg1(t, 0, HSMP_GET_SOCKET_POWER, 0, &p);
	ok(t, svi >= p * 95 / 100 && svi <= 150000 * 106 / 100, "GET_RAILS_SVI near socket power (%u mW, %u mW)", svi, p);
	msg1(t, 0, HSMP_SET_SOCKET_POWER_LIMIT, 1000000, NULL);
	msg1(t, 0, HSMP_GET_SOCKET_POWER_LIMIT, 0, &lim);
	ok(t, lim == POWER_MAX_MW, "a limit above the maximum is clamped to it (%u)", lim);
	msg1(t, 0, HSMP_SET_SOCKET_POWER_LIMIT, 0, NULL);
	msg1(t, 0, HSMP_GET_SOCKET_POWER_LIMIT, 0, &lim);
	ok(t, lim == POWER_MIN_MW, "a limit of 0 is clamped to the minimum (%u)", lim);
	if (t->nsock > 1) {
		msg1(t, 1, HSMP_SET_SOCKET_POWER_LIMIT, 200000, NULL);
		msg1(t, 0, HSMP_GET_SOCKET_POWER_LIMIT, 0, &lim);
		msg1(t, 1, HSMP_GET_SOCKET_POWER_LIMIT, 0, &max);
		ok(t, lim == POWER_MIN_MW && max == 200000,
		   "sockets keep their own limits (%u, %u)", lim, max);
	}
}

static int first_core(struct suite *t, unsigned int sock, int skip)
{
	for (int i = 0; i < t->ncpus; i++)
		if (t->cpus[i].socket == sock && skip-- == 0)
			return i;
	return -1;
}

static void test_boost(struct suite *t, unsigned int s)
{
	int c0 = first_core(t, s, 0), c1 = first_core(t, s, 1);
	uint32_t apic, r, r1 = FMAX_MHZ, thr, lim, ff;
	int ret;

	if (c0 < 0) {
		ok(t, false, "socket %u has a CPU in /proc/cpuinfo", s);
		return;
	}
	apic = t->cpus[c0].apic;
	msg1(t, s, HSMP_GET_SOCKET_FMAX_FMIN, 0, &ff);
	ok(t, ff == (FMAX_MHZ << 16 | FMIN_MHZ), "socket %u: Fmax %u Fmin %u MHz", s, ff >> 16, ff & 0xffff);
	ret = msg1(t, s, HSMP_SET_BOOST_LIMIT, apic << 16 | 2000, NULL);
	msg1(t, s, HSMP_GET_BOOST_LIMIT, apic, &r);
	if (c1 >= 0)
		msg1(t, s, HSMP_GET_BOOST_LIMIT, t->cpus[c1].apic, &r1);
	ok(t, ret == 0 && r == 2000 && r1 == FMAX_MHZ,
	   "socket %u: core boost limit on APIC %u reads back, other cores untouched (%u, %u)", s, apic, r, r1);
	msg1(t, s, HSMP_GET_CCLK_THROTTLE_LIMIT, 0, &thr);
	msg1(t, s, HSMP_GET_CCLK_CORE_LIMIT, apic, &r);
	msg1(t, s, HSMP_GET_SOCKET_FREQ_LIMIT, 0, &lim);
	ok(t, thr == 2000 && r == 2000 && lim >> 16 == 2000 && (lim & 0x80),
	   "socket %u: throttle %u, core limit %u, socket limit %u MHz by the HSMP agent (%#x)",
	   s, thr, r, lim >> 16, lim & 0xffff);
	msg1(t, s, HSMP_SET_BOOST_LIMIT_SOCKET, 3000, NULL);
	msg1(t, s, HSMP_GET_BOOST_LIMIT, apic, &r);
	ok(t, r == 3000, "socket %u: socket boost limit reaches every core (%u)", s, r);
	msg1(t, s, HSMP_SET_BOOST_LIMIT, apic << 16 | 9999, NULL);
	msg1(t, s, HSMP_GET_BOOST_LIMIT, apic, &r);
	msg1(t, s, HSMP_SET_BOOST_LIMIT_SOCKET, 100, NULL);
	msg1(t, s, HSMP_GET_BOOST_LIMIT, apic, &r1);
	ok(t, r == FMAX_MHZ && r1 == FMIN_MHZ, "socket %u: boost limits clamp to Fmax/Fmin (%u, %u)", s, r, r1);
	ret = msg1(t, s, HSMP_GET_BOOST_LIMIT, 0xfff, &r);
	ok(t, ret == -EINVAL, "socket %u: an APIC id it does not have is EINVAL (%d)", s, ret);
}

static void test_prochot(struct suite *t)
{
	uint32_t hot, thr, lim, fc[2];
	int ret;

	sim_write("sock0/prochot", "1");
	ret = msg1(t, 0, HSMP_GET_PROC_HOT, 0, &hot);
	msg1(t, 0, HSMP_GET_CCLK_THROTTLE_LIMIT, 0, &thr);
	msg1(t, 0, HSMP_GET_SOCKET_FREQ_LIMIT, 0, &lim);
	hsmp_call(t->fd, 0, HSMP_GET_FCLK_MCLK, NULL, fc);
	ok(t, ret == 0 && hot == 1 && thr == FMIN_MHZ && (lim & 2) && fc[0] == fclk_mhz[2],
	   "PROCHOT: asserted, throttle %u MHz, source %#x, FCLK %u", thr, lim & 0xffff, fc[0]);
	sim_write("sock0/prochot", "0");
	msg1(t, 0, HSMP_GET_PROC_HOT, 0, &hot);
	ok(t, hot == 0, "PROCHOT deasserted reads 0");
}

static void test_fabric(struct suite *t)
{
	uint32_t fc[2], r;
	int ret, bad;

	ret = msg1(t, 0, HSMP_SET_DF_PSTATE, 2, NULL);
	hsmp_call(t->fd, 0, HSMP_GET_FCLK_MCLK, NULL, fc);
	bad = msg1(t, 0, HSMP_SET_DF_PSTATE, 3, NULL);
	ok(t, ret == 0 && fc[0] == fclk_mhz[2] && fc[1] == MCLK_MHZ && bad == -EINVAL,
	   "DF P-state 2 pinned: FCLK %u MCLK %u; P3 is EINVAL in protocol 5", fc[0], fc[1]);
	msg1(t, 0, HSMP_SET_AUTO_DF_PSTATE, 0, NULL);
	hsmp_call(t->fd, 0, HSMP_GET_FCLK_MCLK, NULL, fc);
	ok(t, fc[0] == fclk_mhz[0], "automatic DF P-state: FCLK %u", fc[0]);
	ret = msg1(t, 0, HSMP_SET_PSTATE_MAX_MIN, 2 << 8 | 1, NULL);
	hsmp_call(t->fd, 0, HSMP_GET_FCLK_MCLK, NULL, fc);
	bad = msg1(t, 0, HSMP_SET_PSTATE_MAX_MIN, 1 << 8 | 2, NULL);
	ok(t, ret == 0 && fc[0] == fclk_mhz[1] && bad == -EINVAL,
	   "P-state range 1..2 bounds the automatic state (FCLK %u); max > min is EINVAL", fc[0]);

	ret = msg1(t, 0, HSMP_SET_NBIO_DPM_LEVEL, 1 << 16 | 2 << 8 | 1, NULL);
	msg1(t, 0, HSMP_GET_NBIO_DPM_LEVEL, 1 << 16, &r);
	ok(t, ret == 0 && r == 0x0201, "NBIO 1 DPM levels 1..2 read back (%#x)", r);
	msg1(t, 0, HSMP_GET_NBIO_DPM_LEVEL, 0, &r);
	ret = msg1(t, 0, HSMP_SET_NBIO_DPM_LEVEL, 4 << 16 | 3 << 8, NULL);
	bad = msg1(t, 0, HSMP_SET_NBIO_DPM_LEVEL, 1 << 8 | 2, NULL);
	ok(t, r == 0x0300 && ret == -EINVAL && bad == -EINVAL,
	   "NBIO 0 untouched (%#x); NBIO 4 and min > max are EINVAL", r);

	ret = msg1(t, 0, HSMP_SET_XGMI_LINK_WIDTH, 1 << 8 | 2, NULL);
	bad = msg1(t, 0, HSMP_SET_XGMI_LINK_WIDTH, 2 << 8 | 1, NULL);
	if (t->nsock > 1)
		ok(t, ret == 0 && sim_value("sock0/state", "xgmi_width") == 1 && bad == -EINVAL,
		   "xGMI width 1..2 stored; min > max is EINVAL (%d %d)", ret, bad);
	else
		ok(t, ret == -EINVAL, "one socket has no xGMI: width is EINVAL (%d)", ret);

	ret = msg1(t, 0, HSMP_SET_GMI3_WIDTH, 1 << 8 | 2, NULL);
	bad = msg1(t, 0, HSMP_SET_GMI3_WIDTH, 0 << 8 | 3, NULL);
	ok(t, ret == 0 && sim_value("sock0/state", "gmi3_width") == 1 && bad == -EINVAL,
	   "GMI3 width 1..2 stored; width 3 is EINVAL (%d %d)", ret, bad);
	msg1(t, 0, HSMP_SET_PCI_RATE, 1, &r);
	ret = msg1(t, 0, HSMP_SET_PCI_RATE, 2, &fc[0]);
	bad = msg1(t, 0, HSMP_SET_PCI_RATE, 3, NULL);
	ok(t, r == 0 && ret == 0 && fc[0] == 1 && bad == -EINVAL,
	   "SET_PCI_RATE answers the previous rate (%u then %u); 3 is EINVAL", r, fc[0]);
	ret = msg1(t, 0, HSMP_SET_POWER_MODE, 3, NULL);
	bad = msg1(t, 0, HSMP_SET_POWER_MODE, 4, NULL);
	ok(t, ret == 0 && sim_value("sock0/state", "power_mode") == 3 && bad == -EINVAL,
	   "power mode 3 stored; 4 is EINVAL");
}

static void test_telemetry(struct suite *t)
{
	uint32_t c0, ddr, used, max;
	uint32_t range, power, therm, bw;
	int ret, bad, bad2;

	ret = msg1(t, 0, HSMP_GET_C0_PERCENT, 0, &c0);
	ok(t, ret == 0 && c0 <= 100, "C0 residency %u%%", c0);
	msg1(t, 0, HSMP_GET_DDR_BANDWIDTH, 0, &ddr);
	max = ddr >> 20;
	used = ddr >> 8 & 0xfff;
	ok(t, max == 204 && used <= max && (ddr & 0xff) == used * 100 / max,
	   "DDR bandwidth %u of %u Gbps, %u%%", used, max, ddr & 0xff);
	ret = msg1(t, 0, HSMP_GET_DIMM_TEMP_RANGE, 0x80, &range) |
	      msg1(t, 0, HSMP_GET_DIMM_POWER, 0x80, &power) |
	      msg1(t, 0, HSMP_GET_DIMM_THERMAL, 0x80, &therm);
	bad = msg1(t, 0, HSMP_GET_DIMM_POWER, 0x42, NULL);
	ok(t, ret == 0 && (range & 7) >= 1 && (power & 0xff) == 0x80 &&
		      (therm & 0xff) == 0x80 && therm >> 21 >= 160 && therm >> 21 <= 240 &&
		      bad == -EINVAL,
	   "DIMM 0x80: range %u, %u mW, %u.%02u C; an absent DIMM is EINVAL",
	   range & 7, power >> 17, (therm >> 21) / 4, (therm >> 21) % 4 * 25);
	ret = msg1(t, 0, HSMP_GET_IOLINK_BANDWITH, 0x01 << 8 | 1, &bw);
	bad = msg1(t, 0, HSMP_GET_IOLINK_BANDWITH, 0x01 << 8 | 2, NULL);
	bad2 = msg1(t, 0, HSMP_GET_IOLINK_BANDWITH, 0x03 << 8 | 1, NULL);
	ok(t, ret == 0 && bw > 0 && bad == -EINVAL && bad2 == -EINVAL,
	   "IO link P0 aggregate %u Mbps; other types and two links at once are EINVAL", bw);
	ret = msg1(t, 0, HSMP_GET_XGMI_BANDWITH, 0x10 << 8 | 2, &bw);
	bad = msg1(t, 0, HSMP_GET_XGMI_BANDWITH, 0x10 << 8 | 3, NULL);
	ok(t, ret == 0 && bw > 0 && bad == -EINVAL, "xGMI G0 read %u Mbps; type 3 is EINVAL", bw);
}

void test_messages(struct suite *t)
{
	reset(t);
	test_identity(t);
	test_protocols(t);
	reset(t);
	test_power(t);
	for (unsigned int s = 0; s < t->nsock; s++)
		test_boost(t, s);
	reset(t);
	test_prochot(t);
	test_fabric(t);
	test_telemetry(t);
}
