// SPDX-License-Identifier: MIT
/* The user's host settings (host_settings.h). */
#include "host_settings.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topo_priv.h"

#define SETTINGS_MAX (64 << 10)
/* A host as a uri writes it: a name, an IPv4 or IPv6 address. */
#define HOST_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
	"0123456789.:-"

int host_settings_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int n;

	/* XDG: a relative value is to be ignored. */
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/mstlab/hosts.yaml", xdg);
	else if (home && home[0] == '/')
		n = snprintf(buf, len, "%s/.config/mstlab/hosts.yaml", home);
	else
		return -1;
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* A path of this host (bare: a program on PATH) that goes into argv and
 * into a libvirt URI's query as it is. */
static int setting_path(struct ty_ctx *c, const yaml_node_t *n,
			const char *what, bool bare_ok, char *out)
{
	char v[TOPO_TEXT_MAX];

	if (ty_str(c, n, what, v, sizeof(v)))
		return -1;
	if (!topo_safe_word(v) || (v[0] != '/' && (!bare_ok || strchr(v, '/'))))
		return ty_fail(c, n, "%s must be an absolute path%s of A-Z, "
			       "a-z, 0-9, '/', '.', '_', '+', '-'", what,
			       bare_ok ? " or a program on PATH" : "");
	strcpy(out, v);
	return 0;
}

static int parse_host(struct ty_ctx *c, const yaml_node_t *k,
		      const yaml_node_t *n, struct host_settings *s)
{
	static const char *const keys[] = { "ssh_command", "keyfile",
					    "mstlab", NULL };
	const char *name = ty_text(k);
	yaml_node_t *v;

	if (!name || !name[0] || strspn(name, HOST_CHARS) != strlen(name))
		return ty_fail(c, k, "a host here is a name or an "
			       "address as a topology's uri writes it");
	if (ty_check_keys(c, n, keys, "a host's settings"))
		return -1;
	v = ty_get(c, n, "ssh_command");
	if (v && setting_path(c, v, "ssh_command", false, s->ssh_command))
		return -1;
	v = ty_get(c, n, "keyfile");
	if (v && setting_path(c, v, "keyfile", false, s->keyfile))
		return -1;
	v = ty_get(c, n, "mstlab");
	if (v && setting_path(c, v, "mstlab", true, s->mstlab))
		return -1;
	return 0;
}

int host_settings_parse(const char *file, const void *buf, size_t len,
			const char *host, struct host_settings *out,
			struct topo_error *err)
{
	struct ty_ctx c = { .err = err };
	yaml_parser_t parser;
	yaml_node_t *root;
	int r = 0;

	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	snprintf(err->file, sizeof(err->file), "%s", file);
	if (tp_check_encoding(err, buf, len))
		return -1;
	if (!yaml_parser_initialize(&parser)) {
		err->mark = (struct topo_mark){ 1, 1 };
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return -1;
	}
	yaml_parser_set_input_string(&parser, buf, len);
	if (!yaml_parser_load(&parser, &c.doc)) {
		tp_syntax_error(err, &parser);
		yaml_parser_delete(&parser);
		return -1;
	}
	root = yaml_document_get_root_node(&c.doc);
	if (root && ty_check_keys(&c, root, NULL, "the host settings"))
		r = -1;
	if (root && !r) {
		ty_pairs_foreach(&c, root, p) {
			const yaml_node_t *k = ty_node(&c, p->key);
			struct host_settings s = { 0 };

			if (parse_host(&c, k, ty_node(&c, p->value), &s)) {
				r = -1;
				break;
			}
			if (!strcasecmp(ty_text(k), host))
				*out = s;
		}
	}
	if (r)
		memset(out, 0, sizeof(*out));
	yaml_document_delete(&c.doc);
	yaml_parser_delete(&parser);
	return r;
}

/* It says which programs run: only its owner (or root) may change it. */
static int check_owner(const struct stat *st, char *why, size_t len)
{
	if (!S_ISREG(st->st_mode))
		snprintf(why, len, "is not a regular file");
	else if (st->st_uid != geteuid() && st->st_uid != 0)
		snprintf(why, len, "is owned by uid %u, not by you (uid %u) or "
			 "root: it says which programs run",
			 (unsigned)st->st_uid, (unsigned)geteuid());
	else if (st->st_mode & (S_IWGRP | S_IWOTH))
		snprintf(why, len, "is writable by others (mode %04o): it says "
			 "which programs run (chmod go-w)",
			 (unsigned)st->st_mode & 07777);
	else if (st->st_size > SETTINGS_MAX)
		snprintf(why, len, "is larger than %d KiB", SETTINGS_MAX >> 10);
	else
		return 0;
	return -1;
}

int host_settings_load(const char *path, const char *host,
		       struct host_settings *out, struct topo_error *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	char why[160] = "cannot be examined", *buf;
	struct stat st;
	ssize_t n;
	int r;

	memset(out, 0, sizeof(*out));
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
		return 0;
	if (fd < 0)
		return tp_file_error(err, path, strerror(errno));
	if (fstat(fd, &st) || check_owner(&st, why, sizeof(why))) {
		close(fd);
		return tp_file_error(err, path, why);
	}
	buf = malloc((size_t)st.st_size + 1);
	n = buf ? read(fd, buf, (size_t)st.st_size + 1) : -1;
	close(fd);
	if (n < 0 || n > st.st_size) {
		free(buf);
		return tp_file_error(err, path, "cannot be read whole");
	}
	r = host_settings_parse(path, buf, (size_t)n, host, out, err);
	free(buf);
	return r;
}

int host_settings_uri(const struct topo_host *th,
		      const struct host_settings *s, char *buf, size_t len)
{
	char sep = strchr(th->uri, '?') ? '&' : '?';
	int n = snprintf(buf, len, "%s", th->uri);

	if (n >= 0 && (size_t)n < len && s->keyfile[0]) {
		n += snprintf(buf + n, len - (size_t)n, "%ckeyfile=%s", sep,
			      s->keyfile);
		sep = '&';
	}
	if (n >= 0 && (size_t)n < len && s->ssh_command[0])
		n += snprintf(buf + n, len - (size_t)n, "%ccommand=%s", sep,
			      s->ssh_command);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}
