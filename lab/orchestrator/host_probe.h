/* SPDX-License-Identifier: MIT */
/*
 * What a host of a lab can find out about itself for `mstlab hosts
 * check` (hosts_check.h), the same code here and in its agent there:
 * the programs a lab runs on it, found in PATH as the lab will find
 * them, and a probe of the VXLAN port between two hosts' addresses: a
 * UDP socket bound to ADDRESS:4789 for at most a timeout, waiting for a
 * datagram that carries a random token sent from the other host. A
 * kernel VXLAN device (a lab that is up) holds that port: the bind then
 * says so and names the devices instead of probing.
 */
#ifndef MSTLAB_HOST_PROBE_H
#define MSTLAB_HOST_PROBE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/* The programs a lab runs on a host, in this order. */
enum host_tool { HOST_TOOL_QEMU, HOST_TOOL_TCPDUMP, HOST_TOOL_CLOUD_LOCALDS,
		 HOST_TOOLS };
extern const char *const host_tool_name[HOST_TOOLS];

/* name's path in PATH (as posix_spawnp looks: "/bin:/usr/bin" when
 * unset) into out: true, or false when no executable file has it. */
bool host_which(const char *name, char *out, size_t len);

/* A token: 16-64 lowercase hex digits. */
#define HOST_PROBE_TOKEN_MAX 64
bool host_probe_token_ok(const char *token);
/* A new random token of 32 hex digits: 0, or -1 (getrandom). */
int host_probe_token(char out[HOST_PROBE_TOKEN_MAX + 1]);

/*
 * A UDP socket bound to address (numeric, IPv4 or IPv6) and port: its
 * descriptor; -1 with why, or -2 when the port is held there already
 * (EADDRINUSE), with the VXLAN devices of this host in busy
 * (comma-separated, "" for none).
 */
int host_probe_bind(const char *address, unsigned port, char *busy,
		    size_t busy_len, char *why, size_t why_len);
/* Waits up to timeout_ms on fd for a datagram that is token: 1 with the
 * sender's address in from, 0 none came, -1 an error. Closes fd. */
int host_probe_wait(int fd, const char *token, int timeout_ms, char *from,
		    size_t from_len);
/* count datagrams of token from src (port: any) to dst:port, every
 * interval_ms (while *stop stays false, when given): the number sent,
 * or -1 with why. */
int host_probe_send(const char *src, const char *dst, unsigned port,
		    const char *token, unsigned count, unsigned interval_ms,
		    const atomic_bool *stop, char *why, size_t why_len);

#endif
