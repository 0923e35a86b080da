// SPDX-License-Identifier: MIT
#include "errbuf.h"

#include <stdarg.h>
#include <stdio.h>

int errbuf_set(struct errbuf *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}
