// SPDX-License-Identifier: MIT
#include "runtime.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "hostnet.h"
#include "services.h"

static long long mono_ms(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(void *ctx, unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	(void)ctx;
	nanosleep(&ts, NULL);	/* a signal cuts it short: that is wanted */
}

/* The checkout mstlab was built in: build/bin/mstlab -> its top. */
static void default_top(char *top, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *suffix = "/build/bin/mstlab";
	size_t sl = strlen(suffix);

	if (n > (ssize_t)sl) {
		exe[n] = 0;
		if (strcmp(exe + n - sl, suffix) == 0 &&
		    (size_t)(n - (ssize_t)sl) < len) {
			memcpy(top, exe, (size_t)n - sl);
			top[n - sl] = 0;
			return;
		}
	}
	if (!getcwd(top, len))
		snprintf(top, len, "/");
}

void runtime_default_results(char *out, size_t len)
{
	char top[1024];

	default_top(top, sizeof(top));
	snprintf(out, len, "%s/results", top);
}

static int absolute(const char *in, char *out, size_t len, FILE *err)
{
	char cwd[PATH_MAX];

	if (in[0] == '/') {
		snprintf(out, len, "%s", in);
		return 0;
	}
	if (!getcwd(cwd, sizeof(cwd)) ||
	    (size_t)snprintf(out, len, "%s/%s", cwd, in) >= len) {
		fprintf(err, "mstlab: path too long: %s\n", in);
		return -1;
	}
	return 0;
}

int runtime_parse(struct runtime *rt, int argc, char **argv, FILE *out,
		  FILE *err, const char *usage)
{
	char top[1024];
	const char *results = NULL, *kernel = NULL, *dkernel = NULL;
	const char *initrd = NULL;
	struct topo_error te;
	char msg[600];

	memset(rt, 0, sizeof(*rt));
	rt->out = out;
	rt->err = err;
	rt->virt = -1;
	rt->uri = getenv("MSTLAB_URI") ? getenv("MSTLAB_URI") :
					 "qemu:///system";
	rt->args = calloc((size_t)argc + 1, sizeof(char *));
	if (!rt->args)
		return 1;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (rt->nargs || (rt->topo_path && a[0] != '-')) {
			/* Words after TOPO (a command's argv) are kept whole. */
			if (!rt->topo_path)
				goto bad;
			rt->args[rt->nargs++] = argv[i];
			continue;
		}
		if (strcmp(a, "--keep") == 0) {
			rt->keep = true;
		} else if (strcmp(a, "--json") == 0) {
			rt->json = true;
		} else if (v && (strcmp(a, "-s") == 0 ||
				 strcmp(a, "--scenario") == 0)) {
			rt->scenario = argv[++i];
		} else if (v && strcmp(a, "--results") == 0) {
			results = argv[++i];
		} else if (v && strcmp(a, "--uri") == 0) {
			rt->uri = argv[++i];
		} else if (v && strcmp(a, "--kernel") == 0) {
			kernel = argv[++i];
		} else if (v && strcmp(a, "--debug-kernel") == 0) {
			dkernel = argv[++i];
		} else if (v && strcmp(a, "--initrd") == 0) {
			initrd = argv[++i];
		} else if (v && strcmp(a, "--virt") == 0) {
			i++;
			if (strcmp(v, "qemu") == 0)
				rt->virt = PLAN_VIRT_QEMU;
			else if (strcmp(v, "kvm") == 0)
				rt->virt = PLAN_VIRT_KVM;
			else if (strcmp(v, "auto") != 0)
				goto bad;
		} else if (!rt->topo_path && a[0] != '-') {
			rt->topo_path = a;
		} else {
			goto bad;
		}
	}
	if (!rt->topo_path)
		goto bad;
	default_top(top, sizeof(top));
	snprintf(rt->results, sizeof(rt->results), "%s/results", top);
	snprintf(rt->kernel[0], PATH_MAX,
		 "%s/build/kernel-default/arch/x86/boot/bzImage", top);
	snprintf(rt->kernel[1], PATH_MAX,
		 "%s/build/kernel-debug/arch/x86/boot/bzImage", top);
	snprintf(rt->initrd, PATH_MAX, "%s/build/initramfs.cpio.lz4", top);
	if ((results && absolute(results, rt->results, sizeof(rt->results),
				 err)) ||
	    (kernel && absolute(kernel, rt->kernel[0], PATH_MAX, err)) ||
	    (dkernel && absolute(dkernel, rt->kernel[1], PATH_MAX, err)) ||
	    (initrd && absolute(initrd, rt->initrd, PATH_MAX, err)))
		return 1;
	if (topo_parse_file(rt->topo_path, &rt->t, &te)) {
		fprintf(err, "%s\n", topo_error_format(&te, msg, sizeof(msg)));
		return 1;
	}
	return 0;
bad:
	fprintf(err, "usage: mstlab %s\n(mstlab --help: every option)\n", usage);
	return 2;
}

int runtime_connect(struct runtime *rt, bool autodestroy, enum plan_virt virt)
{
	struct errbuf e;

	if (services_connect(&rt->hv, rt->uri, autodestroy, virt, rt->err,
			     &e)) {
		fprintf(rt->err, "mstlab: cannot connect to libvirt: %s\n",
			e.msg);
		return -1;
	}
	rt->ops = (struct lab_ops){
		.hv = &hv_libvirt_ops, .hv_ctx = &rt->hv,
		.link = &hostnet_ops, .link_ctx = NULL,
		.cap = &capture_tcpdump_ops, .cap_ctx = NULL,
		.now_ms = mono_ms, .sleep_ms = sleep_ms, .clock_ctx = NULL,
	};
	return 0;
}

void runtime_free(struct runtime *rt)
{
	hv_libvirt_close(&rt->hv);
	topo_free(rt->t);
	free(rt->args);
	rt->t = NULL;
	rt->args = NULL;
}

static void on_signal(int sig)
{
	(void)sig;
	lab_interrupted = 1;
}

void runtime_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: waits end early */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}
