// SPDX-License-Identifier: MIT
/* hsmpctl show, test and dimm: the GET messages. */
#include "hsmpctl.h"

#include <asm/amd_hsmp.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* "  key value" in text, "key": value in JSON. */
static void put_uint(struct printer *p, const char *key, unsigned int v)
{
	char fmt[64];

	snprintf(fmt, sizeof(fmt), "  %-20s %%u\n", key);
	print_uint(p, PRINT_ANY, key, fmt, v);
}

static void put_string(struct printer *p, const char *key, const char *v)
{
	char fmt[64];

	snprintf(fmt, sizeof(fmt), "  %-20s %%s\n", key);
	print_string(p, PRINT_ANY, key, fmt, v);
}

static void show_smu_ver(struct printer *p, const uint32_t *r)
{
	char v[32];

	snprintf(v, sizeof(v), "%u.%u.%u", r[0] >> 16 & 0xff, r[0] >> 8 & 0xff,
		 r[0] & 0xff);
	put_string(p, "smu_firmware", v);
}

static void show_prochot(struct printer *p, const uint32_t *r)
{
	put_string(p, "prochot", r[0] & 1 ? "active" : "inactive");
}

static void show_clocks(struct printer *p, const uint32_t *r)
{
	put_uint(p, "fclk_mhz", r[0]);
	put_uint(p, "mclk_mhz", r[1]);
}

static void show_ddr(struct printer *p, const uint32_t *r)
{
	put_uint(p, "ddr_max_gbps", r[0] >> 20);
	put_uint(p, "ddr_used_gbps", r[0] >> 8 & 0xfff);
	put_uint(p, "ddr_used_pct", r[0] & 0xff);
}

static void show_freq_limit(struct printer *p, const uint32_t *r)
{
	static const char *const src[] = {
		"cHTC-Active", "PROCHOT", "TDC limit", "PPT limit",
		"OPN max", "reliability limit", "APML agent", "HSMP agent",
	};
	char list[160] = "";
	size_t n = 0;

	put_uint(p, "freq_limit_mhz", r[0] >> 16);
	print_open_array(p, "freq_limit_sources");
	for (unsigned int i = 0; i < 8; i++) {
		if (!(r[0] & 1u << i))
			continue;
		print_string(p, PRINT_JSON, NULL, NULL, src[i]);
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
				      n ? ", " : "", src[i]);
	}
	print_close_array(p);
	put_string(p, "freq_limit_source", list);
}

static void show_fmax_fmin(struct printer *p, const uint32_t *r)
{
	put_uint(p, "fmax_mhz", r[0] >> 16);
	put_uint(p, "fmin_mhz", r[0] & 0xffff);
}

static void show_temp(struct printer *p, const uint32_t *r)
{
	put_uint(p, "temp_mc", (r[0] >> 8 & 0xff) * 1000 + (r[0] >> 5 & 7) * 125);
}

#define SHOW_UINT(name, key)                                           \
	static void name(struct printer *p, const uint32_t *r)         \
	{                                                              \
		put_uint(p, key, r[0]);                                \
	}
SHOW_UINT(show_proto, "protocol")
SHOW_UINT(show_power, "power_mw")
SHOW_UINT(show_power_limit, "power_limit_mw")
SHOW_UINT(show_power_max, "power_limit_max_mw")
SHOW_UINT(show_throttle, "cclk_throttle_mhz")
SHOW_UINT(show_c0, "c0_residency_pct")
SHOW_UINT(show_svi, "svi_power_mw")

/*
 * Every metric and the keys it prints: each reads n/a when the SMU's
 * protocol lacks the message (2 stops at 14h, 4 at 15h, 5 and 7 skip 15h).
 */
static const struct metric {
	uint32_t id;
	const char *keys[4];
	void (*show)(struct printer *p, const uint32_t *r);
} metrics[] = {
	{ HSMP_GET_SMU_VER, { "smu_firmware" }, show_smu_ver },
	{ HSMP_GET_PROTO_VER, { "protocol" }, show_proto },
	{ HSMP_GET_SOCKET_POWER, { "power_mw" }, show_power },
	{ HSMP_GET_SOCKET_POWER_LIMIT, { "power_limit_mw" }, show_power_limit },
	{ HSMP_GET_SOCKET_POWER_LIMIT_MAX, { "power_limit_max_mw" }, show_power_max },
	{ HSMP_GET_RAILS_SVI, { "svi_power_mw" }, show_svi },
	{ HSMP_GET_PROC_HOT, { "prochot" }, show_prochot },
	{ HSMP_GET_FCLK_MCLK, { "fclk_mhz", "mclk_mhz" }, show_clocks },
	{ HSMP_GET_CCLK_THROTTLE_LIMIT, { "cclk_throttle_mhz" }, show_throttle },
	{ HSMP_GET_SOCKET_FREQ_LIMIT, { "freq_limit_mhz", "freq_limit_source" },
	  show_freq_limit },
	{ HSMP_GET_SOCKET_FMAX_FMIN, { "fmax_mhz", "fmin_mhz" }, show_fmax_fmin },
	{ HSMP_GET_C0_PERCENT, { "c0_residency_pct" }, show_c0 },
	{ HSMP_GET_DDR_BANDWIDTH, { "ddr_max_gbps", "ddr_used_gbps", "ddr_used_pct" },
	  show_ddr },
	{ HSMP_GET_TEMP_MONITOR, { "temp_mc" }, show_temp },
};

static void put_na(struct printer *p, const char *key)
{
	char fmt[64];

	snprintf(fmt, sizeof(fmt), "  %-20s n/a\n", key);
	print_null(p, PRINT_ANY, key, fmt);
}

enum got { GOT_VALUE, GOT_NA, GOT_ERROR };

/* A message the protocol version lacks is n/a, not a failure. */
static enum got get(struct hsmpctl *c, int fd, unsigned int sock, uint32_t id,
		    const char *what, uint32_t arg, uint32_t *r)
{
	int ret = hsmp_call(fd, (uint16_t)sock, id, &arg, r);

	if (ret == -ENOMSG)
		return GOT_NA;
	if (ret) {
		hsmpctl_failed(c, what, sock, ret);
		return GOT_ERROR;
	}
	return GOT_VALUE;
}

/* One core's limit: " boost limit 3700 MHz" or " boost limit n/a". */
static enum got core_limit(struct hsmpctl *c, int fd, unsigned int sock,
			   uint32_t id, uint32_t apic, const char *key,
			   const char *label)
{
	enum got got;
	char fmt[64];
	uint32_t r;

	got = get(c, fd, sock, id, "core boost limit", apic, &r);
	if (got == GOT_VALUE) {
		snprintf(fmt, sizeof(fmt), "%s %%u MHz", label);
		print_uint(&c->pr, PRINT_ANY, key, fmt, r);
	} else if (got == GOT_NA) {
		snprintf(fmt, sizeof(fmt), "%s n/a", label);
		print_null(&c->pr, PRINT_ANY, key, fmt);
	}
	return got;
}

static int show_cores(struct hsmpctl *c, int fd, unsigned int sock)
{
	enum got got = GOT_VALUE;

	print_open_array(&c->pr, "cores");
	for (int i = 0; i < c->ncpus && got != GOT_ERROR; i++) {
		if (c->cpus[i].socket != sock)
			continue;
		print_open_object(&c->pr, NULL);
		print_uint(&c->pr, PRINT_ANY, "apic", "  core apic %-3u", c->cpus[i].apic);
		got = core_limit(c, fd, sock, HSMP_GET_BOOST_LIMIT,
				 c->cpus[i].apic, "boost_limit_mhz", " boost limit");
		if (got != GOT_ERROR)
			got = core_limit(c, fd, sock, HSMP_GET_CCLK_CORE_LIMIT,
					 c->cpus[i].apic, "cclk_limit_mhz",
					 ", effective");
		print_string(&c->pr, PRINT_FP, NULL, "%s", "\n");
		print_close_object(&c->pr);
	}
	print_close_array(&c->pr);
	return got == GOT_ERROR;
}

static int show_nbio(struct hsmpctl *c, int fd, unsigned int sock)
{
	enum got got;
	uint32_t r;

	print_open_array(&c->pr, "nbio_dpm");
	for (uint32_t nbio = 0; nbio < 4; nbio++) {
		got = get(c, fd, sock, HSMP_GET_NBIO_DPM_LEVEL, "nbio_dpm",
			  nbio << 16, &r);
		if (got == GOT_ERROR)
			return 1;
		if (got == GOT_NA)
			break;
		print_open_object(&c->pr, NULL);
		print_uint(&c->pr, PRINT_ANY, "nbio", "  nbio%u dpm", nbio);
		print_uint(&c->pr, PRINT_ANY, "min", " min %u", r & 0xff);
		print_uint(&c->pr, PRINT_ANY, "max", " max %u\n", r >> 8 & 0xff);
		print_close_object(&c->pr);
	}
	print_close_array(&c->pr);
	return 0;
}

static int show_socket(struct hsmpctl *c, int fd, unsigned int sock)
{
	uint32_t r[HSMP_MAX_WORDS];
	enum got got;
	int ret;

	print_open_object(&c->pr, NULL);
	print_uint(&c->pr, PRINT_ANY, "socket", "socket %u\n", sock);
	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++) {
		const struct metric *m = &metrics[i];

		got = get(c, fd, sock, m->id, m->keys[0], 0, r);
		if (got == GOT_ERROR)
			return 1;
		if (got == GOT_VALUE)
			m->show(&c->pr, r);
		for (size_t k = 0; got == GOT_NA && k < 4 && m->keys[k]; k++)
			put_na(&c->pr, m->keys[k]);
	}
	ret = show_nbio(c, fd, sock);
	if (!ret)
		ret = show_cores(c, fd, sock);
	print_close_object(&c->pr);
	return ret;
}

int hsmpctl_show(struct hsmpctl *c, int argc, char **argv)
{
	unsigned int one = 0, from, to;
	int fd, n, ret = 0;

	if (argc > 1 || (argc == 1 && hsmpctl_number(c, "socket", argv[0], 0,
						     63, &one)))
		return 2;
	fd = hsmpctl_open(c, O_RDONLY);
	if (fd < 0)
		return 1;
	n = hsmp_count_sockets(fd);
	if (n <= 0) {
		fprintf(c->err, "hsmpctl: no socket answers: %s\n",
			n ? hsmp_strerror(n) : "none");
		close(fd);
		return 1;
	}
	if (argc == 1 && one >= (unsigned int)n) {
		fprintf(c->err, "hsmpctl: socket %u does not exist (%d socket%s)\n",
			one, n, n == 1 ? "" : "s");
		close(fd);
		return 2;
	}
	from = argc == 1 ? one : 0;
	to = argc == 1 ? one + 1 : (unsigned int)n;
	print_open_object(&c->pr, NULL);
	print_open_array(&c->pr, "sockets");
	for (unsigned int s = from; s < to && !ret; s++)
		ret = show_socket(c, fd, s);
	print_close_array(&c->pr);
	print_close_object(&c->pr);
	close(fd);
	return ret;
}

int hsmpctl_test(struct hsmpctl *c, int argc, char **argv)
{
	unsigned int sock, v;
	uint32_t r;
	int fd, ret;

	if (argc != 2 || hsmpctl_number(c, "socket", argv[0], 0, 63, &sock) ||
	    hsmpctl_number(c, "value", argv[1], 0, UINT32_MAX, &v))
		return 2;
	fd = hsmpctl_open(c, O_RDONLY);
	if (fd < 0)
		return 1;
	ret = hsmp_call(fd, (uint16_t)sock, HSMP_TEST, &v, &r);
	close(fd);
	if (ret)
		return hsmpctl_failed(c, "test", sock, ret);
	print_open_object(&c->pr, NULL);
	print_uint(&c->pr, PRINT_ANY, "socket", "socket %u:", sock);
	print_uint(&c->pr, PRINT_ANY, "sent", " sent %u", v);
	print_uint(&c->pr, PRINT_ANY, "answer", " answer %u", r);
	print_bool(&c->pr, PRINT_ANY, "ok", " ok %s\n", r == v + 1);
	print_close_object(&c->pr);
	return r == v + 1 ? 0 : 1;
}

int hsmpctl_dimm(struct hsmpctl *c, int argc, char **argv)
{
	static const uint32_t ids[] = { HSMP_GET_DIMM_TEMP_RANGE,
					HSMP_GET_DIMM_POWER,
					HSMP_GET_DIMM_THERMAL };
	enum got got[3] = { GOT_NA, GOT_NA, GOT_NA };
	uint32_t r[3] = { 0 };
	unsigned int sock, addr;
	int fd, raw;

	if (argc != 2 || hsmpctl_number(c, "socket", argv[0], 0, 63, &sock) ||
	    hsmpctl_number(c, "DIMM address", argv[1], 0, 255, &addr))
		return 2;
	fd = hsmpctl_open(c, O_RDONLY);
	if (fd < 0)
		return 1;
	for (int i = 0; i < 3; i++) {
		got[i] = get(c, fd, sock, ids[i], "dimm", addr, &r[i]);
		if (got[i] == GOT_ERROR) {
			close(fd);
			return 1;
		}
	}
	close(fd);
	print_open_object(&c->pr, NULL);
	print_uint(&c->pr, PRINT_ANY, "socket", "socket %u", sock);
	print_uint(&c->pr, PRINT_ANY, "dimm", " dimm 0x%02x\n", addr);
	if (got[0] == GOT_VALUE) {
		put_uint(&c->pr, "temp_range", r[0] & 7);
		print_bool(&c->pr, PRINT_ANY, "refresh_2x",
			   "  refresh_2x           %s\n", r[0] & 8);
	} else {
		put_na(&c->pr, "temp_range");
		put_na(&c->pr, "refresh_2x");
	}
	if (got[1] == GOT_VALUE)
		put_uint(&c->pr, "power_mw", r[1] >> 17);
	else
		put_na(&c->pr, "power_mw");
	/* 11-bit two's complement quarter degrees. */
	raw = (int)(r[2] >> 21);
	if (raw > 0x3ff)
		raw -= 0x800;
	if (got[2] == GOT_VALUE)
		print_int(&c->pr, PRINT_ANY, "temp_mc",
			  "  temp_mc              %d\n", raw * 250);
	else
		put_na(&c->pr, "temp_mc");
	print_close_object(&c->pr);
	return 0;
}
