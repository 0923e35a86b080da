/* SPDX-License-Identifier: MIT */
/*
 * A guest booted as a template (docs/design/templates.md) stops in /init
 * before it reads its seed, and waits on its identity port (a virtio
 * serial port, IDENTITY_PORT) for what makes it one node of a lab. The
 * host saves it there; each guest restored from that state goes on from
 * the same read, and takes the identity the host then sends:
 *
 *   mstlab-identity 1
 *   clock SECONDS NANOSECONDS       the host's wall clock: set at once
 *   random HEX                      fresh entropy: the clones' random
 *                                   state would otherwise be the
 *                                   template's, the same in every one
 *   nic TEMPLATE_MAC MAC            one a NIC: its address in the lab,
 *                                   set through the driver so that the
 *                                   device's (QEMU's) filter follows
 *   end
 *
 * The template has no free page reporting (no balloon): its guests map
 * its RAM file privately, and this QEMU (7.2) discards a reported page
 * of a file mapping by punching a hole in the file, which every other
 * guest of the template maps too.
 */
#ifndef MSTLAB_IDENTITY_H
#define MSTLAB_IDENTITY_H

#include <stdbool.h>

#define IDENTITY_PORT "org.mstlab.identity.0"
#define IDENTITY_ARG "mstlab.template=1"

/* Whether the kernel command line says this is a template boot. */
bool identity_template_boot(void);
/* Waits for the identity (for ever: a template waits until it is
 * restored) and takes it; what fails is said on the console. */
void identity_wait_and_take(void);

#endif
