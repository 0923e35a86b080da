/* SPDX-License-Identifier: MIT */
/*
 * The user's host settings: how this user reaches the hosts labs name
 * (docs/topology.md#host-settings). A topology is shared and downloaded,
 * so it never says which program runs or which key is used: this file,
 * the user's own, does, per host as the topologies' uris write it:
 *
 *   10.9.0.2:
 *     ssh_command: /home/me/bin/lab-ssh   # the ssh program, here
 *     keyfile: /home/me/.ssh/lab          # ssh -i, here
 *     mstlab: /opt/mstlab/bin/mstlab      # the agent's program there
 *
 * $XDG_CONFIG_HOME/mstlab/hosts.yaml, else ~/.config/mstlab/hosts.yaml.
 * It is refused unless owned by the user who runs mstlab (or root) and
 * writable by no one else.
 */
#ifndef MSTLAB_HOST_SETTINGS_H
#define MSTLAB_HOST_SETTINGS_H

#include "topo.h"

struct host_settings {
	char ssh_command[TOPO_TEXT_MAX];	/* "": ssh */
	char keyfile[TOPO_TEXT_MAX];		/* "": ssh's own choice */
	char mstlab[TOPO_TEXT_MAX];		/* "": mstlab */
};

/* The file's path into buf: 0, or -1 when neither XDG_CONFIG_HOME nor
 * HOME says where it is (or it does not fit). */
int host_settings_path(char *buf, size_t len);
/*
 * The settings of host (an ssh host as a uri writes it) in a file's
 * text: all "" when the file does not name it. 0, or -1 with err
 * (file:line:col: what) for anything wrong anywhere in the file.
 */
int host_settings_parse(const char *file, const void *buf, size_t len,
			const char *host, struct host_settings *out,
			struct topo_error *err);
/* The same from the file at path; no file is no settings. */
int host_settings_load(const char *path, const char *host,
		       struct host_settings *out, struct topo_error *err);
/* The libvirt URI of th with the key and ssh program of s: 0, or -1
 * when it does not fit len. */
int host_settings_uri(const struct topo_host *th,
		      const struct host_settings *s, char *buf, size_t len);

#endif
