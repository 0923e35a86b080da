// SPDX-License-Identifier: MIT
#include "guest_agent.h"

#include <jansson.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How often the exec status is polled: the probe's resolution. */
#define POLL_MS 50

int agent_ping(const struct lab_ops *ops, const char *domain,
	       struct errbuf *err)
{
	char *reply = NULL;
	int rc = ops->hv->agent(ops->hv_ctx, domain,
				"{\"execute\":\"guest-ping\"}", 2, &reply, err);

	free(reply);
	return rc;
}

/* The guest's shell, with the command's words as its own arguments:
 * user words are never parsed by a shell. */
#define REDIRECT "o=$1 e=$2; shift 2; exec \"$@\" >\"$o\" 2>\"$e\""

char *agent_exec_request(char *const argv[], unsigned timeout_ms,
			 const struct agent_stream *s)
{
	json_t *args = json_array(), *req;
	char secs[16], *text;

	/* The guest kills what overruns: nothing is left running there. */
	snprintf(secs, sizeof(secs), "%u", (timeout_ms + 999) / 1000);
	json_array_append_new(args, json_string("-s"));
	json_array_append_new(args, json_string("KILL"));
	json_array_append_new(args, json_string(secs));
	if (s) {
		json_array_append_new(args, json_string("/bin/sh"));
		json_array_append_new(args, json_string("-c"));
		json_array_append_new(args, json_string(REDIRECT));
		json_array_append_new(args, json_string("sh"));
		json_array_append_new(args, json_string(s->guest_out));
		json_array_append_new(args, json_string(s->guest_err));
	}
	for (size_t i = 0; argv[i]; i++)
		json_array_append_new(args, json_string(argv[i]));
	req = json_pack("{s:s, s:{s:s, s:o, s:b}}", "execute", "guest-exec",
			"arguments", "path", "timeout", "arg", args,
			"capture-output", !s);
	if (req && s && s->input_b64)
		json_object_set_new(json_object_get(req, "arguments"),
				    "input-data", json_string(s->input_b64));
	if (!req)
		return NULL;
	text = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	return text;
}

/* reply's "return" object, or NULL with err set. */
static json_t *parse_return(const char *reply, json_t **root,
			    struct errbuf *err)
{
	json_error_t je;
	json_t *ret;

	*root = json_loads(reply, 0, &je);
	ret = *root ? json_object_get(*root, "return") : NULL;
	if (!json_is_object(ret)) {
		errbuf_set(err, "unexpected agent reply: %.200s",
			   reply);
		return NULL;
	}
	return ret;
}

static char *base64(json_t *obj, const char *key, size_t *len)
{
	const char *in = json_string_value(json_object_get(obj, key));
	size_t n = in ? strlen(in) : 0;
	char *out = malloc(n / 4 * 3 + 4);
	int got;

	*len = 0;
	if (!out)
		return NULL;
	out[0] = 0;
	if (!n)
		return out;
	got = EVP_DecodeBlock((unsigned char *)out, (const unsigned char *)in,
			      (int)n);
	if (got < 0) {
		out[0] = 0;
		return out;
	}
	/* DecodeBlock counts the '=' padding as zero bytes. */
	while (n && in[n - 1] == '=' && got > 0) {
		n--;
		got--;
	}
	out[got] = 0;
	*len = (size_t)got;
	return out;
}

static int status_once(const struct lab_ops *ops, const char *domain,
		       long long pid, struct exec_result *res,
		       struct errbuf *err)
{
	char cmd[128], *reply = NULL;
	json_t *root = NULL, *ret;
	int done = -1;

	snprintf(cmd, sizeof(cmd), "{\"execute\":\"guest-exec-status\","
		 "\"arguments\":{\"pid\":%lld}}", pid);
	if (ops->hv->agent(ops->hv_ctx, domain, cmd, 10, &reply, err))
		return -1;
	ret = parse_return(reply, &root, err);
	if (ret) {
		done = json_is_true(json_object_get(ret, "exited"));
		if (done) {
			json_t *code = json_object_get(ret, "exitcode");

			res->exit_code = json_is_integer(code) ?
					 (int)json_integer_value(code) : -1;
			res->out = base64(ret, "out-data", &res->out_len);
			res->err = base64(ret, "err-data", &res->err_len);
			if (!res->out || !res->err) {
				errbuf_set(err, "out of memory");
				done = -1;
			}
		}
	}
	json_decref(root);
	free(reply);
	return done;
}

/* Starts the request in the guest: its pid, or -1 with err set. */
static long long exec_start(const struct lab_ops *ops, const char *domain,
			    char *req, struct errbuf *err)
{
	char *reply = NULL;
	json_t *root = NULL, *ret;
	long long pid = -1;
	int rc;

	if (!req) {
		errbuf_set(err, "out of memory");
		return -1;
	}
	rc = ops->hv->agent(ops->hv_ctx, domain, req, 10, &reply, err);
	free(req);
	if (rc)
		return -1;
	ret = parse_return(reply, &root, err);
	if (ret && json_is_integer(json_object_get(ret, "pid")))
		pid = json_integer_value(json_object_get(ret, "pid"));
	else if (ret)
		errbuf_set(err, "guest-exec gave no pid");
	json_decref(root);
	free(reply);
	return pid;
}

/* What of host_path is new since *at, to out. */
static void drain_local(const char *host_path, long *at, FILE *out)
{
	FILE *f = fopen(host_path, "re");
	char buf[4096];
	size_t n;

	if (!f)
		return;
	if (fseek(f, *at, SEEK_SET) == 0)
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
			fwrite(buf, 1, n, out);
			*at += (long)n;
		}
	fclose(f);
}

/* What both files hold beyond at[], to s->out and s->err: 0, or -1
 * with err (another host's share out of reach). */
static int drain(const struct agent_stream *s, long at[2], struct errbuf *err)
{
	FILE *to[2] = { s->out, s->err };
	const char *path[2] = { s->host_out, s->host_err };

	for (int i = 0; i < 2; i++) {
		long n = 0;

		if (s->read_at)
			n = s->read_at(s->read_ctx, i, at[i], to[i], err);
		else
			drain_local(path[i], &at[i], to[i]);
		if (n < 0)
			return -1;
		at[i] += n;
		fflush(to[i]);
	}
	return 0;
}

int agent_exec(const struct lab_ops *ops, const char *domain,
	       char *const argv[], unsigned timeout_ms,
	       const struct agent_stream *s, struct exec_result *res,
	       struct errbuf *err)
{
	long long pid, deadline;
	long at[2] = { 0, 0 };
	int rc;

	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
	pid = exec_start(ops, domain, agent_exec_request(argv, timeout_ms, s),
			 err);
	if (pid < 0)
		return -1;
	/* The guest kills it at timeout_ms; allow the agent a margin. */
	deadline = ops->now_ms(ops->clock_ctx) + timeout_ms + 5000;
	while ((rc = status_once(ops, domain, pid, res, err)) == 0) {
		if (ops->now_ms(ops->clock_ctx) > deadline) {
			errbuf_set(err, "%s: '%s' still running "
				   "after %u ms", domain, argv[0], timeout_ms);
			return -1;
		}
		if (s && drain(s, at, err))
			return -1;
		ops->sleep_ms(ops->clock_ctx, POLL_MS);
	}
	if (rc > 0 && s && drain(s, at, err)) {
		exec_result_free(res);
		return -1;
	}
	return rc < 0 ? -1 : 0;
}

void exec_result_free(struct exec_result *res)
{
	free(res->out);
	free(res->err);
	res->out = res->err = NULL;
}
