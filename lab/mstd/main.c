// SPDX-License-Identifier: MIT
/*
 * mstd: an MSTP daemon (IEEE 802.1Q-2018 clause 13) for one Linux bridge
 * in kernel MST mode.  Reads the configuration, checks the bridge, and
 * goes to the background only once everything is set up, so a seed's
 * "mstd -c FILE" fails visibly on a bad configuration.
 */
#include "daemon.h"
#include "opts.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct opt mstd_opts[] = {
	{ NULL, 'c', true,
	  "-c FILE     configuration (default /etc/mstd.conf)" },
	{ NULL, 'f', false,
	  "-f          stay in the foreground (log to stderr)" },
	{ NULL, 't', false,
	  "-t          check the configuration and exit" },
	{ NULL, 'v', false,
	  "-v          log debug messages (state sets, dropped BPDUs)" },
	{ NULL, 'l', true,
	  "-l LOGFILE  log here (default in the background:\n"
	  "              " MSTD_RUN_DIR "/mstd.BRIDGE.log)" },
	{ 0 },
};

static const struct opt_spec mstd_spec = {
	.usage = "Usage: mstd [-f] [-t] [-v] [-c FILE] [-l LOGFILE] "
		 "[-h|--help]\n",
	.opts = mstd_opts,
	.tail = "Control: mstctl [-j] stp show|set|delete|recover|mcheck ...\n",
};

static int write_pid(struct mstd *d)
{
	FILE *f;

	snprintf(d->pid_path, sizeof(d->pid_path), MSTD_RUN_DIR "/mstd.%s.pid",
		 d->conf.bridge);
	f = fopen(d->pid_path, "we");
	if (!f) {
		d->pid_path[0] = 0;
		return -1;
	}
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	return 0;
}

/* fork, setsid, stdio to /dev/null; the parent exits 0. */
static int background(void)
{
	pid_t pid = fork();
	int fd;

	if (pid < 0)
		return -1;
	if (pid > 0)
		_exit(0);
	setsid();
	if (chdir("/") < 0)
		return -1;
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct mstd d;
	const char *conf = "/etc/mstd.conf", *logpath = NULL;
	char err[MSTD_CONF_ERR_MAX], defpath[128];
	bool fg = false, check = false, verbose = false;
	struct opts o;
	int opt, rc;

	opts_start(&o, &mstd_spec, argc, argv);
	while ((opt = opts_next(&o)) > 0) {
		switch (opt) {
		case 'c':
			conf = o.arg;
			break;
		case 'f':
			fg = true;
			break;
		case 't':
			check = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'l':
			logpath = o.arg;
			break;
		}
	}
	if (opt != OPT_END)
		return opt == OPT_HELP ? 0 : 2;
	mstd_conf_init(&d.conf);
	if (mstd_conf_load(&d.conf, conf, err)) {
		fprintf(stderr, "mstd: %s\n", err);
		return 1;
	}
	if (check) {
		printf("%s: ok (bridge %s, %u MSTIs, %zu ports)\n", conf,
		       d.conf.bridge, d.conf.nmstis, d.conf.nports);
		mstd_conf_free(&d.conf);
		return 0;
	}
	/* A daemon keeps nothing of whoever started it (a lock, a pipe its
	 * caller waits on the end of), and has opened nothing yet: 0 to 2
	 * go to /dev/null once it is set up (background()). */
	if (!fg)
		closefrom(3);
	d.log_level = verbose ? MSTP_LOG_DEBUG : d.conf.log_level;
	if (!logpath && !fg) {
		mkdir(MSTD_RUN_DIR, 0755);
		snprintf(defpath, sizeof(defpath), MSTD_RUN_DIR "/mstd.%s.log",
			 d.conf.bridge);
		logpath = defpath;
	}
	d.logf = stderr;
	if (logpath) {
		d.logf = fopen(logpath, "ae");
		if (!d.logf) {
			fprintf(stderr, "mstd: cannot open the log %s: %m\n",
				logpath);
			return 1;
		}
	}
	if (d.conf.hello != MSTP_HELLO_TIME)
		mstd_log(&d, MSTP_LOG_INFO,
			 "hello %u ignored: 802.1Q-2014 fixed the hello time at %d s",
			 d.conf.hello, MSTP_HELLO_TIME);
	if (mstd_init(&d)) {
		mstd_fini(&d);
		return 1;
	}
	if (!fg && (background() < 0 || mstd_after_fork(&d) < 0)) {
		fprintf(stderr, "mstd: cannot go to the background: %m\n");
		mstd_fini(&d);
		return 1;
	}
	write_pid(&d);
	mstd_log(&d, MSTP_LOG_INFO, "running on %s with %u ports, %u MSTIs (pid %d)",
		 d.conf.bridge, d.nports, d.conf.nmstis, (int)getpid());
	rc = mstd_run(&d);
	mstd_fini(&d);
	if (d.logf && d.logf != stderr)
		fclose(d.logf);
	return rc;
}
