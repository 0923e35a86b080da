#!/bin/sh
# Guest tests: an outage of the path shows in probe-sink's report as one
# gap whose length (missing frames x interval) is the outage's duration
# within 2 intervals, and whose receive times agree.
#
# Runs as root INSIDE the guest VM; never on the build host. Prints TAP.
#
# Wires: probe-gen on veth pg (namespace gen) -> bg [bridge br0] bs ->
# veth ps (namespace snk, probe-sink). The outage is bs leaving the
# forwarding state: the whole port (bridge link set ... state), then one
# MST instance (mstctl ... msti 1 state blocking) on a VLAN-aware bridge.
#
# The outage's duration D is measured in the guest, not assumed: one bash
# (for $EPOCHREALTIME, in us) reads the clock around each of the two
# state changes, so D lies between D_MIN (after the first change ended to
# before the second began) and D_MAX (before the first began to after the
# second ended). A gap must be in [D_MIN - 2 intervals, D_MAX + 2
# intervals], give or take 5 ms of frames in flight at the changes (under
# TCG a softirq can wait that long); each line "# NAME: length ..." shows
# the figures.

. /lab/lib/probe.sh

PS_MAC=02:00:00:00:0c:02
cleanup() {
	[ -n "$SINK_PID" ] && kill "$SINK_PID" $(pidof probe-sink) 2>/dev/null
	pidof probe-gen >/dev/null && kill $(pidof probe-gen)
	ip link del br0 2>/dev/null
	ip netns del gen 2>/dev/null
	ip netns del snk 2>/dev/null
	rm -f "$SINK_JSON" "$ERR_FILE" /tmp/probe_gap.*
}

# bridge_up VLAN_AWARE: br0 with ports bg (peer pg in gen) and bs (peer
# ps in snk), all up; with VLAN_AWARE=1 also MST on and VID 10 tagged on
# both ports in MSTI 1, forwarding.
bridge_up() {
	if [ "$1" = 1 ]; then
		ip link add br0 type bridge vlan_filtering 1 &&
			mstctl enable dev br0 || return 1
	else
		ip link add br0 type bridge || return 1
	fi
	ip link add bg type veth peer name pg netns gen &&
		ip link add bs type veth peer name ps netns snk &&
		ip -n snk link set ps address "$PS_MAC" &&
		ip link set bg master br0 && ip link set bs master br0 || return 1
	# pg sends XDP frames: bg needs NAPI (GRO) to take them.
	ethtool -K bg gro on >/dev/null 2>&1
	if [ "$1" = 1 ]; then
		bridge vlan add dev bg vid 10 && bridge vlan add dev bs vid 10 &&
			mstctl vlan set dev br0 vid 10 msti 1 &&
			mstctl set dev bg msti 1 state forwarding &&
			mstctl set dev bs msti 1 state forwarding || return 1
	fi
	ip link set br0 up && ip link set bg up && ip link set bs up &&
		ip -n gen link set pg up && ip -n snk link set ps up
}

setup() {
	mkdir -p /var/run/netns /run/netns 2>/dev/null
	cleanup
	ip netns add gen && ip netns add snk
}

# outage_port SECS STATE: bs in STATE (0: disabled) for SECS,
# then forwarding again; sets D_MIN and D_MAX in ms, or returns 1. A
# `bridge -batch` started beforehand makes each change (no exec in the
# window), and bash reads it back from sysfs every ms (no fork), so the
# window around a change is the time bridge takes to wake up and make it.
outage_port() {
	# shellcheck disable=SC2016 # expanded by that bash
	t=$(bash -c '
		# state S: asks bridge for S, waits until sysfs shows it.
		state() {
			echo "link set dev bs state $1" >&"${BR[1]}"
			local until=$((${EPOCHREALTIME%.*} + 5))
			while ((${EPOCHREALTIME%.*} < until)); do
				read -r s </sys/class/net/bs/brport/state
				[ "$s" = "$1" ] && return 0
				# 1 ms off the CPU (bridge prints nothing): a
				# busy loop would delay probe-gen, whose late
				# frames then shift the gap.
				read -r -t 0.001 -u "${BR[0]}"
			done
			echo "bs did not go to state $1" >&2
			return 1
		}
		coproc BR { exec bridge -batch - >/dev/null; }
		state 3 && sleep 0.5 || exit 1		# bridge starts
		a=$EPOCHREALTIME; state "$2" || exit 1; b=$EPOCHREALTIME
		sleep "$1"
		c=$EPOCHREALTIME; state 3 || exit 1; d=$EPOCHREALTIME
		eval "exec ${BR[1]}>&-"
		wait
		echo "$a $b $c $d"' outage "$@") || return 1
	bounds "$t"
}

# outage_cmd SECS BLOCK UNBLOCK: runs the command BLOCK, waits SECS, runs
# UNBLOCK (fixed strings of this script, split on spaces); sets D_MIN and
# D_MAX. The window around each change is the command's whole run, exec
# included: wider than outage_port's.
outage_cmd() {
	# shellcheck disable=SC2016 # expanded by that bash
	t=$(bash -c 'a=$EPOCHREALTIME; $2 || exit 1; b=$EPOCHREALTIME
		sleep "$1"; c=$EPOCHREALTIME; $3 || exit 1; d=$EPOCHREALTIME
		echo "$a $b $c $d"' outage "$@") || return 1
	bounds "$t"
}

# bounds "A B C D": the first change was in [A, B], the second in [C, D]
# (seconds): D_MIN = C - B, D_MAX = D - A, in ms.
bounds() {
	D_MIN=$(echo "$1" | awk '{ printf "%.3f", ($3 - $2) * 1000 }')
	D_MAX=$(echo "$1" | awk '{ printf "%.3f", ($4 - $1) * 1000 }')
}

# gap_checks NAME FLOW PPS: the sink's report (SINK) against the outage.
gap_checks() {
	name=$1 flow=$2 pps=$3
	line=$(printf '%s' "$SINK" | sed -n "s/.*{\"flow\":$flow,\\([^]]*\\]\\).*/\\1/p")
	# vid received lost duplicated reordered longest_gap_ms, first_seq
	# and last_seq (with frames received), then first last ms per gap
	set -- $(printf '%s' "$line" | tr -c '0-9.\n' ' ')
	rcv=${2:-0} lost=${3:-0} dup=${4:-0} reo=${5:-0}
	if [ "$rcv" -gt 0 ] && [ "$#" -ge 8 ]; then
		shift 8
	elif [ "$#" -ge 6 ]; then
		shift 6
	else
		set --
	fi
	# Every check here needs the receiver to keep up with the flow: on
	# the debug kernel they skip, and the suite only drives the paths.
	WHY="$name: sink $SINK; outage $D_MIN..$D_MAX ms; gen '$GEN_OUT'"
	timed "$name: sent = received + lost, none doubled or reordered" \
		test "$((rcv + lost))" = "${SENT:-x}" -a "$dup" = 0 -a "$reo" = 0
	WHY="$name: no gap, sink $SINK"
	timed "$name: the outage shows as a gap" test "$#" -ge 3
	[ "$#" -ge 3 ] || return
	# The outage's gap is the longest; others are frames lost on the
	# way (a veth ring overflowing when the host stalls the guest),
	# tolerated up to 1% of the flow and shown.
	verdict=$(echo "$@" | awk -v pps="$pps" -v dmin="$D_MIN" -v transit=5 \
		-v dmax="$D_MAX" -v sent="$SENT" '{
		for (i = 1; i + 2 <= NF; i += 3) {
			n = $(i + 1) - $i + 1
			if (n > best) {
				stray += best; best = n
				first = $i; last = $(i + 1); ms = $(i + 2)
			} else {
				stray += n
			}
		}
		iv = 1000 / pps; len = best * iv
		# TRANSIT: frames in flight when a state changes (veth rings,
		# softirqs that wait for the CPU under TCG) move the
		# edges of the hole by a few ms whatever the rate.
		ok = len >= dmin - 2 * iv - transit && len <= dmax + 2 * iv + transit
		# The receive times around the hole span at least the missing
		# frames and one interval, and at most the outage (a sender
		# the host stalls sends late, not lost), give or take 2
		# intervals + 10 ms of wake-up latency under TCG.
		slack = 2 * iv + 10
		tok = ms >= len + iv - slack && ms <= dmax + iv + slack
		inside = first > 0 && last < sent - 1
		sok = stray <= sent / 100
		printf "%d %d %d %d length %.1f ms (%d frames x %.1f ms, seq %d..%d), outage %.1f..%.1f ms, receive gap %.1f ms, %d more gaps with %d frames\n",
			ok, tok, inside, sok, len, best, iv, first, last,
			dmin, dmax, ms, NF / 3 - 1, stray }')
	set -- $verdict
	echo "# $name: ${verdict#* * * * }"
	WHY="$name: $verdict"
	timed "$name: gap length = outage +- 2 intervals (+ 5 ms transit)" \
		test "$1" = 1
	WHY="$name: $verdict"
	timed "$name: its receive times span it, within the outage" \
		test "$2" = 1
	WHY="$name: $verdict"
	timed "$name: the gap is inside the flow" test "$3" = 1
	WHY="$name: $verdict"
	timed "$name: other losses at most 1% of the flow" test "$4" = 1
}

# flow_through NAME FLOW PPS COUNT VID OUTAGE...: a flow of COUNT frames
# (long enough to outlast the outage and the seconds before it)
# at PPS (VID 0: untagged); once the sink has 0.5 s of it, the outage
# (outage_port or outage_cmd and their arguments); then gap_checks.
flow_through() {
	name=$1 flow=$2 pps=$3 count=$4 vid=$5
	shift 5
	tag=
	[ "$vid" != 0 ] && tag="-v $vid"
	sink_start ps snk
	ip netns exec gen probe-gen -m xdp -i pg -d "$PS_MAC" -f "$flow" \
		-r "$pps" -n "$count" $tag >/tmp/probe_gap.out 2>&1 &
	gen_pid=$!
	if ! sink_wait_for "$flow" $((pps / 2)) 60; then
		fail "$name: the flow arrives" "the sink saw too little of it: $(cat "$SINK_JSON")"
		wait "$gen_pid"
		sink_stop
		return
	fi
	if ! "$@"; then
		fail "$name: the outage" "'$*' failed"
		wait "$gen_pid"
		sink_stop
		return
	fi
	wait "$gen_pid"
	GEN_OUT=$(cat /tmp/probe_gap.out)
	sink_stop
	SENT=$(printf '%s' "$GEN_OUT" |
		sed -n "s/^probe-gen: flow $flow sent \\([0-9]*\\) (xdp)\$/\\1/p")
	WHY="probe-gen said '$GEN_OUT'"
	check "$name: probe-gen sent $count frames (xdp)" test "$SENT" = "$count"
	gap_checks "$name" "$flow" "$pps"
}

if ! setup || ! bridge_up 0; then
	echo "not ok 1 - probe_gap: setup failed"
	echo "1..1"
	exit 1
fi
trap cleanup EXIT

# 1000 pps (1 ms interval), the port disabled for ~300 ms. (Without STP
# "blocking" does not stay: the bridge makes the port forward again.)
flow_through "port disabled, 1000 pps" 1 1000 5000 0 outage_port 0.3 0
# 200 pps (5 ms interval), the port disabled for ~500 ms.
flow_through "port disabled, 200 pps" 2 200 1000 0 outage_port 0.5 0

ip link del br0
ip link del bg 2>/dev/null
ip link del bs 2>/dev/null
if bridge_up 1; then
	# One MST instance blocked: the tagged flow in its VLAN stops.
	flow_through "MSTI 1 blocked, VLAN 10, 500 pps" 3 500 2500 10 \
		outage_cmd 0.4 "mstctl set dev bs msti 1 state blocking" \
		"mstctl set dev bs msti 1 state forwarding"
else
	fail "a VLAN-aware bridge with MST" "setup failed"
fi

tap_end
