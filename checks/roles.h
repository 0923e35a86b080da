/* SPDX-License-Identifier: MIT */
/*
 * A port's part in one tree: its role and its state, the one vocabulary
 * of the tree-state engine (trees.h), the verdicts' result model and
 * mstlab watch. The roles a BPDU can carry are enum bpdu_role's values;
 * the engine adds two the wire cannot say.
 */
#ifndef MSTLAB_ROLES_H
#define MSTLAB_ROLES_H

#include <stdbool.h>

#include "bpdu.h"

enum port_role {
	PORT_ROLE_MASTER = BPDU_ROLE_MASTER,
	PORT_ROLE_ALTERNATE = BPDU_ROLE_ALT_BACKUP,	/* or backup */
	PORT_ROLE_ROOT = BPDU_ROLE_ROOT,
	PORT_ROLE_DESIGNATED = BPDU_ROLE_DESIGNATED,
	PORT_ROLE_NONE,		/* an STP configuration BPDU: no role field */
	PORT_ROLE_SILENT,	/* nothing heard from it since its link came up */
	PORT_ROLE_DISABLED,	/* its link is down (802.1Q: DisabledPort);
				 * for the result model, the engine keeps
				 * what the port said last */
};

enum port_state {
	PORT_STATE_UNKNOWN,	/* silent, or STP: no state on the wire */
	PORT_STATE_DISCARDING,
	PORT_STATE_LEARNING,
	PORT_STATE_FORWARDING,
	PORT_STATE_DOWN,	/* its link is down, by the event log */
};

/* "master", "alternate", "root", "designated", "none", "silent". */
const char *port_role_name(enum port_role role);
/* "unknown", "discarding", "learning", "forwarding", "down". */
const char *port_state_name(enum port_state state);

/*
 * Not forwarding in its tree: an alternate (or backup), or a port that
 * says it discards or only learns, on a link that is up. A silent port
 * and an STP port say nothing about it.
 */
bool port_blocked(enum port_role role, enum port_state state, bool down);

#endif
