# Helpers for the in-guest probe suites (tests/guest/probe_*.sh; sourced:
# tests/vm/guest-run puts this at /lab/lib/probe.sh): probe-gen and
# probe-sink runners, on top of the TAP helpers of guest.sh.

. /lab/lib/guest.sh

SINK_PID=
SINK_JSON=/tmp/probe-suite.json

# sink_start IFACE [NETNS]: a probe-sink counting what arrives on IFACE.
sink_start() {
	rm -f "$SINK_JSON"
	if [ -n "${2:-}" ]; then
		ip netns exec "$2" probe-sink -i "$1" -o "$SINK_JSON" &
	else
		probe-sink -i "$1" -o "$SINK_JSON" &
	fi
	SINK_PID=$!
	# It binds its socket right away; give it a moment to run at all.
	sleep 0.5
}

# sink_wait_for FLOW N SECS: until the sink (its report on SIGUSR1) has
# N frames of FLOW, SECS at most. A fixed sleep is not enough: a slow
# guest (the debug kernel, a loaded host) gets probe-gen going late.
sink_wait_for() {
	end=$(( $(now_ms) + $3 * 1000 ))
	while [ "$(now_ms)" -lt "$end" ]; do
		kill -USR1 $(pidof probe-sink) 2>/dev/null
		sleep 0.1
		got=$(sed -n "s/.*{\"flow\":$1,\"vid\":[0-9]*,\"received\":\([0-9]*\),.*/\1/p" \
			"$SINK_JSON" 2>/dev/null)
		[ "${got:-0}" -ge "$2" ] && return 0
	done
	return 1
}

# sink_stop: ends the sink; its JSON is in SINK.
sink_stop() {
	sleep 0.5	# the last frames may still be on the way
	# Signal probe-sink itself: `ip netns exec` would die at once and
	# not wait for the sink to write its report.
	kill $(pidof probe-sink) 2>/dev/null
	wait "$SINK_PID" 2>/dev/null
	SINK_PID=
	SINK=$(cat "$SINK_JSON" 2>/dev/null)
}

# sink_has FLOW VID RECEIVED: the flow arrived whole, in order, once.
sink_has() {
	WHY="sink: $SINK (want flow $1 vid $2 received $3)"
	printf '%s' "$SINK" | grep -qF "{\"flow\":$1,\"vid\":$2,\"received\":$3,\"lost\":0,\"duplicated\":0,\"reordered\":0,"
}

# said TEXT: probe-gen's stdout (its final line) is TEXT.
said() {
	WHY="probe-gen printed '$OUT' (stderr '$ERR', exit $RC), want '$1'"
	[ "$RC" -eq 0 ] && [ "$OUT" = "$1" ]
}

# err_says REGEX: probe-gen's stderr matches.
err_says() {
	WHY="stderr '$ERR', want /$1/"
	printf '%s' "$ERR" | grep -q -- "$1"
}

# uptime_cs: the guest's uptime in hundredths of a second.
uptime_cs() {
	sed 's/^\([0-9]*\)\.\([0-9]*\) .*/\1\2/' /proc/uptime
}

# gen ARGS...: probe-gen in the generator's namespace.
gen() { ip netns exec gen probe-gen "$@"; }

# veth_setup: veth pg in namespace gen (where probe-gen runs), its peer
# ps here with address PS_MAC, both up. veth_cleanup undoes it and ends
# the programs.
veth_setup() {
	mkdir -p /var/run/netns /run/netns 2>/dev/null
	veth_cleanup
	ip netns add gen &&
		ip link add ps type veth peer name pg netns gen &&
		ip link set ps address "$PS_MAC" &&
		ip link set ps up && ip -n gen link set pg up
}

veth_cleanup() {
	[ -n "$SINK_PID" ] && kill "$SINK_PID" 2>/dev/null
	pidof probe-gen >/dev/null && kill $(pidof probe-gen)
	ip link del ps 2>/dev/null
	ip netns del gen 2>/dev/null
	rm -f "$SINK_JSON" "$ERR_FILE"
}

