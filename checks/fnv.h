/* SPDX-License-Identifier: MIT */
/* FNV-1a: equal bytes hash alike (loop detection, MST configuration ids). */
#ifndef MSTLAB_FNV_H
#define MSTLAB_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV_SEED 2166136261u

/* h: FNV_SEED, or the hash of what came before, to hash on. */
static inline uint32_t fnv1a(const void *data, size_t len, uint32_t h)
{
	const uint8_t *p = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

#endif
