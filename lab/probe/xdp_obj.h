/* SPDX-License-Identifier: MIT */
/* The embedded BPF object (xdp_obj.c). */
#ifndef MSTLAB_XDP_OBJ_H
#define MSTLAB_XDP_OBJ_H

extern const unsigned char probe_xdp_obj[];
extern const unsigned char probe_xdp_obj_end[];

#endif
