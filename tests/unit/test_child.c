// SPDX-License-Identifier: MIT
/*
 * Child processes: a process is named for ever by its pid and start
 * time, and one that has exited is gone even before anyone reaps it.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "unit.h"

TEST(a_live_process_has_a_start_time)
{
	CHECK(proc_start_time(getpid()) != 0);
}

/* An orphan's zombie lingers until process 1 reaps it (seconds, in some
 * sandboxes): stopping it must not wait for that. */
TEST(a_zombie_is_gone)
{
	pid_t pid = fork();
	int status;

	if (pid == 0)
		_exit(0);
	CHECK(pid > 0);
	/* Exited, not reaped: wait for the state to say so. */
	for (int i = 0; i < 500 && proc_start_time(pid); i++)
		usleep(10000);
	CHECK_INT(proc_start_time(pid), 0);
	CHECK_INT(waitpid(pid, &status, 0), pid);
	CHECK_INT(proc_start_time(pid), 0);
}

TEST(proc_stop_ends_a_process_and_spares_a_newer_one)
{
	char *argv[] = { "sleep", "30", NULL };
	pid_t pid = spawn_bg(argv, NULL);
	uint64_t start;

	CHECK(pid > 0);
	start = proc_start_time(pid);
	CHECK(start != 0);
	/* Another start time: not the process recorded, left alone. */
	proc_stop(pid, start + 1, 1000);
	CHECK(proc_start_time(pid) == start);
	proc_stop(pid, start, 5000);
	CHECK_INT(proc_start_time(pid), 0);
}
