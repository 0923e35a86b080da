// SPDX-License-Identifier: MIT
#include "mirror.h"

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool mirror_needed(const struct topo *t, const struct plan *p)
{
	for (size_t l = 0; l < t->n_links; l++)
		if (p->links[l].capture_host != TOPO_LOCAL_HOST)
			return true;
	return false;
}

/* The run's topology as this host has it, sent, then its part of the
 * run there attached. */
static int attach_run(struct remote *rc, const char *run_dir,
		      struct errbuf *err)
{
	char path[PATH_MAX + 16], *text = NULL;
	const char *base = strrchr(run_dir, '/');
	struct stat sb;
	int fd, rc2 = -1;

	snprintf(path, sizeof(path), "%s/topology.yaml", run_dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && !fstat(fd, &sb) && sb.st_size > 0 &&
	    sb.st_size <= (1 << 20) && (text = malloc((size_t)sb.st_size)) &&
	    read(fd, text, (size_t)sb.st_size) == sb.st_size)
		rc2 = remote_open_run(rc, text, (size_t)sb.st_size,
				      base ? base + 1 : run_dir, true, err);
	else
		errbuf_set(err, "cannot read %s", path);
	free(text);
	if (fd >= 0)
		close(fd);
	return rc2;
}

/* A session of its own with host h: NULL, said, when out of reach. */
static struct remote *reach(struct mirror *m, unsigned h)
{
	struct remote *rc = calloc(1, sizeof(*rc));
	struct errbuf err;

	if (!rc)
		return NULL;
	rc->to = rc->from = -1;
	if (remote_ssh_argv(rc, m->t, h, &err) ||
	    remote_start(rc, m->t->hosts[h].name, NULL, NULL, &err) ||
	    attach_run(rc, m->run_dir, &err)) {
		if (m->log)
			fprintf(m->log, "mstlab: host %s: its captures are not "
				"followed live: %s\n", m->t->hosts[h].name,
				err.msg);
		remote_stop(rc);
		free(rc);
		return NULL;
	}
	return rc;
}

/* Every capture of another host, what is new of it appended here. */
static void pass(struct mirror *m)
{
	for (size_t l = 0; l < m->t->n_links; l++) {
		const struct plan_link *pl = &m->p->links[l];
		unsigned h = pl->capture_host;
		char local[PATH_MAX + 128];
		struct errbuf err;
		long long got;

		if (h == TOPO_LOCAL_HOST || !m->rc[h] || m->said[h])
			continue;
		snprintf(local, sizeof(local), "%s/%s", m->run_dir, pl->pcap);
		got = remote_mirror(m->rc[h], pl->pcap, local, &err);
		if (got > 0)
			m->bytes += (unsigned long long)got;
		/* Not there yet is no news; a lost agent is, once. */
		if (got < 0 && m->rc[h]->broken) {
			m->said[h] = true;
			if (m->log)
				fprintf(m->log, "mstlab: its captures are no "
					"longer followed live: %s\n", err.msg);
		}
	}
}

static void *loop(void *arg)
{
	struct mirror *m = arg;
	struct pollfd pfd = { .fd = m->wake[0], .events = POLLIN };

	while (poll(&pfd, 1, MIRROR_EVERY_MS) == 0)
		pass(m);
	pass(m);	/* up to the moment it was stopped */
	return NULL;
}

int mirror_start(struct mirror *m, const struct topo *t,
		 const struct plan *p, const char *run_dir,
		 struct remote *const rc[TOPO_MAX_HOSTS], FILE *log,
		 struct errbuf *err)
{
	memset(m, 0, sizeof(*m));
	m->t = t;
	m->p = p;
	m->log = log;
	m->wake[0] = m->wake[1] = -1;
	snprintf(m->run_dir, sizeof(m->run_dir), "%s", run_dir);
	for (size_t l = 0; l < t->n_links; l++) {
		unsigned h = p->links[l].capture_host;

		if (h == TOPO_LOCAL_HOST || m->rc[h] || m->said[h])
			continue;
		m->rc[h] = rc ? rc[h] : (m->own[h] = reach(m, h));
		m->said[h] = !m->rc[h];
	}
	/* What the run holds so far, before anyone reads it: a follower
	 * must not have later frames of other files before these. */
	pass(m);
	if (pipe2(m->wake, O_CLOEXEC)) {
		mirror_stop(m);
		return errbuf_set(err, "no pipe for the captures' mirror");
	}
	if (pthread_create(&m->thread, NULL, loop, m)) {
		mirror_stop(m);
		return errbuf_set(err, "no thread for the captures' mirror");
	}
	m->running = true;
	return 0;
}

void mirror_stop(struct mirror *m)
{
	if (m->running) {
		if (write(m->wake[1], "", 1) != 1)
			pthread_cancel(m->thread);
		pthread_join(m->thread, NULL);
		m->running = false;
	}
	for (int i = 0; i < 2; i++)
		if (m->wake[i] >= 0)
			close(m->wake[i]);
	m->wake[0] = m->wake[1] = -1;
	for (size_t h = 0; h < TOPO_MAX_HOSTS; h++)
		if (m->own[h]) {
			remote_stop(m->own[h]);
			free(m->own[h]);
			m->own[h] = NULL;
		}
	memset(m->rc, 0, sizeof(m->rc));
}
