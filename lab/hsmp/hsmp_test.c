// SPDX-License-Identifier: MIT
/*
 * hsmp-test [-s] [-t THREADS] [-n MESSAGES]: the driver's checks (message
 * ids, counts, sockets, open modes), every message against the firmware
 * model, every fault, and a multi-threaded stress (-s: the stress alone,
 * for benchmarks); TAP 14 on stdout.
 */
#include "hsmp_test.h"

#include <asm/amd_hsmp.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "hsmp_sim.h"
#include "opts.h"

bool ok(struct suite *t, bool cond, const char *fmt, ...)
{
	va_list ap;

	t->run++;
	if (!cond)
		t->failed++;
	printf("%sok %d - ", cond ? "" : "not ", t->run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return cond;
}

void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/*
 * The groups exercise every message of the 6.1 uapi, so after the reset
 * (the boot state: the part's own protocol, Milan's 2 stopping at 14h)
 * the SMU answers protocol 5; 15h is test_protocols' under 4.
 */
bool reset(struct suite *t)
{
	(void)t;
	return sim_write("reset", "1") == 0 && sim_write("proto_ver", "5") == 0;
}

int msg1(struct suite *t, unsigned int sock, uint32_t id, uint32_t arg,
	 uint32_t *r)
{
	uint32_t words[HSMP_MAX_WORDS] = { arg };
	int ret = hsmp_call(t->fd, (uint16_t)sock, id, words, words);

	if (r)
		*r = words[0];
	return ret;
}

static void test_device(struct suite *t)
{
	long long params;
	struct stat st;
	FILE *f;

	ok(t, stat(HSMP_DEV_PATH, &st) == 0 && S_ISCHR(st.st_mode) &&
		      major(st.st_rdev) == 10 && (st.st_mode & 0777) == 0644,
	   "/dev/hsmp is a misc character device, mode 0644");
	f = fopen("/sys/module/amd_smu_sim/parameters/sockets", "re");
	params = -1;
	if (f) {
		if (fscanf(f, "%lld", &params) != 1)
			params = -1;
		fclose(f);
	}
	ok(t, params == t->nsock, "%u socket(s) answer, the emulator has %lld",
	   t->nsock, params);
}

/* What the driver itself refuses, before the SMU sees anything. */
static void test_driver_checks(struct suite *t)
{
	uint32_t w[HSMP_MAX_WORDS] = { 7 };
	int r;

	r = hsmp_call_raw(t->fd, 0, 0, 0, 0, w);
	ok(t, r == -ENOMSG, "message id 0 (reserved): ENOMSG (got %d)", r);
	r = hsmp_call_raw(t->fd, 0, hsmp_msg_limit(), 0, 1, w);
	ok(t, r == -ENOMSG, "message id %#x (past the table): ENOMSG (got %d)",
	   hsmp_msg_limit(), r);
	r = hsmp_call_raw(t->fd, 0, 0xff, 0, 1, w);
	ok(t, r == -ENOMSG, "message id 0xff: ENOMSG (got %d)", r);
	r = hsmp_call_raw(t->fd, 0, HSMP_TEST, 0, 1, w);
	ok(t, r == -EINVAL, "TEST with 0 arguments: EINVAL (got %d)", r);
	r = hsmp_call_raw(t->fd, 0, HSMP_TEST, 1, 2, w);
	ok(t, r == -EINVAL, "TEST with response_sz 2: EINVAL (got %d)", r);
	r = hsmp_call_raw(t->fd, 0, HSMP_GET_SMU_VER, 1, 1, w);
	ok(t, r == -EINVAL, "GET_SMU_VER with an argument: EINVAL (got %d)", r);
	r = msg1(t, t->nsock, HSMP_TEST, 1, NULL);
	ok(t, r == -ENODEV, "socket %u (one past the last): ENODEV (got %d)",
	   t->nsock, r);
}

/* 6.1: O_RDONLY sends only GETs, O_WRONLY only SETs, O_RDWR both. */
static void test_open_modes(struct suite *t)
{
	static const struct {
		int flags;
		const char *name;
		bool get, set;
	} modes[] = {
		{ O_RDONLY, "O_RDONLY", true, false },
		{ O_WRONLY, "O_WRONLY", false, true },
		{ O_RDWR, "O_RDWR", true, true },
	};
	uint32_t arg = 200000, r[HSMP_MAX_WORDS];
	int fd, g, s;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		fd = open(HSMP_DEV_PATH, modes[i].flags | O_CLOEXEC);
		g = hsmp_call(fd, 0, HSMP_GET_SOCKET_POWER_LIMIT, &arg, r);
		s = hsmp_call(fd, 0, HSMP_SET_SOCKET_POWER_LIMIT, &arg, r);
		ok(t, fd >= 0 && (g == 0) == modes[i].get &&
			      (g == 0 || g == -EINVAL) && (s == 0) == modes[i].set &&
			      (s == 0 || s == -EINVAL),
		   "%s: GET %s, SET %s (got %d, %d)", modes[i].name,
		   modes[i].get ? "allowed" : "EINVAL",
		   modes[i].set ? "allowed" : "EINVAL", g, s);
		if (fd >= 0)
			close(fd);
	}
	/* SET_PCI_RATE is a SET with a response: O_WRONLY still gets it. */
	fd = open(HSMP_DEV_PATH, O_WRONLY | O_CLOEXEC);
	arg = 2;
	r[0] = 0xdead;
	s = hsmp_call(fd, 0, HSMP_SET_PCI_RATE, &arg, r);
	ok(t, s == 0 && r[0] == 0,
	   "O_WRONLY SET_PCI_RATE answers the previous rate (got %d, %u)", s, r[0]);
	if (fd >= 0)
		close(fd);
}

static const struct opt test_opts[] = {
	{ NULL, 's', false, "-s           the stress test alone" },
	{ NULL, 't', true, "-t THREADS   stress threads, 1..64 (default 8)" },
	{ NULL, 'n', true, "-n MESSAGES  stress messages (default 10000)" },
	{ 0 },
};

static const struct opt_spec test_spec = {
	.usage = "usage: hsmp-test [-s] [-t THREADS] [-n MESSAGES]: TAP 14 "
		 "on stdout\n",
	.opts = test_opts,
	.max_words = OPT_ANY,
};

int main(int argc, char **argv)
{
	struct suite t = { .stress_threads = 8, .stress_msgs = 10000 };
	bool stress_only = false;
	struct opts o;
	char e[256];
	int opt, n;

	opts_start(&o, &test_spec, argc, argv);
	while ((opt = opts_next(&o)) > 0) {
		if ((opt == 't' && args_uint(o.arg, 1, 64, &t.stress_threads)) ||
		    (opt == 'n' && args_uint(o.arg, 1, UINT_MAX, &t.stress_msgs))) {
			fprintf(stderr, "hsmp-test: -t takes 1..64 threads, -n at least 1 message\n");
			return 2;
		}
		if (opt == 's')
			stress_only = true;
	}
	if (opt != OPT_END)
		return opt == OPT_HELP ? 0 : 2;
	printf("TAP version 14\n");
	t.fd = hsmp_open(HSMP_DEV_PATH, O_RDWR, e, sizeof(e));
	if (t.fd < 0 || sim_present()) {
		printf("Bail out! %s\n", t.fd < 0 ? e : "no emulator in debugfs");
		return 1;
	}
	n = hsmp_count_sockets(t.fd);
	t.nsock = n > 0 ? (unsigned int)n : 0;
	t.ncpus = hsmp_cpus("/proc/cpuinfo", t.cpus, HSMP_MAX_CPUS);
	/* the boot state first, to learn the protocol it has */
	if (sim_write("reset", "1") == 0)
		t.boot_proto = (unsigned int)sim_value("proto_ver", "");
	if (!reset(&t) || n <= 0) {
		printf("Bail out! cannot reset the emulator or no socket (%d)\n", n);
		return 1;
	}
	diag("%u socket(s), %d CPU(s), protocol %u", t.nsock, t.ncpus,
	     t.boot_proto);
	if (stress_only) {
		test_stress(&t, false);
		printf("1..%d\n", t.run);
		return t.failed ? 1 : 0;
	}
	test_device(&t);
	test_topology(&t);
	test_driver_checks(&t);
	test_open_modes(&t);
	test_messages(&t);
	test_faults(&t);
	test_stress(&t, true);
	sim_write("reset", "1");	/* as booted, for what runs next */
	printf("1..%d\n", t.run);
	diag("%d passed, %d failed", t.run - t.failed, t.failed);
	return t.failed ? 1 : 0;
}
