// SPDX-License-Identifier: MIT
#include "runtime.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build_id.h"
#include "capture.h"
#include "chan.h"
#include "hostnet.h"
#include "kernels.h"
#include "paths.h"
#include "services.h"

long long runtime_now_ms(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void runtime_sleep_ms(void *ctx, unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	(void)ctx;
	nanosleep(&ts, NULL);	/* a signal cuts it short: that is wanted */
}

void runtime_default_results(char *out, size_t len)
{
	struct paths ps;

	if (paths_find(&ps) ||
	    (size_t)snprintf(out, len, "%s", ps.results) >= len)
		snprintf(out, len, "%s", "");
}

void runtime_for(struct runtime *rt, const char *uri, FILE *out, FILE *err)
{
	memset(rt, 0, sizeof(*rt));
	rt->guardian = -1;
	rt->out = out;
	rt->err = err;
	rt->virt = -1;
	rt->uri = uri ? uri : getenv("MSTLAB_URI") ? getenv("MSTLAB_URI") :
						     "qemu:///system";
	rt->uri_given = uri;
}


/* An hsmp-host or dsa-switch node needs the emulated hardware our patch
 * series builds in: a kernel scripts/build-kernel built. 0, or -1 with
 * why in msg. */
static int emulators_there(const struct runtime *rt, char *msg, size_t len)
{
	for (size_t i = 0; i < rt->t->n_nodes; i++) {
		const struct topo_node *n = &rt->t->nodes[i];
		const char *image = rt->kernel[n->kernel];
		int ours;

		if (n->host != TOPO_LOCAL_HOST ||
		    (n->role != TOPO_ROLE_HSMP_HOST &&
		     n->role != TOPO_ROLE_DSA_SWITCH))
			continue;
		ours = build_id_kernel_ours(image);
		if (ours == 1)
			continue;
		snprintf(msg, len, "%s (%s) needs the emulated %s that "
			 "mstlab's patch series builds into its kernels; %s is "
			 "%s: boot it on bridge and host nodes only, or pick a "
			 "kernel of mstlab kernels", n->name,
			 topo_role_name(n->role), n->role == TOPO_ROLE_HSMP_HOST ?
			 "AMD SMU" : "Marvell switch", image, ours == 0 ?
			 "another kernel (not built by scripts/build-kernel)" :
			 "no bzImage");
		return -1;
	}
	return 0;
}

int runtime_check_images(const struct runtime *rt)
{
	bool boots[TOPO_KERNEL_COUNT];
	char msg[PATH_MAX + 128];
	int r = 0;

	/* Another host's nodes boot its own files (its agent names them). */
	kernel_needed(rt->t, TOPO_LOCAL_HOST, boots);
	for (int k = 0; k < TOPO_KERNEL_COUNT && !r; k++)
		if (boots[k])
			r = paths_need_kernel(rt->kernel[k],
					      (enum topo_kernel)k, msg,
					      sizeof(msg));
	if (!r)
		r = paths_need_initrd(rt->initrd, msg, sizeof(msg));
	if (!r)
		r = emulators_there(rt, msg, sizeof(msg));
	if (r)
		fprintf(rt->err, "mstlab: %s\n", msg);
	return r;
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
		.now_ms = runtime_now_ms, .sleep_ms = runtime_sleep_ms, .clock_ctx = NULL,
		.chan = &chan_unix_ops, .chan_ctx = NULL,
	};
	/* The other hosts on first use, with the same autodestroy. */
	if (rt->t && lab_hosts_needed(rt->t)) {
		lab_hosts_init(&rt->hosts, rt->t, &rt->ops, autodestroy);
		rt->ops.host = lab_hosts_get;
		rt->ops.host_ctx = &rt->hosts;
	}
	return 0;
}

int runtime_start(struct runtime *rt, bool autodestroy,
		  struct plan_params *pp)
{
	struct topo_error te;
	struct errbuf msg;
	enum plan_virt virt;

	/* What only the host can say (overlay folders, the kernel and
	 * image), before anything is started. */
	if (topo_check_host(rt->t, &te)) {
		fprintf(rt->err, "%s\n", topo_error_format(&te, &msg));
		return -1;
	}
	if (runtime_check_images(rt))
		return -1;
	runtime_signals();
	/* The accelerator first: libvirtd must not even try a broken KVM. */
	virt = rt->virt >= 0 ? (enum plan_virt)rt->virt :
	       services_virt(rt->kernel[kernel_probe(rt->t, TOPO_LOCAL_HOST)],
			     rt->initrd, rt->cache, rt->err);
	if (runtime_connect(rt, autodestroy, virt))
		return -1;
	*pp = (struct plan_params){
		.virt = virt, .initrd = rt->initrd,
		.tools = paths_tools_share(rt->initrd, rt->tools,
					   sizeof(rt->tools)),
	};
	for (int k = 0; k < TOPO_KERNEL_COUNT; k++)
		pp->kernel[k] = rt->kernel[k];
	if (!pp->tools)
		fprintf(rt->err, "mstlab: warning: no tools share beside %s: "
			"the guests will lack tcpdump, ethtool and bash (make "
			"image builds both)\n", rt->initrd);
	return 0;
}

void runtime_free(struct runtime *rt)
{
	/* The guardian wakes: the run tore down, or it does. */
	if (rt->guardian >= 0)
		close(rt->guardian);
	rt->guardian = -1;
	lab_hosts_close(&rt->hosts);
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

void runtime_template_cache(const struct runtime *rt, char *out, size_t len)
{
	snprintf(out, len, "%s/templates", rt->cache);
}

const char *runtime_hint(const struct runtime *rt)
{
	return rt->hint;
}
