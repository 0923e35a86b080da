// SPDX-License-Identifier: MIT
#include "cli.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	/* Whole lines: with 2>&1 (a log, a CI job), a progress line on
	 * stderr must not land in the middle of a check's line. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	return mstlab_cli(argc, argv, stdout, stderr);
}
