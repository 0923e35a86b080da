// SPDX-License-Identifier: MIT
#include "hsmp_sim.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

int sim_present(void)
{
	if (access(HSMP_SIM_DIR, F_OK) == 0)
		return 0;
	if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) &&
	    errno != EBUSY)
		return -errno;
	return access(HSMP_SIM_DIR, F_OK) ? -errno : 0;
}

int sim_write(const char *name, const char *text)
{
	char path[256];
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s", HSMP_SIM_DIR, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

long long sim_value(const char *name, const char *key)
{
	size_t klen = strlen(key);
	long long v = -1;
	char path[256], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", HSMP_SIM_DIR, name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!klen) {	/* a file holding one number */
			v = strtoll(line, NULL, 0);
			break;
		}
		if (!strncmp(line, key, klen) && line[klen] == ' ') {
			v = strtoll(line + klen + 1, NULL, 0);
			break;
		}
	}
	fclose(f);
	return v;
}

long long sim_stat(unsigned int sock, const char *key)
{
	char name[32];

	snprintf(name, sizeof(name), "sock%u/stats", sock);
	return sim_value(name, key);
}
