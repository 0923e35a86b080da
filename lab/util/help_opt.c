// SPDX-License-Identifier: MIT
#include "help_opt.h"

#include <stddef.h>

const struct option help_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
