// SPDX-License-Identifier: MIT
/* mstctl helpers: error lines, device lookup, keyword arguments. */
#include "mstctl.h"
#include "args.h"

#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int ctl_fail(int code, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("mstctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

int ctl_fail_nl(const struct mstnl_err *err, const char *fmt, ...)
{
	char why[MSTNL_MSG_MAX + 64];
	va_list ap;

	fflush(stdout);
	fputs("mstctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", mstnl_err_text(err, why, sizeof(why)));
	return EXIT_REFUSED;
}

int ctl_link(struct ctl *c, const char *name, struct mstnl_link *link)
{
	struct mstnl_err err;
	unsigned int ifindex;

	if (strlen(name) >= IF_NAMESIZE)
		return ctl_fail(EXIT_USAGE, "unknown device \"%s\"", name);
	ifindex = if_nametoindex(name);
	if (!ifindex)
		return ctl_fail(EXIT_USAGE, "unknown device \"%s\"", name);
	if (mstnl_link_get(c->nl, (int)ifindex, link, &err) < 0) {
		/* it may have vanished between the two lookups */
		if (err.code == -ENODEV)
			return ctl_fail(EXIT_USAGE, "unknown device \"%s\"",
					name);
		return ctl_fail_nl(&err, "cannot read device %s", name);
	}
	return EXIT_OK;
}

int ctl_bridge(struct ctl *c, const char *name, struct mstnl_link *link)
{
	int ret = ctl_link(c, name, link);

	if (ret)
		return ret;
	if (!link->is_bridge)
		return ctl_fail(EXIT_USAGE, "%s is not a bridge", name);
	if (!link->mst_supported)
		return ctl_fail(EXIT_REFUSED,
				"the kernel's bridge has no MST mode (%s)",
				name);
	return EXIT_OK;
}

int ctl_port(struct ctl *c, const char *name, struct mstnl_link *link)
{
	int ret = ctl_link(c, name, link);

	if (ret)
		return ret;
	if (!link->is_bridge_port || !link->master)
		return ctl_fail(EXIT_USAGE, "%s is not a bridge port", name);
	return EXIT_OK;
}

const char *ctl_ifname(int ifindex, char *buf)
{
	if (ifindex > 0 && if_indextoname((unsigned int)ifindex, buf))
		return buf;
	snprintf(buf, IF_NAMESIZE, "if%d", ifindex);
	return buf;
}

int ctl_keywords(const char *cmd, int argc, char **argv,
		 const char *const *keys, const bool *required,
		 const char **vals)
{
	const char *bad = NULL;

	switch (args_keywords(argc, argv, keys, vals, &bad)) {
	case 0:
		break;
	case -ENOENT:
		return ctl_fail(EXIT_USAGE, "unknown argument \"%s\" for %s",
				bad, cmd);
	case -EEXIST:
		return ctl_fail(EXIT_USAGE, "\"%s\" given twice", bad);
	default:
		return ctl_fail(EXIT_USAGE, "\"%s\" needs a value", bad);
	}
	for (size_t k = 0; keys[k]; k++)
		if (required[k] && !vals[k])
			return ctl_fail(EXIT_USAGE, "%s needs \"%s\"", cmd,
					keys[k]);
	return EXIT_OK;
}
