// SPDX-License-Identifier: MIT
#include "flow_filter.h"

#include "probe_wire.h"

/* Offsets in the frame of the fields the filter reads. */
#define AT_MAGIC (FLOW_FILTER_PAYLOAD + 0)
#define AT_VERSION (FLOW_FILTER_PAYLOAD + 4)
#define AT_FLOW (FLOW_FILTER_PAYLOAD + 6)
#define PASS 0x40000u	/* the whole frame */

void flow_filter_build(struct flow_filter *f, uint16_t flow)
{
	/* Jump offsets count from the next instruction: 8 is PASS, 9 drop. */
	const struct sock_filter insns[] = {
		/* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_LEN, 0),
		/* 1 */ BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K,
				 FLOW_FILTER_PAYLOAD + PROBE_HDR_LEN, 0, 6),
		/* 2 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, AT_MAGIC),
		/* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PROBE_MAGIC, 0, 4),
		/* 4 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, AT_VERSION),
		/* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PROBE_VERSION, 0, 2),
		/* 6 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, AT_FLOW),
		/* 7 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, flow, 0, 1),
		/* 8 */ BPF_STMT(BPF_RET | BPF_K, PASS),
		/* 9 */ BPF_STMT(BPF_RET | BPF_K, 0),
	};
	_Static_assert(sizeof(insns) == sizeof(f->insns), "filter length");

	for (unsigned i = 0; i < sizeof(insns) / sizeof(insns[0]); i++)
		f->insns[i] = insns[i];
	f->prog = (struct sock_fprog){
		.len = sizeof(insns) / sizeof(insns[0]), .filter = f->insns };
}
