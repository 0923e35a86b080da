/* SPDX-License-Identifier: MIT */
/* Growable arrays: room for one more element, by doubling. */
#ifndef MSTLAB_GROW_H
#define MSTLAB_GROW_H

#include <stddef.h>
#include <stdlib.h>

/*
 * Makes room in *arr (*cap elements of size bytes, n of them used) for
 * one more: first elements to start with, then twice as many. 0, or -1
 * when out of memory (*arr and *cap as they were).
 */
static inline int grow(void **arr, size_t *cap, size_t n, size_t size,
		       size_t first)
{
	size_t c;
	void *m;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : first;
	m = realloc(*arr, c * size);
	if (!m)
		return -1;
	*arr = m;
	*cap = c;
	return 0;
}

#endif
