// SPDX-License-Identifier: MIT
/*
 * mstlab list: the labs of a registry ($MSTLAB_RUNTIME_DIR) as their run
 * folders tell them — nodes, hosts, kernels, how far the run went — and
 * entries that point nowhere said so.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "files.h"
#include "unit.h"

static const char topology[] =
	"name: duo\n"
	"hosts:\n"
	"  local: { address: 192.0.2.1 }\n"
	"  far1:\n"
	"    uri: qemu+ssh://root@192.0.2.2/system\n"
	"    address: 192.0.2.2\n"
	"nodes:\n"
	"  sw1: { role: bridge }\n"
	"  sw2: { role: bridge, host: far1, kernel: debug }\n"
	"links:\n"
	"  - [sw1:p1, sw2:p1]\n";

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fputs(text, f);
	fclose(f);
}

struct registry {
	char top[64], labs[96], run[128];
};

/* A registry with lab duo (run folder with its topology and events)
 * and lab gone (run folder removed). */
static void make_registry(struct registry *r, const char *events)
{
	char link[160];

	snprintf(r->top, sizeof(r->top), "/tmp/mstlab-test-list-XXXXXX");
	CHECK(mkdtemp(r->top) != NULL);
	snprintf(r->labs, sizeof(r->labs), "%s/labs", r->top);
	CHECK(mkdir(r->labs, 0755) == 0);
	snprintf(r->run, sizeof(r->run), "%s/duo-20261207-101010", r->top);
	CHECK(mkdir(r->run, 0755) == 0);
	write_file(r->run, "topology.yaml", topology);
	write_file(r->run, "events", events);
	snprintf(link, sizeof(link), "%s/duo", r->labs);
	CHECK(symlink(r->run, link) == 0);
	snprintf(link, sizeof(link), "%s/gone", r->labs);
	CHECK(symlink("/nonexistent/gone-20261207-101010", link) == 0);
	setenv("MSTLAB_RUNTIME_DIR", r->top, 1);
}

static void drop_registry(struct registry *r)
{
	unsetenv("MSTLAB_RUNTIME_DIR");
	CHECK(files_rm_tree(r->top) == 0);
}

static char *list(const char *opt, int *rc)
{
	char *argv[] = { "mstlab", "list", (char *)opt, NULL };
	char *out, *err;

	out = unit_capture(mstlab_cli, opt ? 3 : 2, argv, rc, &err);
	free(err);
	return out;
}

TEST(list_says_nodes_hosts_kernels_and_state)
{
	struct registry r;
	char *out;
	int rc;

	make_registry(&r, "1000 run-start duo\n2000 ready 3.5\n"
		      "3000 scenario fail-core\n");
	out = list(NULL, &rc);
	CHECK_INT(rc, 0);
	CHECK(strstr(out, "LAB") != NULL);
	CHECK(strstr(out, "duo          scenario fail-core") != NULL);
	CHECK(strstr(out, "local far1") != NULL);
	CHECK(strstr(out, "default debug") != NULL);
	CHECK(strstr(out, r.run) != NULL);
	CHECK(strstr(out, "gone         run folder gone (mstlab down gone)")
	      != NULL);
	free(out);
	out = list("--json", &rc);
	CHECK_INT(rc, 0);
	CHECK(strstr(out, "\"lab\":\"duo\"") != NULL);
	CHECK(strstr(out, "\"nodes\":2") != NULL);
	CHECK(strstr(out, "\"hosts\":[\"local\",\"far1\"]") != NULL);
	CHECK(strstr(out, "\"kernels\":[\"default\",\"debug\"]") != NULL);
	CHECK(strstr(out, "\"state\":\"scenario fail-core\"") != NULL);
	free(out);
	drop_registry(&r);
}

TEST(list_follows_the_run_to_its_end)
{
	struct registry r;
	char *out;
	int rc;

	make_registry(&r, "1000 run-start duo\n");
	out = list(NULL, &rc);
	CHECK(strstr(out, "duo          booting") != NULL);
	free(out);
	write_file(r.run, "events", "1000 run-start duo\n2000 ready 3.5\n");
	out = list(NULL, &rc);
	CHECK(strstr(out, "duo          up ") != NULL);
	free(out);
	write_file(r.run, "events", "1000 run-start duo\n2000 ready 3.5\n"
		   "3000 scenario s\n4000 run-end fail\n");
	out = list(NULL, &rc);
	CHECK(strstr(out, "duo          up (run failed)") != NULL);
	free(out);
	drop_registry(&r);
}

TEST(list_of_no_lab)
{
	char top[] = "/tmp/mstlab-test-list-XXXXXX";
	char *out;
	int rc;

	CHECK(mkdtemp(top) != NULL);
	setenv("MSTLAB_RUNTIME_DIR", top, 1);
	out = list(NULL, &rc);
	CHECK_INT(rc, 0);
	CHECK(strstr(out, "no lab is up on this host") != NULL);
	free(out);
	out = list("--json", &rc);
	CHECK(strcmp(out, "[]\n") == 0);
	free(out);
	out = list("--bogus", &rc);
	CHECK_INT(rc, 2);
	free(out);
	unsetenv("MSTLAB_RUNTIME_DIR");
	rmdir(top);
}
