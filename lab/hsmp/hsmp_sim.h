/* SPDX-License-Identifier: MIT */
/*
 * The emulated SMU's debugfs knobs (/sys/kernel/debug/amd_smu_sim), for
 * the in-guest suite: reset, fault rules, counters, the firmware state.
 */
#ifndef MSTLAB_HSMP_SIM_H
#define MSTLAB_HSMP_SIM_H

#include <stddef.h>

#define HSMP_SIM_DIR "/sys/kernel/debug/amd_smu_sim"

/* Mounts debugfs if needed; 0 when the emulator's directory is there. */
int sim_present(void);
/* Writes @text to the emulator file @name ("reset", "sock0/fault", ...). */
int sim_write(const char *name, const char *text);
/* The number after "@key " in the file @name (its first number if @key
 * is ""), or -1. */
long long sim_value(const char *name, const char *key);
/* A counter of socket @sock ("violations", "msg 0x01", ...), or -1. */
long long sim_stat(unsigned int sock, const char *key);

#endif
