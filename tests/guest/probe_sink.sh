#!/bin/sh
# Guest tests for probe-sink's accounting, with crafted probe frames:
# ethsend sends the sequence numbers chosen here, one frame each, so
# duplicates, reordering and losses are exactly known; and malformed frames
# of the probe EtherType (other magic, other version, too short) are
# counted as such and do not stop the sink.
#
# Runs as root INSIDE the guest VM; never on the build host. Prints TAP.
#
# Wires: veth pg (namespace gen, ethsend) <-> ps (here, probe-sink).

. /lab/lib/probe.sh

PS_MAC=02:00:00:00:0d:02

# probe_hex FLOW VID SEQ [MAGIC [VERSION]]: the frame after the source
# address (lab/libmst/probe_wire.h), send time 0.
probe_hex() {
	printf '88b5 %s %s %04x %04x 0000 %08x 0000000000000000' \
		"${4:-4d4c5052}" "${5:-0001}" "$1" "$2" "$3"
}

# send_seqs FLOW VID SEQ...: one frame per sequence number, in order
# (tagged when VID is not 0).
send_seqs() {
	flow=$1 vid=$2
	shift 2
	tag=
	[ "$vid" != 0 ] && tag="-v $vid"
	for s in "$@"; do
		# shellcheck disable=SC2086 # $tag is empty or two words
		ip netns exec gen ethsend -i pg -d "$PS_MAC" $tag \
			"$(probe_hex "$flow" "$vid" "$s")" || return 1
	done
}

# raw HEX [-u]: one frame as it is (-u: unpadded, a runt on the veth).
raw() { ip netns exec gen ethsend -i pg -d "$PS_MAC" $2 "$1"; }

# flow_is FLOW VID RECEIVED LOST DUPS REORDERED FIRST LAST GAPS: the
# flow's report; FIRST and LAST the lowest and highest seq that arrived,
# GAPS the JSON list of {"first","last"} without the times.
flow_is() {
	got=$(printf '%s' "$SINK" | sed -n "s/.*\\({\"flow\":$1,[^]]*\\]\\).*/\\1/p" |
		sed 's/,"ms":[0-9.]*//g; s/"longest_gap_ms":[0-9.]*,//')
	want="{\"flow\":$1,\"vid\":$2,\"received\":$3,\"lost\":$4,\"duplicated\":$5,\"reordered\":$6,\"first_seq\":$7,\"last_seq\":$8,\"gaps\":$9"
	WHY="flow $1: got '$got', want '$want' (sink: $SINK)"
	[ "$got" = "$want" ]
}

if ! veth_setup; then
	echo "not ok 1 - probe_sink: setup failed"
	echo "1..1"
	exit 1
fi
trap veth_cleanup EXIT

sink_start ps
# Flow 1: 2 twice (a duplicate), 5 before 4 (4 is reordered; its hole
# stays listed as the gap the data plane showed at the time).
send_seqs 1 0 0 1 2 2 3 5 4 6
check "crafted frames sent (flow 1)" test $? = 0
# Flow 2, tagged, interleaved after flow 1: 2 and 3 lost, 2 arrives late,
# 6..8 lost; 4 and 5 a run between the holes.
send_seqs 2 10 0 1 4 5 2 9
check "crafted frames sent (flow 2, VLAN 10)" test $? = 0
# Malformed frames of the probe EtherType: another magic, another
# version, a header cut short (a runt), nothing after the EtherType.
raw "$(probe_hex 1 0 7 00000000)"
raw "$(probe_hex 1 0 7 4d4c5052 0002)"
raw "88b5 4d4c5052 0001 0001" -u
raw "88b5" -u
# ... and then a good frame: the sink is still counting.
send_seqs 1 0 7
WHY="probe-sink (pid $SINK_PID) is gone after the malformed frames"
check "the sink survives malformed frames" kill -0 "$SINK_PID"
sink_stop

check "duplicate and reordered frame counted, the hole listed" flow_is \
	1 0 8 0 1 1 0 7 '[{"first":4,"last":4}]'
check "losses, a late frame and two holes counted (tagged flow)" flow_is \
	2 10 6 4 0 1 0 9 '[{"first":2,"last":3},{"first":6,"last":8}]'
WHY="sink: $SINK (want \"malformed\":4,\"dropped\":0)"
check "malformed frames counted, not taken for a flow" \
	eval 'printf "%s" "$SINK" | grep -q "\],\"malformed\":4,\"dropped\":0}$" &&
		! printf "%s" "$SINK" | grep -q "{\"flow\":[^12],"'

# dump_after SEQ: sends flow 3's frame SEQ and at once SIGUSR1; the report
# it writes (within 2 s) must count it, though the frame may still sit in
# a ring block the kernel has not handed over (up to 20 ms).
dump_after() {
	rm -f "$SINK_JSON"
	send_seqs 3 0 "$1" && kill -USR1 "$SINK_PID" || return 1
	tries=20
	while [ ! -s "$SINK_JSON" ] && [ "$tries" -gt 0 ]; do
		sleep 0.1
		tries=$((tries - 1))
	done
	SINK=$(cat "$SINK_JSON" 2>/dev/null)
	flow_is 3 0 $(($1 + 1)) 0 0 0 0 "$1" '[]'
}
# A quarter of such reports missed the frame when the sink did not wait
# for the block (40 tried): 16 rounds catch that 99 times in 100.
dumps() {
	n=0
	while [ "$n" -lt 16 ]; do
		dump_after "$n" || return 1
		n=$((n + 1))
	done
}

# The report is written on SIGUSR1 too, while counting goes on.
sink_start ps
check "SIGUSR1 writes the report so far, with the last frame (16 times)" \
	dumps
send_seqs 3 0 16
sink_stop
check "... and counting goes on" flow_is 3 0 17 0 0 0 0 16 '[]'

# -f 2: flow 2 only; malformed frames still counted.
probe-sink -i ps -o "$SINK_JSON" -f 2 &
SINK_PID=$!
sleep 0.5
send_seqs 1 0 0 1 2
send_seqs 2 10 0 1 3
raw "$(probe_hex 2 0 7 00000000)"
sink_stop
check "-f: that flow counted" flow_is 2 10 3 1 0 0 0 3 '[{"first":2,"last":2}]'
WHY="sink: $SINK"
check "-f: no other flow, the malformed frame counted" \
	eval 'printf "%s" "$SINK" | grep -q "\],\"malformed\":1,\"dropped\":0}$" &&
		! printf "%s" "$SINK" | grep -q "{\"flow\":[^2],"'

# Frames lost before the first that arrives sit in no gap (nothing before
# them dates one): they are in "lost", and first_seq says where it began.
sink_start ps
send_seqs 5 0 3 4
sink_stop
check "frames before the first arrival: lost, in no gap, first_seq 3" \
	flow_is 5 0 2 3 0 0 3 4 '[]'

# ... and its socket filter keeps the other flows' frames from waking
# it: 1000 frames of flow 1 in 1 s would wake it once per ring block
# (20 ms: ~50 times); filtered out, only its 200 ms poll timeouts do.
wakeups() { sed -n 's/^voluntary_ctxt_switches:[[:space:]]*//p' "/proc/$1/status"; }
probe-sink -i ps -o "$SINK_JSON" -f 2 &
SINK_PID=$!
sleep 0.5
w0=$(wakeups "$SINK_PID")
ip netns exec gen probe-gen -m af_packet -i pg -d "$PS_MAC" -f 1 -r 1000 \
	-n 1000 >/dev/null
w1=$(wakeups "$SINK_PID")
sink_stop
WHY="woken $((w1 - w0)) times while 1000 frames of flow 1 arrived (want < 20)"
check "-f: other flows' frames do not wake the sink" test $((w1 - w0)) -lt 20
echo "# sink woken $((w1 - w0)) times in 1000 frames of another flow"
WHY="sink: $SINK"
check "-f: ... nor count in its report" \
	eval 'printf "%s" "$SINK" | grep -q "^{\"flows\":\[\],\"malformed\":0,\"dropped\":0}$"'

# sink_and_flow FLOW COUNT: a sink of FLOW alone (SINK_PID), then COUNT
# frames of it at 1000 frames/s (GEN), 500 of them received on return.
sink_and_flow() {
	probe-sink -i ps -o "$SINK_JSON" -f "$1" &
	SINK_PID=$!
	sleep 0.5
	ip netns exec gen probe-gen -m af_packet -i pg -d "$PS_MAC" -f "$1" \
		-r 1000 -n "$2" >/dev/null &
	GEN=$!
	sink_wait_for "$1" 500 60
}

# A sink kept off the CPU for a second loses nothing: its receive ring
# holds the frames meanwhile (2.5 s of them at 1000 small frames/s).
sink_and_flow 4 2000
kill -STOP "$SINK_PID"
sleep 1
kill -CONT "$SINK_PID"
wait "$GEN"
sink_stop
check "a sink stopped for 1 s loses no frame" flow_is 4 0 2000 0 0 0 0 1999 '[]'
WHY="sink: $SINK"
check "... and its ring had room for all" \
	eval 'printf "%s" "$SINK" | grep -q ",\"dropped\":0}$"'

# Ended while its flow still runs, a sink waits for the block being filled
# at the signal, not for the flow: it is gone within half a second.
sink_and_flow 5 5000
t0=$(now_ms)
kill "$SINK_PID"
wait "$SINK_PID"
t1=$(now_ms)
SINK_PID=
kill "$GEN" 2>/dev/null
wait "$GEN" 2>/dev/null
WHY="the sink took $((t1 - t0)) ms to end; report: $(cat "$SINK_JSON" 2>/dev/null)"
check "a sink ended while its flow runs is gone within 0.5 s, its report written" \
	eval '[ $((t1 - t0)) -lt 500 ] && grep -q "\"flow\":5," "$SINK_JSON"'
echo "# sink ended $((t1 - t0)) ms after SIGTERM, its flow running"

tap_end
