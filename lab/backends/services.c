// SPDX-License-Identifier: MIT
#include "services.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "reaper.h"

static void nap_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

bool services_daemon_running(const char *pid_file, const char *comm)
{
	char path[64], stat[512] = "", want[64];
	const char *end;
	long pid = 0;
	FILE *f = fopen(pid_file, "re");

	if (!f)
		return false;
	if (fscanf(f, "%ld", &pid) != 1)
		pid = 0;
	fclose(f);
	if (pid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(stat, sizeof(stat), f))
		stat[0] = 0;
	fclose(f);
	/* "PID (COMM) STATE ..." */
	snprintf(want, sizeof(want), "(%s) ", comm);
	end = strstr(stat, want);
	return end && end[strlen(want)] != 'Z';
}

/* This host's daemon of that name, by the pid file NAME -d writes. */
static bool running(const char *comm)
{
	char pid_file[64];

	snprintf(pid_file, sizeof(pid_file), "/run/%s.pid", comm);
	return services_daemon_running(pid_file, comm);
}

/* Where /dev/kvm is an unreadable file: see services.h. Its QEMUs then
 * get no mount namespace of their own (qemu.conf, in the same private
 * namespace): libvirt would try to carry the mask into each. The
 * namespace is a slave of the host's: a file system mounted later (a
 * results folder on a USB disk, NFS, a tmpfs) reaches libvirtd too,
 * while the two masks stay in it. */
struct kvm_mask {
	const char *mask, *qemu_conf;
};

static int mask_kvm_namespace(void *ctx)
{
	const struct kvm_mask *m = ctx;

	return unshare(CLONE_NEWNS) ||
	       mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) ||
	       mount(m->mask, "/dev/kvm", NULL, MS_BIND, NULL) ||
	       mount(m->qemu_conf, "/etc/libvirt/qemu.conf", NULL, MS_BIND,
		     NULL);
}

static int write_mask_files(const struct kvm_mask *m, struct errbuf *err)
{
	const char *conf_text = "# mstlab: libvirtd without KVM\n"
				"namespaces = [ ]\n";
	int fd = open(m->mask, O_WRONLY | O_CREAT | O_CLOEXEC, 0);

	if (fd < 0)
		return errbuf_set(err, "%s: %s", m->mask, strerror(errno));
	close(fd);
	fd = open(m->qemu_conf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, conf_text, strlen(conf_text)) < 0) {
		if (fd >= 0)
			close(fd);
		return errbuf_set(err, "%s: %s", m->qemu_conf, strerror(errno));
	}
	close(fd);
	return 0;
}

/* libvirtd runs under a reaper of its own (reaper.h), so its QEMUs are
 * reaped as they exit and a destroy does not wait for process 1. */
static int start_daemon(const char *name, const char *path, bool mask_kvm,
			FILE *log, struct errbuf *err)
{
	char *argv[] = { (char *)path, "-d", NULL };
	struct kvm_mask m = { "/run/mstlab-kvm-masked",
			      "/run/mstlab-qemu.conf" };
	bool libvirtd = strcmp(name, "libvirtd") == 0;
	int status;

	if (running(name))
		return 0;
	if (access(path, X_OK))
		return errbuf_set(err, "%s is not installed: run 'make deps'",
				  path);
	mask_kvm = mask_kvm && access("/dev/kvm", F_OK) == 0;
	fprintf(log, "mstlab: starting %s%s\n", name,
		mask_kvm ? " (without KVM: it does not boot guests here)" : "");
	if (mask_kvm && write_mask_files(&m, err))
		return -1;
	status = libvirtd ? reaper_run_daemon(argv, mask_kvm ?
					      mask_kvm_namespace : NULL, &m,
					      30000) :
			    spawn_run(argv, NULL, 30000);
	if (status)
		return errbuf_set(err, "cannot start %s%s (status %d)", path,
				mask_kvm ? " without KVM" : "", status);
	return 0;
}

/*
 * Two mstlab starting at once start the daemons once: the second waits,
 * then finds them running. A lock of the process (fcntl), not of the
 * open file: libvirtd's reaper is a fork of this process and must not
 * hold it. -1 (no lock, a race left open) when /run cannot have it.
 */
static int lock_starting(void)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int fd = open("/run/mstlab-services.lock",
		      O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	while (fd >= 0 && fcntl(fd, F_SETLKW, &fl) && errno == EINTR)
		;
	return fd;
}

static int start_daemons(enum plan_virt virt, FILE *log, struct errbuf *err)
{
	int lock = lock_starting();
	int rc = start_daemon("virtlogd", "/usr/sbin/virtlogd", false, log,
			      err) ||
		 start_daemon("libvirtd", "/usr/sbin/libvirtd",
			      virt != PLAN_VIRT_KVM, log, err);

	if (lock >= 0)
		close(lock);
	return rc ? -1 : 0;
}

/* What a connection needs to start this host's daemons again. */
struct revive_ctx {
	enum plan_virt virt;
	FILE *log;
};

static struct revive_ctx revive_ctx;

/* hv_libvirt's revive: the daemons went away under a lab (killed, or
 * stopped by hand): they are started again, said on the log. */
static int revive(struct hv_libvirt *h)
{
	const struct revive_ctx *r = h->revive_ctx;
	struct errbuf err;

	fprintf(r->log, "mstlab: libvirtd went away: starting it again\n");
	if (start_daemons(r->virt, r->log, &err)) {
		fprintf(r->log, "mstlab: %s\n", err.msg);
		return -1;
	}
	return 0;
}

int services_connect(struct hv_libvirt *h, const char *uri, bool autodestroy,
		     enum plan_virt virt, FILE *log, struct errbuf *err)
{
	bool local = strcmp(uri, "qemu:///system") == 0 && geteuid() == 0;
	struct errbuf first;
	int rc = -1;

	if (hv_libvirt_open(h, uri, autodestroy, &first)) {
		if (strcmp(uri, "qemu:///system") != 0)
			return errbuf_set(err, "%s", first.msg);
		if (!local)
			return errbuf_set(err, "%s (libvirtd is not running; "
					  "start it as root or run mstlab as "
					  "root)", first.msg);
		if (start_daemons(virt, log, err))
			return -1;
		for (int i = 0; i < 100 && rc; i++) {
			rc = hv_libvirt_open(h, uri, autodestroy, err);
			if (rc)
				nap_ms(100);
		}
		if (rc)
			return -1;
	}
	if (local) {
		revive_ctx = (struct revive_ctx){ virt, log };
		h->revive = revive;
		h->revive_ctx = &revive_ctx;
	}
	return 0;
}

static bool boots_with_kvm(const char *kernel, const char *initrd,
			   const char *console)
{
	char serial[PATH_MAX + 16];
	char *argv[] = { "qemu-system-x86_64", "-accel", "kvm", "-m", "128",
			 "-nodefaults", "-no-user-config", "-display", "none",
			 "-no-reboot", "-kernel", (char *)kernel, "-initrd",
			 (char *)initrd, "-append",
			 "console=ttyS0 panic=-1 loglevel=4 no_timer_check",
			 "-serial", serial, NULL };
	bool ok = false;
	int status;
	pid_t pid;

	snprintf(serial, sizeof(serial), "file:%s", console);
	unlink(console);
	pid = spawn_bg(argv, NULL);
	if (pid < 0)
		return false;
	for (int i = 0; i < 200 && !ok; i++) {
		ok = file_says(console, "mstlab-init:");
		if (!ok && spawn_wait(pid, 100, &status))
			return false;
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return ok;
}

enum plan_virt services_virt(const char *kernel, const char *initrd,
			     const char *cache_dir, FILE *log)
{
	char cache[PATH_MAX], console[PATH_MAX], key[PATH_MAX + 64];
	char line[PATH_MAX + 64] = "";
	struct stat ks;
	bool ok;
	FILE *f;

	if (access("/dev/kvm", R_OK | W_OK) || stat(kernel, &ks))
		return PLAN_VIRT_QEMU;
	/* Not in a results folder: those come and go. */
	snprintf(cache, sizeof(cache), "%s/kvm-probe", cache_dir);
	snprintf(console, sizeof(console), "%s/kvm-probe.console", cache_dir);
	if (mkdir(cache_dir, 0755) && errno != EEXIST)
		fprintf(log, "mstlab: warning: cannot create %s: %s\n",
			cache_dir, strerror(errno));
	/* The file itself, not its name: the same kernel reached through
	 * another path (a symlinked build folder) needs no new probe. */
	snprintf(key, sizeof(key), "kernel %llu:%llu %lld %lld",
		 (unsigned long long)ks.st_dev, (unsigned long long)ks.st_ino,
		 (long long)ks.st_size, (long long)ks.st_mtime);
	f = fopen(cache, "re");
	if (f) {
		if (fgets(line, sizeof(line), f))
			line[strcspn(line, "\n")] = 0;
		fclose(f);
		if (strncmp(line, key, strlen(key)) == 0 &&
		    line[strlen(key)] == ' ')
			return strcmp(line + strlen(key) + 1, "kvm") == 0 ?
			       PLAN_VIRT_KVM : PLAN_VIRT_QEMU;
	}
	fprintf(log, "mstlab: /dev/kvm exists: checking that a guest boots "
		"with KVM (once per kernel build)\n");
	ok = boots_with_kvm(kernel, initrd, console);
	fprintf(log, "mstlab: KVM %s: guests run under %s\n",
		ok ? "works" : "does not boot a guest", ok ? "KVM" : "TCG");
	f = fopen(cache, "we");
	if (f) {
		fprintf(f, "%s %s\n", key, ok ? "kvm" : "qemu");
		fclose(f);
	}
	return ok ? PLAN_VIRT_KVM : PLAN_VIRT_QEMU;
}

void services_check_host(FILE *log)
{
	static const char *const knobs[] = { "iptables", "ip6tables",
					     "arptables" };
	char on[64] = "";

	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		char path[96], v[8] = "";
		FILE *f;

		snprintf(path, sizeof(path),
			 "/proc/sys/net/bridge/bridge-nf-call-%s", knobs[i]);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(v, sizeof(v), f) && v[0] == '1')
			snprintf(on + strlen(on), sizeof(on) - strlen(on),
				 "%s%s", on[0] ? "," : "", knobs[i]);
		fclose(f);
	}
	if (on[0])
		fprintf(log, "mstlab: note: net.bridge.bridge-nf-call-{%s} = "
			"1 on this host: untagged frames between guests pass "
			"its FORWARD chains (a DROP policy there cuts them)\n",
			on);
}
