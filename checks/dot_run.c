// SPDX-License-Identifier: MIT
#include "dot_run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"

/* A big lab lays out in well under a second; a hung dot must not hang
 * the verdicts. */
#define DOT_TIMEOUT_MS 20000

extern char **environ;

/* The whole of f from its start, NUL-terminated, or NULL. */
static char *slurp(FILE *f)
{
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[8192];
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	rewind(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	if (fclose(m) || ferror(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Spawns dot with in and out as its stdin and stdout; its status. */
static int run(const char *engine, FILE *in, FILE *out, struct errbuf *err)
{
	char k[64];
	char *argv[] = { "dot", k, "-Tsvg", NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc, status = 0;

	snprintf(k, sizeof(k), "-K%s", engine);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fileno(in), 0);
	posix_spawn_file_actions_adddup2(&fa, fileno(out), 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		errbuf_set(err, "dot: %s (Debian package graphviz)",
			   strerror(rc));
		return -1;
	}
	if (spawn_wait(pid, DOT_TIMEOUT_MS, &status) != 1) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		errbuf_set(err, "dot: no answer in %d s",
			   DOT_TIMEOUT_MS / 1000);
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		errbuf_set(err, "dot: failed (status %d)", status);
		return -1;
	}
	return 0;
}

int dot_run_svg(const char *engine, const char *graph, char **svg,
		struct errbuf *err)
{
	/* Files, not pipes: dot reads all before it writes, and neither
	 * side can block the other. */
	FILE *in = tmpfile(), *out = tmpfile();
	int rc = -1;

	*svg = NULL;
	if (!in || !out) {
		errbuf_set(err, "temporary file: %s", strerror(errno));
		goto done;
	}
	if (fputs(graph, in) == EOF || fflush(in) || fseek(in, 0, SEEK_SET)) {
		errbuf_set(err, "temporary file: %s", strerror(errno));
		goto done;
	}
	if (run(engine, in, out, err))
		goto done;
	*svg = slurp(out);
	if (!*svg)
		errbuf_set(err, "dot: output unreadable");
	rc = *svg ? 0 : -1;
done:
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	return rc;
}
