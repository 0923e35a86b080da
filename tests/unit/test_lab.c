// SPDX-License-Identifier: MIT
/*
 * The lab runner (lab.c, state.c, scenario.c, guest_agent.c) over fake ops
 * that record every call, in virtual time: resources are recorded in the
 * state file before they are created, teardown undoes them last first,
 * failures reach both ends of a link, guests are driven through the
 * agent protocol, scenarios report one TAP line per step.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab.h"
#include "reaper.h"
#include "registry.h"
#include "scenario.h"
#include "services.h"
#include "child.h"
#include "unit.h"

struct fake {
	char calls[16384];
	char state_path[4200];
	const char *dead;	/* a domain that never runs */
	const char *undying;	/* a domain whose destroy fails */
	bool cut_at_exec;	/* Ctrl-C kills the agent's connection */
	const char *exec_out;	/* base64 stdout of every guest-exec */
	bool last_false;	/* the last guest-exec ran "false" */
	long long now;
	bool unrecorded;	/* a resource was made before its record */
	bool taken;		/* every name is already someone else's */
	int leftover;		/* create: 1 = replaced a lost run's bridge */
	bool deaf;		/* every capture fails to listen */
	int in_set_link;	/* set_link calls so far */
	int together;		/* of them, ones that overlapped another */
	char description[4200];	/* every domain's <description> */
	int in_destroy;		/* destroy calls in flight */
	int destroys_together;	/* of them, ones that overlapped another */
	bool migrate_fails;	/* every migration fails */
};

static struct fake fk;

/* Domains start from threads: one call at a time into the log. */
static pthread_mutex_t calls_lock = PTHREAD_MUTEX_INITIALIZER;

static void call(const char *fmt, const char *a, const char *b)
{
	size_t n;

	pthread_mutex_lock(&calls_lock);
	n = strlen(fk.calls);
	snprintf(fk.calls + n, sizeof(fk.calls) - n, fmt, a, b);
	pthread_mutex_unlock(&calls_lock);
}

/* The state file must already name what is about to be created. */
static void recorded(const char *what)
{
	char line[4500];
	bool found = false;
	FILE *f = fopen(fk.state_path, "r");

	while (f && !found && fgets(line, sizeof(line), f)) {
		char *sp = strchr(line, ' ');

		line[strcspn(line, "\n")] = 0;
		/* "kind NAME [...]": NAME is the second word. */
		found = sp && strncmp(sp + 1, what, strlen(what)) == 0 &&
			(sp[1 + strlen(what)] == 0 ||
			 sp[1 + strlen(what)] == ' ');
	}
	if (f)
		fclose(f);
	if (!found)
		fk.unrecorded = true;
}

/* The value of the first attr='...' after tag in xml, or "". */
static void xml_attr(const char *xml, const char *tag, const char *attr,
		     char *out, size_t len)
{
	const char *p = strstr(xml, tag), *end;

	out[0] = 0;
	p = p ? strstr(p, attr) : NULL;
	if (!p)
		return;
	p += strlen(attr);
	end = strchr(p, '\'');
	if (end)
		snprintf(out, len, "%.*s", (int)(end - p), p);
}

static int hv_start(void *c, const char *xml, unsigned flags,
		    struct errbuf *err)
{
	const char *name = strstr(xml, "<name>") + 6;
	char dom[64], ram[4200], console[4200], line[4400];
	FILE *f;

	(void)c;
	(void)err;
	snprintf(dom, sizeof(dom), "%.*s", (int)(strchr(name, '<') - name),
		 name);
	recorded(dom);
	if (fk.taken)
		return errbuf_set(err, "domain '%s' already exists", dom);
	xml_attr(xml, "memory-backend-file", "mem-path=", ram, sizeof(ram));
	if (ram[0])
		*strchr(ram, ',') = 0;
	snprintf(line, sizeof(line), "start %s%s%s%s\n", dom,
		 flags & HV_START_PAUSED ? " paused" : "", ram[0] ? " ram=" : "",
		 ram);
	call("%s%s", line, "");
	/* A template's guest says at once that it waits for its identity. */
	xml_attr(xml, "<serial", "<log file='", console, sizeof(console));
	if (strstr(xml, PLAN_TEMPLATE_ARG) && (f = fopen(console, "w"))) {
		fputs("mstlab-init: waiting for identity\n", f);
		fclose(f);
	}
	return 0;
}

static int hv_destroy(void *c, const char *name, struct errbuf *err)
{
	bool both = false;

	(void)c;
	/* Waits up to 1 s for the other domain's destroy: both in flight
	 * at once means teardown destroys them together. */
	pthread_mutex_lock(&calls_lock);
	fk.in_destroy++;
	pthread_mutex_unlock(&calls_lock);
	for (int i = 0; i < 1000 && !both; i++) {
		pthread_mutex_lock(&calls_lock);
		both = fk.in_destroy >= 2;
		pthread_mutex_unlock(&calls_lock);
		if (!both)
			usleep(1000);
	}
	call("destroy %s\n", name, "");
	pthread_mutex_lock(&calls_lock);
	fk.destroys_together += both;
	pthread_mutex_unlock(&calls_lock);
	if (fk.undying && !strcmp(name, fk.undying))
		return errbuf_set(err, "%s: client socket is closed", name);
	return 0;
}

static int hv_running(void *c, const char *name, struct errbuf *err)
{
	(void)c;
	(void)err;
	return !fk.dead || strcmp(name, fk.dead) != 0;
}

static int hv_set_link(void *c, const char *name, const char *xml,
		       struct errbuf *err)
{
	bool both = false;

	(void)c;
	(void)err;
	/* Waits up to 1 s for the other end's call: both in flight at
	 * once means the ends go down together. */
	pthread_mutex_lock(&calls_lock);
	fk.in_set_link++;
	pthread_mutex_unlock(&calls_lock);
	for (int i = 0; i < 1000 && !both; i++) {
		pthread_mutex_lock(&calls_lock);
		both = fk.in_set_link >= 2;
		pthread_mutex_unlock(&calls_lock);
		if (!both)
			usleep(1000);
	}
	call("set_link %s %s\n", name,
	     strstr(xml, "state='down'") ? "down" : "up");
	pthread_mutex_lock(&calls_lock);
	fk.together += both;
	pthread_mutex_unlock(&calls_lock);
	return 0;
}

static int hv_agent(void *c, const char *name, const char *cmd, int t,
		    char **reply, struct errbuf *err)
{
	char buf[256];

	(void)c;
	(void)name;
	(void)t;
	if (fk.cut_at_exec && strstr(cmd, "guest-exec\"")) {
		lab_interrupted = 1;
		return errbuf_set(err, "%s: End of file while reading data",
				  name);
	}
	if (strstr(cmd, "guest-ping"))
		snprintf(buf, sizeof(buf), "{\"return\":{}}");
	else if (strstr(cmd, "guest-exec-status"))
		snprintf(buf, sizeof(buf), "{\"return\":{\"exited\":true,"
			 "\"exitcode\":%d,\"out-data\":\"%s\"}}",
			 fk.last_false, fk.exec_out);
	else
		snprintf(buf, sizeof(buf), "{\"return\":{\"pid\":42}}");
	if (strstr(cmd, "guest-exec\"")) {
		call("exec %s %s\n", name, strstr(cmd, "\"arg\""));
		fk.last_false = strstr(cmd, "\"false\"") != NULL;
	}
	*reply = strdup(buf);
	return 0;
}

static int hv_description(void *c, const char *name, char *out, size_t len,
			  struct errbuf *err)
{
	(void)c;
	(void)name;
	if (!fk.description[0])
		return errbuf_set(err, "no description");
	snprintf(out, len, "%s", fk.description);
	return 0;
}

/* pause and resume: said, and done. */
#define FAKE_RUN_STATE(fn, what)                                        \
	static int fn(void *c, const char *name, struct errbuf *err)    \
	{                                                               \
		(void)c;                                                \
		(void)err;                                              \
		call(what " %s\n", name, "");                           \
		return 0;                                               \
	}
FAKE_RUN_STATE(hv_pause, "pause")
FAKE_RUN_STATE(hv_resume, "resume")

/* QMP as QEMU answers it. A save writes "saved by DOMAIN" into the
 * state file, a load says what it read. */
static int hv_monitor(void *c, const char *name, const char *cmd, int fd,
		      char **reply, struct errbuf *err)
{
	char what[64] = "", buf[128] = "", line[300];
	const char *x = strstr(cmd, "\"execute\":\"");
	ssize_t n;

	(void)c;
	(void)err;
	if (x)
		snprintf(what, sizeof(what), "%.*s",
			 (int)strcspn(x + 11, "\""), x + 11);
	if (fd >= 0 && fcntl(fd, F_GETFL) & O_WRONLY) {
		snprintf(buf, sizeof(buf), "saved by %s", name);
		if (write(fd, buf, strlen(buf)) != (ssize_t)strlen(buf))
			call("%s%s\n", "WRITE FAILED", "");
		buf[0] = 0;
	} else if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = 0;
	}
	snprintf(line, sizeof(line), "monitor %s %s%s%s%s\n", name, what,
		 buf[0] ? " loads '" : "", buf, buf[0] ? "'" : "");
	call("%s%s", line, "");
	if (!strcmp(what, "query-migrate"))
		*reply = strdup(fk.migrate_fails ?
				"{\"return\":{\"status\":\"failed\","
				"\"error-desc\":\"no room\"}}" :
				"{\"return\":{\"status\":\"completed\"}}");
	else
		*reply = strdup("{\"return\":{}}");
	return 0;
}

static const struct hv_ops fake_hv = {
	.start = hv_start, .destroy = hv_destroy, .running = hv_running,
	.description = hv_description, .set_link = hv_set_link,
	.agent = hv_agent, .pause = hv_pause, .resume = hv_resume,
	.monitor = hv_monitor,
};

/* Identity channels: a descriptor of /dev/null; what is sent is logged
 * as its nic lines. */
static int ch_connect(void *c, const char *path, struct errbuf *err)
{
	(void)c;
	(void)err;
	call("connect %s\n", strrchr(path, '/') + 1, "");
	return open("/dev/null", O_WRONLY | O_CLOEXEC);
}

static int ch_send(void *c, int fd, const char *text, struct errbuf *err)
{
	static const char head[] = "mstlab-identity 1\nclock ";
	const char *nic = strstr(text, "\nnic ");
	char line[200];

	(void)c;
	(void)err;

	snprintf(line, sizeof(line), "identity %.*s %s\n",
		 nic ? (int)strcspn(nic + 1, "\n") : 0, nic ? nic + 1 : "",
		 fd >= 0 && !strncmp(text, head, strlen(head)) &&
		 strstr(text, "\nend\n") ? "end" : "TORN");
	call("%s%s", line, "");
	return 0;
}

static void ch_close(void *c, int fd)
{
	(void)c;
	close(fd);
}

static const struct chan_ops fake_chan = { ch_connect, ch_send, ch_close };

static int ln_create(void *c, const char *br, const char *owner,
		     struct errbuf *err)
{
	(void)c;
	recorded(br);
	if (fk.taken)
		return errbuf_set(err, "cannot create bridge %s: File exists",
				  br);
	call("create %s %s\n", br, owner);
	return fk.leftover;
}

static int ln_setup(void *c, const char *tap, struct errbuf *err)
{
	(void)c;
	(void)err;
	call("setup_port %s\n", tap, "");
	return 0;
}

static int ln_forward(void *c, const char *const tap[], size_t n, bool on,
		      int deaf, struct errbuf *err)
{
	(void)c;
	(void)err;
	if (!on && deaf >= 0) {
		call("forward %s deaf%s\n", tap[deaf], "");
		return 0;
	}
	for (size_t e = 0; e < n; e++)
		call("forward %s %s\n", tap[e], on ? "on" : "off");
	return 0;
}

static int ln_remove(void *c, const char *name, struct errbuf *err)
{
	(void)c;
	(void)err;
	call("remove %s\n", name, "");
	return 0;
}

static const struct link_ops fake_link = {
	.create = ln_create, .setup_port = ln_setup,
	.port_forward = ln_forward, .remove = ln_remove,
};

static int cap_start(void *c, const char *ifname, const char *path,
		     pid_t *pid, uint64_t *start, struct errbuf *err)
{
	(void)c;
	(void)path;
	(void)err;
	recorded(ifname);
	*pid = 4242;
	*start = 99;
	call("capture %s\n", ifname, "");
	return 0;
}

static int cap_listening(void *c, const char *ifname, const char *path,
			 pid_t pid, uint64_t start, struct errbuf *err)
{
	(void)c;
	(void)path;
	(void)pid;
	(void)start;
	call("listening %s\n", ifname, "");
	if (fk.deaf)
		return errbuf_set(err, "tcpdump on %s failed: no such device",
				  ifname);
	return 0;
}

static int cap_stop(void *c, pid_t pid, uint64_t start, struct errbuf *err)
{
	char p[32];

	(void)c;
	(void)err;
	snprintf(p, sizeof(p), "%d/%llu", (int)pid, (unsigned long long)start);
	call("stop %s\n", p, "");
	return 0;
}

static int cap_alive(void *c, pid_t pid, uint64_t start)
{
	(void)c;
	(void)pid;
	(void)start;
	return 1;
}

static const struct capture_ops fake_cap = { cap_start, cap_listening,
					     cap_stop, cap_alive };

static long long now_ms(void *c)
{
	(void)c;
	return fk.now;
}

static void sleep_ms(void *c, unsigned ms)
{
	(void)c;
	fk.now += ms;
}

static const struct lab_ops ops = {
	.hv = &fake_hv, .link = &fake_link, .cap = &fake_cap,
	.now_ms = now_ms, .sleep_ms = sleep_ms, .chan = &fake_chan,
};

/* Two hosts, linked by their eth1. */
#define TWO_HOSTS \
	"name: unit\n" \
	"nodes:\n" \
	"  h1: { role: host }\n" \
	"  h2: { role: host }\n" \
	"links:\n" \
	"  - [h1:eth1, h2:eth1]\n"

static const char topo_text[] =
	TWO_HOSTS
	"scenarios:\n"
	"  s:\n"
	"    steps:\n"
	"      - fail: { link: h1:eth1, mode: silent }\n"
	"      - mark: cut\n"
	"      - exec: { node: h2, cmd: [ip, link] }\n"
	"      - restore: h2:eth1\n"
	"      - exec: { node: h1, cmd: \"false\" }\n"
	"      - sleep: 1s\n";

struct fixture {
	char dir[64], topo[128];
	struct topo *t;
	struct lab l;
	FILE *log;
	char *log_buf;
	size_t log_len;
};

/* A topology file, a results folder and a lab on the fake ops. */
static int setup_text(struct fixture *fx, const char *text)
{
	struct topo_error te;
	struct errbuf err = { "" };
	FILE *f;

	memset(&fk, 0, sizeof(fk));
	fk.exec_out = "MAo=";	/* "0\n": the seed's exit status */
	memset(fx, 0, sizeof(*fx));
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/mstlab-unit-XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->topo, sizeof(fx->topo), "%s/unit.yaml", fx->dir);
	f = fopen(fx->topo, "w");
	fputs(text, f);
	fclose(f);
	if (topo_parse_file(fx->topo, &fx->t, &te))
		return -1;
	fx->log = open_memstream(&fx->log_buf, &fx->log_len);
	/* The labs that are up: this test's own. */
	setenv("MSTLAB_RUNTIME_DIR", fx->dir, 1);
	if (lab_init(&fx->l, fx->t, &ops, fx->dir, fx->log, &err)) {
		fprintf(stderr, "lab_init: %s\n", err.msg);
		return -1;
	}
	snprintf(fk.state_path, sizeof(fk.state_path), "%s/state",
		 fx->l.run_dir);
	fx->l.pp.kernel[0] = fx->l.pp.kernel[1] = "/boot/k";
	fx->l.pp.initrd = "/boot/i";
	fx->l.boot = LAB_BOOT_COLD;
	return 0;
}

static int setup(struct fixture *fx)
{
	return setup_text(fx, topo_text);
}

static void teardown(struct fixture *fx)
{
	char *argv[] = { "rm", "-rf", fx->dir, NULL };

	lab_fini(&fx->l);
	topo_free(fx->t);
	fclose(fx->log);
	free(fx->log_buf);
	spawn_run(argv, NULL, 10000);
}

TEST(up_records_before_creating_and_down_undoes_in_reverse)
{
	struct fixture fx;
	struct errbuf err = { "" };
	char *p;

	CHECK(setup(&fx) == 0);
	CHECK_INT(lab_up(&fx.l, &err), 0);
	CHECK(!fk.unrecorded);
	CHECK(strstr(fk.calls, "create ml-") < strstr(fk.calls, "capture ml-"));
	CHECK(strstr(fk.calls, "capture ml-") < strstr(fk.calls, "start "));
	/* Ports are set up once both taps exist, after the domains. */
	CHECK(strstr(fk.calls, "start mstlab-unit-h1") <
	      strstr(fk.calls, "setup_port"));
	CHECK(strstr(fk.calls, "start mstlab-unit-h2") <
	      strstr(fk.calls, "setup_port"));
	CHECK(access(fk.state_path, R_OK) == 0);

	fk.calls[0] = 0;
	fk.in_destroy = fk.destroys_together = 0;
	CHECK_INT(lab_down("unit", fx.l.run_dir, &ops, fx.log), 0);
	/* In phases: every domain (at once), then the capture, then the
	 * interfaces, each phase last-created first: the taps libvirt made
	 * with the domains, the link bridge last. */
	p = strstr(fk.calls, "stop 4242/99");
	CHECK(p != NULL);
	CHECK(strstr(fk.calls, "destroy mstlab-unit-h1") < p);
	CHECK(strstr(fk.calls, "destroy mstlab-unit-h2") < p);
	CHECK(strstr(fk.calls, "remove ml-") > p);
	CHECK(strstr(strstr(fk.calls, "remove ml-"), "remove ml-") != NULL);
	p = strrchr(fk.calls, '\n');
	CHECK(p != NULL);
	while (p > fk.calls && p[-1] != '\n')
		p--;
	CHECK(strncmp(p, "remove ml-", 10) == 0 && strchr(p, 'b') != NULL);
	CHECK_INT(fk.destroys_together, 2);
	fflush(fx.log);
	CHECK(strstr(fx.log_buf, "mstlab: down: 2 domains destroyed (") != NULL);
	CHECK(strstr(fx.log_buf, "mstlab: down: 1 capture stopped (") != NULL);
	CHECK(strstr(fx.log_buf, " interfaces removed (") != NULL);
	/* The lab is forgotten: it can come up again. */
	CHECK(registry_find("unit", err.msg, sizeof(err.msg)) == -1);
	teardown(&fx);
}

TEST(down_counts_what_it_undid_not_what_it_tried)
{
	struct fixture fx;
	struct errbuf err = { "" };

	CHECK(setup(&fx) == 0);
	CHECK_INT(lab_up(&fx.l, &err), 0);
	fk.undying = "mstlab-unit-h2";
	CHECK(lab_down("unit", fx.l.run_dir, &ops, fx.log) != 0);
	fflush(fx.log);
	CHECK(strstr(fx.log_buf, "mstlab: down: 1 domain destroyed, 1 not (") !=
	      NULL);
	CHECK(strstr(fx.log_buf, "client socket is closed") != NULL);
	/* Left: the lab stays on record for another down. */
	CHECK(registry_find("unit", err.msg, sizeof(err.msg)) == 0);
	fk.undying = NULL;
	CHECK_INT(lab_down("unit", fx.l.run_dir, &ops, fx.log), 0);
	teardown(&fx);
}

TEST(names_that_were_taken_are_never_torn_down)
{
	struct fixture fx;
	struct errbuf err = { "" };

	CHECK(setup(&fx) == 0);
	fk.taken = true;
	CHECK_INT(lab_up(&fx.l, &err), -1);
	CHECK(strstr(err.msg, "File exists") != NULL);
	fk.calls[0] = 0;
	CHECK_INT(lab_down("unit", fx.l.run_dir, &ops, fx.log), 0);
	CHECK_STR(fk.calls, "");
	teardown(&fx);
}

TEST(a_bridge_a_lost_run_left_is_replaced_and_the_log_says_so)
{
	struct fixture fx;
	struct errbuf err = { "" };

	CHECK(setup(&fx) == 0);
	fk.leftover = 1;
	CHECK_INT(lab_up(&fx.l, &err), 0);
	/* The label is what lets a later run know the bridge as its own. */
	CHECK(strstr(fk.calls, "create ml-") != NULL);
	CHECK(strstr(fk.calls, " mstlab lab unit\n") != NULL);
	fflush(fx.log);
	CHECK(strstr(fx.log_buf, "was left by a run of unit that died with "
		     "its state: replaced") != NULL);
	teardown(&fx);
}

static const char two_links[] =
	TWO_HOSTS
	"  - [h1:eth2, h2:eth2]\n";

TEST(captures_start_together_and_one_that_cannot_listen_fails_up)
{
	struct fixture fx;
	struct errbuf err = { "" };
	const char *second;

	CHECK(setup_text(&fx, two_links) == 0);
	CHECK_INT(lab_up(&fx.l, &err), 0);
	second = strstr(strstr(fk.calls, "capture ml-") + 1, "capture ml-");
	CHECK(second != NULL);
	CHECK(second < strstr(fk.calls, "listening ml-"));
	CHECK(strstr(fk.calls, "listening ml-") < strstr(fk.calls, "start "));
	CHECK_INT(lab_down("unit", fx.l.run_dir, &ops, fx.log), 0);

	fk.calls[0] = 0;
	fk.deaf = true;
	CHECK_INT(lab_up(&fx.l, &err), -1);
	CHECK(strstr(err.msg, "no such device") != NULL);
	CHECK(strstr(fk.calls, "start ") == NULL);
	/* Both captures were recorded: down stops them. */
	fk.calls[0] = 0;
	CHECK_INT(lab_down("unit", fx.l.run_dir, &ops, fx.log), 0);
	second = strstr(fk.calls, "stop 4242/99");
	CHECK(second != NULL && strstr(second + 1, "stop 4242/99") != NULL);
	teardown(&fx);
}

TEST(a_lab_cannot_be_claimed_twice)
{
	struct fixture fx;
	struct lab other = { 0 };
	struct errbuf err = { "" };

	char results[PATH_MAX];

	CHECK(setup(&fx) == 0);
	/* From another results folder too: the registry is the host's. */
	snprintf(results, sizeof(results), "%s/elsewhere", fx.dir);
	CHECK_INT(lab_init(&other, fx.t, &ops, results, fx.log, &err), -1);
	CHECK(strstr(err.msg, "already up") != NULL);
	CHECK(strstr(err.msg, fx.l.run_dir) != NULL);
	lab_fini(&other);
	teardown(&fx);
}

/* A lab whose registry entry is lost is still found: by the run folder a
 * running domain of it names in its description. */
TEST(a_lab_is_found_by_its_domains_without_its_registry_entry)
{
	struct fixture fx;
	char run[PATH_MAX], path[PATH_MAX];

	CHECK(setup(&fx) == 0);
	CHECK_INT(lab_find_run(fx.t, fx.l.p, &ops, run, sizeof(run)), 0);
	CHECK_STR(run, fx.l.run_dir);
	snprintf(path, sizeof(path), "%s/labs/unit", fx.dir);
	CHECK_INT(unlink(path), 0);
	snprintf(fk.description, sizeof(fk.description), PLAN_RUN_LABEL "%s",
		 fx.l.run_dir);
	run[0] = 0;
	CHECK_INT(lab_find_run(fx.t, fx.l.p, &ops, run, sizeof(run)), 0);
	CHECK_STR(run, fx.l.run_dir);
	/* Another lab's run folder in a description is not this lab's. */
	snprintf(fk.description, sizeof(fk.description), PLAN_RUN_LABEL
		 "/tmp/other-20260101-000000");
	CHECK_INT(lab_find_run(fx.t, fx.l.p, &ops, run, sizeof(run)), -1);
	teardown(&fx);
}

/* What the guest writes to the share once its user-data ran. */
static void seed_status(const struct fixture *fx, const char *node,
			const char *text)
{
	char path[4300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/share/%s/user-data.status",
		 fx->l.run_dir, node);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

TEST(ready_once_the_seed_says_so_and_the_agent_answers)
{
	struct fixture fx;
	struct errbuf err = { "" };

	CHECK(setup(&fx) == 0);
	seed_status(&fx, "h1", "0\n");
	seed_status(&fx, "h2", "0");	/* not complete yet */
	CHECK_INT(lab_wait_ready(&fx.l, 10000, &err), -1);
	CHECK_STR(err.msg, "h2 not ready after 10 s");
	seed_status(&fx, "h2", "0\n");
	err.msg[0] = 0;
	CHECK_INT(lab_wait_ready(&fx.l, 10000, &err), 0);
	fflush(fx.log);
	CHECK(strstr(fx.log_buf, "all 2 nodes ready") != NULL);
	CHECK(strstr(fk.calls, "guest-exec") == NULL);
	teardown(&fx);
}

TEST(a_failed_seed_or_a_dead_domain_fails_the_boot)
{
	struct fixture fx;
	struct errbuf err = { "" };

	CHECK(setup(&fx) == 0);
	seed_status(&fx, "h1", "0\n");
	seed_status(&fx, "h2", "3\n");
	CHECK_INT(lab_wait_ready(&fx.l, 10000, &err), -1);
	CHECK_STR(err.msg, "h2 failed to come up");
	fflush(fx.log);
	CHECK(strstr(fx.log_buf, "h2: its configuration failed (exit 3)"));
	/* ... with the end of its log. */
	CHECK(strstr(fk.calls, "exec mstlab-unit-h2 ") != NULL);
	CHECK(strstr(fk.calls, "/run/mstlab/user-data.log") != NULL);
	seed_status(&fx, "h2", "0\n");
	fk.dead = "mstlab-unit-h2";
	err.msg[0] = 0;
	CHECK_INT(lab_wait_ready(&fx.l, 10000, &err), -1);
	CHECK_STR(err.msg, "h2 failed to come up");
	teardown(&fx);
}

TEST(a_link_fails_and_restores_at_both_ends)
{
	struct fixture fx;
	struct errbuf err = { "" };

	CHECK(setup(&fx) == 0);
	CHECK_INT(lab_link_fail(&fx.l, 0, TOPO_FAIL_CARRIER, &err), 0);
	CHECK(strstr(fk.calls, "set_link mstlab-unit-h1 down\n") != NULL);
	CHECK(strstr(fk.calls, "set_link mstlab-unit-h2 down\n") != NULL);
	CHECK_INT(fk.together, 2);	/* like a cable pulled */
	fflush(fx.log);
	CHECK(strstr(fx.log_buf, "mstlab: link1 down at both ends in ") !=
	      NULL);
	fk.calls[0] = 0;
	CHECK_INT(lab_link_fail(&fx.l, 0, TOPO_FAIL_SILENT, &err), 0);
	CHECK(strstr(fk.calls, "t1a off\n") && strstr(fk.calls, "t1b off\n"));
	fk.calls[0] = 0;
	CHECK_INT(lab_link_restore(&fx.l, 0, &err), 0);
	CHECK(strstr(fk.calls, "t1a on\n") && strstr(fk.calls, "t1b on\n"));
	CHECK(strstr(fk.calls, "set_link mstlab-unit-h2 up\n") != NULL);
	fflush(fx.log);
	CHECK(strstr(fx.log_buf, "mstlab: link1 up at both ends in ") != NULL);
	teardown(&fx);
}

/* mstctl shows MST ports only: a kernel-STP bridge is judged on its
 * ports' own states, and learning is not converged. */
TEST(a_kernel_stp_bridge_converges_on_its_ports_own_states)
{
	static const char text[] =
		"name: unit\n"
		"nodes:\n"
		"  sw1: { role: bridge, stp: kernel }\n"
		"  h1: { role: host }\n"
		"links:\n"
		"  - [sw1:p1, h1:eth1]\n";
	struct fixture fx;
	struct errbuf err = { "" };

	CHECK(setup_text(&fx, text) == 0);
	/* [{"ifname":"p1","state":"learning"}] */
	fk.exec_out = "W3siaWZuYW1lIjoicDEiLCJzdGF0ZSI6ImxlYXJuaW5nIn1dCg==";
	CHECK_INT(lab_wait_converged(&fx.l, 20000, &err), -1);
	CHECK_STR(err.msg, "not converged after 20 s");
	CHECK(strstr(fk.calls, "\"bridge\",\"-j\",\"link\",\"show\"]"));
	CHECK(!strstr(fk.calls, "mstctl"));
	/* [{"ifname":"p1","state":"forwarding"}] */
	fk.exec_out = "W3siaWZuYW1lIjoicDEiLCJzdGF0ZSI6ImZvcndhcmRpbmcifV0K";
	err.msg[0] = 0;
	CHECK_INT(lab_wait_converged(&fx.l, 20000, &err), 0);
	teardown(&fx);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* One way: only the deaf end's tap is touched, the event log names it,
 * and a restore undoes it like any silent failure. A send runs ethsend in
 * the guest with the frame as its last word, no shell. */
TEST(a_oneway_failure_and_a_send_step)
{
	static const char text[] =
		TWO_HOSTS
		"scenarios:\n"
		"  s:\n"
		"    steps:\n"
		"      - fail: { link: h1:eth1, mode: silent, direction: h2->h1 }\n"
		"      - restore: h1:eth1\n"
		"      - send: { node: h2, frames: [\"0007 4242 03\", \"0026\"], "
		"count: 2, pad: false }\n";
	struct fixture fx;
	char *out = NULL, ev[8192] = "", path[4200];
	size_t len = 0, n;
	FILE *o = open_memstream(&out, &len), *f;
	int tap = 0;

	CHECK(setup_text(&fx, text) == 0);
	CHECK_INT(scenario_run(&fx.l, &fx.t->scenarios[0], o, &tap), 0);
	fclose(o);
	CHECK_INT(tap, 3);
	CHECK(strstr(fk.calls, "t1a deaf\n") != NULL);
	CHECK(strstr(fk.calls, "t1b deaf") == NULL);
	CHECK(strstr(fk.calls, "t1b off") == NULL);
	CHECK(strstr(fk.calls, "set_link mstlab-unit-h1 down") == NULL);
	CHECK(strstr(fk.calls, "t1a on\n") && strstr(fk.calls, "t1b on\n"));
	CHECK(strstr(out, "ok 1 - s: fail h1:eth1--h2:eth1 (silent, "
		      "h2:eth1->h1:eth1 only) (") != NULL);
	CHECK(strstr(fk.calls, "\"ethsend\",\"-i\",\"eth1\","
		      "\"-d\",\"01:80:c2:00:00:00\",\"-n\",\"2\",\"-u\","
		      "\"0007424203\"]") != NULL);
	CHECK(strstr(fk.calls, "\"-u\",\"0026\"]") != NULL);
	snprintf(path, sizeof(path), "%s/events", fx.l.run_dir);
	f = fopen(path, "r");
	n = fread(ev, 1, sizeof(ev) - 1, f);
	fclose(f);
	ev[n] = 0;
	CHECK_INT(count(ev, " link-down link1 silent deaf h1:eth1\n"), 1);
	free(out);
	teardown(&fx);
}

TEST(scenario_reports_each_step_and_stops_at_a_failure)
{
	struct fixture fx;
	char *out = NULL, ev[8192] = "", path[4200];
	size_t len = 0;
	FILE *o = open_memstream(&out, &len), *f;
	int tap = 0;
	size_t n;

	CHECK(setup(&fx) == 0);
	fk.exec_out = "bGluayBsaXN0Cg==";	/* "link list\n" */
	CHECK_INT(scenario_run(&fx.l, &fx.t->scenarios[0], o, &tap), 1);
	fclose(o);
	CHECK_INT(tap, 5);	/* the sleep after the failure never ran */
	CHECK(strstr(out, "ok 1 - s: fail h1:eth1--h2:eth1 (silent) (") !=
	      NULL);
	CHECK(strstr(out, "# h2| link list\n") != NULL);
	CHECK(strstr(out, "not ok 5 - s: exec on h1: false (") != NULL);
	/* A failed exec says how, and what it printed last. */
	CHECK(strstr(out, "# exit 1; last output: link list\n") != NULL);
	CHECK(strstr(fk.calls, "\"arg\":[\"-s\",\"KILL\",\"30\",\"ip\","
			       "\"link\"]") != NULL);
	snprintf(path, sizeof(path), "%s/events", fx.l.run_dir);
	f = fopen(path, "r");
	n = fread(ev, 1, sizeof(ev) - 1, f);
	fclose(f);
	ev[n] = 0;
	CHECK_INT(count(ev, " link-down link1 silent\n"), 1);
	/* The step line, then the mark itself. */
	CHECK_INT(count(ev, " step 2 mark cut\n"), 1);
	CHECK_INT(count(ev, " mark cut\n"), 2);
	CHECK_INT(count(ev, " link-up link1\n"), 1);
	CHECK_INT(count(ev, " step-failed 5\n"), 1);
	free(out);
	teardown(&fx);
}

TEST(a_step_cut_by_ctrl_c_says_so_first)
{
	struct fixture fx;
	char *out = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&out, &len);
	int tap = 0;

	CHECK(setup(&fx) == 0);
	fk.cut_at_exec = true;
	CHECK_INT(scenario_run(&fx.l, &fx.t->scenarios[0], o, &tap), 1);
	fclose(o);
	lab_interrupted = 0;
	CHECK(strstr(out, "# interrupted: mstlab-unit-h2: End of file while "
		      "reading data\n") != NULL);
	free(out);
	teardown(&fx);
}

TEST(exec_request_is_argv_not_a_shell_line)
{
	char *argv[] = { "echo", "a b; rm -rf /", "\"q\"", NULL };
	char *req = agent_exec_request(argv, 1500, NULL);

	CHECK_STR(req, "{\"execute\":\"guest-exec\",\"arguments\":{\"path\":"
		  "\"timeout\",\"arg\":[\"-s\",\"KILL\",\"2\",\"echo\","
		  "\"a b; rm -rf /\",\"\\\"q\\\"\"],\"capture-output\":true}}");
	free(req);
}

/*
 * A daemon started under the reaper: what it leaves behind becomes the
 * reaper's child (so its exit is reaped at once, not by process 1), and
 * the call returns the foreground part's exit status.
 */
TEST(a_daemon_runs_under_its_own_reaper)
{
	char dir[] = "/tmp/mstlab-reaper-XXXXXX", script[128], pidfile[128];
	char status[64], line[128];
	char *argv[] = { "/bin/sh", script, NULL };
	int ppid = 0, pid = 0, held[2];
	FILE *f;

	/* A caller's pipe, not close-on-exec: neither may keep it. */
	CHECK_INT(pipe(held), 0);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(script, sizeof(script), "%s/daemon.sh", dir);
	snprintf(pidfile, sizeof(pidfile), "%s/pid", dir);
	f = fopen(script, "w");
	CHECK(f != NULL);
	fprintf(f, "sleep 30 &\necho $! >%s\nexit 3\n", pidfile);
	fclose(f);
	CHECK_INT(reaper_run_daemon(argv, NULL, NULL, 10000), 3);
	f = fopen(pidfile, "r");
	CHECK(f != NULL);
	CHECK_INT(fscanf(f, "%d", &pid), 1);
	fclose(f);
	/* The orphaned sleep's parent is the reaper. */
	snprintf(status, sizeof(status), "/proc/%d/status", pid);
	f = fopen(status, "r");
	CHECK(f != NULL);
	while (fgets(line, sizeof(line), f))
		sscanf(line, "PPid: %d", &ppid);
	fclose(f);
	snprintf(status, sizeof(status), "/proc/%d/comm", ppid);
	f = fopen(status, "r");
	CHECK(f != NULL);
	CHECK(fgets(line, sizeof(line), f) != NULL);
	fclose(f);
	CHECK_STR(line, "mstlab-reaper\n");
	close(held[1]);
	CHECK_INT(fcntl(held[0], F_SETFL, O_NONBLOCK), 0);
	CHECK_INT(read(held[0], line, 1), 0);
	close(held[0]);
	/* With it gone, the reaper has nothing left and leaves too. */
	kill(pid, SIGKILL);
	for (int i = 0; i < 500 && proc_start_time(ppid); i++)
		usleep(10000);
	CHECK_INT(proc_start_time(ppid), 0);
	unlink(pidfile);
	unlink(script);
	rmdir(dir);
}

/* ---- templates (template.h) ---------------------------------------------- */

/* A kernel and an image in the fixture's folder (their contents key the
 * templates), and the cache beside them; nodes from templates. */
static void template_setup(struct fixture *fx, enum lab_boot boot)
{
	static char kernel[160], initrd[160];
	FILE *f;

	snprintf(kernel, sizeof(kernel), "%s/bzImage", fx->dir);
	snprintf(initrd, sizeof(initrd), "%s/initramfs.cpio.lz4", fx->dir);
	f = fopen(kernel, "w");
	fputs("a kernel", f);
	fclose(f);
	f = fopen(initrd, "w");
	fputs("an image", f);
	fclose(f);
	fx->l.pp.kernel[0] = fx->l.pp.kernel[1] = kernel;
	fx->l.pp.initrd = initrd;
	fx->l.boot = boot;
	/* Its folder new too, as /var/cache/mstlab may be. */
	snprintf(fx->l.tpl_cache, sizeof(fx->l.tpl_cache), "%s/cache/templates",
		 fx->dir);
}

/* The key of the template in a "start mstlab-tpl-KEY" call, or "". */
static void template_of(const char *calls, char key[TPL_KEY_LEN + 1])
{
	const char *p = strstr(calls, "start " TPL_DOMAIN_PREFIX);

	key[0] = 0;
	if (p)
		snprintf(key, TPL_KEY_LEN + 1, "%s",
			 p + strlen("start " TPL_DOMAIN_PREFIX));
}

static const char *after(const char *hay, const char *needle)
{
	const char *p = hay ? strstr(hay, needle) : NULL;

	return p ? p : "";	/* "" sorts before any call: a failed order */
}

TEST(nodes_of_one_shape_come_from_one_template_built_once)
{
	struct fixture fx;
	struct errbuf err = { "" };
	char key[TPL_KEY_LEN + 1], tpl[64], want[128], path[4300];
	char line[4400];
	const char *t, *c;
	FILE *f;

	CHECK(setup(&fx) == 0);
	template_setup(&fx, LAB_BOOT_TEMPLATE);
	CHECK_INT(lab_up(&fx.l, &err), 0);
	CHECK_STR(err.msg, "");
	CHECK(!fk.unrecorded);
	CHECK_INT(count(fk.calls, "start " TPL_DOMAIN_PREFIX), 1);
	template_of(fk.calls, key);
	CHECK_INT(strlen(key), TPL_KEY_LEN);
	CHECK(tpl_ready(fx.l.tpl_cache, key));
	snprintf(tpl, sizeof(tpl), TPL_DOMAIN_PREFIX "%s-%d", key,
		 (int)getpid());
	/* Built: started paused, its channel connected before it runs, run
	 * until it waits, paused, saved, destroyed. */
	t = after(fk.calls, "start mstlab-tpl-");
	CHECK(strncmp(t + 6 + strlen(tpl), " paused", 7) == 0);
	c = after(t, "connect template.id\n");
	snprintf(want, sizeof(want), "resume %s\n", tpl);
	CHECK(c < after(c, want));
	t = after(c, want);
	snprintf(want, sizeof(want), "pause %s\n", tpl);
	CHECK(t < after(t, want));
	snprintf(want, sizeof(want), "monitor %s migrate\n", tpl);
	CHECK(after(t, "pause") < after(t, want));
	snprintf(want, sizeof(want), "destroy %s\n", tpl);
	CHECK(after(t, "migrate\n") < after(t, want));
	/* Both nodes from it: paused, fed its state, their ports set up,
	 * then running and told who they are. */
	for (int i = 0; i < 2; i++) {
		const char *node = i ? "h2" : "h1";

		snprintf(line, sizeof(line), "start mstlab-unit-%s paused ram=%s"
			 "/%s/ram\n", node, fx.l.tpl_cache, key);
		CHECK(strstr(fk.calls, line) != NULL);
		snprintf(line, sizeof(line), "connect %s.id\n", node);
		CHECK(strstr(fk.calls, line) != NULL);
		snprintf(line, sizeof(line), "monitor mstlab-unit-%s "
			 "migrate-incoming\n", node);
		CHECK(strstr(fk.calls, line) != NULL);
		snprintf(line, sizeof(line), "monitor mstlab-unit-%s getfd "
			 "loads 'saved by %s'\n", node, tpl);
		CHECK(strstr(fk.calls, line) != NULL);
		snprintf(want, sizeof(want), "setup_port %s\n",
			 fx.l.p->nodes[i].nic[0].tap);
		snprintf(line, sizeof(line), "resume mstlab-unit-%s\n", node);
		CHECK(strstr(fk.calls, want) != NULL);
		CHECK(strstr(fk.calls, want) < after(fk.calls, line));
		snprintf(line, sizeof(line), "identity nic 06:00:00:00:00:01 "
			 "%s end\n", fx.l.p->nodes[i].nic[0].mac_str);
		CHECK(strstr(fk.calls, line) != NULL);
	}
	/* The template's domain is on record, then forgotten once
	 * destroyed: the lab's teardown leaves it alone. */
	snprintf(path, sizeof(path), "%s/state", fx.l.run_dir);
	f = fopen(path, "r");
	CHECK(f != NULL);
	path[fread(path, 1, sizeof(path) - 1, f)] = 0;
	fclose(f);
	snprintf(want, sizeof(want), "domain %s\n", tpl);
	CHECK(strstr(path, want) < after(path, "forget domain mstlab-tpl-"));
	fk.calls[0] = 0;
	CHECK_INT(lab_down("unit", fx.l.run_dir, &ops, fx.log), 0);
	CHECK(strstr(fk.calls, "destroy mstlab-unit-h1\n") != NULL);
	CHECK(strstr(fk.calls, "destroy mstlab-tpl-") == NULL);
	fflush(fx.log);
	snprintf(want, sizeof(want), "mstlab: h1 from template %s (", key);
	CHECK(strstr(fx.log_buf, want) != NULL);
	teardown(&fx);
}

TEST(a_template_in_the_cache_is_used_and_a_stale_one_never)
{
	struct fixture fx;
	struct errbuf err = { "" };
	char first[TPL_KEY_LEN + 1], second[TPL_KEY_LEN + 1], ram[4400];
	FILE *f;

	CHECK(setup(&fx) == 0);
	template_setup(&fx, LAB_BOOT_AUTO);
	CHECK_INT(lab_up(&fx.l, &err), 0);
	template_of(fk.calls, first);
	CHECK_INT(lab_down("unit", fx.l.run_dir, &ops, fx.log), 0);
	/* Again: the cache has it. */
	fk.calls[0] = 0;
	CHECK_INT(lab_up(&fx.l, &err), 0);
	CHECK(strstr(fk.calls, "start " TPL_DOMAIN_PREFIX) == NULL);
	snprintf(ram, sizeof(ram), "ram=%s/%s/ram\n", fx.l.tpl_cache, first);
	CHECK_INT(count(fk.calls, ram), 2);
	CHECK_INT(lab_down("unit", fx.l.run_dir, &ops, fx.log), 0);
	/* The image changes: its old template is stale, a new one built
	 * and the nodes come from it alone. */
	f = fopen(fx.l.pp.initrd, "a");
	fputs(", rebuilt", f);
	fclose(f);
	fk.calls[0] = 0;
	CHECK_INT(lab_up(&fx.l, &err), 0);
	template_of(fk.calls, second);
	CHECK_INT(strlen(second), TPL_KEY_LEN);
	CHECK(strcmp(first, second) != 0);
	CHECK_INT(count(fk.calls, ram), 0);
	snprintf(ram, sizeof(ram), "ram=%s/%s/ram\n", fx.l.tpl_cache, second);
	CHECK_INT(count(fk.calls, ram), 2);
	teardown(&fx);
}

TEST(a_dsa_switch_boots_cold_beside_the_clones)
{
	static const char text[] =
		"name: unit\n"
		"nodes:\n"
		"  sw1: { role: dsa-switch }\n"
		"  h1: { role: host }\n"
		"links:\n"
		"  - [sw1:lan1, h1:eth1]\n";
	struct fixture fx;
	struct errbuf err = { "" };

	CHECK(setup_text(&fx, text) == 0);
	template_setup(&fx, LAB_BOOT_TEMPLATE);
	CHECK_INT(lab_up(&fx.l, &err), 0);
	CHECK(strstr(fk.calls, "start mstlab-unit-sw1\n") != NULL);
	CHECK(strstr(fk.calls, "start mstlab-unit-h1 paused ram=") != NULL);
	CHECK(strstr(fk.calls, "resume mstlab-unit-sw1") == NULL);
	CHECK_INT(count(fk.calls, "identity "), 1);
	teardown(&fx);
}

TEST(a_template_that_cannot_be_built_boots_cold_unless_asked_for)
{
	struct fixture fx;
	struct errbuf err = { "" };
	char key[TPL_KEY_LEN + 1], build[4400];

	CHECK(setup(&fx) == 0);
	template_setup(&fx, LAB_BOOT_AUTO);
	fk.migrate_fails = true;
	CHECK_INT(lab_up(&fx.l, &err), 0);
	template_of(fk.calls, key);
	CHECK(!tpl_ready(fx.l.tpl_cache, key));
	/* Nothing of the failed build is left. */
	snprintf(build, sizeof(build), "%s/.build-%s-%d", fx.l.tpl_cache, key,
		 (int)getpid());
	CHECK(access(build, F_OK) != 0);
	CHECK(strstr(fk.calls, "destroy " TPL_DOMAIN_PREFIX) != NULL);
	CHECK(strstr(fk.calls, "start mstlab-unit-h1\n") != NULL);
	CHECK(strstr(fk.calls, "start mstlab-unit-h2\n") != NULL);
	fflush(fx.log);
	CHECK(strstr(fx.log_buf, "the migration failed: no room: booting "
		     "cold instead") != NULL);
	CHECK_INT(lab_down("unit", fx.l.run_dir, &ops, fx.log), 0);
	/* --boot template: an error, and no node started. */
	fx.l.boot = LAB_BOOT_TEMPLATE;
	fk.calls[0] = 0;
	CHECK_INT(lab_up(&fx.l, &err), -1);
	CHECK(strstr(err.msg, "the migration failed: no room") != NULL);
	CHECK(strstr(fk.calls, "start mstlab-unit-") == NULL);
	teardown(&fx);
}

TEST(templates_are_listed_and_cleared)
{
	struct fixture fx;
	struct errbuf err = { "" };
	char key[TPL_KEY_LEN + 1], *out = NULL;
	size_t len = 0;
	FILE *o;

	CHECK(setup(&fx) == 0);
	template_setup(&fx, LAB_BOOT_TEMPLATE);
	CHECK_INT(lab_up(&fx.l, &err), 0);
	template_of(fk.calls, key);
	o = open_memstream(&out, &len);
	CHECK_INT(tpl_list(fx.l.tpl_cache, o), 0);
	fclose(o);
	CHECK(strncmp(out, key, TPL_KEY_LEN) == 0);
	CHECK(strstr(out, "128 MiB, 1 vCPU, 1 NIC, default kernel (first "
		     "for h1 of lab unit, host)") != NULL);
	free(out);
	CHECK_INT(tpl_clear(fx.l.tpl_cache, fx.log), 1);
	CHECK(!tpl_ready(fx.l.tpl_cache, key));
	o = open_memstream(&out, &len);
	CHECK_INT(tpl_list(fx.l.tpl_cache, o), 0);
	fclose(o);
	CHECK(strncmp(out, "no templates in ", 16) == 0);
	free(out);
	teardown(&fx);
}

/* A child of that command name, stopped until killed. */
static pid_t named_child(const char *comm)
{
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_NAME, comm);
		pause();
		_exit(0);
	}
	return pid;
}

TEST(a_daemon_runs_when_its_pid_file_names_it)
{
	char dir[] = "/tmp/mstlab-svc-XXXXXX", pid_file[64];
	pid_t named, other, zombie;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(pid_file, sizeof(pid_file), "%s/svcprobe.pid", dir);
	named = named_child("svcprobe");
	other = named_child("svcother");
	zombie = named_child("svcprobe");
	CHECK(named > 0 && other > 0 && zombie > 0);
	usleep(100000);
	/* No pid file: a process of the name elsewhere is not this host's
	 * daemon (farhost's libvirtd). */
	CHECK(!services_daemon_running(pid_file, "svcprobe"));
	f = fopen(pid_file, "w");
	fprintf(f, "%d\n", (int)named);
	fclose(f);
	CHECK(services_daemon_running(pid_file, "svcprobe"));
	/* A pid that became another program's. */
	CHECK(!services_daemon_running(pid_file, "svcother"));
	kill(zombie, SIGKILL);
	usleep(100000);
	f = fopen(pid_file, "w");
	fprintf(f, "%d\n", (int)zombie);
	fclose(f);
	CHECK(!services_daemon_running(pid_file, "svcprobe"));
	waitpid(zombie, NULL, 0);
	f = fopen(pid_file, "w");
	fprintf(f, "garbage\n");
	fclose(f);
	CHECK(!services_daemon_running(pid_file, "svcprobe"));
	kill(named, SIGKILL);
	kill(other, SIGKILL);
	waitpid(named, NULL, 0);
	waitpid(other, NULL, 0);
	unlink(pid_file);
	rmdir(dir);
}
