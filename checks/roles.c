// SPDX-License-Identifier: MIT
#include "roles.h"

const char *port_role_name(enum port_role role)
{
	static const char *const names[] = {
		[PORT_ROLE_MASTER] = "master",
		[PORT_ROLE_ALTERNATE] = "alternate",
		[PORT_ROLE_ROOT] = "root",
		[PORT_ROLE_DESIGNATED] = "designated",
		[PORT_ROLE_NONE] = "none",
		[PORT_ROLE_SILENT] = "silent",
		[PORT_ROLE_DISABLED] = "disabled",
	};

	return (unsigned)role <= PORT_ROLE_DISABLED ? names[role] : "?";
}

const char *port_state_name(enum port_state state)
{
	static const char *const names[] = {
		[PORT_STATE_UNKNOWN] = "unknown",
		[PORT_STATE_DISCARDING] = "discarding",
		[PORT_STATE_LEARNING] = "learning",
		[PORT_STATE_FORWARDING] = "forwarding",
		[PORT_STATE_DOWN] = "down",
	};

	return (unsigned)state <= PORT_STATE_DOWN ? names[state] : "?";
}

bool port_blocked(enum port_role role, enum port_state state, bool down)
{
	return !down && (role == PORT_ROLE_ALTERNATE ||
			 state == PORT_STATE_DISCARDING ||
			 state == PORT_STATE_LEARNING);
}
