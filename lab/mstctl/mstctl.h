/* SPDX-License-Identifier: MIT */
/* mstctl: shared state of the commands and their error reporting. */
#ifndef MSTCTL_H
#define MSTCTL_H

#include <stdbool.h>

#include "mstnl.h"
#include "print.h"

/* Exit codes: the kernel refused (or could not be asked); bad usage. */
enum {
	EXIT_OK = 0,
	EXIT_REFUSED = 1,
	EXIT_USAGE = 2,
};

struct ctl {
	struct mstnl *nl;
	struct printer pr;
	bool json;
};

/* Prints "mstctl: <message>" on stderr and returns @code. */
int ctl_fail(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "mstctl: <what>: <kernel's extack text> (<strerror>)"; returns 1. */
int ctl_fail_nl(const struct mstnl_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Looks up a device by name and reads its link attributes. Unknown names
 * give "unknown device" and EXIT_USAGE. Returns an exit code.
 */
int ctl_link(struct ctl *c, const char *name, struct mstnl_link *link);
int ctl_bridge(struct ctl *c, const char *name, struct mstnl_link *link);
int ctl_port(struct ctl *c, const char *name, struct mstnl_link *link);
/* A name for an ifindex (for output); never NULL. */
const char *ctl_ifname(int ifindex, char *buf);

/*
 * Parses "key value" pairs after a command; every key in @keys marked
 * required in @required must be present. Returns an exit code.
 */
int ctl_keywords(const char *cmd, int argc, char **argv,
		 const char *const *keys, const bool *required,
		 const char **vals);

/* show dev BRIDGE: MST flag and the VID -> MSTI table. */
int show_bridge(struct ctl *c, const struct mstnl_link *br);

int cmd_enable(struct ctl *c, int argc, char **argv);
int cmd_disable(struct ctl *c, int argc, char **argv);
int cmd_show(struct ctl *c, int argc, char **argv);
int cmd_vlan(struct ctl *c, int argc, char **argv);
int cmd_set(struct ctl *c, int argc, char **argv);
int cmd_flush(struct ctl *c, int argc, char **argv);
int cmd_monitor(struct ctl *c, int argc, char **argv);
/* cmd_stp.c: mstd's control socket. */
int cmd_stp(struct ctl *c, int argc, char **argv);

#endif
