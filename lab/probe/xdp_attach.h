/* SPDX-License-Identifier: MIT */
/*
 * Putting probe-gen's probe_stamp on the interface as its XDP program
 * (see probe_xdp.bpf.c for why), without taking the place of one that a
 * running probe-gen uses.
 */
#ifndef MSTLAB_XDP_ATTACH_H
#define MSTLAB_XDP_ATTACH_H

/*
 * Attaches program @prog_fd (driver mode) when the interface has no XDP
 * program, or in place of one that no running probe-gen uses (left by
 * one that has exited; probe_pass, from older ones). Returns 1 when
 * attached, 0 when another program stays there, or a negative errno when
 * there is none and attaching failed; @how says which, in words.
 */
int xdp_attach_stamp(unsigned ifindex, int prog_fd, const char **how);

#endif
