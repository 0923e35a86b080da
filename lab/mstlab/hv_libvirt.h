/* SPDX-License-Identifier: MIT */
/* The libvirt implementation of struct hv_ops. */
#ifndef MSTLAB_HV_LIBVIRT_H
#define MSTLAB_HV_LIBVIRT_H

#include "ops.h"

struct _virConnect;

struct hv_libvirt {
	struct _virConnect *conn;
	/* Domains die with the connection: for `run`, where nothing may
	 * outlive mstlab, not even after kill -9. */
	bool autodestroy;
};

extern const struct hv_ops hv_libvirt_ops;

int hv_libvirt_open(struct hv_libvirt *h, const char *uri, bool autodestroy,
		    char *err);
void hv_libvirt_close(struct hv_libvirt *h);

#endif
