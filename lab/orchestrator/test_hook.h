/* SPDX-License-Identifier: MIT */
/*
 * A test hook, for the VM test of what a killed mstlab leaves
 * (tests/vm/kill-test) and nothing else: with MSTLAB_TEST_PAUSE_AT=POINT
 * in its environment, mstlab stops at the named point of its work (it
 * says so on stderr) until it is killed or interrupted (Ctrl-C goes on
 * as anywhere else: the command tears down). Without the variable, or
 * at any other point, it does nothing. Points: registered, captures,
 * links, domains, domain-started, booting, ready, up-reported, checks
 * (docs/testing.md).
 */
#ifndef MSTLAB_TEST_HOOK_H
#define MSTLAB_TEST_HOOK_H

void test_hook_pause(const char *point);

#endif
