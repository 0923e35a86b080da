/* SPDX-License-Identifier: MIT */
/* The libvirt implementation of struct hv_ops. */
#ifndef MSTLAB_HV_LIBVIRT_H
#define MSTLAB_HV_LIBVIRT_H

#include <pthread.h>

#include "ops.h"

struct _virConnect;

/* Connections that start domains (see hv_start). */
#define HV_START_CONNS	8

struct hv_libvirt {
	struct _virConnect *conn;
	/* Domains die with the connection that started them: for `run`,
	 * where nothing may outlive mstlab, not even after kill -9. */
	bool autodestroy;
	char *uri;
	pthread_mutex_t lock;
	struct _virConnect *start_conn[HV_START_CONNS];
	unsigned starting[HV_START_CONNS];	/* in flight on each */
	/* When the connection died and cannot be opened again: starts the
	 * daemon again (services.h: this host's libvirtd, which mstlab
	 * started and which went away), 0 when it did; NULL: none. */
	int (*revive)(struct hv_libvirt *h);
	void *revive_ctx;
};

extern const struct hv_ops hv_libvirt_ops;

int hv_libvirt_open(struct hv_libvirt *h, const char *uri, bool autodestroy,
		    struct errbuf *err);
void hv_libvirt_close(struct hv_libvirt *h);

#endif
