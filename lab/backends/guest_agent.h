/* SPDX-License-Identifier: MIT */
/*
 * Guest control over qemu-guest-agent (through struct hv_ops): ping, and
 * running a program with its output captured. Commands are argv vectors
 * handed to the agent's guest-exec: no shell unless argv says so.
 */
#ifndef MSTLAB_GUEST_AGENT_H
#define MSTLAB_GUEST_AGENT_H

#include <stddef.h>
#include <stdio.h>

#include "ops.h"

struct exec_result {
	int exit_code;		/* -1 if killed by a signal (or timed out) */
	char *out, *err;	/* NUL-terminated, malloc'd */
	size_t out_len, err_len;
};

/* 0 when the agent answered a guest-ping. */
int agent_ping(const struct lab_ops *ops, const char *domain,
	       struct errbuf *err);

/*
 * A command's output as it comes: the guest writes its stdout and stderr
 * to two files of the lab share (guest_out, guest_err), which the host
 * reads (host_out, host_err) while it runs and copies to out and err.
 * input_b64: what its stdin reads, base64 (NULL: nothing).
 *
 * The share of a node of another host is there: read_at, when set,
 * reads it instead, the bytes of file i (0 its stdout, 1 its stderr)
 * from offset at to f; the number copied (0: none yet, the file absent
 * too), or -1 with err when they cannot be had.
 */
struct agent_stream {
	const char *guest_out, *guest_err, *host_out, *host_err;
	const char *input_b64;
	FILE *out, *err;
	long (*read_at)(void *ctx, int i, long at, FILE *f,
			struct errbuf *err);
	void *read_ctx;
};

/*
 * Runs argv in the guest, killed after timeout_ms (the guest's timeout
 * applet). 0 when it ran (res filled, whatever its exit code). Its output
 * lands in res, or, with s, streams to s->out and s->err.
 */
int agent_exec(const struct lab_ops *ops, const char *domain,
	       char *const argv[], unsigned timeout_ms,
	       const struct agent_stream *s, struct exec_result *res,
	       struct errbuf *err);
void exec_result_free(struct exec_result *res);

/* The JSON of a guest-exec request (malloc'd), exposed for tests. */
char *agent_exec_request(char *const argv[], unsigned timeout_ms,
			 const struct agent_stream *s);

#endif
