// SPDX-License-Identifier: MIT
/*
 * struct capture_ops with one tcpdump per link: nanosecond timestamps,
 * whole frames, written packet by packet (-U) as they arrive so that what
 * is on disk is complete up to the last frame even if mstlab dies, and
 * current enough for `mstlab watch` to follow.
 */
#include "capture.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"

static void last_line(const char *log, char *out, size_t len)
{
	char line[512];
	FILE *f = fopen(log, "re");

	snprintf(out, len, "no message");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0]) {
			size_t k = strnlen(line, len - 1);

			memcpy(out, line, k);
			out[k] = 0;
		}
	}
	fclose(f);
}

static int cap_start(void *ctx, const char *ifname, const char *path,
		     pid_t *pid, uint64_t *start_time, struct errbuf *err)
{
	char log[4200];
	/*
	 * --immediate-mode: without it libpcap hands frames over in blocks
	 * up to a second old, and `mstlab watch` follows these files. That
	 * mode's ring has one slot per snapshot length, so -s 0 (256 KiB)
	 * left a 2 MiB ring 8 slots and a loaded host dropped frames: 9216
	 * octets (a jumbo frame; a GSO burst is cut, the headers the checks
	 * read are not) in a 16 MiB ring gives ~1,700.
	 */
	char *argv[] = { "tcpdump", "-i", (char *)ifname, "-w", (char *)path,
			 "-U", "--immediate-mode", "-n", "-s", "9216",
			 "-B", "16384", "--time-stamp-precision=nano",
			 "-Z", "root", NULL };

	(void)ctx;
	snprintf(log, sizeof(log), "%s.log", path);
	unlink(log);
	*pid = spawn_bg(argv, log);
	if (*pid < 0) {
		errbuf_set(err, "cannot run tcpdump: %s",
			   strerror(errno));
		return -1;
	}
	*start_time = proc_start_time(*pid);
	return 0;
}

static int cap_listening(void *ctx, const char *ifname, const char *path,
			 pid_t pid, uint64_t start_time, struct errbuf *err)
{
	char log[4200], why[300];
	int status;

	(void)ctx;
	snprintf(log, sizeof(log), "%s.log", path);
	for (int i = 0; i < 500; i++) {
		/* tcpdump says "listening on IFNAME" once it captures. */
		if (file_says(log, "listening on"))
			return 0;
		if (spawn_wait(pid, 10, &status)) {
			last_line(log, why, sizeof(why));
			errbuf_set(err, "tcpdump on %s failed: %s",
				   ifname, why);
			return -1;
		}
	}
	proc_stop(pid, start_time, 1000);
	errbuf_set(err, "tcpdump on %s did not start within 5 s",
		   ifname);
	return -1;
}

static int cap_stop(void *ctx, pid_t pid, uint64_t start_time,
		    struct errbuf *err)
{
	(void)ctx;
	(void)err;
	proc_stop(pid, start_time, 3000);
	return 0;
}

static int cap_alive(void *ctx, pid_t pid, uint64_t start_time)
{
	int status;

	(void)ctx;
	/* Reap a dead child first: a zombie still has a start time. */
	waitpid(pid, &status, WNOHANG);
	return proc_start_time(pid) == start_time;
}

const struct capture_ops capture_tcpdump_ops = {
	.start = cap_start,
	.listening = cap_listening,
	.stop = cap_stop,
	.alive = cap_alive,
};
