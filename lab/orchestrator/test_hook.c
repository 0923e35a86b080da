// SPDX-License-Identifier: MIT
#include "test_hook.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lab.h"

void test_hook_pause(const char *point)
{
	const char *at = getenv("MSTLAB_TEST_PAUSE_AT");
	struct timespec nap = { 0, 50 * 1000000L };

	if (!at || strcmp(at, point))
		return;
	fprintf(stderr, "mstlab: test hook: paused at %s "
		"(MSTLAB_TEST_PAUSE_AT)\n", point);
	fflush(stderr);
	/* Any thread may be the one that takes the signal: a nap, not
	 * pause(). */
	while (!lab_interrupted)
		nanosleep(&nap, NULL);
}
