/* SPDX-License-Identifier: MIT */
/*
 * mstlab serve's connections, before they show the token: who may hold
 * a slot of the server, and for how long. It knows sockets and
 * addresses only (no HTTP): serve_http.c tells it when a connection
 * opens, shows the token, has its request head in, and closes.
 *
 * - a connection that has not shown the token yet is anonymous: at most
 *   SERVE_ANON_PER_ADDR of them per address and SERVE_ANON_MAX in all;
 *   a new one over either bound closes the oldest of its address (or
 *   the oldest of all), never itself: a flood of idle connections
 *   cannot keep a client that holds the token out, it can only make
 *   the flooder's own connections short-lived;
 * - an anonymous connection has SERVE_HEAD_MS for its whole request
 *   head (from its opening, or from the end of its last answer): a
 *   deadline, not an idle timeout, so a byte now and then does not
 *   keep it;
 * - every connection counts against its address's share
 *   (SERVE_MAX_PER_IP), checked when it is accepted.
 * Closing is a shutdown(2) of its socket: libmicrohttpd sees the end
 * at its next read and closes it as if the peer had gone.
 */
#ifndef MSTLAB_SERVE_CONNS_H
#define MSTLAB_SERVE_CONNS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#define SERVE_MAX_CONNS 256
#define SERVE_MAX_PER_IP 96
#define SERVE_ANON_MAX 16
#define SERVE_ANON_PER_ADDR 4
#define SERVE_HEAD_MS 5000

/* One connection (the server's socket context). */
struct serve_conn {
	struct serve_conn *prev, *next;	/* anonymous ones, oldest first */
	int fd;
	unsigned char addr[16];
	int64_t head_by;	/* ms: its head is due; 0: none is */
	bool anon;		/* listed: no token shown yet */
};

/* Connections open per client address (libmicrohttpd 0.9.75's own
 * per-address count leaks under connections abandoned mid-request:
 * the address is then refused for good). */
struct serve_peer {
	unsigned char addr[16];
	unsigned count;		/* 0: a free slot */
};

struct serve_conns {
	struct serve_peer peers[SERVE_MAX_CONNS];
	struct serve_conn *anon, *anon_last;
	unsigned n_anon;
	unsigned open;			/* connections open now */
	unsigned head_ms;		/* 0: SERVE_HEAD_MS */
	unsigned long cut_over;		/* anonymous ones closed: over a cap */
	unsigned long cut_late;		/* anonymous ones closed: head late */
};

/* The address of a peer, as 16 octets (IPv4 mapped into IPv6). */
void serve_addr_key(const struct sockaddr *a, unsigned char key[16]);

/* Whether a new connection from a may be accepted (its address's
 * share). */
bool serve_conns_admit(struct serve_conns *s, const struct sockaddr *a);
/* A connection accepted (fd, from a) at now_ms: anonymous, its head
 * due. NULL: no memory (it is then closed). */
struct serve_conn *serve_conns_open(struct serve_conns *s, int fd,
				    const struct sockaddr *a, int64_t now_ms);
void serve_conns_close(struct serve_conns *s, struct serve_conn *k);
/* It showed the token: no longer anonymous, no deadline. */
void serve_conns_trust(struct serve_conns *s, struct serve_conn *k);
/* Its request head is in; its answer is done (the next head is due,
 * if it is still anonymous). */
void serve_conns_head_in(struct serve_conn *k);
void serve_conns_answered(struct serve_conns *s, struct serve_conn *k,
			  int64_t now_ms);
/* Closes the anonymous connections whose head is late: ms until the
 * next deadline, or -1 if none. */
int serve_conns_expire(struct serve_conns *s, int64_t now_ms);

#endif
