// SPDX-License-Identifier: MIT
#include "hsmp_dev.h"

#include <asm/amd_hsmp.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define N_MSGS (sizeof(hsmp_msg_desc_table) / sizeof(hsmp_msg_desc_table[0]))

uint32_t hsmp_msg_limit(void)
{
	return (uint32_t)N_MSGS;
}

bool hsmp_msg_shape(uint32_t id, int *kind, unsigned int *nargs,
		    unsigned int *nresp)
{
	if (id >= N_MSGS || hsmp_msg_desc_table[id].type == HSMP_RSVD)
		return false;
	*kind = hsmp_msg_desc_table[id].type;
	*nargs = hsmp_msg_desc_table[id].num_args;
	*nresp = hsmp_msg_desc_table[id].response_sz;
	return true;
}

int hsmp_call_raw(int fd, uint16_t sock, uint32_t id, uint16_t nargs,
		  uint16_t nresp, uint32_t *words)
{
	struct hsmp_message m = {
		.msg_id = id, .num_args = nargs, .response_sz = nresp,
		.sock_ind = sock,
	};
	int ret;

	if (nargs > HSMP_MAX_WORDS || nresp > HSMP_MAX_WORDS)
		return -EINVAL;
	memcpy(m.args, words, sizeof(m.args));
	ret = ioctl(fd, HSMP_IOCTL_CMD, &m);
	if (ret < 0)
		return -errno;
	/* 6.1 leaks a positive PCI BIOS code when config access fails. */
	if (ret > 0)
		return -EIO;
	memcpy(words, m.args, sizeof(m.args));
	return 0;
}

int hsmp_call(int fd, uint16_t sock, uint32_t id, const uint32_t *args,
	      uint32_t *resp)
{
	uint32_t words[HSMP_MAX_WORDS] = { 0 };
	unsigned int nargs, nresp;
	int kind, ret;

	if (!hsmp_msg_shape(id, &kind, &nargs, &nresp))
		return -ENOMSG;
	if (nargs)
		memcpy(words, args, nargs * sizeof(*words));
	ret = hsmp_call_raw(fd, sock, id, (uint16_t)nargs, (uint16_t)nresp,
			    words);
	if (ret == 0 && nresp)
		memcpy(resp, words, nresp * sizeof(*words));
	return ret;
}

int hsmp_open(const char *path, int flags, char *err, size_t len)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	fd = -errno;
	if (fd == -ENOENT)
		snprintf(err, len, "%s does not exist: no HSMP here (amd_hsmp "
			 "needs an AMD EPYC family 19h CPU and its SMU)", path);
	else if (fd == -EACCES)
		snprintf(err, len, "%s: permission denied: %s needs write "
			 "access (root)", path,
			 (flags & O_ACCMODE) == O_RDONLY ? "reading"
							 : "setting");
	else
		snprintf(err, len, "%s: %s", path, strerror(-fd));
	return fd;
}

int hsmp_count_sockets(int fd)
{
	uint32_t v = 0, r;
	int n, ret;

	for (n = 0; n < 64; n++) {
		ret = hsmp_call(fd, (uint16_t)n, HSMP_TEST, &v, &r);
		if (ret == -ENODEV)
			return n;
		/* A write-only descriptor cannot send TEST (a GET). */
		if (ret)
			return ret;
	}
	return n;
}

int hsmp_cpus(const char *cpuinfo, struct hsmp_cpu *cpus, size_t max)
{
	unsigned int socket = 0, v;
	char line[256];
	size_t n = 0;
	FILE *f = fopen(cpuinfo, "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "physical id : %u", &v) == 1) {
			socket = v;
		} else if (sscanf(line, "apicid : %u", &v) == 1 && n < max) {
			cpus[n].socket = socket;
			cpus[n].apic = v;
			n++;
		}
	}
	fclose(f);
	return (int)n;
}

const char *hsmp_strerror(int err)
{
	switch (err) {
	case -ETIMEDOUT:
		return "the SMU did not answer within 100 ms";
	case -ETIME:
		return "the mailbox stayed busy with other messages for 100 ms";
	case -ENOMSG:
		return "the SMU does not know this message (protocol version?)";
	case -EINVAL:
		return "invalid argument (or the open mode forbids this message)";
	case -EIO:
		return "the SMU answered with an unknown status";
	case -ENODEV:
		return "no such socket";
	case -EBADE:
		return "the SMU answered the test message wrongly";
	default:
		return strerror(-err);
	}
}
