// SPDX-License-Identifier: MIT
#include "cli.h"

int main(int argc, char **argv)
{
	return mstlab_cli(argc, argv, stdout, stderr);
}
