// SPDX-License-Identifier: MIT
/*
 * hsmpctl set: the SET messages. Every value is checked against the
 * documented (or, for power and frequency, the SMU's own) range before
 * the ioctl, so a typo is named instead of reaching the firmware.
 */
#include "hsmpctl.h"

#include <asm/amd_hsmp.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

struct setter {
	const char *name;
	uint32_t id;
	int nvals;		/* after SOCKET */
	const char *what[3];
	unsigned int max[3];
	uint32_t (*pack)(const unsigned int *v);
	const char *order;	/* "a<=b" check between values, or NULL */
};

static uint32_t pack_one(const unsigned int *v)
{
	return v[0];
}

static uint32_t pack_min_max(const unsigned int *v)
{
	return v[0] << 8 | v[1];
}

static uint32_t pack_max_min(const unsigned int *v)
{
	return v[1] << 8 | v[0];
}

static uint32_t pack_nbio(const unsigned int *v)
{
	return v[0] << 16 | v[2] << 8 | v[1];
}

static const struct setter setters[] = {
	{ "df-pstate", HSMP_SET_DF_PSTATE, 1, { "P-state" }, { 2 }, pack_one, NULL },
	{ "pstate-range", HSMP_SET_PSTATE_MAX_MIN, 2, { "max P-state", "min P-state" },
	  { 2, 2 }, pack_max_min, "MAX must not exceed MIN" },
	{ "nbio-dpm", HSMP_SET_NBIO_DPM_LEVEL, 3, { "NBIO", "min level", "max level" },
	  { 3, 3, 3 }, pack_nbio, "MIN must not exceed MAX" },
	{ "gmi3-width", HSMP_SET_GMI3_WIDTH, 2, { "min width", "max width" },
	  { 2, 2 }, pack_min_max, "MIN must not exceed MAX" },
	{ "pci-rate", HSMP_SET_PCI_RATE, 1, { "rate" }, { 2 }, pack_one, NULL },
	{ "power-mode", HSMP_SET_POWER_MODE, 1, { "mode" }, { 3 }, pack_one, NULL },
};

static int send(struct hsmpctl *c, int fd, unsigned int sock, uint32_t id,
		uint32_t arg, const char *name)
{
	uint32_t r;
	int ret = hsmp_call(fd, (uint16_t)sock, id, &arg, &r);

	if (ret)
		return hsmpctl_failed(c, name, sock, ret);
	print_open_object(&c->pr, NULL);
	print_uint(&c->pr, PRINT_ANY, "socket", "socket %u:", sock);
	print_string(&c->pr, PRINT_ANY, "set", " %s", name);
	print_uint(&c->pr, PRINT_ANY, "value", " %#x", arg);
	if (id == HSMP_SET_PCI_RATE)
		print_uint(&c->pr, PRINT_ANY, "previous", " (previous %u)", r);
	print_string(&c->pr, PRINT_FP, NULL, "%s", " ok\n");
	print_close_object(&c->pr);
	return 0;
}

/* The SMU's own bounds for a GET-able quantity (power or frequency). */
static int bounds(struct hsmpctl *c, int fd, unsigned int sock, bool power,
		  unsigned int *min, unsigned int *max)
{
	uint32_t r, none = 0;
	int ret = hsmp_call(fd, (uint16_t)sock,
			    power ? HSMP_GET_SOCKET_POWER_LIMIT_MAX
				  : HSMP_GET_SOCKET_FMAX_FMIN, &none, &r);

	if (ret == -ENOMSG) {
		/* Before protocol 5 there is no FMAX_FMIN: the field's whole
		 * range goes, and the SMU clamps what it cannot do. */
		*min = 0;
		*max = power ? UINT32_MAX : 0xffff;
		return 0;
	}
	if (ret)
		return hsmpctl_failed(c, power ? "power limit max" : "fmax/fmin",
				      sock, ret);
	*min = power ? 0 : (r & 0xffff);
	*max = power ? r : r >> 16;
	return 0;
}

static int socket_of_apic(struct hsmpctl *c, unsigned int apic,
			  unsigned int *sock)
{
	for (int i = 0; i < c->ncpus; i++) {
		if (c->cpus[i].apic == apic) {
			*sock = c->cpus[i].socket;
			return 0;
		}
	}
	fprintf(c->err, "hsmpctl: no CPU has APIC id %u (see /proc/cpuinfo)\n",
		apic);
	return 2;
}

/* power-limit, boost, core-boost: a value the SMU bounds. */
static int set_bounded(struct hsmpctl *c, int fd, const char *cmd,
		       char **argv)
{
	bool core = !strcmp(cmd, "core-boost"), power = !strcmp(cmd, "power-limit");
	unsigned int sock = 0, apic = 0, v, min = 0, max = 0;
	int ret;

	if (core) {
		if (hsmpctl_number(c, "APIC id", argv[0], 0, 0xffff, &apic))
			return 2;
		ret = socket_of_apic(c, apic, &sock);
	} else {
		ret = hsmpctl_number(c, "socket", argv[0], 0, 63, &sock);
	}
	if (ret || (ret = bounds(c, fd, sock, power, &min, &max)))
		return ret;
	if (hsmpctl_number(c, power ? "power limit (mW)" : "frequency (MHz)",
			   argv[1], min, max, &v))
		return 2;
	if (power)
		return send(c, fd, sock, HSMP_SET_SOCKET_POWER_LIMIT, v, cmd);
	if (core)
		return send(c, fd, sock, HSMP_SET_BOOST_LIMIT, apic << 16 | v, cmd);
	return send(c, fd, sock, HSMP_SET_BOOST_LIMIT_SOCKET, v, cmd);
}

/* xGMI links join sockets: the width is set on every one. */
static int set_xgmi(struct hsmpctl *c, int fd, char **argv)
{
	unsigned int min, max;
	int n, ret = 0;

	if (hsmpctl_number(c, "min width", argv[0], 0, 2, &min) ||
	    hsmpctl_number(c, "max width", argv[1], 0, 2, &max))
		return 2;
	if (min > max) {
		fprintf(c->err, "hsmpctl: xgmi-width: MIN must not exceed MAX\n");
		return 2;
	}
	n = hsmp_count_sockets(fd);
	if (n < 0)
		return hsmpctl_failed(c, "xgmi-width", 0, n);
	for (int s = 0; s < n && !ret; s++)
		ret = send(c, fd, (unsigned int)s, HSMP_SET_XGMI_LINK_WIDTH,
			   min << 8 | max, "xgmi-width");
	return ret;
}

static int set_table(struct hsmpctl *c, int fd, const struct setter *t,
		     int argc, char **argv)
{
	unsigned int sock, v[3];

	if (argc != 1 + t->nvals) {
		fprintf(c->err, "hsmpctl: set %s takes SOCKET and %d value%s\n",
			t->name, t->nvals, t->nvals == 1 ? "" : "s");
		return 2;
	}
	if (hsmpctl_number(c, "socket", argv[0], 0, 63, &sock))
		return 2;
	for (int i = 0; i < t->nvals; i++)
		if (hsmpctl_number(c, t->what[i], argv[1 + i], 0, t->max[i], &v[i]))
			return 2;
	/* The two values an order applies to are the last two. */
	if (t->order && v[t->nvals - 2] > v[t->nvals - 1]) {
		fprintf(c->err, "hsmpctl: set %s: %s\n", t->name, t->order);
		return 2;
	}
	return send(c, fd, sock, t->id, t->pack(v), t->name);
}

static int dispatch(struct hsmpctl *c, int fd, int argc, char **argv)
{
	const char *cmd = argv[0];

	argc--;
	argv++;
	if (!strcmp(cmd, "power-limit") || !strcmp(cmd, "boost") ||
	    !strcmp(cmd, "core-boost")) {
		if (argc != 2) {
			fprintf(c->err, "hsmpctl: set %s takes two values\n", cmd);
			return 2;
		}
		return set_bounded(c, fd, cmd, argv);
	}
	if (!strcmp(cmd, "xgmi-width")) {
		if (argc != 2) {
			fprintf(c->err, "hsmpctl: set xgmi-width takes MIN MAX\n");
			return 2;
		}
		return set_xgmi(c, fd, argv);
	}
	if (!strcmp(cmd, "df-pstate") && argc == 2 && !strcmp(argv[1], "auto")) {
		unsigned int sock;

		if (hsmpctl_number(c, "socket", argv[0], 0, 63, &sock))
			return 2;
		return send(c, fd, sock, HSMP_SET_AUTO_DF_PSTATE, 0, "df-pstate auto");
	}
	for (size_t i = 0; i < sizeof(setters) / sizeof(setters[0]); i++)
		if (!strcmp(cmd, setters[i].name))
			return set_table(c, fd, &setters[i], argc, argv);
	fprintf(c->err, "hsmpctl: nothing called '%s' to set\n", cmd);
	return 2;
}

int hsmpctl_set(struct hsmpctl *c, int argc, char **argv)
{
	int fd, ret;

	if (argc < 1) {
		fprintf(c->err, "hsmpctl: set what? (see hsmpctl -h)\n");
		return 2;
	}
	/* Read too: ranges are asked from the SMU before setting. */
	fd = hsmpctl_open(c, O_RDWR);
	if (fd < 0)
		return 1;
	ret = dispatch(c, fd, argc, argv);
	close(fd);
	return ret;
}
