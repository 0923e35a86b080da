// SPDX-License-Identifier: MIT
/*
 * mstlab hosts check's verdicts (hosts_check.h): what ssh's exit and
 * words mean, and for each failure the command that fixes it; how an
 * item is printed; and the probe's own parts (host_probe.h) that need
 * no other host: the token, a program's lookup, a busy port.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hosts_check.h"
#include "unit.h"

static const struct topo_host far = {
	.name = "far", .ssh = { .user = "root", .host = "10.9.0.2" },
	.address = "10.9.0.2", .family = AF_INET,
};

static const struct topo_host far_port = {
	.name = "far", .ssh = { .user = "lab", .host = "far.example",
				.port = 2222 },
};

/* What OpenSSH writes for each case (with LogLevel=ERROR too). */
TEST(ssh_exit_and_words_say_what_failed)
{
	CHECK_INT(hc_ssh_classify(0, ""), HC_SSH_OK);
	CHECK_INT(hc_ssh_classify(255, "Host key verification failed.\n"),
		  HC_SSH_HOST_KEY_UNKNOWN);
	CHECK_INT(hc_ssh_classify(255, "No ED25519 host key is known for "
				  "10.9.0.2 and you have requested strict "
				  "checking.\nHost key verification "
				  "failed.\n"), HC_SSH_HOST_KEY_UNKNOWN);
	CHECK_INT(hc_ssh_classify(255, "@@@@\n@    WARNING: REMOTE HOST "
				  "IDENTIFICATION HAS CHANGED!     @\n"
				  "Host key verification failed.\n"),
		  HC_SSH_HOST_KEY_CHANGED);
	CHECK_INT(hc_ssh_classify(255, "root@10.9.0.2: Permission denied "
				  "(publickey).\n"), HC_SSH_AUTH);
	CHECK_INT(hc_ssh_classify(255, "ssh: connect to host 10.9.0.2 port "
				  "22: Connection refused\n"),
		  HC_SSH_UNREACHABLE);
	CHECK_INT(hc_ssh_classify(255, "ssh: connect to host 10.9.0.2 port "
				  "22: No route to host\n"),
		  HC_SSH_UNREACHABLE);
	CHECK_INT(hc_ssh_classify(255, "ssh: Could not resolve hostname "
				  "nowhere: Name or service not known\n"),
		  HC_SSH_UNREACHABLE);
	CHECK_INT(hc_ssh_classify(255, "ssh: connect to host 10.9.0.2 port "
				  "22: Connection timed out\n"),
		  HC_SSH_UNREACHABLE);
	CHECK_INT(hc_ssh_classify(1, "something else\n"), HC_SSH_OTHER);
}

TEST(each_ssh_failure_comes_with_its_fix)
{
	struct host_settings s = { .keyfile = "/home/me/.ssh/lab" };
	struct host_settings none = { 0 };
	struct hc_item it;

	hc_ssh_item(&far, &none, 0, "", &it);
	CHECK_INT(it.v, HC_OK);
	CHECK(strstr(it.seen, "root@10.9.0.2 reached") != NULL);
	CHECK_STR(it.fix, "");

	hc_ssh_item(&far, &none, 255, "Host key verification failed.\n",
		    &it);
	CHECK_INT(it.v, HC_FAIL);
	CHECK(strstr(it.seen, "its host key is not known") != NULL);
	CHECK(strstr(it.seen, "(ssh: Host key verification failed.)"));
	CHECK(!strncmp(it.fix, "ssh-keyscan 10.9.0.2 >> ~/.ssh/known_hosts",
		       41));
	CHECK(strstr(it.fix, "fingerprint") != NULL);

	hc_ssh_item(&far_port, &none, 255, "Host key verification failed.\n",
		    &it);
	CHECK(!strncmp(it.fix, "ssh-keyscan -p 2222 far.example >> ", 35));

	hc_ssh_item(&far, &none, 255, "WARNING: REMOTE HOST IDENTIFICATION "
		    "HAS CHANGED!\nHost key verification failed.\n", &it);
	CHECK_INT(it.v, HC_FAIL);
	CHECK(strstr(it.fix, "ssh-keygen -R 10.9.0.2") != NULL);
	CHECK(strstr(it.fix, "attack") != NULL);

	hc_ssh_item(&far, &s, 255, "root@10.9.0.2: Permission denied "
		    "(publickey).\n", &it);
	CHECK(strstr(it.seen, "refused the login") != NULL);
	CHECK(!strncmp(it.fix, "ssh-copy-id -i /home/me/.ssh/lab "
		       "root@10.9.0.2 ", 46));

	hc_ssh_item(&far, &none, 255, "ssh: connect to host 10.9.0.2 port "
		    "22: Connection refused\n", &it);
	CHECK(strstr(it.seen, "is not reachable") != NULL);
	CHECK(strstr(it.fix, "systemctl enable --now ssh") != NULL);
}

TEST(programs_clock_and_mtu_have_their_verdicts)
{
	struct clock_est e = { .offset = 120000, .bound = 40000,
			       .rtt = 80000 };
	struct hc_item it;

	hc_tool_item("far", HOST_TOOL_TCPDUMP, "/usr/bin/tcpdump", &it);
	CHECK_INT(it.v, HC_OK);
	CHECK_STR(it.seen, "/usr/bin/tcpdump");
	hc_tool_item("far", HOST_TOOL_TCPDUMP, "-", &it);
	CHECK_INT(it.v, HC_FAIL);
	CHECK_STR(it.fix, "on far: apt-get install tcpdump");
	hc_tool_item("local", HOST_TOOL_QEMU, NULL, &it);
	CHECK_STR(it.fix, "on local: apt-get install qemu-system-x86");
	hc_tool_item("local", HOST_TOOL_CLOUD_LOCALDS, NULL, &it);
	CHECK_STR(it.fix, "on local: apt-get install cloud-image-utils");

	hc_clock_item(&e, &it);
	CHECK_INT(it.v, HC_OK);
	CHECK_STR(it.seen, "offset +0.120 ms, within 0.040 ms");
	e.bound = 8000000;
	hc_clock_item(&e, &it);
	CHECK_INT(it.v, HC_WARN);
	e.bound = 40000;
	e.offset = -9000000;
	hc_clock_item(&e, &it);
	CHECK_INT(it.v, HC_WARN);
	CHECK(strstr(it.fix, "chrony") != NULL);

	hc_mtu_item("local", "10.9.0.2", AF_INET, 1600, &it);
	CHECK_INT(it.v, HC_OK);
	hc_mtu_item("local", "10.9.0.2", AF_INET, 1500, &it);
	CHECK_INT(it.v, HC_WARN);
	CHECK(strstr(it.fix, "mtu 1550") != NULL);
	hc_mtu_item("local", "fd00::2", AF_INET6, 1560, &it);
	CHECK_INT(it.v, HC_WARN);
	CHECK(strstr(it.fix, "mtu 1570") != NULL);
}

TEST(udp_4789_blocked_fails_with_the_rule_busy_only_warns)
{
	struct hc_item it;

	hc_udp_item("local", "10.9.0.1", "far", "10.9.0.2", AF_INET,
		    "received 10.9.0.1", &it);
	CHECK_INT(it.v, HC_OK);
	CHECK_STR(it.seen, "a datagram from 10.9.0.1 (local) reached "
		  "10.9.0.2:4789");
	hc_udp_item("local", "10.9.0.1", "far", "10.9.0.2", AF_INET, "none",
		    &it);
	CHECK_INT(it.v, HC_FAIL);
	CHECK(strstr(it.seen, "UDP 4789 is blocked") != NULL);
	CHECK(!strncmp(it.fix, "on far: nft insert rule inet filter input "
		       "ip saddr 10.9.0.1 udp dport 4789 accept", 79));
	CHECK(strstr(it.fix, "iptables -I INPUT -s 10.9.0.1 -p udp --dport "
		     "4789 -j ACCEPT") != NULL);
	hc_udp_item("local", "fd00::1", "far", "fd00::2", AF_INET6, "none",
		    &it);
	CHECK(strstr(it.fix, "input ip6 saddr fd00::1") != NULL);
	CHECK(strstr(it.fix, "ip6tables -I INPUT") != NULL);
	hc_udp_item("local", "10.9.0.1", "far", "10.9.0.2", AF_INET,
		    "busy ml-abcdev2,ml-abcdev3", &it);
	CHECK_INT(it.v, HC_WARN);
	CHECK(strstr(it.seen, "held by VXLAN device ml-abcdev2,ml-abcdev3: "
		     "a lab is up there; not probed") != NULL);
	hc_udp_item("local", "10.9.0.1", "far", "10.9.0.2", AF_INET,
		    "busy -", &it);
	CHECK_INT(it.v, HC_WARN);
	CHECK(strstr(it.seen, "in use by another program") != NULL);
}

TEST(a_report_prints_an_item_a_line_and_fails_on_fail)
{
	struct hc_report *r = calloc(1, sizeof(*r));
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	r->n = 2;
	snprintf(r->item[0].host, sizeof(r->item[0].host), "far");
	snprintf(r->item[0].what, sizeof(r->item[0].what), "tcpdump");
	hc_tool_item("far", HOST_TOOL_TCPDUMP, "/usr/bin/tcpdump",
		     &r->item[0]);
	snprintf(r->item[1].host, sizeof(r->item[1].host), "far");
	snprintf(r->item[1].what, sizeof(r->item[1].what), "qemu");
	hc_tool_item("far", HOST_TOOL_QEMU, "-", &r->item[1]);
	CHECK(hc_failed(r));
	hc_print(r, f);
	fclose(f);
	CHECK_STR(out,
		  "far        tcpdump            ok    /usr/bin/tcpdump\n"
		  "far        qemu               FAIL  no qemu-system-x86_64 "
		  "in the PATH there\n"
		  "                                    fix: on far: apt-get "
		  "install qemu-system-x86\n");
	r->n = 1;
	CHECK(!hc_failed(r));
	free(out);
	free(r);
}

TEST(the_probe_parts_that_need_no_other_host)
{
	char token[HOST_PROBE_TOKEN_MAX + 1], other[HOST_PROBE_TOKEN_MAX + 1];
	char path[4096], busy[64], why[160];
	int fd, again;

	CHECK_INT(host_probe_token(token), 0);
	CHECK_INT(host_probe_token(other), 0);
	CHECK(host_probe_token_ok(token));
	CHECK(strcmp(token, other) != 0);
	CHECK(!host_probe_token_ok("0123456789abcde"));
	CHECK(!host_probe_token_ok("0123456789ABCDEF"));
	CHECK(!host_probe_token_ok("0123456789abcdef;"));
	CHECK(host_which("sh", path, sizeof(path)));
	CHECK(path[0] == '/');
	CHECK(!host_which("no-such-program-here", path, sizeof(path)));
	CHECK_INT(host_probe_bind("10.9.0.300", 4789, busy, sizeof(busy), why,
				  sizeof(why)), -1);
	CHECK_STR(why, "'10.9.0.300' is no IP address");
	fd = host_probe_bind("127.0.0.1", 0, busy, sizeof(busy), why,
			     sizeof(why));
	CHECK(fd >= 0);
	{
		struct sockaddr_in a;
		socklen_t l = sizeof(a);

		getsockname(fd, (struct sockaddr *)&a, &l);
		again = host_probe_bind("127.0.0.1", ntohs(a.sin_port), busy,
					sizeof(busy), why, sizeof(why));
	}
	CHECK_INT(again, -2);
	CHECK(strstr(why, "is in use") != NULL);
	/* Nothing sent: none within its time. */
	CHECK_INT(host_probe_wait(fd, token, 100, path, sizeof(path)), 0);
}
