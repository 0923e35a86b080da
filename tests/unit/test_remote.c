// SPDX-License-Identifier: MIT
/*
 * The agent protocol (remote_proto.h) and `mstlab agent` (agent.h)
 * driven through real pipes with fake link and capture tables: a whole
 * session, and hostile input: every bad line gets one precise "err", the
 * agent never touches what the plan does not put on its host, never
 * leaves its run folder, never hangs and never crashes.
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan.h"
#include "agent.h"
#include "host_probe.h"
#include "remote_proto.h"
#include "unit.h"

/* ---- the codec ---- */

TEST(requests_split_into_words)
{
	struct remote_msg m;
	struct errbuf why;
	const char *l = "forward off ml-abcdet1a ml-abcdet1b";

	CHECK_INT(remote_parse_request(l, strlen(l), &m, &why), 0);
	CHECK_INT(m.n, 4);
	CHECK_STR(m.word[0], "forward");
	CHECK_STR(m.word[3], "ml-abcdet1b");
}

static void bad_request(const char *line, size_t len, const char *want)
{
	struct remote_msg m;
	struct errbuf why;

	if (remote_parse_request(line, len, &m, &why) != -1) {
		unit_fail(__FILE__, __LINE__, "'%.60s' was taken", line);
		return;
	}
	if (!strstr(why.msg, want))
		unit_fail(__FILE__, __LINE__, "'%.60s': got \"%s\", want \"%s\"",
			  line, why.msg, want);
}

TEST(hostile_requests_are_refused_precisely)
{
	char big[REMOTE_LINE_MAX + 10], word[4 + REMOTE_WORD_MAX + 1];

	bad_request("", 0, "an empty line");
	bad_request("bridge  x", 9, "an empty word (word 2)");
	bad_request("bridge x ", 9, "an empty word (word 3)");
	bad_request(" bridge", 7, "an empty word (word 1)");
	bad_request("a b c d e f g h i", 17, "more than 8 words");
	bad_request("bridge x;reboot", 15, "word 2: only");
	bad_request("get $(id)", 9, "word 2: only");
	bad_request("get `id`", 8, "word 2: only");
	bad_request("get a\"b", 7, "word 2: only");
	bad_request("get a\tb", 7, "byte 0x09 at 5");
	bad_request("get a\x7f", 6, "byte 0x7f at 5");
	bad_request("get \xc3\xa9", 6, "byte 0xc3 at 4");
	bad_request("get a\0b", 7, "byte 0x00 at 5");
	memset(big, 'a', sizeof(big));
	bad_request(big, sizeof(big), "a line longer than 4095 bytes");
	memcpy(word, "get ", 4);
	memset(word + 4, 'a', sizeof(word) - 4);
	bad_request(word, sizeof(word), "at most 1024 bytes");
}

TEST(answers_parse)
{
	struct remote_msg m;
	struct errbuf why;

	CHECK_INT(remote_parse_answer("ok", 2, &m, &why), 0);
	CHECK_INT(m.n, 1);
	CHECK_INT(remote_parse_answer("ok 12 34 pcap/far/x.pcap", 24, &m,
				      &why), 0);
	CHECK_INT(m.n, 4);
	CHECK_STR(m.word[3], "pcap/far/x.pcap");
	CHECK_INT(remote_parse_answer("err no such thing: 'x'", 22, &m, &why),
		  0);
	CHECK_STR(m.word[0], "err");
	CHECK_STR(m.rest, "no such thing: 'x'");
	CHECK_INT(remote_parse_answer("info", 4, &m, &why), 0);
	CHECK_STR(m.rest, "");
	CHECK_INT(remote_parse_answer("okay", 4, &m, &why), -1);
	CHECK(strstr(why.msg, "must start ok, err or info"));
	CHECK_INT(remote_parse_answer("ok a  b", 7, &m, &why), -1);
	CHECK_INT(remote_parse_answer("ok a b c d e f g h", 18, &m, &why), -1);
	CHECK_INT(remote_parse_answer("ok $x", 5, &m, &why), -1);
}

TEST(numbers_are_plain_decimal)
{
	uint64_t v;

	CHECK_INT(remote_number("0", 10, &v), 0);
	CHECK_INT(v, 0);
	CHECK_INT(remote_number("18446744073709551615", UINT64_MAX, &v), 0);
	CHECK(v == UINT64_MAX);
	CHECK_INT(remote_number("18446744073709551616", UINT64_MAX, &v), -1);
	CHECK_INT(remote_number("99999999999999999999", UINT64_MAX, &v), -1);
	CHECK_INT(remote_number("011", 100, &v), -1);
	CHECK_INT(remote_number("-1", 100, &v), -1);
	CHECK_INT(remote_number("+1", 100, &v), -1);
	CHECK_INT(remote_number("1e3", 10000, &v), -1);
	CHECK_INT(remote_number("", 10, &v), -1);
	CHECK_INT(remote_number("11", 10, &v), -1);
}

TEST(the_reader_times_out_and_sees_the_end)
{
	struct remote_reader r;
	char line[REMOTE_LINE_MAX];
	struct errbuf why;
	int p[2];

	CHECK_INT(pipe(p), 0);
	CHECK_INT(write(p[1], "one\ntw", 6), 6);
	remote_reader_init(&r, p[0], 50);
	CHECK_INT(remote_read_line(&r, line, &why), 3);
	CHECK_STR(line, "one");
	/* "tw" without its newline, the writer still there: a timeout. */
	CHECK_INT(remote_read_line(&r, line, &why), -1);
	CHECK(strstr(why.msg, "no answer within"));
	close(p[1]);
	remote_reader_init(&r, p[0], 50);
	CHECK_INT(remote_read_line(&r, line, &why), -1);
	CHECK_STR(why.msg, "end of input");
	close(p[0]);
}

/* ---- the agent, with fakes under it ---- */

static char calls[16384];
static pthread_mutex_t calls_lock = PTHREAD_MUTEX_INITIALIZER;

/* A call of a fake, after its ctx (a prefix: "far:", "local:") if any. */
static void callc(void *c, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	pthread_mutex_lock(&calls_lock);
	n = strlen(calls);
	if (c)
		n += (size_t)snprintf(calls + n, sizeof(calls) - n, "%s",
				      (const char *)c);
	va_start(ap, fmt);
	if (n < sizeof(calls))
		vsnprintf(calls + n, sizeof(calls) - n, fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&calls_lock);
}

static int f_create(void *c, const char *br, const char *owner,
		    struct errbuf *err)
{
	(void)c;
	(void)err;
	callc(c, "create %s %s\n", br, owner);
	return 0;
}

static int f_setup(void *c, const char *tap, struct errbuf *err)
{
	(void)c;
	(void)err;
	callc(c, "setup %s\n", tap);
	return 0;
}

static int f_forward(void *c, const char *const tap[], size_t n, bool on,
		     int deaf, struct errbuf *err)
{
	(void)c;
	(void)err;
	if (!on && deaf >= 0) {
		callc(c, "forward %s deaf\n", tap[deaf]);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		callc(c, "forward %s %s\n", tap[i], on ? "on" : "off");
	return 0;
}

static int f_remove(void *c, const char *name, struct errbuf *err)
{
	(void)c;
	(void)err;
	callc(c, "remove %s\n", name);
	return 0;
}

static int f_tunnel(void *c, const char *name, const char *bridge,
		    uint32_t vni, const char *local, const char *remote,
		    struct errbuf *err)
{
	(void)c;
	(void)err;
	callc(c, "tunnel %s %s %u %s %s\n", name, bridge, (unsigned)vni, local,
	     remote);
	return 0;
}

static int f_mtu(void *c, const char *to, unsigned *mtu, struct errbuf *err)
{
	(void)c;
	(void)err;
	callc(c, "mtu %s\n", to);
	*mtu = 1500;
	return 0;
}

static const struct link_ops fake_link = {
	.create = f_create, .setup_port = f_setup, .port_forward = f_forward,
	.remove = f_remove, .tunnel = f_tunnel, .path_mtu = f_mtu,
};

static int f_start(void *c, const char *ifname, const char *path, pid_t *pid,
		   uint64_t *start, struct errbuf *err)
{
	const char *rel = strstr(path, "/pcap/");
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	(void)c;
	(void)err;
	if (fd >= 0) {
		(void)!write(fd, "PCAP", 4);
		close(fd);
	}
	callc(c, "capture %s %s\n", ifname, rel ? rel : path);
	*pid = 4242;
	*start = 77;
	return 0;
}

static int f_listening(void *c, const char *ifname, const char *path,
		       pid_t pid, uint64_t start, struct errbuf *err)
{
	(void)c;
	(void)path;
	(void)err;
	callc(c, "listening %s %d %llu\n", ifname, (int)pid,
	     (unsigned long long)start);
	return 0;
}

static int f_stop(void *c, pid_t pid, uint64_t start, struct errbuf *err)
{
	(void)c;
	(void)err;
	callc(c, "stop %d %llu\n", (int)pid, (unsigned long long)start);
	return 0;
}

static int f_alive(void *c, pid_t pid, uint64_t start)
{
	(void)c;
	(void)pid;
	(void)start;
	return 1;
}

static const struct capture_ops fake_cap = {
	.start = f_start, .listening = f_listening, .stop = f_stop,
	.alive = f_alive,
};

static int64_t fixed_clock(void)
{
	return 1765000000123456789LL;
}

static const struct lab_ops fake_ops = {
	.link = &fake_link,
	.cap = &fake_cap,
};

#define SPLIT                                                           \
	"name: split\n"                                                 \
	"hosts:\n"                                                      \
	"  local: { address: 10.9.0.1 }\n"                              \
	"  far:\n"                                                      \
	"    uri: qemu+ssh://root@10.9.0.2/system\n"                    \
	"    address: 10.9.0.2\n"                                       \
	"nodes:\n"                                                      \
	"  sw1: { role: bridge }\n"                                     \
	"  sw2: { role: bridge }\n"                                     \
	"  sw3: { role: bridge, host: far }\n"                          \
	"  sw4: { role: bridge, host: far }\n"                          \
	"links:\n"                                                      \
	"  - [sw1:p1, sw2:p1]\n"                                        \
	"  - [sw2:p2, sw3:p2]\n"                                        \
	"  - [sw3:p1, sw4:p1]\n"                                        \
	"  - [sw4:p2, sw1:p2]\n"

struct fix {
	char dir[64];
	struct plan *p;
	struct topo *t;
};

static int fix_init(struct fix *f)
{
	struct topo_error e;

	calls[0] = 0;
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_remote.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	if (topo_parse_buffer("t", SPLIT, strlen(SPLIT), &f->t, &e) ||
	    plan_build(f->t, &f->p))
		return -1;
	return 0;
}

static void fix_fini(struct fix *f)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", f->dir);
	(void)!system(cmd);
	plan_free(f->p);
	topo_free(f->t);
}

/* The port udp-probe uses in a session (0: the VXLAN port). */
static unsigned session_port;

/* Feeds input to a fresh agent through a pipe; its answers, malloc'd;
 * *rc what serve returned. */
static char *session(const char *results, const char *in, size_t len,
		     int *rc)
{
	struct remote_agent *a = malloc(sizeof(*a));
	char *out = NULL;
	size_t out_len = 0;
	FILE *o = open_memstream(&out, &out_len);
	int p[2], q[2];
	char buf[4096];
	ssize_t n;

	if (!a || !o || pipe(p) || pipe(q))
		abort();
	/* The input fits a pipe (64 KiB) in these tests. */
	fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	fcntl(q[1], F_SETPIPE_SZ, 1 << 20);
	if (write(p[1], in, len) != (ssize_t)len)
		abort();
	close(p[1]);
	remote_agent_init(a, &fake_ops, results);
	a->clock_ns = fixed_clock;
	if (session_port)
		a->probe_port = session_port;
	*rc = remote_agent_serve(a, p[0], q[1], 2000);
	remote_agent_fini(a);
	free(a);
	close(p[0]);
	close(q[1]);
	while ((n = read(q[0], buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, o);
	close(q[0]);
	fclose(o);
	return out;
}

static char *session_str(const char *results, const char *in, int *rc)
{
	return session(results, in, strlen(in), rc);
}

/* "topology LEN\n" and the file, then rest. */
static char *with_topology(const char *rest)
{
	size_t len = strlen(SPLIT) + strlen(rest) + 64;
	char *s = malloc(len);

	snprintf(s, len, "hello 4\ntopology %zu\n%s%s", strlen(SPLIT), SPLIT,
		 rest);
	return s;
}

#define RUN "split-20261207-031500"

static void expect_lines(const char *got, const char *const want[])
{
	const char *p = got;

	for (size_t i = 0; want[i]; i++) {
		size_t n = strcspn(p, "\n");

		if (strncmp(p, want[i], strlen(want[i]))) {
			unit_fail(__FILE__, __LINE__,
				  "answer %zu: got \"%.*s\", want \"%s...\"",
				  i + 1, (int)n, p, want[i]);
			return;
		}
		p += n + (p[n] == '\n');
	}
	if (*p)
		unit_fail(__FILE__, __LINE__, "more answers: \"%s\"", p);
}

TEST(a_session_builds_and_tears_down_its_host_part)
{
	struct fix f;
	char req[2048], *in, *out, br2[16], br3[16], tun[16], tap[16];
	char want_tunnel[128], want_capture[512], want_file[160];
	char path[256];
	struct stat sb;
	int rc;

	CHECK_INT(fix_init(&f), 0);
	/* link2 (sw2-sw3) crosses; link3 (sw3-sw4) is all on far. */
	snprintf(br2, sizeof(br2), "%s", f.p->links[1].bridge);
	snprintf(br3, sizeof(br3), "%s", f.p->links[2].bridge);
	snprintf(tun, sizeof(tun), "%s", f.p->links[1].tunnel);
	snprintf(tap, sizeof(tap), "%s", f.p->nodes[2].nic[1].tap);
	snprintf(req, sizeof(req),
		 "run far " RUN "\n"
		 "bridge %s\nbridge %s\ntunnel %s\nport %s\nport %s\n"
		 "capture %s\ncapture %s\nlistening %s 4242 77\n"
		 "alive 4242 77\nforward off %s %s\nmtu 10.9.0.1\nclock\n"
		 "files\nget pcap/link3-sw3.p1-sw4.p1.pcap\ndown\nbye\n"
		 "never read\n",
		 br2, br3, tun, tun, tap, br2, br3, br3, tun, tap);
	in = with_topology(req);
	out = session_str(f.dir, in, &rc);
	CHECK_INT(rc, 0);
	snprintf(want_tunnel, sizeof(want_tunnel), "ok %u 10.9.0.2 10.9.0.1",
		 (unsigned)f.p->links[1].vni);
	snprintf(want_file, sizeof(want_file), "%s/" RUN, f.dir);
	{
		const char *want[] = {
			"ok mstlab-agent 4 ", "ok split", "ok /tmp/test_remote",
			"ok created", "ok created", want_tunnel, "ok", "ok",
			/* link2 is captured here (local has one end of it:
			 * the far end's pcap); link3 here entirely. */
			"ok 4242 77 pcap/far/link2-sw2.p2-sw3.p2.pcap",
			"ok 4242 77 pcap/link3-sw3.p1-sw4.p1.pcap",
			"ok", "ok 1", "ok", "ok 1500",
			"ok 1765000000123456789",
			"info file ", "info file ", "info file ", "ok 3",
			"ok 4", "PCAPinfo mstlab: down: ",
			"info mstlab: down: ", "ok 0", "ok", NULL };

		expect_lines(out, want);
	}
	snprintf(want_capture, sizeof(want_capture),
		 "create %s mstlab lab split\ncreate %s mstlab lab split\n"
		 "tunnel %s %s %u 10.9.0.2 10.9.0.1\nsetup %s\nsetup %s\n",
		 br2, br3, tun, br2, (unsigned)f.p->links[1].vni, tun, tap);
	CHECK(!strncmp(calls, want_capture, strlen(want_capture)));
	CHECK(strstr(calls, "forward ") && strstr(calls, " off\n"));
	/* Teardown by its state: both captures, then the interfaces, last
	 * made first. */
	snprintf(want_capture, sizeof(want_capture),
		 "remove %s\nremove %s\nremove %s\n", tun, br3, br2);
	CHECK(strstr(calls, want_capture));
	snprintf(path, sizeof(path), "%s/state", want_file);
	CHECK_INT(stat(path, &sb), 0);
	free(in);
	free(out);
	fix_fini(&f);
}

/* One request after a good start; the answer to it. */
static char *one(struct fix *f, const char *request, int *rc)
{
	char req[8192], *in, *out;

	snprintf(req, sizeof(req), "run far " RUN "\n%s", request);
	in = with_topology(req);
	out = session_str(f->dir, in, rc);
	free(in);
	return out;
}

static void refused(const char *request, const char *want)
{
	struct fix f;
	char *out, *last;
	int rc;

	if (fix_init(&f)) {
		unit_fail(__FILE__, __LINE__, "fixture");
		return;
	}
	out = one(&f, request, &rc);
	last = out;
	for (int i = 0; i < 3 && last; i++)
		last = strchr(last, '\n') ? strchr(last, '\n') + 1 : NULL;
	if (rc != 0 || !last || strncmp(last, "err ", 4) ||
	    !strstr(last, want))
		unit_fail(__FILE__, __LINE__, "%s: got \"%s\" (rc %d), want "
			  "err ...%s", request, last ? last : out, rc, want);
	/* Nothing was done. */
	if (calls[0])
		unit_fail(__FILE__, __LINE__, "%s: calls \"%s\"", request,
			  calls);
	free(out);
	fix_fini(&f);
}

TEST(the_agent_touches_only_its_hosts_part)
{
	struct fix f;
	char req[256];

	CHECK_INT(fix_init(&f), 0);
	/* link1 (sw1-sw2) is all on local: not the agent's. */
	snprintf(req, sizeof(req), "bridge %s\n", f.p->links[0].bridge);
	refused(req, "is no link bridge of lab split on this host");
	snprintf(req, sizeof(req), "remove %s\n", f.p->links[0].bridge);
	refused(req, "is no interface of lab split on this host");
	/* sw1's tap, local's. */
	snprintf(req, sizeof(req), "port %s\n", f.p->nodes[0].nic[1].tap);
	refused(req, "is no port of a link of lab split on this host");
	snprintf(req, sizeof(req), "forward off %s\n",
		 f.p->nodes[1].nic[0].tap);
	refused(req, "is no port of a link of lab split on this host");
	refused("forward maybe ml-x\n", "forward on|off|deaf IFNAME [IFNAME], not");
	refused("forward deaf ml-x ml-y\n", "forward deaf takes one port, not 2");
	refused("bridge eth0\n", "eth0 is no link bridge of lab split");
	refused("remove lo\n", "lo is no interface of lab split");
	refused("remove ml-zzzzzzt1a\n", "is no interface of lab split");
	refused("tunnel ml-zzzzzzv2\n", "is no tunnel of lab split");
	refused("capture eth0\n", "eth0 is no link captured on this host");
	snprintf(req, sizeof(req), "capture %s\n", f.p->links[0].bridge);
	refused(req, "is no link captured on this host");
	refused("mtu 8.8.8.8\n", "8.8.8.8 is the address of no host");
	refused("stop 1 0\n", "1 0 is no capture of this run");
	refused("alive 4242 77\n", "4242 77 is no capture of this run");
	refused("stop 01 0\n", "01 0 is no capture of this run");
	refused("get ../state\n", "'../state' is no path inside");
	refused("get /etc/passwd\n", "'/etc/passwd' is no path inside");
	refused("get pcap/../../x\n", "is no path inside");
	refused("get ./state/\n", "is no path inside");
	refused("get pcap\n", "pcap is no regular file");
	refused("get nothing\n", "nothing: No such file or directory");
	refused("run far " RUN "\n", "a run is open already");
	refused("topology 3\nabc", "a run is open: the topology is set");
	refused("reboot now\n", "unknown verb 'reboot'");
	refused("bridge\n", "usage: bridge NAME");
	refused("bridge a b\n", "usage: bridge NAME");
	refused("hello 1\n", "this agent speaks version 4, not 1");
	refused("get a;b\n", "word 2: only");
	/* A part of a file: both numbers or none, digits only. */
	refused("get state 0\n", "usage: get PATH [OFFSET MAX]");
	refused("get state -1 10\n", "usage: get PATH [OFFSET MAX]");
	refused("get state 0 01\n", "usage: get PATH [OFFSET MAX]");
	refused("get state 0 1073741825\n", "usage: get PATH [OFFSET MAX]");
	refused("get ../state 0 10\n", "'../state' is no path inside");
	/* exec's output in a share of a node of its host, nothing else. */
	refused("unlink state\n", "'state' is no exec output of a node of "
		"this host");
	refused("unlink share/sw1/exec-1.out\n", "is no exec output");
	refused("unlink share/sw3/exec-.out\n", "is no exec output");
	refused("unlink share/sw3/exec-12345678901.out\n", "is no exec output");
	refused("unlink share/sw3/exec-1.log\n", "is no exec output");
	refused("unlink share/sw3/exec-1.out/x\n", "is no exec output");
	refused("unlink share/sw3/../sw3/exec-1.out\n", "is no exec output");
	refused("unlink share/sw33/exec-1.out\n", "is no exec output");
	refused("unlink share/sw3/exec-1.out\n",
		"share/sw3/exec-1.out: No such file or directory");
	fix_fini(&f);
}

TEST(a_link_out_of_the_run_folder_is_not_followed)
{
	struct fix f;
	char path[256], *out;
	int rc;

	CHECK_INT(fix_init(&f), 0);
	snprintf(path, sizeof(path), "%s/" RUN, f.dir);
	CHECK_INT(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/" RUN "/pcap", f.dir);
	CHECK_INT(symlink("/etc", path), 0);
	{
		char req[] = "attach far " RUN "\nget pcap/passwd\nfiles\n";
		char *in = with_topology(req);

		out = session_str(f.dir, in, &rc);
		free(in);
	}
	/* attach refuses nothing here, but its pcap/ is a link: every
	 * way through it fails. */
	CHECK(strstr(out, "\nerr ") != NULL);
	CHECK(strstr(out, "root:") == NULL);
	CHECK(strstr(out, "passwd") == NULL || strstr(out, "err pcap/passwd"));
	free(out);
	fix_fini(&f);
}

TEST(runs_are_named_as_the_lab_s_and_hosts_are_the_lab_s)
{
	struct fix f;
	char *out, *in;
	int rc;

	CHECK_INT(fix_init(&f), 0);
	in = with_topology("run far ../../etc\nrun far other-20261207-031500\n"
			   "run local " RUN "\nrun nobody " RUN "\n"
			   "attach far " RUN "\nbridge x\nclock\n");
	out = session_str(f.dir, in, &rc);
	CHECK_INT(rc, 0);
	{
		const char *want[] = {
			"ok mstlab-agent", "ok split",
			"err '../../etc' is not a run of lab split",
			"err 'other-20261207-031500' is not a run of lab split",
			"err 'local' is not one of the lab's other hosts",
			"err 'nobody' is not one of the lab's other hosts",
			"err no run " RUN " here",
			"err bridge: open a run first",
			"ok 1765000000123456789", NULL };

		expect_lines(out, want);
	}
	free(in);
	free(out);
	fix_fini(&f);
}

TEST(before_a_topology_nothing_is_done)
{
	int rc;
	char *out = session_str("/nonexistent", "bridge ml-x\nrun far x\n"
				"files\nclock\n", &rc);

	CHECK_INT(rc, 0);
	{
		const char *want[] = { "err bridge: send the topology first",
				       "err run: send the topology first",
				       "err files: send the topology first",
				       "ok 1765000000123456789", NULL };

		expect_lines(out, want);
	}
	free(out);
}

TEST(a_broken_stream_ends_the_session)
{
	char big[REMOTE_LINE_MAX + 100];
	char *out;
	int rc;

	/* A line too long: said, then the end (the stream is out of step). */
	memset(big, 'x', sizeof(big));
	big[sizeof(big) - 1] = '\n';
	out = session("/nonexistent", big, sizeof(big), &rc);
	CHECK_INT(rc, -1);
	CHECK(!strncmp(out, "err a line longer than 4095 bytes", 33));
	free(out);
	/* A topology that says more than it sends. */
	out = session_str("/nonexistent", "topology 100\nname: x\n", &rc);
	CHECK_INT(rc, -1);
	free(out);
	/* A length out of bounds, or no length. */
	out = session_str("/nonexistent", "topology 99999999999\nbye\n", &rc);
	CHECK_INT(rc, -1);
	CHECK(!strncmp(out, "err topology: LEN must be", 25));
	free(out);
	out = session_str("/nonexistent", "topology\nbye\n", &rc);
	CHECK_INT(rc, -1);
	free(out);
	/* A bad topology is an answer, and the session goes on. */
	out = session_str("/nonexistent", "topology 5\nname:clock\n",
			  &rc);
	CHECK_INT(rc, 0);
	CHECK(!strncmp(out, "err topology:", 13));
	CHECK(strstr(out, "\nok 1765000000123456789\n"));
	free(out);
	/* A last line without its newline. */
	out = session_str("/nonexistent", "clock\nclo", &rc);
	CHECK_INT(rc, -1);
	CHECK(strstr(out, "err input ends in a line"));
	free(out);
}

TEST(random_bytes_never_crash_or_hang)
{
	unsigned seed = 29;
	char buf[2048];

	for (int round = 0; round < 200; round++) {
		size_t n = (size_t)(rand_r(&seed) % (int)sizeof(buf));
		char *out;
		int rc;

		for (size_t i = 0; i < n; i++) {
			int r = rand_r(&seed);

			/* Mostly protocol-like text, some raw bytes. */
			buf[i] = r % 7 == 0 ? '\n' : r % 11 == 0 ? ' ' :
				 r % 13 == 0 ? (char)(r >> 8) :
				 "abcdeglmnoprstuvw-0123456789/."[(r >> 4) % 30];
		}
		out = session("/nonexistent", buf, n, &rc);
		CHECK(rc == 0 || rc == -1);
		free(out);
	}
}

/* ---- this host's side (remote.h) ---- */

#include "mirror.h"
#include "remote.h"

/* The uri says where, the user's host settings how. */
TEST(the_ssh_command_line_comes_from_the_uri_and_settings)
{
	static const char yaml[] =
		"name: split\n"
		"hosts:\n"
		"  local: { address: 10.9.0.1 }\n"
		"  far:\n"
		"    uri: qemu+ssh://lab@10.9.0.2:2222/system\n"
		"    address: 10.9.0.2\n"
		"    results: /var/lib/mstlab\n"
		"nodes:\n"
		"  sw1: { role: bridge }\n"
		"  sw2: { role: bridge, host: far }\n"
		"links:\n"
		"  - [sw1:p1, sw2:p1]\n";
	const char *want[] = { "/k/ssh", "-T", "-x", "-a", "-o",
			       "BatchMode=yes", "-o", "ConnectTimeout=10",
			       "-o", "ServerAliveInterval=5", "-o",
			       "ServerAliveCountMax=3", "-i", "/k/id",
			       "-o", "IdentitiesOnly=yes", "-p", "2222", "-l",
			       "lab", "--", "10.9.0.2",
			       "/opt/mstlab/bin/mstlab", "agent", "--results",
			       "/var/lib/mstlab", NULL };
	char dir[] = "/tmp/mstlab-rs-XXXXXX", path[64];
	const char *old = getenv("XDG_CONFIG_HOME");
	char *saved = old ? strdup(old) : NULL;
	struct remote rc = { 0 };
	struct topo_error e;
	struct errbuf err;
	struct topo *t;
	size_t i;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/mstlab", dir);
	CHECK_INT(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/mstlab/hosts.yaml", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs("10.9.0.2:\n  ssh_command: /k/ssh\n  keyfile: /k/id\n"
		      "  mstlab: /opt/mstlab/bin/mstlab\n", f);
		fclose(f);
	}
	setenv("XDG_CONFIG_HOME", dir, 1);
	CHECK_INT(topo_parse_buffer("t", yaml, strlen(yaml), &t, &e), 0);
	CHECK_INT(remote_ssh_argv(&rc, t, 1, &err), 0);
	for (i = 0; want[i]; i++)
		CHECK_STR(rc.argv[i], want[i]);
	CHECK(rc.argv[i] == NULL);
	/* Settings another user could change are refused, said. */
	CHECK_INT(chmod(path, 0666), 0);
	CHECK_INT(remote_ssh_argv(&rc, t, 1, &err), -1);
	CHECK(strstr(err.msg, "host far: "));
	CHECK(strstr(err.msg, "hosts.yaml:1:1: is writable by others"));
	/* None: ssh and mstlab on PATH, ssh's own key and known hosts. */
	unlink(path);
	CHECK_INT(remote_ssh_argv(&rc, t, 1, &err), 0);
	CHECK_STR(rc.argv[0], "ssh");
	CHECK_STR(rc.argv[12], "-p");
	CHECK_STR(rc.argv[18], "mstlab");
	snprintf(path, sizeof(path), "%s/mstlab", dir);
	rmdir(path);
	rmdir(dir);
	if (saved)
		setenv("XDG_CONFIG_HOME", saved, 1);
	else
		unsetenv("XDG_CONFIG_HOME");
	free(saved);
	topo_free(t);
}

struct agent_thread {
	struct remote_agent a;
	int in, out;
	pthread_t tid;
	int rc;
};

static void *agent_main(void *arg)
{
	struct agent_thread *at = arg;

	at->rc = remote_agent_serve(&at->a, at->in, at->out, 5000);
	close(at->out);
	return NULL;
}

/* An agent with the fakes in a thread, the client joined to it. */
static int pair(struct agent_thread *at, struct remote *rc, const char *dir,
		struct errbuf *err)
{
	int down[2], up[2];

	if (pipe(down) || pipe(up))
		return -1;
	remote_agent_init(&at->a, &fake_ops, dir);
	at->a.clock_ns = fixed_clock;
	at->in = down[0];
	at->out = up[1];
	pthread_create(&at->tid, NULL, agent_main, at);
	memset(rc, 0, sizeof(*rc));
	return remote_begin(rc, "far", down[1], up[0], err);
}

static void unpair(struct agent_thread *at, struct remote *rc)
{
	remote_stop(rc);
	pthread_join(at->tid, NULL);
	close(at->in);
	remote_agent_fini(&at->a);
}

TEST(the_client_tables_speak_to_the_agent)
{
	struct agent_thread *at = calloc(1, sizeof(*at));
	struct remote rc;
	struct errbuf err;
	struct fix f;
	const struct plan_link *pl;
	const char *ports[2];
	uint64_t start;
	unsigned mtu;
	pid_t pid;

	CHECK(at);
	CHECK_INT(fix_init(&f), 0);
	pl = &f.p->links[1];
	CHECK_INT(pair(at, &rc, f.dir, &err), 0);
	CHECK_INT(remote_open_run(&rc, SPLIT, strlen(SPLIT), RUN, false,
				  &err), 0);
	CHECK(strstr(rc.run_dir, RUN));
	CHECK_INT(remote_link_ops.create(&rc, pl->bridge, "x", &err), 0);
	CHECK_INT(remote_link_ops.tunnel(&rc, pl->tunnel, pl->bridge, pl->vni,
					 "10.9.0.2", "10.9.0.1", &err), 0);
	/* An answer that is not what this side planned is an error. */
	CHECK_INT(remote_link_ops.tunnel(&rc, pl->tunnel, pl->bridge,
					 pl->vni + 1, "10.9.0.2", "10.9.0.1",
					 &err), -1);
	CHECK(strstr(err.msg, "the agent planned another tunnel"));
	CHECK_INT(remote_link_ops.setup_port(&rc, pl->tunnel, &err), 0);
	ports[0] = pl->tunnel;
	CHECK_INT(remote_link_ops.port_forward(&rc, ports, 1, false, -1, &err),
		  0);
	/* One way: the deaf port alone, named as such to the agent. */
	CHECK_INT(remote_link_ops.port_forward(&rc, ports, 1, false, 0, &err),
		  0);
	CHECK_INT(remote_link_ops.port_forward(&rc, ports, 1, false, 1, &err),
		  -1);
	CHECK_INT(remote_link_ops.path_mtu(&rc, "10.9.0.1", &mtu, &err), 0);
	CHECK_INT(mtu, 1500);
	/* The agent's refusals come back as errors, named by host. */
	CHECK_INT(remote_link_ops.create(&rc, f.p->links[0].bridge, "x", &err),
		  -1);
	CHECK(!strncmp(err.msg, "host far: ", 10));
	/* A word that is no word is never sent. */
	CHECK_INT(remote_link_ops.remove(&rc, "a b", &err), -1);
	CHECK(strstr(err.msg, "cannot be sent"));
	CHECK_INT(remote_capture_ops.start(&rc, pl->bridge, "/x", &pid, &start,
					   &err), 0);
	CHECK_INT(pid, 4242);
	CHECK_INT(start, 77);
	CHECK_INT(remote_capture_ops.listening(&rc, pl->bridge, "/x", pid,
					       start, &err), 0);
	CHECK_INT(remote_capture_ops.alive(&rc, pid, start), 1);
	CHECK_INT(remote_capture_ops.alive(&rc, 1, 1), 0);
	CHECK_INT(remote_capture_ops.stop(&rc, pid, start, &err), 0);
	CHECK_INT(remote_down(&rc, NULL, &err), 0);
	unpair(at, &rc);
	CHECK_INT(at->rc, 0);
	free(at);
	fix_fini(&f);
}

/* put's answer for the file at path, sent as rel. */
static int put_file(struct remote *rc, const char *rel, const char *path,
		    struct errbuf *err)
{
	char buf[65536], len[24];
	const char *put[] = { "put", rel, len };
	struct remote_msg ans;
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;

	if (f)
		fclose(f);
	snprintf(len, sizeof(len), "%zu", n);
	return remote_call(rc, put, 3, buf, n, &ans, err);
}

TEST(an_overlay_is_unpacked_for_a_node_of_the_agents_host_only)
{
	struct agent_thread *at = calloc(1, sizeof(*at));
	char cmd[1024], path[PATH_MAX + 64], text[64] = "";
	struct remote rc;
	struct errbuf err;
	struct fix f;
	FILE *in;

	CHECK(at);
	CHECK_INT(fix_init(&f), 0);
	/* A folder with a file, packed as mstlab packs it; and a tar
	 * whose member climbs out of its folder. */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/ov/etc && echo far > "
		 "%s/ov/etc/motd && tar --create --file %s/ov.tar "
		 "--directory %s/ov --numeric-owner . && python3 -c \""
		 "import io, tarfile; t = tarfile.open('%s/evil.tar', 'w'); "
		 "i = tarfile.TarInfo('../../escape'); i.size = 1; "
		 "t.addfile(i, io.BytesIO(b'x'))\"", f.dir, f.dir, f.dir,
		 f.dir, f.dir);
	CHECK_INT(system(cmd), 0);
	CHECK_INT(pair(at, &rc, f.dir, &err), 0);
	CHECK_INT(remote_open_run(&rc, SPLIT, strlen(SPLIT), RUN, false,
				  &err), 0);
	snprintf(path, sizeof(path), "%s/ov.tar", f.dir);
	CHECK_INT(put_file(&rc, "overlay/sw3.tar", path, &err), 0);
	snprintf(path, sizeof(path), "%s/overlay/sw3/etc/motd", rc.run_dir);
	in = fopen(path, "r");
	CHECK(in && fgets(text, sizeof(text), in));
	if (in)
		fclose(in);
	CHECK_STR(text, "far\n");
	/* The tar is gone once unpacked. */
	snprintf(path, sizeof(path), "%s/overlay/sw3.tar", rc.run_dir);
	CHECK(access(path, F_OK) != 0);
	/* Not a node of this host; not an overlay's name. */
	snprintf(path, sizeof(path), "%s/ov.tar", f.dir);
	CHECK_INT(put_file(&rc, "overlay/sw1.tar", path, &err), -1);
	CHECK(strstr(err.msg, "is no seed image or overlay of a node of this "
		      "host"));
	CHECK_INT(put_file(&rc, "overlay/sw3.tgz", path, &err), -1);
	/* A member out of the folder: never written there. */
	snprintf(path, sizeof(path), "%s/evil.tar", f.dir);
	put_file(&rc, "overlay/sw4.tar", path, &err);
	snprintf(path, sizeof(path), "%s/escape", rc.run_dir);
	CHECK(access(path, F_OK) != 0);
	snprintf(path, sizeof(path), "%s/overlay/escape", rc.run_dir);
	CHECK(access(path, F_OK) != 0);
	CHECK_INT(remote_down(&rc, NULL, &err), 0);
	unpair(at, &rc);
	free(at);
	fix_fini(&f);
}

/* ---- a host's own guest files (images) ---- */

static int images_answer(const char *line, struct remote_images *im,
			 struct errbuf *why)
{
	struct remote_msg m;

	if (remote_parse_answer(line, strlen(line), &m, why))
		return -2;
	return remote_images_parse(&m, im, why);
}

static void images_refused(const char *line, const char *want)
{
	struct remote_images im;
	struct errbuf why = { "" };
	int rc = images_answer(line, &im, &why);

	if (rc == 0 || !strstr(why.msg, want))
		unit_fail(__FILE__, __LINE__, "'%s': rc %d, \"%s\", want \"%s\"",
			  line, rc, why.msg, want);
	else if (im.initrd[0] || im.kernel[0][0])
		unit_fail(__FILE__, __LINE__, "'%s': a refused answer left "
			  "paths behind", line);
}

TEST(an_images_answer_names_absolute_safe_paths_only)
{
	struct remote_images im;
	struct errbuf why;
	char big[400];

	CHECK_INT(images_answer("ok /opt/m/initramfs.cpio.lz4 "
				"/opt/m/initramfs.tools "
				"/opt/m/kernel-default/bzImage - - "
				"/opt/m/kernel-6.12-debug/bzImage", &im, &why),
		  0);
	CHECK_STR(im.kernel[0], "/opt/m/kernel-default/bzImage");
	CHECK_STR(im.kernel[1], "");
	CHECK_STR(im.kernel[TOPO_KERNEL_612], "");
	CHECK_STR(im.kernel[TOPO_KERNEL_612_DEBUG],
		  "/opt/m/kernel-6.12-debug/bzImage");
	CHECK_STR(im.initrd, "/opt/m/initramfs.cpio.lz4");
	CHECK_STR(im.tools, "/opt/m/initramfs.tools");
	CHECK_INT(images_answer("ok /i - /k /d - -", &im, &why), 0);
	CHECK_STR(im.kernel[1], "/d");
	CHECK_STR(im.tools, "");
	/* Hostile or broken: refused, by name of the path. */
	images_refused("ok /i - k - - -", "its default kernel 'k' is no "
		       "absolute path");
	images_refused("ok /b/../../etc/shadow - /k - - -", "its initramfs");
	images_refused("ok /b/./i - /k - - -", "its initramfs '/b/./i'");
	images_refused("ok /b//i - /k - - -", "its initramfs '/b//i'");
	images_refused("ok /b/ - /k - - -", "its initramfs '/b/'");
	images_refused("ok /i - / - - -", "its default kernel '/'");
	images_refused("ok - - /k - - -", "its initramfs '-'");
	/* Words the protocol carries but no path may have: a QEMU
	 * option's comma, a URI's colon, @ and =. */
	images_refused("ok /i - /k,if=none - - -", "its default kernel "
		       "'/k,if=none'");
	images_refused("ok /i /t:x /k - - -", "its tools share '/t:x'");
	images_refused("ok /i - /k /d@h - -", "its debug kernel '/d@h'");
	images_refused("ok /i - /k - -", "ok INITRD TOOLS and a kernel of "
		       "each of 4 names");
	images_refused("ok /i - /k - - - /x", "ok INITRD TOOLS");
	memset(big, 'a', sizeof(big));
	big[0] = '/';
	big[300] = 0;
	{
		char line[420];

		snprintf(line, sizeof(line), "ok /i - %s - - -", big);
		images_refused(line, "at most 255 bytes");
	}
	CHECK(remote_path_ok("/usr/lib/mstlab/kernel-default/bzImage"));
	CHECK(!remote_path_ok("/a/.."));
	CHECK(!remote_path_ok("/a b"));
	CHECK(!remote_path_ok(""));
}

/* An agent with its own files in dir (kernel-default: k, initramfs: i,
 * its tools share i.tools/ when tools). */
static void agent_files(struct remote_agent *a, const char *dir, bool tools)
{
	char path[256];
	FILE *f;

	snprintf(a->kernel[0], sizeof(a->kernel[0]), "%s/k", dir);
	snprintf(a->kernel[1], sizeof(a->kernel[1]), "%s/debug", dir);
	snprintf(a->initrd, sizeof(a->initrd), "%s/i.cpio.lz4", dir);
	f = fopen(a->kernel[0], "w");
	if (f)
		fclose(f);
	f = fopen(a->initrd, "w");
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "%s/i.tools", dir);
	if (tools)
		mkdir(path, 0755);
}

/*
 * The answers of at's agent (initialised, its files given) to req after
 * the topology, in one session in this thread; at is freed.
 */
static char *answers(struct agent_thread *at, const char *req)
{
	char *in = with_topology(req), *out = calloc(1, 8192);
	int down[2], up[2];
	ssize_t n, got = 0;

	if (!in || !out || pipe(down) || pipe(up))
		abort();
	if (write(down[1], in, strlen(in)) != (ssize_t)strlen(in))
		abort();
	close(down[1]);
	at->in = down[0];
	at->out = up[1];
	agent_main(at);
	while ((n = read(up[0], out + got, 8191 - (size_t)got)) > 0)
		got += n;
	close(up[0]);
	close(down[0]);
	remote_agent_fini(&at->a);
	free(at);
	free(in);
	return out;
}

/* One session of a real agent with its files; its answers. */
static char *images_session(const char *files_dir, bool tools,
			    const char *lack)
{
	struct agent_thread *at = calloc(1, sizeof(*at));
	char gone[256];

	if (!at)
		abort();
	/* Its run folders beside its files: one run per session. */
	remote_agent_init(&at->a, &fake_ops, files_dir);
	agent_files(&at->a, files_dir, tools);
	snprintf(gone, sizeof(gone), "%s/%s", files_dir, lack ? lack : "-");
	if (lack)
		unlink(gone);
	return answers(at, "images\nrun far " RUN "\nimages\nbye\n");
}

/* The answer to the second images (after run) of such a session. */
static void images_said(struct fix *f, const char *sub, bool tools,
			const char *lack, const char *want)
{
	char dir[128], *out, *line;

	snprintf(dir, sizeof(dir), "%s/%s", f->dir, sub);
	mkdir(dir, 0755);
	out = images_session(dir, tools, lack);
	line = out;
	for (int i = 0; i < 4 && line; i++)
		line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL;
	if (!line || !strstr(line, want) ||
	    strncmp(line, want, strcspn(want, " ")))
		unit_fail(__FILE__, __LINE__, "%s: got \"%s\", want \"%s\"",
			  sub, out, want);
	free(out);
}

TEST(the_agent_names_its_own_guest_files)
{
	struct fix f;
	char want[512], dir[128], *out;

	CHECK_INT(fix_init(&f), 0);
	snprintf(dir, sizeof(dir), "%s/own", f.dir);
	CHECK_INT(mkdir(dir, 0755), 0);
	out = images_session(dir, true, NULL);
	/* Before a run: whose nodes is not known yet. No debug kernel
	 * there, and none of its nodes boots one: "-". */
	snprintf(want, sizeof(want), "ok %s/i.cpio.lz4 %s/i.tools %s/k - - -",
		 dir, dir, dir);
	{
		const char *lines[] = { "ok mstlab-agent", "ok split",
			"err images: say which host this is first", "ok /tmp/test_remote",
			want, "ok", NULL };

		expect_lines(out, lines);
	}
	free(out);
	/* No tools share: "-". */
	snprintf(want, sizeof(want), "ok %s/notools/i.cpio.lz4 - %s/notools/k "
		 "- - -", f.dir, f.dir);
	images_said(&f, "notools", false, NULL, want);
	/* A file its nodes need and it lacks: an err naming it. */
	snprintf(want, sizeof(want), "err no guest kernel at %s/nok/k: build "
		 "it with 'make kernel'", f.dir);
	images_said(&f, "nok", true, "k", want);
	snprintf(want, sizeof(want), "err no guest initramfs at "
		 "%s/noi/i.cpio.lz4", f.dir);
	images_said(&f, "noi", true, "i.cpio.lz4", want);
	/* Its files where no path may go: not named at all. */
	images_said(&f, "a,b", true, NULL, "err this host's initramfs ");
	fix_fini(&f);
}

/* A client against canned answers: hello's, then line, asked by ask. */
static int answered(const char *line, struct remote *rc, struct errbuf *err,
		    int (*ask)(struct remote *rc, struct errbuf *err))
{
	int down[2], up[2], r;
	char buf[512];

	if (pipe(down) || pipe(up))
		return -9;
	snprintf(buf, sizeof(buf), "ok mstlab-agent 4 x\n%s\n", line);
	if (write(up[1], buf, strlen(buf)) != (ssize_t)strlen(buf))
		return -9;
	memset(rc, 0, sizeof(*rc));
	r = remote_begin(rc, "far", down[1], up[0], err);
	if (!r)
		r = ask(rc, err);
	close(up[1]);
	close(down[0]);
	remote_stop(rc);
	return r;
}

static int images_from(const char *line, struct remote *rc,
		       struct errbuf *err)
{
	return answered(line, rc, err, remote_images);
}

TEST(the_controller_takes_no_hostile_images_answer)
{
	struct remote rc;
	struct errbuf err;

	CHECK_INT(images_from("ok /srv/i /srv/t /srv/k - - -", &rc, &err), 0);
	CHECK_STR(rc.images.kernel[0], "/srv/k");
	CHECK_STR(rc.images.tools, "/srv/t");
	CHECK_INT(images_from("ok ../../i - /srv/k - - -", &rc, &err), -1);
	CHECK_STR(err.msg, "host far: its initramfs '../../i' is no absolute "
		  "path of A-Z a-z 0-9 / . _ + - (at most 255 bytes, no '.' "
		  "or '..')");
	CHECK_STR(rc.images.initrd, "");
	CHECK_INT(images_from("ok /i - /k,file=/etc/shadow - - -", &rc, &err), -1);
	CHECK(strstr(err.msg, "its default kernel '/k,file=/etc/shadow'"));
	CHECK_INT(images_from("err no guest initramfs at /x/i", &rc, &err), -1);
	CHECK_STR(err.msg, "host far: no guest initramfs at /x/i");
	CHECK_INT(images_from("ok", &rc, &err), -1);
	CHECK(strstr(err.msg, "host far: an images answer is ok INITRD"));
}

/* ---- another host's templates ---- */

static int tpl_answer(const char *line, char *key, char *ram,
		      struct errbuf *why)
{
	struct remote_msg m;

	if (remote_parse_answer(line, strlen(line), &m, why))
		return -2;
	return remote_template_parse(&m, key, ram, why);
}

static void tpl_refused(const char *line, const char *want)
{
	char key[TPL_KEY_LEN + 1], ram[REMOTE_PATH_MAX];
	struct errbuf why = { "" };
	int rc = tpl_answer(line, key, ram, &why);

	if (rc == 0 || !strstr(why.msg, want) || key[0] || ram[0])
		unit_fail(__FILE__, __LINE__, "'%s': rc %d, \"%s\", want \"%s\"",
			  line, rc, why.msg, want);
}

TEST(a_template_answer_names_files_of_its_key_in_one_folder)
{
	char key[TPL_KEY_LEN + 1], ram[REMOTE_PATH_MAX];
	struct errbuf why;

	CHECK_INT(tpl_answer("ok 0123456789abcdef /c/t/0123456789abcdef/ram "
			     "/c/t/0123456789abcdef/state", key, ram, &why), 0);
	CHECK_STR(key, "0123456789abcdef");
	CHECK_STR(ram, "/c/t/0123456789abcdef/ram");
	tpl_refused("ok 0123456789abcdef /c/0123456789abcdef/ram",
		    "ok KEY RAM STATE");
	tpl_refused("ok 0123456789ABCDEF /c/0123456789ABCDEF/ram "
		    "/c/0123456789ABCDEF/state", "is no template key");
	tpl_refused("ok 0123456789abcde /c/0123456789abcde/ram "
		    "/c/0123456789abcde/state", "is no template key");
	/* Another file than the template's, or out of the key's folder. */
	tpl_refused("ok 0123456789abcdef /etc/shadow /c/0123456789abcdef/state",
		    "are not its RAM and state");
	tpl_refused("ok 0123456789abcdef /c/0123456789abcdef/ram "
		    "/d/0123456789abcdef/state", "are not its RAM and state");
	tpl_refused("ok 0123456789abcdef /c/x0123456789abcdef/ram "
		    "/c/x0123456789abcdef/state", "are not its RAM and state");
	tpl_refused("ok 0123456789abcdef /c/0123456789abcdef/ram "
		    "/c/0123456789abcdef/ram", "are not its RAM and state");
	tpl_refused("ok 0123456789abcdef /c/../0123456789abcdef/ram "
		    "/c/../0123456789abcdef/state", "is no absolute path");
	tpl_refused("ok 0123456789abcdef c/0123456789abcdef/ram "
		    "c/0123456789abcdef/state", "is no absolute path");
	tpl_refused("ok 0123456789abcdef /c,x/0123456789abcdef/ram "
		    "/c,x/0123456789abcdef/state", "is no absolute path");
}

TEST(templates_are_built_for_the_agents_own_nodes_only)
{
	/* sw1 is local's; no template asked, no clone loaded; this agent
	 * (no files, no libvirt) builds none. Nothing is done. */
	refused("template sw1 qemu\n", "sw1 is no node of lab split on this "
		"host");
	refused("template nosuch qemu\n", "nosuch is no node of lab split");
	refused("template sw3 xen\n", "template NODE qemu|kvm, not 'xen'");
	refused("template sw3 qemu\n", "this agent knows no guest files");
	refused("template sw3\n", "usage: template NODE qemu|kvm");
	refused("clone sw3\n", "sw3: ask for its template first");
	refused("clone sw1\n", "sw1 is no node of lab split on this host");
	refused("awaken sw3\n", "sw3: no clone of it is loaded");
}

/* A fake of the agent's templates: calls recorded, key fixed. */
static int ft_ensure(void *ctx, const struct plan *p,
		     const struct plan_params *pp, const char *cache, int node,
		     FILE *log, char key[TPL_KEY_LEN + 1], struct errbuf *err)
{
	(void)ctx;
	if (!strcmp(p->topo->nodes[node].name, "sw4"))
		return errbuf_set(err, "sw4 did not wait for an identity");
	fprintf(log, "template 00112233aabbccdd (as %s): building\n",
		p->topo->nodes[node].name);
	callc(NULL, "ensure %s %s %s %s\n", p->topo->nodes[node].name,
	      pp->initrd, cache, pp->overlay_root ? pp->overlay_root : "-");
	strcpy(key, "00112233aabbccdd");
	return 0;
}

static int ft_load(void *ctx, const char *domain, const char *state,
		   struct errbuf *err)
{
	(void)ctx;
	(void)err;
	callc(NULL, "load %s %s\n", domain, state);
	return 0;
}

static int ft_awaken(void *ctx, const struct plan *p, int node, int chan,
		     struct errbuf *err)
{
	(void)ctx;
	(void)err;
	callc(NULL, "awaken %s %d\n", p->topo->nodes[node].name, chan >= 0);
	return 0;
}

static int fc_connect(void *ctx, const char *path, struct errbuf *err)
{
	(void)ctx;
	(void)err;
	callc(NULL, "connect %s\n", strrchr(path, '/') + 1);
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static void fc_close(void *ctx, int fd)
{
	(void)ctx;
	callc(NULL, "close\n");
	close(fd);
}

static const struct chan_ops fake_chan = { .connect = fc_connect,
					   .close = fc_close };
static const struct agent_tpl fake_tpl = {
	.ensure = ft_ensure, .load = ft_load, .awaken = ft_awaken,
	.chan = &fake_chan,
};

static const struct agent_tpl *fake_tpl_ops(void *ctx, struct errbuf *err)
{
	(void)ctx;
	(void)err;
	return &fake_tpl;
}

/* A session of an agent with its files and the fake templates, its
 * cache cache; its answers. */
static enum plan_virt (*session_virt)(const struct remote_agent *a);

static char *tpl_session(const char *dir, const char *cache, const char *req)
{
	struct agent_thread *at = calloc(1, sizeof(*at));

	if (!at)
		abort();
	remote_agent_init(&at->a, &fake_ops, dir);
	agent_files(&at->a, dir, false);
	at->a.tpl_ops = fake_tpl_ops;
	at->a.virt = session_virt;
	snprintf(at->a.tpl_cache, sizeof(at->a.tpl_cache), "%s", cache);
	return answers(at, req);
}

TEST(the_agent_builds_loads_and_awakens_its_nodes_clones)
{
	struct fix f;
	char dir[72], cache[88], want[3][512], *out;
	const char *lines[] = { "ok mstlab-agent", "ok split",
		"ok /tmp/test_remote",
		"info template 00112233aabbccdd (as sw3): building", want[0],
		"err sw4 did not wait for an identity",
		"err sw4: ask for its template first",
		"ok", "err sw3 is loaded already", "ok",
		"err sw3: no clone of it is loaded", "ok", NULL };

	CHECK_INT(fix_init(&f), 0);
	snprintf(dir, sizeof(dir), "%s/t", f.dir);
	CHECK_INT(mkdir(dir, 0755), 0);
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	out = tpl_session(dir, cache, "run far " RUN "\ntemplate sw3 kvm\n"
			  "template sw4 qemu\nclone sw4\nclone sw3\nclone sw3\n"
			  "awaken sw3\nawaken sw3\nbye\n");
	snprintf(want[0], sizeof(want[0]), "ok 00112233aabbccdd "
		 "%s/00112233aabbccdd/ram %s/00112233aabbccdd/state", cache,
		 cache);
	expect_lines(out, lines);
	/* Built from its own files into its own cache; the clone's
	 * channel in its run folder, its template's state loaded into
	 * its domain; awakened on that channel, which is then closed. */
	/* Its template shares an overlay's copy there, as its clones do. */
	snprintf(want[1], sizeof(want[1]), "ensure sw3 %s/i.cpio.lz4 %s "
		 "%s/" RUN "/overlay\nconnect sw3.id\nload mstlab-split-sw3 "
		 "%s/00112233aabbccdd/state\nawaken sw3 1\nclose\n", dir,
		 cache, dir, cache);
	CHECK(strstr(calls, want[1]));
	free(out);
	/* A cache no path may name: the key is not answered at all. */
	calls[0] = 0;
	out = tpl_session(dir, "/tmp/a,b", "attach far " RUN
			  "\ntemplate sw3 qemu\nclone sw3\nbye\n");
	CHECK(strstr(out, "\nerr this host's template RAM file /tmp/a,b/"));
	CHECK(strstr(out, "\nerr sw3: ask for its template first\n"));
	free(out);
	fix_fini(&f);
}

static enum plan_virt kvm_here(const struct remote_agent *a)
{
	callc(NULL, "virt %s\n", a->kernel[0]);
	return PLAN_VIRT_KVM;
}

static enum plan_virt said_virt;

static int ask_virt(struct remote *rc, struct errbuf *err)
{
	return remote_virt(rc, &said_virt, err);
}

TEST(each_host_tells_kvm_from_tcg_by_its_own_test)
{
	struct fix f;
	struct remote rc;
	struct errbuf err;
	char dir[72], cache[88], want[160], *out;
	const char *lines[] = { "ok mstlab-agent", "ok split",
		"err virt: open a run first", "ok /tmp/test_remote", "ok kvm",
		"ok", NULL };

	CHECK_INT(fix_init(&f), 0);
	snprintf(dir, sizeof(dir), "%s/v", f.dir);
	CHECK_INT(mkdir(dir, 0755), 0);
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	calls[0] = 0;
	session_virt = kvm_here;
	out = tpl_session(dir, cache, "virt\nrun far " RUN "\nvirt\nbye\n");
	session_virt = NULL;
	expect_lines(out, lines);
	/* Its test boots its own kernel. */
	snprintf(want, sizeof(want), "virt %s/k\n", dir);
	CHECK(strstr(calls, want));
	free(out);
	out = tpl_session(dir, cache, "attach far " RUN "\nvirt\nbye\n");
	CHECK(strstr(out, "\nerr this agent cannot tell KVM from TCG\n"));
	free(out);
	fix_fini(&f);
	CHECK_INT(answered("ok kvm", &rc, &err, ask_virt), 0);
	CHECK_INT(said_virt, PLAN_VIRT_KVM);
	CHECK_INT(answered("ok qemu", &rc, &err, ask_virt), 0);
	CHECK_INT(said_virt, PLAN_VIRT_QEMU);
	CHECK_INT(answered("ok xen", &rc, &err, ask_virt), -1);
	CHECK_STR(err.msg, "host far: a virt answer is ok kvm|qemu");
	CHECK_INT(answered("ok kvm qemu", &rc, &err, ask_virt), -1);
}

TEST(a_real_agent_process_measures_its_clock_and_hands_back_its_files)
{
	const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
	char prog[256], dir[64] = "/tmp/test_remote.XXXXXX", local[128];
	char path[256];
	char *argv[] = { prog, "agent", "--results", dir, NULL };
	struct remote rc = { 0 };
	struct clock_est e;
	struct errbuf err;
	struct stat sb;

	snprintf(prog, sizeof(prog), "%s/bin/mstlab", build);
	if (access(prog, X_OK))
		SKIP("no build/bin/mstlab (make progs)");
	CHECK(mkdtemp(dir));
	snprintf(local, sizeof(local), "%s/local", dir);
	CHECK_INT(mkdir(local, 0755), 0);
	CHECK_INT(remote_start(&rc, "far", argv, NULL, &err), 0);
	CHECK_INT(remote_open_run(&rc, SPLIT, strlen(SPLIT), RUN, false,
				  &err), 0);
	/* Same machine, same clock: the offset is within its bound. */
	CHECK_INT(remote_clock(&rc, 8, &e, &err), 0);
	CHECK_INT(e.samples, 8);
	CHECK(e.bound > 0 && e.bound < 1000000000);
	CHECK(llabs(e.offset) <= e.bound);
	CHECK_INT(remote_fetch(&rc, local, &err), 1);	/* its state */
	snprintf(path, sizeof(path), "%s/hosts/far/state", local);
	CHECK_INT(stat(path, &sb), 0);
	CHECK_INT(remote_down(&rc, NULL, &err), 0);
	remote_stop(&rc);
	CHECK_INT(rc.pid, 0);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	(void)!system(path);
}

/* Appends n bytes of pattern (by position) to path. */
static void grow(const char *path, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	struct stat sb;
	char buf[4096];

	if (fd < 0 || fstat(fd, &sb)) {
		unit_fail(__FILE__, __LINE__, "cannot grow %s", path);
		return;
	}
	for (size_t done = 0; done < n;) {
		size_t k = n - done < sizeof(buf) ? n - done : sizeof(buf);

		for (size_t i = 0; i < k; i++)
			buf[i] = (char)((sb.st_size + done + i) % 251);
		if (write(fd, buf, k) != (ssize_t)k)
			break;
		done += k;
	}
	close(fd);
}

static bool same_file(const char *a, const char *b)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "cmp -s %s %s", a, b);
	return system(cmd) == 0;
}

struct mirror_arg {
	struct remote *rc;
	const char *far, *local;
	int passes;
	long long got;
};

/* A mirror's passes while the far file grows (another mirrors too). */
static void *mirror_passes(void *arg)
{
	struct mirror_arg *m = arg;
	struct errbuf err;

	for (int i = 0; i < m->passes; i++) {
		long long n = remote_mirror(m->rc, "pcap/link3-sw3.p1-sw4.p1.pcap",
					    m->local, &err);

		if (n < 0) {
			m->got = -1;
			break;
		}
		m->got += n;
		if (m->far)
			grow(m->far, 70000 + (size_t)i * 13);
	}
	return NULL;
}

TEST(a_growing_file_is_read_in_parts_and_mirrored_once)
{
	const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
	char prog[256], dir[64] = "/tmp/test_remote.XXXXXX";
	char far[256], local[256], path[256], *data;
	char *argv[] = { prog, "agent", "--results", dir, NULL };
	struct remote rc[2];
	struct mirror_arg m[2];
	const char *w[2];
	struct remote_msg ans;
	struct errbuf err;
	pthread_t th;
	size_t len;
	struct stat sb;

	snprintf(prog, sizeof(prog), "%s/bin/mstlab", build);
	if (access(prog, X_OK))
		SKIP("no build/bin/mstlab (make progs)");
	CHECK(mkdtemp(dir));
	memset(rc, 0, sizeof(rc));
	for (int i = 0; i < 2; i++) {
		CHECK_INT(remote_start(&rc[i], "far", argv, NULL, &err), 0);
		CHECK_INT(remote_open_run(&rc[i], SPLIT, strlen(SPLIT), RUN,
					  i == 1, &err), 0);
	}
	snprintf(far, sizeof(far), "%s/" RUN "/pcap/link3-sw3.p1-sw4.p1.pcap",
		 dir);
	snprintf(local, sizeof(local), "%s/local.pcap", dir);
	/* Not there yet: an error, the session goes on. */
	CHECK_INT(remote_mirror(&rc[0], "pcap/link3-sw3.p1-sw4.p1.pcap", local,
				&err), -1);
	CHECK(strstr(err.msg, "No such file"));
	CHECK(!rc[0].broken);
	grow(far, 100);
	/* Parts: from an offset, at most MAX, nothing past the end. */
	CHECK_INT(remote_get_at(&rc[0], "pcap/link3-sw3.p1-sw4.p1.pcap", 10, 5,
				&data, &len, &err), 0);
	CHECK_INT(len, 5);
	CHECK(data[0] == 10 && data[4] == 14);
	free(data);
	CHECK_INT(remote_get_at(&rc[0], "pcap/link3-sw3.p1-sw4.p1.pcap", 98,
				1000, &data, &len, &err), 0);
	CHECK_INT(len, 2);
	free(data);
	CHECK_INT(remote_get_at(&rc[0], "pcap/link3-sw3.p1-sw4.p1.pcap", 500,
				1000, &data, &len, &err), 0);
	CHECK_INT(len, 0);
	free(data);
	/* Two mirrors at once, one growing the file between its passes:
	 * together they copy every byte once, in order, whatever their
	 * interleaving. */
	m[0] = (struct mirror_arg){ &rc[0], far, local, 20, 0 };
	m[1] = (struct mirror_arg){ &rc[1], NULL, local, 20, 0 };
	CHECK_INT(pthread_create(&th, NULL, mirror_passes, &m[1]), 0);
	mirror_passes(&m[0]);
	pthread_join(th, NULL);
	CHECK(m[0].got >= 0 && m[1].got >= 0);
	CHECK_INT(remote_mirror(&rc[1], "pcap/link3-sw3.p1-sw4.p1.pcap", local,
				&err) >= 0, 1);
	CHECK(same_file(far, local));
	CHECK_INT(stat(far, &sb), 0);
	CHECK(sb.st_size > 20 * 70000);
	/* More than a chunk at once. */
	grow(far, (1u << 20) * 2 + 3);
	CHECK_INT(remote_mirror(&rc[0], "pcap/link3-sw3.p1-sw4.p1.pcap", local,
				&err), (1u << 20) * 2 + 3);
	CHECK(same_file(far, local));
	CHECK_INT(remote_mirror(&rc[0], "pcap/link3-sw3.p1-sw4.p1.pcap", local,
				&err), 0);
	/* What exec leaves in a far share, removed. */
	snprintf(path, sizeof(path), "%s/" RUN "/share/sw3/exec-42.err", dir);
	grow(path, 1);
	w[0] = "unlink";
	w[1] = "share/sw3/exec-42.err";
	CHECK_INT(remote_call(&rc[0], w, 2, NULL, 0, &ans, &err), 0);
	CHECK_INT(access(path, F_OK), -1);
	CHECK_INT(remote_call(&rc[0], w, 2, NULL, 0, &ans, &err), -1);
	CHECK(strstr(err.msg, "No such file"));
	for (int i = 0; i < 2; i++)
		remote_stop(&rc[i]);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	(void)!system(path);
}

/*
 * A lab's mirror (mirror.h) over a session it is given: what the far
 * capture holds is here when mirror_start returns, what it gains comes
 * within a pass, and the last pass of mirror_stop takes the rest.
 */
TEST(a_mirror_keeps_a_far_capture_here_as_it_grows)
{
	const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
	char prog[256], far[256], local[256], path[256];
	char *argv[] = { prog, "agent", "--results", NULL, NULL };
	struct remote *rcs[TOPO_MAX_HOSTS] = { 0 }, rc;
	struct mirror *m = calloc(1, sizeof(*m));
	struct errbuf err;
	struct stat sb;
	struct fix f;

	snprintf(prog, sizeof(prog), "%s/bin/mstlab", build);
	if (access(prog, X_OK))
		SKIP("no build/bin/mstlab (make progs)");
	CHECK_INT(fix_init(&f), 0);
	argv[3] = f.dir;
	memset(&rc, 0, sizeof(rc));
	CHECK_INT(remote_start(&rc, "far", argv, NULL, &err), 0);
	CHECK_INT(remote_open_run(&rc, SPLIT, strlen(SPLIT), RUN, false,
				  &err), 0);
	/* link3 (sw3-sw4) is captured on far only. */
	CHECK(mirror_needed(f.t, f.p));
	snprintf(far, sizeof(far), "%s/" RUN "/%s", f.dir, f.p->links[2].pcap);
	snprintf(local, sizeof(local), "%s/local/%s", f.dir,
		 f.p->links[2].pcap);
	snprintf(path, sizeof(path), "%s/local", f.dir);
	CHECK_INT(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/local/pcap", f.dir);
	CHECK_INT(mkdir(path, 0755), 0);
	grow(far, 5000);
	rcs[1] = &rc;
	snprintf(path, sizeof(path), "%s/local", f.dir);
	CHECK_INT(mirror_start(m, f.t, f.p, path, rcs, stderr, &err), 0);
	CHECK(same_file(far, local));
	grow(far, 3000);
	for (int i = 0; i < 40 && (stat(local, &sb) || sb.st_size < 8000); i++)
		usleep(50000);
	CHECK(same_file(far, local));
	grow(far, 100);
	mirror_stop(m);
	CHECK(same_file(far, local));
	CHECK_INT(m->bytes, 8100);
	remote_stop(&rc);
	free(m);
	fix_fini(&f);
}

TEST(an_agent_that_dies_is_reported_not_waited_for)
{
	char *argv[] = { "/bin/sh", "-c", "read x; exit 3", NULL };
	char *argv2[] = { "/nonexistent/ssh", NULL };
	struct remote rc = { 0 };
	struct errbuf err;

	CHECK_INT(remote_start(&rc, "far", argv, NULL, &err), -1);
	CHECK(!strncmp(err.msg, "host far: ", 10));
	remote_stop(&rc);
	memset(&rc, 0, sizeof(rc));
	CHECK_INT(remote_start(&rc, "far", argv2, NULL, &err), -1);
	CHECK(strstr(err.msg, "cannot run /nonexistent/ssh"));
}

/* ---- a lab across hosts (lab_hosts.h) on fakes and a real agent ---- */

#include "lab.h"
#include "registry.h"

/* The XML of the last domain started on the far host. */
static char far_xml[16384];

static int h_start(void *c, const char *xml, unsigned flags,
		   struct errbuf *err)
{
	const char *name = strstr(xml, "<name>");

	(void)flags;
	(void)err;
	callc(c, "start %.*s%s\n", (int)strcspn(name + 6, "<"), name + 6,
	      flags & HV_START_PAUSED ? " paused" : "");
	if (!strcmp(c, "far:"))
		snprintf(far_xml, sizeof(far_xml), "%s", xml);
	return 0;
}

static int h_destroy(void *c, const char *name, struct errbuf *err)
{
	(void)err;
	callc(c, "destroy %s\n", name);
	return 0;
}

static int h_running(void *c, const char *name, struct errbuf *err)
{
	(void)c;
	(void)name;
	(void)err;
	return 1;
}

static const struct hv_ops fake_hv = {
	.start = h_start, .destroy = h_destroy, .running = h_running,
};

struct two {
	bool unreachable;
	struct agent_thread *at;
	struct remote rc;
	struct lab_ops local, far;
	struct lab_ops agent_ops;
};

static struct two *two_hosts;

static const struct lab_ops *get_host(void *ctx, const char *name,
				      struct errbuf *err)
{
	struct two *w = ctx;

	if (strcmp(name, "far"))
		return errbuf_set(err, "no host %s", name), NULL;
	if (w->unreachable)
		return errbuf_set(err, "host far: ssh: connect to host "
				  "10.9.0.2 port 22: No route to host"), NULL;
	return &w->far;
}

static long long zero_ms(void *c)
{
	(void)c;
	return 0;
}

/* The far agent stopped, the lab and its folder dir gone. */
static void two_fini(struct two *w, struct lab *l, struct topo *t,
		     const char *dir)
{
	char cmd[128];

	remote_stop(&w->rc);
	pthread_join(w->at->tid, NULL);
	close(w->at->in);
	remote_agent_fini(&w->at->a);
	lab_fini(l);
	topo_free(t);
	free(w->at);
	free(w);
	free(l);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	(void)!system(cmd);
}

TEST(a_lab_across_hosts_goes_up_and_down_on_both)
{
	static const char yaml[] =
		"name: split\n"
		"hosts:\n"
		"  local: { address: 10.9.0.1 }\n"
		"  far: { uri: 'qemu+ssh://10.9.0.2/system', address: 10.9.0.2 }\n"
		"nodes:\n"
		"  sw1: { role: bridge }\n"
		"  sw2: { role: bridge, host: far, overlay: ov }\n"
		"links:\n"
		"  - [sw1:p1, sw2:p1]\n";
	struct two *w = calloc(1, sizeof(*w));
	char dir[64] = "/tmp/test_remote.XXXXXX", path[PATH_MAX + 256], want[PATH_MAX + 64];
	struct topo_error te;
	struct errbuf err = { "" };
	struct topo *t;
	struct lab *l = calloc(1, sizeof(*l));
	const struct plan_link *pl;
	char *log = NULL, *text;
	size_t log_len = 0, len;
	FILE *logf = open_memstream(&log, &log_len), *f;
	int down[2], up[2];

	CHECK(w && l && logf && mkdtemp(dir));
	if (access("/usr/bin/cloud-localds", X_OK))
		SKIP("no cloud-localds (make deps)");
	calls[0] = 0;
	two_hosts = w;
	/* sw2's overlay, a folder of this machine. */
	snprintf(path, sizeof(path), "%s/ov", dir);
	CHECK_INT(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/ov/motd", dir);
	f = fopen(path, "w");
	fputs("far\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/split.yaml", dir);
	f = fopen(path, "w");
	fputs(yaml, f);
	fclose(f);
	CHECK_INT(topo_parse_file(path, &t, &te), 0);
	setenv("MSTLAB_RUNTIME_DIR", dir, 1);
	/* The far host: a real agent (fakes under it) over pipes. */
	w->at = calloc(1, sizeof(*w->at));
	w->agent_ops = (struct lab_ops){ .link = &fake_link,
					 .link_ctx = "far:",
					 .cap = &fake_cap, .cap_ctx = "far:" };
	CHECK(!pipe(down) && !pipe(up));
	snprintf(path, sizeof(path), "%s/far", dir);
	remote_agent_init(&w->at->a, &w->agent_ops, path);
	/* Its own guest files, not this host's (/boot/k, /boot/i). */
	CHECK_INT(mkdir(path, 0755), 0);
	agent_files(&w->at->a, path, true);
	/* KVM there, by its own test; TCG here. */
	w->at->a.virt = kvm_here;
	w->at->in = down[0];
	w->at->out = up[1];
	pthread_create(&w->at->tid, NULL, agent_main, w->at);
	CHECK_INT(remote_begin(&w->rc, "far", down[1], up[0], &err), 0);
	w->local = (struct lab_ops){
		.hv = &fake_hv, .hv_ctx = "local:", .link = &fake_link,
		.link_ctx = "local:", .cap = &fake_cap, .cap_ctx = "local:",
		.now_ms = zero_ms, .host = get_host, .host_ctx = w };
	w->far = (struct lab_ops){
		.hv = &fake_hv, .hv_ctx = "far:", .link = &remote_link_ops,
		.link_ctx = &w->rc, .cap = &remote_capture_ops,
		.cap_ctx = &w->rc, .now_ms = zero_ms, .remote = &w->rc };
	snprintf(path, sizeof(path), "%s/results", dir);
	CHECK_INT(lab_init(l, t, &w->local, path, logf, &err), 0);
	l->pp.kernel[0] = l->pp.kernel[1] = "/boot/k";
	l->pp.initrd = "/boot/i";
	l->boot = LAB_BOOT_COLD;
	l->pp.virt = PLAN_VIRT_QEMU;
	l->virt_auto = true;
	pl = &l->p->links[0];
	if (lab_up(l, &err)) {
		fflush(logf);
		unit_fail(__FILE__, __LINE__, "up: %s\n%s\n%s", err.msg, log,
			  calls);
		return;
	}
	/* Each host has its bridge and its end of the tunnel; the capture
	 * here (an end is here), the far end's there. */
	snprintf(want, sizeof(want), "local:create %s", pl->bridge);
	CHECK(strstr(calls, want));
	snprintf(want, sizeof(want), "far:create %s", pl->bridge);
	CHECK(strstr(calls, want));
	snprintf(want, sizeof(want), "local:tunnel %s %s %u 10.9.0.1 10.9.0.2",
		 pl->tunnel, pl->bridge, (unsigned)pl->vni);
	CHECK(strstr(calls, want));
	snprintf(want, sizeof(want), "far:tunnel %s %s %u 10.9.0.2 10.9.0.1",
		 pl->tunnel, pl->bridge, (unsigned)pl->vni);
	CHECK(strstr(calls, want));
	CHECK(strstr(calls, "local:capture ") && strstr(calls, "far:capture "));
	CHECK(strstr(calls, "local:start mstlab-split-sw1\n"));
	CHECK(strstr(calls, "far:start mstlab-split-sw2\n"));
	/* sw2's domain boots the far host's own files. */
	snprintf(want, sizeof(want), "<kernel>%s/far/k</kernel>", dir);
	CHECK(strstr(far_xml, want));
	snprintf(want, sizeof(want), "<initrd>%s/far/i.cpio.lz4</initrd>", dir);
	CHECK(strstr(far_xml, want));
	snprintf(want, sizeof(want), "<source dir='%s/far/i.tools'/>", dir);
	CHECK(strstr(far_xml, want));
	CHECK(!strstr(far_xml, "/boot/"));
	CHECK(strstr(far_xml, "<domain type='kvm'"));
	/* Its overlay, sent there, is what its domain shares. */
	snprintf(want, sizeof(want), "<source dir='%s/overlay/sw2'/>",
		 w->rc.run_dir);
	CHECK(strstr(far_xml, want));
	snprintf(path, sizeof(path), "%s/overlay/sw2/motd", w->rc.run_dir);
	CHECK_INT(access(path, R_OK), 0);
	fflush(logf);
	CHECK(strstr(log, "mstlab: host far: guests run under KVM\n"));
	snprintf(want, sizeof(want), "mstlab: host far: guest kernel %s/far/k, "
		 "image %s/far/i.cpio.lz4, tools %s/far/i.tools", dir, dir, dir);
	CHECK(strstr(log, want));
	snprintf(want, sizeof(want), "far:setup %s\n",
		 l->p->nodes[1].nic[0].tap);
	CHECK(strstr(calls, want));
	/* Both ends' path MTU asked: 1500 cannot carry a whole frame in a
	 * tunnel, and the log says so. */
	fflush(logf);
	CHECK(strstr(log, "warning: local reaches 10.9.0.2 over an MTU of "
		      "1500: 1500-byte frames in a tunnel need 1550"));
	CHECK(strstr(log, "warning: far reaches 10.9.0.1 over an MTU of 1500"));
	/* Its seed image was put there. */
	snprintf(path, sizeof(path), "%s/seed/sw2.img", w->rc.run_dir);
	CHECK_INT(access(path, R_OK), 0);
	/* A silent failure acts on both hosts. */
	calls[0] = 0;
	CHECK_INT(lab_link_fail(l, 0, TOPO_FAIL_SILENT, &err), 0);
	snprintf(want, sizeof(want), "far:forward %s off",
		 l->p->nodes[1].nic[0].tap);
	CHECK(strstr(calls, want));
	snprintf(want, sizeof(want), "local:forward %s off",
		 l->p->nodes[0].nic[0].tap);
	CHECK(strstr(calls, want));
	/* A host that cannot be reached: said, what is there left, the lab
	 * still registered so that down can be run again. */
	w->unreachable = true;
	CHECK_INT(lab_down("split", l->run_dir, &w->local, logf), -1);
	fflush(logf);
	CHECK(strstr(log, "could not remove domain mstlab-split-sw2 on host "
		      "far: host far: ssh: connect to host"));
	CHECK(strstr(log, "mstlab: host far cannot be reached: host far: ssh"));
	CHECK(registry_find("split", path, sizeof(path)) == 0);
	/* Back: down again cleans it. Down: both domains, each through its
	 * host, then the far part. */
	w->unreachable = false;
	calls[0] = 0;
	CHECK_INT(lab_down("split", l->run_dir, &w->local, logf), 0);
	CHECK(strstr(calls, "local:destroy mstlab-split-sw1"));
	CHECK(strstr(calls, "far:destroy mstlab-split-sw2"));
	snprintf(want, sizeof(want), "far:remove %s", pl->tunnel);
	CHECK(strstr(calls, want));
	snprintf(want, sizeof(want), "far:remove %s", pl->bridge);
	CHECK(strstr(calls, want));
	snprintf(want, sizeof(want), "local:remove %s", pl->tunnel);
	CHECK(strstr(calls, want));
	/* One run folder: the far capture, its state, the clock at both
	 * ends of the run. */
	snprintf(path, sizeof(path), "%s/%s", l->run_dir, pl->pcap_far);
	CHECK_INT(access(path, R_OK), 0);
	snprintf(path, sizeof(path), "%s/hosts/far/state", l->run_dir);
	CHECK_INT(access(path, R_OK), 0);
	snprintf(path, sizeof(path), "%s/clock", l->run_dir);
	f = fopen(path, "r");
	CHECK(f != NULL);
	text = calloc(1, 4096);
	len = fread(text, 1, 4095, f);
	fclose(f);
	CHECK(len > 0 && !strncmp(text, "far start ", 10) &&
	      strstr(text, "\nfar end "));
	free(text);
	CHECK(registry_find("split", path, sizeof(path)) == -1);
	fclose(logf);
	free(log);
	two_fini(w, l, t, dir);
}

/*
 * A lab all on the far host, brought up with boot: its agent (real, its
 * templates the fakes above, its cache cache) over pipes. The log and
 * lab_up's result; the lab torn down after.
 */
static int far_lab_up(const char *name, const char *second,
		      enum lab_boot boot, char **log_out, struct errbuf *err)
{
	char yaml[1024], dir[64] = "/tmp/test_remote.XXXXXX";
	char path[PATH_MAX + 256];
	struct two *w = calloc(1, sizeof(*w));
	struct lab *l = calloc(1, sizeof(*l));
	struct topo_error te;
	struct topo *t;
	char *log = NULL;
	size_t log_len = 0;
	FILE *logf = open_memstream(&log, &log_len), *f;
	int down[2], up[2], rc;

	if (!w || !l || !logf || !mkdtemp(dir) || pipe(down) || pipe(up))
		abort();
	snprintf(yaml, sizeof(yaml),
		 "name: %s\n"
		 "hosts:\n"
		 "  far: { uri: 'qemu+ssh://10.9.0.2/system' }\n"
		 "nodes:\n"
		 "  sw1: { role: bridge, host: far }\n"
		 "  %s: { role: bridge, host: far }\n"
		 "links:\n"
		 "  - [sw1:p1, %s:p1]\n", name, second, second);
	snprintf(path, sizeof(path), "%s/%s.yaml", dir, name);
	f = fopen(path, "w");
	fputs(yaml, f);
	fclose(f);
	if (topo_parse_file(path, &t, &te))
		abort();
	setenv("MSTLAB_RUNTIME_DIR", dir, 1);
	w->at = calloc(1, sizeof(*w->at));
	w->agent_ops = (struct lab_ops){ .link = &fake_link,
					 .link_ctx = "far:",
					 .cap = &fake_cap, .cap_ctx = "far:" };
	snprintf(path, sizeof(path), "%s/far", dir);
	mkdir(path, 0755);
	remote_agent_init(&w->at->a, &w->agent_ops, path);
	agent_files(&w->at->a, path, false);
	w->at->a.tpl_ops = fake_tpl_ops;
	snprintf(w->at->a.tpl_cache, sizeof(w->at->a.tpl_cache), "%s/far/cache",
		 dir);
	w->at->in = down[0];
	w->at->out = up[1];
	pthread_create(&w->at->tid, NULL, agent_main, w->at);
	if (remote_begin(&w->rc, "far", down[1], up[0], err))
		abort();
	w->local = (struct lab_ops){
		.hv = &fake_hv, .hv_ctx = "local:", .link = &fake_link,
		.link_ctx = "local:", .cap = &fake_cap, .cap_ctx = "local:",
		.now_ms = zero_ms, .host = get_host, .host_ctx = w };
	w->far = (struct lab_ops){
		.hv = &fake_hv, .hv_ctx = "far:", .link = &remote_link_ops,
		.link_ctx = &w->rc, .cap = &remote_capture_ops,
		.cap_ctx = &w->rc, .now_ms = zero_ms, .remote = &w->rc };
	snprintf(path, sizeof(path), "%s/results", dir);
	if (lab_init(l, t, &w->local, path, logf, err))
		abort();
	l->pp.kernel[0] = l->pp.kernel[1] = "/boot/k";
	l->pp.initrd = "/boot/i";
	l->boot = boot;
	calls[0] = 0;
	far_xml[0] = 0;
	rc = lab_up(l, err);
	lab_down(name, l->run_dir, &w->local, logf);
	fclose(logf);
	*log_out = log;
	two_fini(w, l, t, dir);
	return rc;
}

/* Where want is in calls (after from), or -1. */
static long at(const char *want, long from)
{
	const char *p = from >= 0 ? strstr(calls + from, want) : NULL;

	return p ? p - calls : -1;
}

TEST(a_far_hosts_nodes_come_from_its_own_templates)
{
	struct errbuf err = { "" };
	char *log;
	long s1, c1, p1, a1;

	if (access("/usr/bin/cloud-localds", X_OK))
		SKIP("no cloud-localds (make deps)");
	/* sw4's template cannot be built there (the fake says so): with
	 * --boot template the up fails before any domain. */
	CHECK_INT(far_lab_up("tpfar", "sw4", LAB_BOOT_TEMPLATE, &log, &err),
		  -1);
	CHECK_STR(err.msg, "host far: sw4 did not wait for an identity");
	CHECK(!strstr(calls, "start "));
	CHECK(strstr(log, "mstlab: far: template 00112233aabbccdd (as sw1): "
		      "building"));
	free(log);
	/* By default that host's nodes then boot cold, said. */
	CHECK_INT(far_lab_up("tpfar", "sw4", LAB_BOOT_AUTO, &log, &err), 0);
	CHECK(strstr(log, "warning: host far: sw4 did not wait for an "
		      "identity: booting cold instead"));
	CHECK(strstr(log, "mstlab: sw1 booting (mstlab-tpfar-sw1)"));
	CHECK(strstr(calls, "far:start mstlab-tpfar-sw1\n"));
	CHECK(!strstr(calls, "load "));
	free(log);
	/* Every far node has one: each starts paused, mapping the far
	 * RAM file, is loaded there, gets its ports, then is awakened. */
	CHECK_INT(far_lab_up("tpfar", "sw2", LAB_BOOT_TEMPLATE, &log, &err),
		  0);
	CHECK(strstr(log, "mstlab: sw1 from template 00112233aabbccdd on host "
		      "far (mstlab-tpfar-sw1)"));
	CHECK(strstr(log, "mstlab: sw2 from template 00112233aabbccdd on host "
		      "far (mstlab-tpfar-sw2)"));
	CHECK(strstr(far_xml, "/far/cache/00112233aabbccdd/ram,share=off"));
	CHECK(strstr(far_xml, "-incoming"));
	/* sw1's calls in order (sw2's run beside them): its one port is
	 * link1's end a, tap ml-<id>t1a. */
	s1 = at("far:start mstlab-tpfar-sw1 paused\n", 0);
	c1 = at("connect sw1.id\n", s1);
	c1 = at("load mstlab-tpfar-sw1 ", c1);
	for (p1 = at("far:setup ml-", c1); p1 >= 0;
	     p1 = at("far:setup ml-", p1 + 1)) {
		size_t len = strcspn(calls + p1, "\n");

		if (len > 3 && !strncmp(calls + p1 + len - 3, "t1a", 3))
			break;
	}
	a1 = at("awaken sw1 1\n", p1);
	CHECK(s1 >= 0 && c1 > s1 && p1 > c1 && a1 > p1);
	CHECK(strstr(calls, "awaken sw2 1\n"));
	free(log);
}

/* ---- what hosts check asks: host, tools, udp-probe ---- */

/* SPLIT with the two hosts' addresses on the loopback, then rest. */
static char *loop_topology(const char *rest)
{
	char yaml[sizeof(SPLIT) + 16], *p;
	size_t len = strlen(SPLIT) + strlen(rest) + 64;
	char *s = malloc(len);

	snprintf(yaml, sizeof(yaml), "%s", SPLIT);
	while ((p = strstr(yaml, "10.9.0."))) {
		memmove(p + 8, p + 7, strlen(p + 7) + 1);
		memcpy(p, "127.0.0.", 8);
	}
	snprintf(s, len, "hello 4\ntopology %zu\n%s%s", strlen(yaml), yaml,
		 rest);
	return s;
}

/* A UDP port free on 127.0.0.1 now. */
static unsigned free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t l = sizeof(a);
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	unsigned port;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(fd, (struct sockaddr *)&a, &l))
		abort();
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

struct probe_sender {
	unsigned port;
	atomic_bool stop;
	int sent;
};

static void *probe_send(void *arg)
{
	struct probe_sender *s = arg;
	char why[160];

	s->sent = host_probe_send("127.0.0.1", "127.0.0.2", s->port,
				  "0123456789abcdef0123", 40, 50, &s->stop, why,
				  sizeof(why));
	return NULL;
}

TEST(the_agent_says_which_host_and_programs_without_a_run)
{
	struct fix f;
	char *in, *out, tools[64];
	int rc;

	CHECK_INT(fix_init(&f), 0);
	in = with_topology("images\nmtu 10.9.0.1\nhost local\nhost sw1\n"
			   "host far\nmtu 10.9.0.1\ntools\nbye\n");
	out = session_str(f.dir, in, &rc);
	CHECK_INT(rc, 0);
	{
		const char *want[] = {
			"ok mstlab-agent 4 ", "ok split",
			"err images: say which host this is first",
			"err mtu: say which host this is first",
			"err 'local' is not one of the lab's other hosts",
			"err 'sw1' is not one of the lab's other hosts",
			"ok", "ok 1500", "ok ", "ok", NULL };

		expect_lines(out, want);
	}
	/* tools: three words, each a path or "-", and no run folder. */
	{
		const char *t = strstr(out, "ok 1500\nok ");
		int n = 0;

		CHECK(t != NULL);
		if (t)
			n = sscanf(t + 8, "ok %63s %63s %63s", tools, tools,
				   tools);
		CHECK_INT(n, 3);
	}
	{
		struct stat sb;
		char path[128];

		snprintf(path, sizeof(path), "%s/" RUN, f.dir);
		CHECK(stat(path, &sb) != 0);
	}
	free(in);
	free(out);
	fix_fini(&f);
}

TEST(udp_probe_listens_on_its_address_for_the_token)
{
	struct probe_sender s = { .port = free_port() };
	pthread_t th;
	struct fix f;
	char *in, *out;
	int rc;

	CHECK_INT(fix_init(&f), 0);
	session_port = s.port;
	in = loop_topology("host far\n"
			   "udp-probe listen 127.0.0.2 0123456789abcdef0123\n"
			   "bye\n");
	CHECK_INT(pthread_create(&th, NULL, probe_send, &s), 0);
	out = session_str(f.dir, in, &rc);
	atomic_store(&s.stop, true);
	pthread_join(th, NULL);
	CHECK_INT(rc, 0);
	{
		const char *want[] = { "ok mstlab-agent 4 ", "ok split", "ok",
				       "ok received 127.0.0.1", "ok", NULL };

		expect_lines(out, want);
	}
	CHECK(s.sent > 0);
	free(in);
	free(out);
	/* Nobody sends: none, after its 2 s. */
	in = loop_topology("host far\n"
			   "udp-probe listen 127.0.0.2 0123456789abcdef0123\n");
	out = session_str(f.dir, in, &rc);
	CHECK(strstr(out, "\nok none\n") != NULL);
	free(in);
	free(out);
	session_port = 0;
	fix_fini(&f);
}

TEST(udp_probe_sends_to_the_other_host_and_says_a_busy_port)
{
	unsigned port = free_port();
	char busy[256], why[160], from[64];
	struct fix f;
	char *in, *out;
	int fd, held, rc;

	CHECK_INT(fix_init(&f), 0);
	session_port = port;
	fd = host_probe_bind("127.0.0.1", port, busy, sizeof(busy), why,
			     sizeof(why));
	CHECK(fd >= 0);
	/* Its own port held by another socket: busy, not a failure. */
	held = host_probe_bind("127.0.0.2", port, busy, sizeof(busy), why,
			       sizeof(why));
	CHECK(held >= 0);
	in = loop_topology("host far\n"
			   "udp-probe send 127.0.0.1 0123456789abcdef0123\n"
			   "udp-probe listen 127.0.0.2 0123456789abcdef0123\n"
			   "bye\n");
	out = session_str(f.dir, in, &rc);
	CHECK_INT(rc, 0);
	{
		const char *want[] = { "ok mstlab-agent 4 ", "ok split", "ok",
				       "ok sent 10", "ok busy ", "ok", NULL };

		expect_lines(out, want);
	}
	CHECK_INT(host_probe_wait(fd, "0123456789abcdef0123", 2000, from,
				  sizeof(from)), 1);
	CHECK_STR(from, "127.0.0.2");
	if (held >= 0)
		close(held);
	free(in);
	free(out);
	session_port = 0;
	fix_fini(&f);
}

TEST(udp_probe_refuses_what_is_not_the_labs)
{
	struct fix f;
	char *in, *out;
	int rc;

	CHECK_INT(fix_init(&f), 0);
	in = with_topology("udp-probe listen 10.9.0.2 0123456789abcdef0123\n"
			   "host far\n"
			   "udp-probe listen 10.9.0.1 0123456789abcdef0123\n"
			   "udp-probe send 10.9.0.2 0123456789abcdef0123\n"
			   "udp-probe send 10.9.0.3 0123456789abcdef0123\n"
			   "udp-probe send 10.9.0.1 0123456789ABCDEF0123\n"
			   "udp-probe send 10.9.0.1 0123\n"
			   "udp-probe shout 10.9.0.1 0123456789abcdef0123\n"
			   "udp-probe listen 10.9.0.2\n"
			   "bye\n");
	out = session_str(f.dir, in, &rc);
	CHECK_INT(rc, 0);
	{
		const char *want[] = {
			"ok mstlab-agent 4 ", "ok split",
			"err udp-probe: say which host this is first", "ok",
			"err 10.9.0.1 is not this host's address (10.9.0.2)",
			"err 10.9.0.2 is the address of no other host of lab "
			"split",
			"err 10.9.0.3 is the address of no other host",
			"err a token is 16-64 lowercase hex digits",
			"err a token is 16-64 lowercase hex digits",
			"err usage: udp-probe listen|send ADDRESS TOKEN",
			"err usage: udp-probe listen|send ADDRESS TOKEN",
			"ok", NULL };

		expect_lines(out, want);
	}
	free(in);
	free(out);
	fix_fini(&f);
}
