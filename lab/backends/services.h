/* SPDX-License-Identifier: MIT */
/*
 * Connecting to libvirt, starting virtlogd and libvirtd first when they
 * are not running (as root, for qemu:///system), and deciding between
 * KVM and TCG by a real boot test.
 */
#ifndef MSTLAB_SERVICES_H
#define MSTLAB_SERVICES_H

#include <stdio.h>

#include "hv_libvirt.h"
#include "plan.h"

/*
 * KVM only when a guest really boots with it: QEMU boots kernel+initrd
 * with -accel kvm (killed after 20 s if it hangs) and must reach the
 * image's init on its console. The answer is cached in @cache_dir
 * (kvm-probe, created if need be), per kernel build.
 */
enum plan_virt services_virt(const char *kernel, const char *initrd,
			     const char *cache_dir, FILE *log);

/*
 * Connects to uri. For qemu:///system as root, starts virtlogd and
 * libvirtd when they are not running; without working KVM, libvirtd is
 * started in a mount namespace of its own where /dev/kvm is masked, so
 * its capability probe cannot hang on a broken KVM (it does here). The
 * host's /dev is not changed.
 */
int services_connect(struct hv_libvirt *h, const char *uri, bool autodestroy,
		     enum plan_virt virt, FILE *log, struct errbuf *err);

/*
 * Whether the daemon comm runs: the process pid_file names is alive, not
 * a zombie, and of that command name. Not any process of the name:
 * another "machine" on this one (tests/vm/farhost: a namespace with a
 * /run of its own) runs its own libvirtd, which this host's clients do
 * not reach, and which must not stop this host's from being started.
 */
bool services_daemon_running(const char *pid_file, const char *comm);

/*
 * Host settings that change what crosses a link: br_netfilter hands
 * untagged frames on our link bridges to iptables. Only noted: mstlab
 * never changes the host's configuration.
 */
void services_check_host(FILE *log);

#endif
