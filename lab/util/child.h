/* SPDX-License-Identifier: MIT */
/*
 * Child processes without a shell: argv goes to posix_spawnp as is, so no
 * word of user input is ever parsed by a shell. Every child starts the
 * same way (start() in child.c): in its own process group, no signal
 * blocked, holding 0, 1 and 2 as its spawn sets them and nothing else:
 * whatever else is open here, close-on-exec or not, is closed in the
 * child before it runs (docs/security.md, What children inherit).
 */
#ifndef MSTLAB_CHILD_H
#define MSTLAB_CHILD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Starts argv[0] (PATH lookup) with stdin /dev/null and stdout+stderr to
 * log (appended; NULL = /dev/null), in its own process group so a Ctrl-C
 * on the terminal reaches only mstlab, which stops children in order.
 * Returns the pid, or -1 with errno.
 */
pid_t spawn_bg(char *const argv[], const char *log);

/*
 * Starts argv[0] as spawn_bg() does, but talking: *to is a pipe to its
 * stdin, *from one from its stdout (both close-on-exec here); its stderr
 * goes to log (appended; NULL = /dev/null). Returns the pid, or -1 with
 * errno.
 */
pid_t spawn_pipe(char *const argv[], int *to, int *from, const char *log);

/* Runs argv to completion (at most timeout_ms); its exit status, or -1. */
int spawn_run(char *const argv[], const char *log, unsigned timeout_ms);

/* How a spawn_capture() went. */
struct spawn_result {
	int start_errno;	/* why it could not start; 0: it started */
	bool timed_out;		/* killed after timeout_ms */
	int status;		/* as waitpid(2) gives it; -1 if unknown */
	char *out;		/* its stdout, malloc'd, NUL-terminated */
};

/*
 * Runs argv to completion (at most timeout_ms) with input on its stdin
 * (NULL: /dev/null), its stdout captured and its stderr to log (NULL:
 * /dev/null). Both go through temporary files, not pipes, so neither
 * side can block the other. 0 when it exited 0: r->out holds what it
 * wrote (the caller frees it). Otherwise -1, and r says why; when none
 * of r's reasons holds, a temporary file failed (errno).
 */
int spawn_capture(char *const argv[], const char *input, const char *log,
		  unsigned timeout_ms, struct spawn_result *r);

/*
 * For a process forked to live on by itself without exec (a guardian, a
 * reaper): stdin, stdout and stderr become /dev/null, keep (-1: none)
 * moves to 3, close-on-exec, and every other descriptor is closed, so it
 * holds nothing of the process it was forked from (its caller's locks
 * and pipes among them). Returns the descriptor keep now is (3), 0
 * without one, or -1 with errno (then the caller must _exit).
 */
int fds_keep_only(int keep);

/* Waits up to timeout_ms for our child; 1 exited (*status), 0 not yet. */
int spawn_wait(pid_t pid, unsigned timeout_ms, int *status);

/*
 * The process's start time (clock ticks since boot, /proc/PID/stat field
 * 22): with the pid it names one process for ever, so a pid recorded by
 * an earlier run is never mistaken for a new process. 0 if gone, or a
 * zombie (exited, not yet reaped).
 */
uint64_t proc_start_time(pid_t pid);

/* Stops a process that may not be our child: SIGTERM, then SIGKILL after
 * timeout_ms. Only if its start time is still start_time. */
void proc_stop(pid_t pid, uint64_t start_time, unsigned timeout_ms);

/* Does a line of a child's log (console, tcpdump output) contain text? */
bool file_says(const char *path, const char *text);

#endif
