/* SPDX-License-Identifier: MIT */
/*
 * `mstlab shell`: a domain's serial console (the guest runs a shell on
 * it, started by Enter) bridged to this terminal in raw mode, over a
 * libvirt stream. CONSOLE_ESCAPE (Ctrl-]) ends it, as in virsh console
 * and telnet.
 */
#ifndef MSTLAB_CONSOLE_H
#define MSTLAB_CONSOLE_H

#include "errbuf.h"
#include "hv_libvirt.h"

#define CONSOLE_ESCAPE 0x1d	/* Ctrl-] */

/*
 * Bridges in_fd (a terminal: put in raw mode, restored on return) and
 * out_fd to domain's console until the escape, end of input or the
 * console's end. 0, or -1 with err.
 */
int console_attach(struct hv_libvirt *h, const char *domain, int in_fd,
		   int out_fd, struct errbuf *err);

#endif
