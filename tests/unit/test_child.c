// SPDX-License-Identifier: MIT
/*
 * Child processes: a process is named for ever by its pid and start
 * time, and one that has exited is gone even before anyone reaps it. A
 * child holds 0, 1 and 2 and nothing else of ours, even where the kernel
 * has no close_range(2).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
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

/*
 * What the caller of a lab may hold when it starts one (issue 45): a lock
 * (flock(1) leaves its file on fd 3 of the command) and a pipe whose end
 * it waits on, neither close-on-exec.
 */
struct held {
	char lock_path[64];
	int lock, pipe[2];
};

static int hold(struct held *h)
{
	snprintf(h->lock_path, sizeof(h->lock_path), "/tmp/test_child-XXXXXX");
	h->lock = mkstemp(h->lock_path);
	if (h->lock < 0 || flock(h->lock, LOCK_EX) || pipe(h->pipe))
		return -1;
	return 0;
}

/* Lets go of them: 0 when no one else holds them (the lock is free, the
 * pipe's read end sees its end at once). */
static int let_go(struct held *h)
{
	int again, rc;
	char c;

	close(h->lock);
	close(h->pipe[1]);
	again = open(h->lock_path, O_RDWR | O_CLOEXEC);
	rc = again < 0 || flock(again, LOCK_EX | LOCK_NB) ? -1 : 0;
	fcntl(h->pipe[0], F_SETFL, O_NONBLOCK);
	if (read(h->pipe[0], &c, 1) != 0)
		rc = -1;
	if (again >= 0)
		close(again);
	close(h->pipe[0]);
	unlink(h->lock_path);
	return rc;
}

/* The descriptors pid holds, as "0 1 2"; self's own listing skipped. */
static void fds_of(pid_t pid, char *out, size_t len)
{
	char dir[64];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	out[0] = 0;
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t n = strlen(out);

		if (e->d_name[0] == '.' ||
		    (pid == getpid() && atoi(e->d_name) == dirfd(d)))
			continue;
		snprintf(out + n, len - n, "%s%s", n ? " " : "", e->d_name);
	}
	closedir(d);
}

/* Waits (up to 2 s) for pid to hold "0 1 2" only; what it holds. A
 * program may open a file of its own for a moment at its start. */
static const char *settled_fds(pid_t pid, char *out, size_t len)
{
	for (int i = 0; i < 200; i++) {
		fds_of(pid, out, len);
		if (!strcmp(out, "0 1 2"))
			break;
		usleep(10000);
	}
	return out;
}

/* The whole check for one started child; 0 or the line it failed on. */
static int child_holds_nothing_of_ours(void)
{
	char *argv[] = { "sleep", "30", NULL };
	char fds[256];
	struct held h;
	pid_t pid;
	int rc = 0;

	if (hold(&h))
		return __LINE__;
	pid = spawn_bg(argv, NULL);
	if (pid < 0)
		return __LINE__;
	if (strcmp(settled_fds(pid, fds, sizeof(fds)), "0 1 2"))
		rc = __LINE__;
	if (let_go(&h))
		rc = rc ? rc : __LINE__;
	proc_stop(pid, proc_start_time(pid), 5000);
	return rc;
}

/* A caller's lock and pipe, open here and not close-on-exec, stay with
 * us: the child has 0, 1 and 2; the lock is free once we let it go, and
 * the pipe ends. */
TEST(a_child_keeps_none_of_our_descriptors)
{
	CHECK_INT(child_holds_nothing_of_ours(), 0);
}

TEST(a_talking_child_holds_its_two_pipes_only)
{
	char *argv[] = { "cat", NULL };
	char fds[256], buf[8] = "";
	int to, from, status;
	struct held h;
	pid_t pid;

	CHECK_INT(hold(&h), 0);
	pid = spawn_pipe(argv, &to, &from, NULL);
	CHECK(pid > 0);
	CHECK_STR(settled_fds(pid, fds, sizeof(fds)), "0 1 2");
	CHECK_INT(write(to, "hi", 2), 2);
	close(to);
	CHECK_INT(read(from, buf, sizeof(buf) - 1), 2);
	CHECK_STR(buf, "hi");
	close(from);
	CHECK_INT(spawn_wait(pid, 5000, &status), 1);
	CHECK_INT(let_go(&h), 0);
}

/* ls lists its own descriptors: 0 to 2, and 3, the folder it reads
 * (ours, from 3 up, would push that further). */
TEST(a_captured_child_holds_0_to_2_and_what_it_opens)
{
	char *argv[] = { "ls", "/proc/self/fd", NULL };
	struct spawn_result r;
	struct held h;

	CHECK_INT(hold(&h), 0);
	CHECK_INT(spawn_capture(argv, "in", NULL, 5000, &r), 0);
	CHECK_STR(r.out, "0\n1\n2\n3\n");
	free(r.out);
	CHECK_INT(let_go(&h), 0);
}

/* What a forked process without exec (guardian, reaper) holds. */
static int fds_kept_in_a_fork(char *fds, size_t len)
{
	int report[2], status, n = 0;
	struct held h;
	pid_t pid;

	if (hold(&h) || pipe2(report, O_CLOEXEC))
		return __LINE__;
	pid = fork();
	if (pid == 0) {
		char mine[256], line[300], null[32] = "";
		int k = fds_keep_only(report[1]);

		fds_of(getpid(), mine, sizeof(mine));
		if (readlink("/proc/self/fd/2", null, sizeof(null) - 1) < 0)
			_exit(1);
		snprintf(line, sizeof(line), "%d %s: %s", k, null, mine);
		_exit(write(k, line, strlen(line)) < 0);
	}
	close(report[1]);
	if (pid > 0) {
		ssize_t r;

		while (n + 1 < (int)len &&
		       (r = read(report[0], fds + n, len - 1 - n)) > 0)
			n += (int)r;
		waitpid(pid, &status, 0);
	}
	fds[n] = 0;
	close(report[0]);
	return pid < 0 || let_go(&h) ? __LINE__ : 0;
}

TEST(a_fork_of_ours_keeps_stdio_on_dev_null_and_one_pipe)
{
	char fds[512];

	CHECK_INT(fds_kept_in_a_fork(fds, sizeof(fds)), 0);
	CHECK_STR(fds, "3 /dev/null: 0 1 2 3");
}

/* The kernel without close_range(2), as a seccomp filter makes it for
 * this process: 0 when the call now fails with ENOSYS. */
static int without_close_range(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_close_range, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -1;
	return syscall(__NR_close_range, 3, ~0U, 0) < 0 && errno == ENOSYS ?
		       0 : -1;
}

/* Where the kernel has no close_range(2), the fallback closes the same. */
TEST(without_close_range_children_keep_nothing_either)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		char fds[512];

		if (without_close_range())
			_exit(100);
		if (child_holds_nothing_of_ours())
			_exit(1);
		if (fds_kept_in_a_fork(fds, sizeof(fds)) ||
		    strcmp(fds, "3 /dev/null: 0 1 2 3"))
			_exit(2);
		_exit(0);
	}
	CHECK(pid > 0);
	CHECK_INT(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 100)
		SKIP("no seccomp filter here to take close_range away");
	CHECK(WIFEXITED(status));
	CHECK_INT(WEXITSTATUS(status), 0);
}

/* mstlab ignores SIGPIPE (libvirt's sockets); its children do not: an
 * ignored signal would survive their exec. */
TEST(a_child_gets_sigpipe_back)
{
	char *argv[] = { "grep", "^SigIgn:", "/proc/self/status", NULL };
	struct spawn_result r;
	unsigned long long ign = ~0ULL;

	signal(SIGPIPE, SIG_IGN);
	CHECK_INT(spawn_capture(argv, NULL, NULL, 5000, &r), 0);
	CHECK(sscanf(r.out, "SigIgn: %llx", &ign) == 1);
	CHECK((ign & (1ULL << (SIGPIPE - 1))) == 0);
	free(r.out);
	signal(SIGPIPE, SIG_DFL);
}
