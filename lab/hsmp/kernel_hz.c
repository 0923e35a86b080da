// SPDX-License-Identifier: MIT
/*
 * The running kernel's jiffies and HZ, for checks on waits the kernel
 * counts in jiffies. Userspace only sees USER_HZ (always 100), so count how
 * far /proc/timer_list's "jiffies:" moves in a known time and round to the
 * nearest HZ the kernel can be configured with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hsmp_test.h"

long long kernel_jiffies(void)
{
	char line[256];
	long long j = -1;
	FILE *f = fopen("/proc/timer_list", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "jiffies: ", 9)) {
			j = strtoll(line + 9, NULL, 10);
			break;
		}
	fclose(f);
	return j;
}

int kernel_hz(void)
{
	static const int choices[] = { 100, 250, 300, 1000 };
	const struct timespec pause = { 0, 200 * 1000 * 1000 };
	double t0, hz, best_err = 1e9;
	long long j0, j1;
	int best = 0;

	t0 = now_ms();
	j0 = kernel_jiffies();
	nanosleep(&pause, NULL);
	j1 = kernel_jiffies();
	if (j0 < 0 || j1 <= j0)
		return 0;
	hz = (double)(j1 - j0) * 1e3 / (now_ms() - t0);
	for (size_t i = 0; i < sizeof(choices) / sizeof(choices[0]); i++) {
		double err = hz > choices[i] ? hz - choices[i] : choices[i] - hz;

		if (err < best_err) {
			best_err = err;
			best = choices[i];
		}
	}
	return best;
}
