// SPDX-License-Identifier: MIT
#include "serve_conns.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

void serve_addr_key(const struct sockaddr *a, unsigned char key[16])
{
	memset(key, 0, 16);
	if (a->sa_family == AF_INET) {
		key[10] = key[11] = 0xff;
		memcpy(key + 12, &((const struct sockaddr_in *)a)->sin_addr, 4);
	} else if (a->sa_family == AF_INET6) {
		memcpy(key, &((const struct sockaddr_in6 *)a)->sin6_addr, 16);
	}
}

/* The slot of a peer (a free one if none: NULL if full). */
static struct serve_peer *peer_slot(struct serve_conns *s,
				    const unsigned char k[16])
{
	struct serve_peer *free_slot = NULL;

	for (size_t i = 0; i < SERVE_MAX_CONNS; i++) {
		if (s->peers[i].count && !memcmp(s->peers[i].addr, k, 16))
			return &s->peers[i];
		if (!s->peers[i].count && !free_slot)
			free_slot = &s->peers[i];
	}
	return free_slot;
}

bool serve_conns_admit(struct serve_conns *s, const struct sockaddr *a)
{
	unsigned char k[16];
	struct serve_peer *p;

	serve_addr_key(a, k);
	p = peer_slot(s, k);
	return p && p->count < SERVE_MAX_PER_IP;
}

static void unlist(struct serve_conns *s, struct serve_conn *k)
{
	if (!k->anon)
		return;
	if (k->prev)
		k->prev->next = k->next;
	else
		s->anon = k->next;
	if (k->next)
		k->next->prev = k->prev;
	else
		s->anon_last = k->prev;
	k->prev = k->next = NULL;
	k->anon = false;
	s->n_anon--;
}

/* Closed by us: libmicrohttpd reads its end and lets it go. */
static void cut(struct serve_conns *s, struct serve_conn *k)
{
	unlist(s, k);
	k->head_by = 0;
	shutdown(k->fd, SHUT_RDWR);
}

/* The oldest anonymous connection (of addr; NULL: of any address)
 * and how many there are. */
static struct serve_conn *oldest(struct serve_conns *s,
				 const unsigned char *addr, unsigned *n)
{
	struct serve_conn *first = NULL;

	*n = 0;
	for (struct serve_conn *k = s->anon; k; k = k->next) {
		if (addr && memcmp(k->addr, addr, 16))
			continue;
		if (!first)
			first = k;
		(*n)++;
	}
	return first;
}

struct serve_conn *serve_conns_open(struct serve_conns *s, int fd,
				    const struct sockaddr *a, int64_t now_ms)
{
	struct serve_conn *k = calloc(1, sizeof(*k)), *old;
	struct serve_peer *p;
	unsigned n;

	if (!k) {
		shutdown(fd, SHUT_RDWR);
		return NULL;
	}
	s->open++;
	k->fd = fd;
	serve_addr_key(a, k->addr);
	p = peer_slot(s, k->addr);
	if (p) {
		memcpy(p->addr, k->addr, 16);
		p->count++;
	}
	/* Over a cap, the oldest goes: the newest is the likeliest to be
	 * a client about to send its request. */
	old = oldest(s, k->addr, &n);
	if (n >= SERVE_ANON_PER_ADDR) {
		cut(s, old);
		s->cut_over++;
	}
	old = oldest(s, NULL, &n);
	if (n >= SERVE_ANON_MAX) {
		cut(s, old);
		s->cut_over++;
	}
	k->anon = true;
	k->prev = s->anon_last;
	if (s->anon_last)
		s->anon_last->next = k;
	else
		s->anon = k;
	s->anon_last = k;
	s->n_anon++;
	k->head_by = now_ms + (s->head_ms ? s->head_ms : SERVE_HEAD_MS);
	return k;
}

void serve_conns_close(struct serve_conns *s, struct serve_conn *k)
{
	struct serve_peer *p;

	if (!k)
		return;
	s->open--;
	unlist(s, k);
	p = peer_slot(s, k->addr);
	if (p && p->count && !memcmp(p->addr, k->addr, 16))
		p->count--;
	free(k);
}

void serve_conns_trust(struct serve_conns *s, struct serve_conn *k)
{
	if (!k)
		return;
	unlist(s, k);
	k->head_by = 0;
}

void serve_conns_head_in(struct serve_conn *k)
{
	if (k)
		k->head_by = 0;
}

void serve_conns_answered(struct serve_conns *s, struct serve_conn *k,
			  int64_t now_ms)
{
	if (k && k->anon)
		k->head_by = now_ms + (s->head_ms ? s->head_ms : SERVE_HEAD_MS);
}

int serve_conns_expire(struct serve_conns *s, int64_t now_ms)
{
	int64_t next = -1;

	for (struct serve_conn *k = s->anon, *n; k; k = n) {
		n = k->next;
		if (!k->head_by)
			continue;
		if (k->head_by <= now_ms) {
			cut(s, k);
			s->cut_late++;
		} else if (next < 0 || k->head_by - now_ms < next) {
			next = k->head_by - now_ms;
		}
	}
	return (int)next;
}
