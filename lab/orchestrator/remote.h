/* SPDX-License-Identifier: MIT */
/*
 * This host's side of `mstlab agent` on another host of a lab
 * (agent.h): a session over `ssh HOST mstlab agent` (OpenSSH's
 * client, an argv built from the host's URI and the user's host
 * settings, host_settings.h: no shell here, and only words that need no
 * quoting reach the shell there, topo_safe_word), and
 * the link and capture tables over it. Requests of several threads (a
 * teardown stops captures at once) go one at a time.
 */
#ifndef MSTLAB_REMOTE_H
#define MSTLAB_REMOTE_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "clock_sync.h"
#include "host_settings.h"
#include "ops.h"
#include "plan.h"
#include "remote_proto.h"
#include "template.h"
#include "topo.h"

#define REMOTE_ARGV_MAX 32

struct remote {
	char host[TOPO_HOST_NAME_MAX + 1];
	pid_t pid;
	int to, from;
	bool broken;		/* out of step or gone: every call fails */
	struct remote_reader r;
	pthread_mutex_t lock;
	char run_dir[PATH_MAX];	/* its run folder there */
	struct remote_images images;	/* its guest files (remote_images) */
	FILE *info;		/* its info lines (NULL: dropped) */
	/* argv storage: the user's settings for the host (the libvirt
	 * connection takes them too) */
	struct host_settings settings;
	char port[12];
	char *argv[REMOTE_ARGV_MAX];
};

/*
 * The ssh command line that reaches host h of t and runs its mstlab
 * there as an agent, into rc->argv, with the user's host settings
 * (into rc->settings): 0, or -1 with err (host settings refused, a word
 * that would need quoting on the far shell).
 */
int remote_ssh_argv(struct remote *rc, const struct topo *t, unsigned h,
		    struct errbuf *err);
/* Starts argv (rc->argv when NULL) as the agent of host and says hello;
 * ssh's messages go to log. 0, or -1 with err. */
int remote_start(struct remote *rc, const char *host, char *const argv[],
		 const char *log, struct errbuf *err);
/* The same over descriptors already joined to an agent (tests; pid 0). */
int remote_begin(struct remote *rc, const char *host, int to, int from,
		 struct errbuf *err);
/* bye, then waits for it (killed after 5 s). */
void remote_stop(struct remote *rc);

/*
 * One request of words (each checked to be one: remote_word_ok), with
 * payload after it when plen; the answer's words in ans. Its info lines
 * go to rc->info. 0, or -1 with err ("HOST: why").
 */
int remote_call(struct remote *rc, const char *const words[], size_t n,
		const void *payload, size_t plen, struct remote_msg *ans,
		struct errbuf *err);

/* The topology, then the run: its part of run (this host's run folder's
 * name), new or (attach) up. */
int remote_open_run(struct remote *rc, const char *topology, size_t len,
		    const char *run, bool attach, struct errbuf *err);
/* Its own guest files for its part of the run (a file one of its
 * nodes needs and it lacks is an err), into rc->images: 0, or -1 with
 * err ("HOST: why"). */
int remote_images(struct remote *rc, struct errbuf *err);
/* KVM or TCG there, by its own boot test (the virt verb): 0, or -1
 * with err. */
int remote_virt(struct remote *rc, enum plan_virt *virt, struct errbuf *err);
/*
 * Its template of node (one of its nodes), built there from its own files
 * if its cache has none (its progress lines on log, NULL: dropped): the
 * key, and the path of the template's RAM file there, which its clone's
 * domain maps. 0, or -1 with err.
 */
int remote_template(struct remote *rc, const char *node, enum plan_virt virt,
		    FILE *log, char key[TPL_KEY_LEN + 1],
		    char ram[REMOTE_PATH_MAX], struct errbuf *err);
/*
 * Its answer ("ok KEY RAM STATE") into key and ram: a key of
 * TPL_KEY_LEN lowercase hex digits, and two paths of remote_path_ok in
 * one folder named by the key (DIR/KEY/ram, DIR/KEY/state). 0, or -1
 * with why.
 */
int remote_template_parse(const struct remote_msg *ans,
			  char key[TPL_KEY_LEN + 1], char ram[REMOTE_PATH_MAX],
			  struct errbuf *why);
/* Node's clone there, started paused: its template's state loaded
 * (awaken false), or then resumed and told its identity (true). */
int remote_clone(struct remote *rc, const char *node, bool awaken,
		 struct errbuf *err);
/* A burst of n timestamped exchanges (clock_sync.h) into e. */
int remote_clock(struct remote *rc, unsigned n, struct clock_est *e,
		 struct errbuf *err);
/* A file of its run folder (relative), whole and NUL-terminated in
 * *data (malloc'd), at most max bytes. 0, or -1 with err (absent too). */
int remote_get(struct remote *rc, const char *rel, size_t max, char **data,
	       size_t *len, struct errbuf *err);
/* At most max bytes of it from off (none past its end): 0, or -1. */
int remote_get_at(struct remote *rc, const char *rel, uint64_t off,
		  size_t max, char **data, size_t *len, struct errbuf *err);
/*
 * A file of its run folder that only grows (a capture) mirrored into
 * local: its bytes beyond local's size appended, under an exclusive
 * flock of local, so that mirrors at once neither repeat nor skip a
 * byte. The number appended, or -1 with err (absent there too).
 */
long long remote_mirror(struct remote *rc, const char *rel,
			const char *local, struct errbuf *err);
/* Every file of its run folder into local_dir: captures, consoles and
 * shares in place (captures completed: remote_mirror), the rest under
 * hosts/HOST/. The number fetched, or
 * -1 with err. */
int remote_fetch(struct remote *rc, const char *local_dir,
		 struct errbuf *err);
/* Its teardown by its state file: the resources left, or -1 with err. */
int remote_down(struct remote *rc, FILE *log, struct errbuf *err);

/* ctx: a struct remote. */
extern const struct link_ops remote_link_ops;
extern const struct capture_ops remote_capture_ops;

#endif
