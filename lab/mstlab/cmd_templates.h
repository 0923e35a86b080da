/* SPDX-License-Identifier: MIT */
/* mstlab templates list|build|clear (template.h). */
#ifndef MSTLAB_CMD_TEMPLATES_H
#define MSTLAB_CMD_TEMPLATES_H

#include <stdio.h>

#define TEMPLATES_USAGE \
	"templates list | build TOPO.yaml | clear  guest templates (cache)"

int cmd_templates(int argc, char **argv, FILE *out, FILE *err);

#endif
