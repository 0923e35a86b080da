/* SPDX-License-Identifier: MIT */
/* The commands that drive labs (argv as main's: argv[0] the command). */
#ifndef MSTLAB_CMD_LAB_H
#define MSTLAB_CMD_LAB_H

#include <stdio.h>

int cmd_up(int argc, char **argv, FILE *out, FILE *err);
int cmd_down(int argc, char **argv, FILE *out, FILE *err);
int cmd_run(int argc, char **argv, FILE *out, FILE *err);
int cmd_status(int argc, char **argv, FILE *out, FILE *err);
int cmd_exec(int argc, char **argv, FILE *out, FILE *err);
int cmd_link(int argc, char **argv, FILE *out, FILE *err);
int cmd_console(int argc, char **argv, FILE *out, FILE *err);
int cmd_shell(int argc, char **argv, FILE *out, FILE *err);

#endif
