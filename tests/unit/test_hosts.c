// SPDX-License-Identifier: MIT
/*
 * Labs across hosts, on paper: the hosts: section and host: of a node
 * (every word that may reach another host's shell or paths is checked),
 * and the planner's placement: which host gets which node, link bridge,
 * tunnel (name, VNI) and capture.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host_settings.h"
#include "plan.h"
#include "print.h"
#include "topo.h"
#include "unit.h"

static struct topo *parse_ok(const char *yaml)
{
	struct topo_error e;
	struct topo *t;
	struct errbuf msg;

	if (topo_parse_buffer("t.yaml", yaml, strlen(yaml), &t, &e)) {
		printf("# unexpected error: %s\n",
		       topo_error_format(&e, &msg));
		return NULL;
	}
	return t;
}

/* The message must be "t.yaml:LINE:..." and contain want. */
static void expect_error(const char *yaml, unsigned line, const char *want)
{
	struct topo_error e;
	struct topo *t = (struct topo *)1;
	struct errbuf eb;
	const char *msg;
	char prefix[64];

	CHECK_INT(topo_parse_buffer("t.yaml", yaml, strlen(yaml), &t, &e), -1);
	CHECK(t == NULL);
	msg = topo_error_format(&e, &eb);
	snprintf(prefix, sizeof(prefix), "t.yaml:%u:", line);
	if (strncmp(msg, prefix, strlen(prefix)) != 0 || !strstr(msg, want))
		unit_fail(__FILE__, __LINE__, "got \"%s\", want \"%s...%s\"",
			  msg, prefix, want);
}

#define ERROR_CASE(name, yaml, line, want)                              \
	TEST(name)                                                      \
	{                                                               \
		expect_error(yaml, line, want);                         \
	}

#define URI "qemu+ssh://root@10.9.0.2/system"
/* ring4's bridges, two on each host: two links cross. */
#define SPLIT                                                           \
	"name: split\n"                                                 \
	"hosts:\n"                                                      \
	"  local: { address: 10.9.0.1 }\n"                              \
	"  far:\n"                                                      \
	"    uri: " URI "?mode=legacy&proxy=netcat\n"                    \
	"    address: 10.9.0.2\n"                                       \
	"    results: /var/lib/mstlab\n"                                \
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

TEST(hosts_parse)
{
	struct topo *t = parse_ok(SPLIT);
	const struct topo_host *far;

	CHECK(t);
	CHECK(t->hosts_given);
	CHECK_INT(t->n_hosts, 2);
	CHECK_STR(t->hosts[TOPO_LOCAL_HOST].name, "local");
	CHECK_STR(t->hosts[0].address, "10.9.0.1");
	CHECK_INT(topo_host_find(t, "far"), 1);
	far = &t->hosts[1];
	CHECK_STR(far->ssh.user, "root");
	CHECK_STR(far->ssh.host, "10.9.0.2");
	CHECK_INT(far->ssh.port, 0);
	CHECK_STR(far->uri, URI "?mode=legacy&proxy=netcat");
	CHECK_INT(far->family, AF_INET);
	CHECK_STR(far->results, "/var/lib/mstlab");
	CHECK_INT(t->nodes[0].host, 0);
	CHECK_INT(t->nodes[2].host, 1);
	CHECK(!topo_link_crosses(t, 0));
	CHECK(topo_link_crosses(t, 1));
	CHECK(!topo_link_crosses(t, 2));
	CHECK(topo_link_crosses(t, 3));
	CHECK(topo_host_used(t, 1));
	topo_free(t);
}

/* Without hosts: every node is local, as before there were hosts. */
TEST(no_hosts_section_is_one_host)
{
	struct topo *t = parse_ok("name: t\nnodes:\n  a: { role: bridge }\n"
				  "  b: { role: bridge }\n"
				  "links:\n  - [a:p1, b:p1]\n");

	CHECK(t);
	CHECK(!t->hosts_given);
	CHECK_INT(t->n_hosts, 1);
	CHECK_STR(t->hosts[0].name, "local");
	CHECK(!topo_link_crosses(t, 0));
	topo_free(t);
}

TEST(uri_port_ipv6_and_defaults)
{
	struct topo *t = parse_ok(
		"name: t\nhosts:\n"
		"  local: { address: 'fd00::1' }\n"
		"  v6: { uri: 'qemu+ssh://[fd00::2]:2222/system', "
		"address: 'fd00:0::2' }\n"
		"nodes:\n  a: { role: host }\n  b: { role: host, host: v6 }\n"
		"links:\n  - [a:eth1, b:eth1]\n");

	CHECK(t);
	CHECK_STR(t->hosts[1].ssh.host, "fd00::2");
	CHECK_INT(t->hosts[1].ssh.port, 2222);
	CHECK_STR(t->hosts[1].ssh.user, "");
	/* canonical text: one spelling, one tunnel end */
	CHECK_STR(t->hosts[1].address, "fd00::2");
	CHECK_INT(t->hosts[1].family, AF_INET6);
	CHECK_STR(t->hosts[1].results, "");
	topo_free(t);
}

#define HOSTS_ONE(far) \
	"name: t\nhosts:\n  far: " far "\nnodes:\n  a: { role: host }\n"

ERROR_CASE(err_host_scheme, HOSTS_ONE("{ uri: 'qemu:///system' }"), 3,
	   "its uri must start 'qemu+ssh://'")
ERROR_CASE(err_host_no_uri, HOSTS_ONE("{ address: 10.0.0.2 }"), 3,
	   "a host has no 'uri'")
ERROR_CASE(err_host_session, HOSTS_ONE("{ uri: 'qemu+ssh://h/session' }"), 3,
	   "its uri's path must be /system")
/* A topology's uri runs nothing and names no file: each refusal says
 * where the setting goes, at the parameter (line 3, its column). */
#define URI_ERROR(name, query, column, want)                               \
	ERROR_CASE(name, HOSTS_ONE("{ uri: 'qemu+ssh://h/system?" query   \
				   "' }"), 3, want)                     \
	TEST(name##_col)                                                \
	{                                                               \
		const char *y = HOSTS_ONE("{ uri: 'qemu+ssh://h/system?" \
					  query "' }");                 \
		struct topo_error e;                                    \
		struct topo *t;                                         \
									\
		CHECK_INT(topo_parse_buffer("t.yaml", y, strlen(y), &t,  \
					    &e), -1);                   \
		CHECK_INT(e.mark.col, column);                          \
	}
/* "  far: { uri: '" is 15 characters, "qemu+ssh://h/system?" 20. */
URI_ERROR(err_uri_command, "command=/bin/sh", 36,
	  "may not set command (it names the ssh program run here): set "
	  "ssh_command for h in ~/.config/mstlab/hosts.yaml")
URI_ERROR(err_uri_keyfile, "mode=auto&keyfile=/k/id", 46,
	  "may not set keyfile (it names a key file here): set keyfile for "
	  "h in ~/.config/mstlab/hosts.yaml")
URI_ERROR(err_uri_no_verify, "no_verify=1", 36,
	  "may not set no_verify (it turns ssh's host key check off")
URI_ERROR(err_uri_netcat, "netcat=/tmp/x", 36,
	  "may not set netcat (it names a program run on that host)")
URI_ERROR(err_uri_socket, "socket=/x", 36, "may not set socket")
URI_ERROR(err_uri_known_hosts, "known_hosts=/k", 36,
	  "UserKnownHostsFile in ~/.ssh/config")
URI_ERROR(err_uri_name, "name=qemu:///session", 36, "may not set name")
URI_ERROR(err_uri_unknown, "no_tty=1", 36,
	  "'no_tty' in its uri is no parameter a topology may set (mode "
	  "and proxy only)")
/* libvirt decodes %XX in keys and splits at ';' as at '&'. */
URI_ERROR(err_uri_encoded, "%63ommand=/bin/sh", 36,
	  "'%63ommand' in its uri is no parameter")
URI_ERROR(err_uri_semicolon, "mode=auto;command=/bin/sh", 46,
	  "may not set command")
URI_ERROR(err_uri_proxy_word, "proxy=/bin/sh", 42,
	  "proxy in its uri takes auto, netcat or native")
URI_ERROR(err_uri_mode_word, "mode", 36,
	  "mode in its uri takes auto, legacy or direct")

TEST(uri_no_verify_0_is_libvirts_default)
{
	struct topo *t = parse_ok(
		HOSTS_ONE("{ uri: 'qemu+ssh://h/system?no_verify=0' }"));

	CHECK(t);
	topo_free(t);
}

ERROR_CASE(err_host_uri_user,
	   HOSTS_ONE("{ uri: 'qemu+ssh://-oProxyCommand=x@h/system' }"), 3,
	   "the user in its uri")
ERROR_CASE(err_host_uri_host_option,
	   HOSTS_ONE("{ uri: 'qemu+ssh://-oProxyCommand=x/system' }"), 3,
	   "the host in its uri must be a plain name or address")
ERROR_CASE(err_host_uri_host_percent,
	   HOSTS_ONE("{ uri: 'qemu+ssh://h%2d/system' }"), 3,
	   "the host in its uri must be a plain name or address")
ERROR_CASE(err_host_uri_host_dots,
	   HOSTS_ONE("{ uri: 'qemu+ssh://a..b/system' }"), 3,
	   "the host in its uri must be a plain name or address")
ERROR_CASE(err_host_uri_v6_zone,
	   HOSTS_ONE("{ uri: 'qemu+ssh://[fe80::1%eth0]/system' }"), 3,
	   "is no IPv6 address")
ERROR_CASE(err_host_uri_port,
	   HOSTS_ONE("{ uri: 'qemu+ssh://h:99999/system' }"), 3,
	   "the port in its uri must be 1-65535")
ERROR_CASE(err_host_mstlab,
	   HOSTS_ONE("{ uri: 'qemu+ssh://h/system', mstlab: /tmp/x }"), 3,
	   "host far: a topology may not say which program runs there: set "
	   "mstlab for h in ~/.config/mstlab/hosts.yaml")
ERROR_CASE(err_host_results_relative,
	   HOSTS_ONE("{ uri: 'qemu+ssh://h/system', results: res }"), 3,
	   "results must be an absolute path")
ERROR_CASE(err_host_results_long,
	   HOSTS_ONE("{ uri: 'qemu+ssh://h/system', results: "
		     "/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa }"),
	   3, "the guest agent's socket path must fit 108 bytes")
ERROR_CASE(err_host_address_name,
	   HOSTS_ONE("{ uri: 'qemu+ssh://h/system', address: far.example }"),
	   3, "is no IPv4 or IPv6 address")
ERROR_CASE(err_host_address_multicast,
	   HOSTS_ONE("{ uri: 'qemu+ssh://h/system', address: 239.1.1.1 }"), 3,
	   "is not a unicast address")
ERROR_CASE(err_host_not_map, HOSTS_ONE("qemu+ssh://h/system"), 3,
	   "a host must be a mapping")
ERROR_CASE(err_host_bad_name,
	   "name: t\nhosts:\n  9far: { uri: 'qemu+ssh://h/system' }\n"
	   "nodes:\n  a: { role: host }\n", 3, "host name '9far'")
ERROR_CASE(err_local_with_uri,
	   "name: t\nhosts:\n  local: { uri: 'qemu+ssh://h/system' }\n"
	   "nodes:\n  a: { role: host }\n", 3,
	   "unknown key 'uri' in host local")
ERROR_CASE(err_hosts_same_address,
	   "name: t\nhosts:\n  local: { address: 10.0.0.1 }\n"
	   "  far: { uri: 'qemu+ssh://h/system', address: 10.0.0.1 }\n"
	   "nodes:\n  a: { role: host }\n", 4,
	   "hosts local and far have one address")
ERROR_CASE(err_node_unknown_host,
	   "name: t\nnodes:\n  a: { role: host, host: far }\n", 3,
	   "node a: no host 'far' in hosts: (the lab has no hosts: section)")
ERROR_CASE(err_link_without_address,
	   "name: t\nhosts:\n  far: { uri: 'qemu+ssh://h/system', "
	   "address: 10.0.0.2 }\n"
	   "nodes:\n  a: { role: host }\n  b: { role: host, host: far }\n"
	   "links:\n  - [a:eth1, b:eth1]\n", 8,
	   "link1 joins hosts local and far: a tunnel between them needs "
	   "the address of local")
ERROR_CASE(err_link_families,
	   "name: t\nhosts:\n  local: { address: 10.0.0.1 }\n"
	   "  far: { uri: 'qemu+ssh://h/system', address: 'fd00::2' }\n"
	   "nodes:\n  a: { role: host }\n  b: { role: host, host: far }\n"
	   "links:\n  - [a:eth1, b:eth1]\n", 9,
	   "a tunnel needs two addresses of one family")
/* An overlay of a far node is this machine's folder: sent there at up. */
TEST(overlay_on_far_host_is_this_machines_folder)
{
	struct topo *t = parse_ok("name: t\nhosts:\n  far: { uri: "
				  "'qemu+ssh://h/system' }\nnodes:\n  a: { role: "
				  "host, host: far, overlay: files }\n");
	char want[PATH_MAX + 8];

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(getcwd(want, PATH_MAX) != NULL);
	strcat(want, "/files");
	CHECK_STR(t->nodes[0].overlay, want);
	CHECK_INT(t->nodes[0].host, 1);
	topo_free(t);
}

TEST(err_too_many_hosts)
{
	char yaml[4096] = "name: t\nhosts:\n";

	for (int i = 0; i < TOPO_MAX_HOSTS + 1; i++)
		snprintf(yaml + strlen(yaml), sizeof(yaml) - strlen(yaml),
			 "  h%d: { uri: 'qemu+ssh://h%d/system' }\n", i, i);
	strcat(yaml, "nodes:\n  a: { role: host }\n");
	expect_error(yaml, 3, "more than 16 hosts");
}

/* Which host gets what: taps and domains with their nodes, a bridge on
 * each host a link touches, a tunnel and two captures when it crosses. */
TEST(plan_places_links_on_hosts)
{
	struct topo *t = parse_ok(SPLIT);
	struct plan *p;
	int end;

	CHECK(t);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	/* link1: local only */
	CHECK(!p->links[0].crosses);
	CHECK_STR(p->links[0].tunnel, "");
	CHECK_INT(p->links[0].vni, 0);
	CHECK_INT(p->links[0].capture_host, 0);
	CHECK_STR(p->links[0].pcap_far, "");
	CHECK(plan_link_on_host(p, 0, 0));
	CHECK(!plan_link_on_host(p, 0, 1));
	/* link2 sw2 (local) - sw3 (far): captured here and there */
	CHECK(p->links[1].crosses);
	CHECK_INT(p->links[1].host[0], 0);
	CHECK_INT(p->links[1].host[1], 1);
	CHECK_STR(p->links[1].tunnel, "ml-vungiv2");
	CHECK_INT(p->links[1].capture_host, 0);
	CHECK_INT(p->links[1].far_host, 1);
	CHECK_STR(p->links[1].pcap, "pcap/link2-sw2.p2-sw3.p2.pcap");
	CHECK_STR(p->links[1].pcap_far, "pcap/far/link2-sw2.p2-sw3.p2.pcap");
	/* link3: far only, captured there */
	CHECK(!p->links[2].crosses);
	CHECK_INT(p->links[2].capture_host, 1);
	CHECK(!plan_link_on_host(p, 2, 0));
	/* link4 sw4 (far) - sw1 (local): end b is here, so captured here */
	CHECK_INT(p->links[3].capture_host, 0);
	CHECK_INT(p->links[3].far_host, 1);
	/* One lab, one VNI prefix; the link number below it. */
	CHECK_INT(p->links[3].vni - p->links[1].vni, 2);
	CHECK_INT(p->links[1].vni & 0x3ff, 2);
	CHECK_INT(p->links[1].vni >> 10, p->vni_base);
	CHECK(p->links[1].vni < 1u << 24);
	/* names back to links */
	CHECK_INT(plan_link_of_ifname(p, "ml-vungiv2", &end), 1);
	CHECK_INT(end, -1);
	CHECK_INT(plan_link_of_ifname(p, "ml-vungit4b", &end), 3);
	CHECK_INT(end, 1);
	CHECK_INT(plan_link_of_ifname(p, "ml-vungib3", &end), 2);
	CHECK_INT(plan_link_of_ifname(p, "ml-vungiv1", &end), -1);
	CHECK_INT(plan_link_of_ifname(p, "eth0", &end), -1);
	plan_free(p);
	topo_free(t);
}

/* Known answer: changing the VNI derivation must be deliberate (labs
 * that run side by side on two hosts would collide differently). */
TEST(plan_vni_known_answer)
{
	struct topo *t = parse_ok(SPLIT);
	struct plan *p;

	CHECK(t);
	CHECK_INT(plan_build(t, &p), PLAN_OK);
	CHECK_INT(p->vni_base, 0x57f);
	CHECK_INT(p->links[1].vni, 0x57f << 10 | 2);
	plan_free(p);
	topo_free(t);
}

static char *plan_text(const char *yaml, bool json)
{
	struct topo *t = parse_ok(yaml);
	struct plan *p;
	struct printer pr;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!t || plan_build(t, &p)) {
		fclose(f);
		free(buf);
		topo_free(t);
		return NULL;
	}
	print_init(&pr, f, json);
	plan_print(p, &pr);
	fclose(f);
	plan_free(p);
	topo_free(t);
	return buf;
}

/* plan says which host gets what; a lab without hosts: prints as it
 * always did (no word of hosts). */
TEST(plan_print_shows_hosts)
{
	char *text = plan_text(SPLIT, false), *json = plan_text(SPLIT, true);
	char *one = plan_text("name: t\nnodes:\n  a: { role: bridge }\n", true);

	CHECK(text && json && one);
	CHECK(strstr(text, "node sw3") && strstr(text, " host far\n"));
	CHECK(strstr(text, "on local-far captured on local tunnel ml-vungiv2"));
	CHECK(strstr(json, "\"host\":\"far\""));
	CHECK(strstr(json, "\"tunnel\":\"ml-vungiv2\""));
	CHECK(strstr(json, "\"pcap_far\":\"pcap/far/link2-sw2.p2-sw3.p2.pcap\""));
	CHECK(strstr(json, "\"name\":\"far\",\"uri\":\"" URI));
	CHECK(!strstr(one, "host"));
	free(text);
	free(json);
	free(one);
}

/* ---- the user's host settings (host_settings.h) ---- */

#define SETTINGS                                                        \
	"# how I reach the lab's hosts\n"                               \
	"10.9.0.2:\n"                                                   \
	"  ssh_command: /k/ssh\n"                                       \
	"  keyfile: /k/id\n"                                            \
	"  mstlab: /opt/mstlab/bin/mstlab\n"                            \
	"Far.Example: { mstlab: mstlab-next }\n"

TEST(host_settings_per_host)
{
	struct host_settings s;
	struct topo_error e;

	CHECK_INT(host_settings_parse("h.yaml", SETTINGS, strlen(SETTINGS),
				      "10.9.0.2", &s, &e), 0);
	CHECK_STR(s.ssh_command, "/k/ssh");
	CHECK_STR(s.keyfile, "/k/id");
	CHECK_STR(s.mstlab, "/opt/mstlab/bin/mstlab");
	/* DNS names in any case; a host it does not name has none. */
	CHECK_INT(host_settings_parse("h.yaml", SETTINGS, strlen(SETTINGS),
				      "far.example", &s, &e), 0);
	CHECK_STR(s.mstlab, "mstlab-next");
	CHECK_STR(s.ssh_command, "");
	CHECK_INT(host_settings_parse("h.yaml", SETTINGS, strlen(SETTINGS),
				      "10.9.0.3", &s, &e), 0);
	CHECK_STR(s.mstlab, "");
	CHECK_INT(host_settings_parse("h.yaml", "", 0, "h", &s, &e), 0);
}

static void settings_error(const char *text, const char *where,
			   const char *want)
{
	struct host_settings s;
	struct topo_error e;
	struct errbuf eb;
	const char *msg;

	CHECK_INT(host_settings_parse("h.yaml", text, strlen(text), "h", &s,
				      &e), -1);
	msg = topo_error_format(&e, &eb);
	if (strncmp(msg, where, strlen(where)) || !strstr(msg, want))
		unit_fail(__FILE__, __LINE__, "got \"%s\", want \"%s...%s\"",
			  msg, where, want);
	CHECK_STR(s.mstlab, "");
}

TEST(host_settings_refused)
{
	settings_error("h:\n  ssh_command: ssh\n", "h.yaml:2:16: ",
		       "ssh_command must be an absolute path of");
	settings_error("h:\n  keyfile: '/k/id;reboot'\n", "h.yaml:2:12: ",
		       "keyfile must be an absolute path");
	settings_error("h:\n  mstlab: 'mstlab; id'\n", "h.yaml:2:11: ",
		       "mstlab must be an absolute path or a program on PATH");
	settings_error("h:\n  no_verify: 1\n", "h.yaml:2:3: ",
		       "unknown key 'no_verify' in a host's settings");
	settings_error("'h h': {}\n", "h.yaml:1:1: ", "a host here is a name");
	settings_error("- h\n", "h.yaml:1:1: ", "must be a mapping");
	settings_error("\xff\xfeh\0:\0", "h.yaml:1:1: ", "UTF-16");
}

static char settings_dir[] = "/tmp/mstlab-hs-XXXXXX";

static void settings_file(const char *text, mode_t mode, char path[64])
{
	FILE *f;

	if (strstr(settings_dir, "XXXXXX"))
		CHECK(mkdtemp(settings_dir) != NULL);
	snprintf(path, 64, "%s/hosts.yaml", settings_dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fputs(text, f);
	fclose(f);
	CHECK_INT(chmod(path, mode), 0);
}

/* It says which programs run: its owner's alone. */
TEST(host_settings_file_must_be_the_users)
{
	struct host_settings s;
	char path[64];
	struct topo_error e;
	struct errbuf eb;

	settings_file(SETTINGS, 0644, path);
	CHECK_INT(host_settings_load(path, "10.9.0.2", &s, &e), 0);
	CHECK_STR(s.keyfile, "/k/id");
	CHECK_INT(chmod(path, 0664), 0);
	CHECK_INT(host_settings_load(path, "10.9.0.2", &s, &e), -1);
	CHECK(strstr(topo_error_format(&e, &eb), "hosts.yaml:1:1: is "
		      "writable by others (mode 0664)"));
	CHECK_STR(s.keyfile, "");
	CHECK_INT(chmod(path, 0600), 0);
	if (geteuid() == 0 && chown(path, 65534, 65534) == 0) {
		CHECK_INT(host_settings_load(path, "10.9.0.2", &s, &e), -1);
		CHECK(strstr(e.msg, "is owned by uid 65534, not by you"));
	}
	unlink(path);
	/* No file: no settings. */
	CHECK_INT(host_settings_load(path, "10.9.0.2", &s, &e), 0);
	CHECK_STR(s.ssh_command, "");
	rmdir(settings_dir);
}

TEST(host_settings_go_into_the_libvirt_uri)
{
	struct topo *t = parse_ok(SPLIT);
	struct host_settings s = { "/k/ssh", "/k/id", "" }, none = { 0 };
	char uri[512];

	CHECK(t);
	if (!t)
		return;
	CHECK_INT(host_settings_uri(&t->hosts[1], &s, uri, sizeof(uri)), 0);
	CHECK_STR(uri, URI "?mode=legacy&proxy=netcat&keyfile=/k/id"
		  "&command=/k/ssh");
	CHECK_INT(host_settings_uri(&t->hosts[1], &none, uri, sizeof(uri)), 0);
	CHECK_STR(uri, URI "?mode=legacy&proxy=netcat");
	strcpy(t->hosts[1].uri, URI);
	s.keyfile[0] = 0;
	CHECK_INT(host_settings_uri(&t->hosts[1], &s, uri, sizeof(uri)), 0);
	CHECK_STR(uri, URI "?command=/k/ssh");
	CHECK_INT(host_settings_uri(&t->hosts[1], &s, uri, 20), -1);
	topo_free(t);
}
