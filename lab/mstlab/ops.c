// SPDX-License-Identifier: MIT
#include "ops.h"

#include <stdarg.h>
#include <stdio.h>

int ops_fail(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, OPS_ERR_LEN, fmt, ap);
	va_end(ap);
	return -1;
}
