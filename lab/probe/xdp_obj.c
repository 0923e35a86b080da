// SPDX-License-Identifier: MIT
/*
 * probe_xdp.bpf.o, built by clang -target bpf, carried inside probe-gen so
 * that the guest image needs no separate object file. The Makefile passes
 * its path as PROBE_XDP_OBJ.
 */
#include "xdp_obj.h"

__asm__(".section .rodata\n"
	".balign 8\n"
	".global probe_xdp_obj\n"
	"probe_xdp_obj:\n"
	".incbin \"" PROBE_XDP_OBJ "\"\n"
	".global probe_xdp_obj_end\n"
	"probe_xdp_obj_end:\n"
	".previous\n");
