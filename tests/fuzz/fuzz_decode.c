// SPDX-License-Identifier: MIT
/*
 * mstlab decode's line formatter on whatever frame decodes: it writes
 * without bounds checks, trusting BPDU_LINE_MAX, so the buffer here is
 * exactly that long for ASan to catch an overrun. Each line, text and
 * JSON, must be one line. Input: a whole Ethernet frame.
 */
#include <stdlib.h>
#include <string.h>

#include "bpdu_print.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bpdu b;
	struct bpdu_frame f;
	char *line;
	size_t n;

	if (bpdu_frame_decode(data, size, &f, &b) != BPDU_OK)
		return 0;
	line = malloc(BPDU_LINE_MAX);
	if (!line)
		return 0;
	for (int json = 0; json < 2; json++) {
		n = bpdu_format(line, json, size, (int64_t)size << 40, &f, &b);
		if (n == 0 || n > BPDU_LINE_MAX || line[n - 1] != '\n' ||
		    memchr(line, '\n', n - 1))
			abort();
	}
	free(line);
	return 0;
}
