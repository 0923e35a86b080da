// SPDX-License-Identifier: MIT
/*
 * The event log codec: every kind written by its writer, byte for byte
 * as results folders already recorded have it, and read back by the one
 * parser; bad lines are refused, never a crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events.h"
#include "unit.h"

/* What each writer puts after "<ns> ", in the order written below. */
static const char *const written[] = {
	"run-start ring4",
	"ready 12.346",
	"link-down link4 carrier",
	"link-down link2 silent",
	"link-up link4",
	"converged 1.500",
	"impair link3 delay 20ms loss 1%",
	"probe-start 7 h1 h2 10 200",
	"probe-stop 7",
	"mark before-failure",
	"scenario failover",
	"step 3 exec on h1: ping -c 2 10.0.10.6",
	"step-failed 3",
	"run-end fail",
	"run-end ok",
};

static void write_all(struct events *ev)
{
	events_run_start(ev, "ring4");
	events_ready(ev, 12.3456);
	events_link_down(ev, 1000, 4, TOPO_FAIL_CARRIER);
	events_link_down(ev, 2000, 2, TOPO_FAIL_SILENT);
	events_link_up(ev, 3000, 4);
	events_converged(ev, 1.5);
	events_impair(ev, 3, "20ms", "1%");
	events_probe_start(ev, 7, "h1", "h2", 10, 200);
	events_probe_stop(ev, 7);
	events_mark(ev, "before-failure");
	events_scenario(ev, "failover");
	events_step(ev, 3, "exec on h1: ping -c 2 10.0.10.6");
	events_step_failed(ev, 3);
	events_run_end(ev, true);
	events_run_end(ev, false);
}

TEST(every_kind_is_written_as_recorded_runs_have_it)
{
	char dir[] = "/tmp/mstlab-events-XXXXXX", path[64], line[256];
	struct events ev;
	size_t i = 0;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	CHECK_INT(events_open(&ev, dir), 0);
	write_all(&ev);
	events_close(&ev);
	snprintf(path, sizeof(path), "%s/events", dir);
	f = fopen(path, "r");
	CHECK(f != NULL);
	while (fgets(line, sizeof(line), f) && i < 15) {
		char *sp = strchr(line, ' ');

		CHECK(sp != NULL);
		CHECK(line[strlen(line) - 1] == '\n');
		line[strlen(line) - 1] = 0;
		CHECK_STR(sp + 1, written[i]);
		i++;
	}
	fclose(f);
	CHECK_INT(i, 15);
	unlink(path);
	rmdir(dir);
}

TEST(the_reader_takes_back_what_the_writer_wrote)
{
	char dir[] = "/tmp/mstlab-events-XXXXXX", path[64];
	struct errbuf err;
	struct event *e;
	struct events ev;
	size_t n;

	CHECK(mkdtemp(dir) != NULL);
	CHECK_INT(events_open(&ev, dir), 0);
	write_all(&ev);
	events_close(&ev);
	CHECK_INT(events_read(dir, &e, &n, &err), 0);
	CHECK_INT(n, 15);
	for (size_t i = 0; i < n; i++) {
		CHECK(e[i].args_ok);
		CHECK(e[i].kind != EVENT_OTHER);
		CHECK_STR(event_kind_name(e[i].kind), e[i].word);
	}
	CHECK_INT(e[0].kind, EVENT_RUN_START);
	CHECK_STR(e[0].arg, "ring4");
	CHECK_INT(e[2].ns, 1000);
	CHECK(event_is_link(&e[2]) && e[2].link == 4);
	CHECK_INT(e[2].mode, TOPO_FAIL_CARRIER);
	CHECK_INT(e[3].mode, TOPO_FAIL_SILENT);
	CHECK(e[4].kind == EVENT_LINK_UP && e[4].link == 4);
	CHECK_INT(e[6].link, 3);
	CHECK(e[7].n == 7 && e[7].vid == 10 && e[7].pps == 200);
	CHECK_STR(e[7].from, "h1");
	CHECK_STR(e[7].to, "h2");
	CHECK_INT(e[8].n, 7);
	CHECK_INT(e[11].n, 3);
	CHECK_STR(e[11].arg + e[11].text_at, "exec on h1: ping -c 2 10.0.10.6");
	CHECK_INT(e[12].n, 3);
	free(e);
	snprintf(path, sizeof(path), "%s/events", dir);
	unlink(path);
	rmdir(dir);
	CHECK_INT(events_read(dir, &e, &n, &err), -1);
	CHECK(strstr(err.msg, "/events: ") != NULL);
}

/* A one-way failure is a silent link-down naming the end that went
 * deaf; a reader that knows nothing of it still sees a silent failure. */
TEST(a_oneway_failure_names_its_deaf_end)
{
	char dir[] = "/tmp/mstlab-events-XXXXXX", path[64], line[256] = "";
	struct event e;
	struct events ev;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	CHECK_INT(events_open(&ev, dir), 0);
	events_link_down_oneway(&ev, 5000, 3, "sw2:p1");
	events_close(&ev);
	snprintf(path, sizeof(path), "%s/events", dir);
	f = fopen(path, "r");
	CHECK(f != NULL && fgets(line, sizeof(line), f) != NULL);
	fclose(f);
	CHECK_STR(line, "5000 link-down link3 silent deaf sw2:p1\n");
	CHECK_INT(event_parse(line, &e), 0);
	CHECK(e.args_ok && e.link == 3 && e.mode == TOPO_FAIL_SILENT);
	CHECK_STR(e.deaf, "sw2:p1");
	CHECK_INT(event_parse("6 link-down link3 silent\n", &e), 0);
	CHECK_STR(e.deaf, "");
	unlink(path);
	rmdir(dir);
}

TEST(bad_lines_are_refused_and_odd_ones_kept_as_text)
{
	static const char *const refused[] = {
		"", "\n", "# a comment", "garbage", "0 run-end ok",
		"-5 run-end ok", "12", "12\n", "12 ", "12x run-end",
		"99999999999999999999999 run-end ok",
	};
	struct event e;
	char long_line[EVENT_LINE_MAX * 2];

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		CHECK_INT(event_parse(refused[i], &e), -1);
	/* A kind this build does not know passes as text. */
	CHECK_INT(event_parse("5 reboot sw1 now\n", &e), 0);
	CHECK_INT(e.kind, EVENT_OTHER);
	CHECK_STR(e.word, "reboot");
	CHECK_STR(e.arg, "sw1 now");
	/* A known kind whose arguments do not parse is still that kind. */
	CHECK_INT(event_parse("5 link-down eth0", &e), 0);
	CHECK(e.kind == EVENT_LINK_DOWN && !e.args_ok && e.link == 0);
	CHECK_INT(event_parse("5 probe-start 1 h1", &e), 0);
	CHECK(e.kind == EVENT_PROBE_START && !e.args_ok);
	CHECK_INT(event_parse("5 step-failed x", &e), 0);
	CHECK(!e.args_ok);
	CHECK_INT(event_parse("5 run-end", &e), 0);
	CHECK_STR(e.arg, "");
	/* Over-long words and arguments are cut, not overrun. */
	memset(long_line, 'a', sizeof(long_line) - 1);
	long_line[sizeof(long_line) - 1] = 0;
	memcpy(long_line, "7 ", 2);
	CHECK_INT(event_parse(long_line, &e), 0);
	CHECK_INT(strlen(e.word), EVENT_WORD_MAX - 1);
	memcpy(long_line, "7 mark ", 7);
	CHECK_INT(event_parse(long_line, &e), 0);
	CHECK_INT(e.kind, EVENT_MARK);
	CHECK_INT(strlen(e.arg), EVENT_ARG_MAX - 1);
}
