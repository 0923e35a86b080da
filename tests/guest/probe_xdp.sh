#!/bin/sh
# guest-run: nics=2
# Guest tests for probe-gen's send modes: BPF_PROG_RUN live frames (xdp)
# and AF_PACKET, received by probe-sink.
#
# Runs as root INSIDE the guest VM (busybox sh); never on the build host:
# it loads XDP programs and creates veths and network namespaces. Prints
# TAP ("ok N - ..." / "not ok N - ..." + "# reason") and exits non-zero
# if anything failed.
#
# Wires: veth pg (namespace gen, where probe-gen runs) <-> ps (here, where
# probe-sink runs and writes its JSON), and the two virtio-net NICs that
# guest-run puts on one QEMU hub (the "nics=2" line above).

. /lab/lib/probe.sh

# nic_by_mac MAC: the interface with that address.
nic_by_mac() {
	for d in /sys/class/net/*; do
		[ "$(cat "$d/address" 2>/dev/null)" = "$1" ] && basename "$d" &&
			return 0
	done
	return 1
}

PS_MAC=02:00:00:00:0b:02

# only_flow JSON FLOW VID RECEIVED: a sink's report with that one flow,
# whole.
only_flow() {
	SINK=$1
	sink_has "$2" "$3" "$4" &&
		[ "$(printf '%s' "$1" | grep -o '"flow":' | wc -l)" -eq 1 ]
}

if ! veth_setup; then
	echo "not ok 1 - probe_xdp: setup failed"
	echo "1..1"
	exit 1
fi
trap veth_cleanup EXIT

# --- bad parameters: one clear line each, before anything is sent -------
expect_usage "probe-gen --help prints its usage" "usage: probe-gen -i IFACE" \
	probe-gen --help
expect_usage "... and so does -h" "usage: probe-gen -i IFACE" probe-gen -h
expect_usage "probe-sink --help prints its usage" \
	"usage: probe-sink -i IFACE" probe-sink --help
expect_err "an unknown mode is refused" 2 "mode 'fast' is not xdp" \
	gen -m fast -i pg -d "$PS_MAC" -f 1 -n 1
expect_err "VLAN 0 is refused" 2 "VLAN '0' is not in 1..4094" \
	gen -i pg -d "$PS_MAC" -f 1 -v 0 -n 1
expect_err "VLAN 4095 is refused" 2 "VLAN '4095' is not in 1..4094" \
	gen -i pg -d "$PS_MAC" -f 1 -v 4095 -n 1
expect_err "rate 0 is refused" 2 "rate (frames/s) '0' is not in" \
	gen -i pg -d "$PS_MAC" -f 1 -r 0 -n 1
expect_err "an unknown interface is named" 2 "no interface 'nosuch0'" \
	probe-gen -m xdp -i nosuch0 -d "$PS_MAC" -f 1 -n 1
expect_err "VLAN 5000 is refused" 2 "VLAN '5000' is not in 1..4094" \
	gen -i pg -d "$PS_MAC" -f 1 -v 5000 -n 1
expect_err "a rate above 1000000 is refused" 2 \
	"rate (frames/s) '1000001' is not in 1..1000000" \
	gen -i pg -d "$PS_MAC" -f 1 -r 1000001 -n 1
expect_err "a non-numeric rate is refused" 2 "rate (frames/s) 'fast' is not in" \
	gen -i pg -d "$PS_MAC" -f 1 -r fast -n 1
expect_err "a bad destination MAC is refused" 2 "bad MAC address '02:00:zz'" \
	gen -i pg -d 02:00:zz -f 1 -n 1
expect_err "a flow id above 65535 is refused" 2 "flow '65536' is not in 0..65535" \
	gen -i pg -d "$PS_MAC" -f 65536 -n 1
expect_err "an unknown interface is named in auto mode too" 2 \
	"no interface 'nosuch0'" \
	probe-gen -i nosuch0 -d "$PS_MAC" -f 1 -n 1
expect_err "... and with af_packet" 2 "no interface 'nosuch0'" \
	probe-gen -m af_packet -i nosuch0 -d "$PS_MAC" -f 1 -n 1
expect_err "the sink names an unknown interface" 2 "no interface 'nosuch0'" \
	probe-sink -i nosuch0 -o /tmp/x.json
expect_err "the sink refuses a bad flow id" 2 "flow '-1' is not in 0..65535" \
	probe-sink -i ps -o /tmp/x.json -f -1
ip -n gen link add pbr type bridge && ip -n gen link set pbr up
expect_err "xdp on a driver without XDP transmit says so" 1 \
	"driver bridge of pbr has no XDP transmit (ndo_xdp_xmit)" \
	gen -m xdp -i pbr -d "$PS_MAC" -f 1 -n 1

# --- veth without NAPI on the peer: XDP frames are dropped there --------
expect_err "xdp on a veth whose peer cannot take XDP frames fails clearly" 1 \
	"do not reach its peer" \
	gen -m xdp -i pg -d "$PS_MAC" -f 1 -n 5 -r 1000

sink_start ps
run_split gen -i pg -d "$PS_MAC" -f 2 -n 50 -r 1000
sink_stop
check "auto falls back to af_packet and says so" said \
	"probe-gen: flow 2 sent 50 (af_packet)"
check "... naming the reason on stderr" err_says \
	"no live frames on pg (.*do not reach its peer.*): using af_packet"
check "... and the sink gets all 50 from seq 0" sink_has 2 0 50

# --- veth with GRO on the peer (NAPI): live frames are delivered --------
ethtool -K ps gro on >/dev/null 2>&1
sink_start ps
t0=$(uptime_cs)
run_split gen -m xdp -i pg -d "$PS_MAC" -f 3 -n 1000 -r 500
t1=$(uptime_cs)
sink_stop
check "xdp sends 1000 frames on veth" said "probe-gen: flow 3 sent 1000 (xdp)"
check "... all received in order, none lost or doubled" sink_has 3 0 1000
WHY="1000 frames at 500/s took $((t1 - t0))0 ms"
timed "... paced: 1000 at 500/s take about 2 s" \
	test $((t1 - t0)) -ge 195 -a $((t1 - t0)) -le 400

sink_start ps
run_split gen -m xdp -i pg -d "$PS_MAC" -f 4 -v 10 -n 300 -r 1000
sink_stop
check "xdp sends a VLAN-tagged flow" said "probe-gen: flow 4 sent 300 (xdp)"
check "... received whole with its VLAN" sink_has 4 10 300

sink_start ps
run_split gen -i pg -d "$PS_MAC" -f 5 -n 200 -r 1000 -s 1000
sink_stop
check "auto picks xdp when it works" said "probe-gen: flow 5 sent 200 (xdp)"
check "... 1000-octet frames received whole" sink_has 5 0 200

sink_start ps
run_split gen -m af_packet -i pg -d "$PS_MAC" -f 6 -n 300 -r 1000
sink_stop
check "forced af_packet still works" said \
	"probe-gen: flow 6 sent 300 (af_packet)"
check "... received whole" sink_has 6 0 300

# Two probe-gens at once out of pg: one attaches its probe_stamp there
# (in place of the last test's, whose probe-gen has exited), the other
# leaves it to it and runs its own; each flow keeps its own sequence.
export PROBE_GEN_DEBUG=1
sink_start ps
gen -m xdp -i pg -d "$PS_MAC" -f 10 -n 600 -r 1000 >/tmp/probe_xdp.out 2>&1 &
gen10=$!
run_split gen -m xdp -i pg -d "$PS_MAC" -f 11 -n 400 -r 1000 -v 5
wait "$gen10"
unset PROBE_GEN_DEBUG
sink_stop
BOTH="$(cat /tmp/probe_xdp.out) $ERR"
WHY="they said: $BOTH"
# "At once" needs both to start within the first one's 0.6 s: not so on
# the debug kernel.
timed "one of two probe-gens at once attaches, the other leaves it" eval \
	'[ "$(printf "%s" "$BOTH" | grep -c "probe_stamp attached")" -eq 1 ] &&
	 printf "%s" "$BOTH" | grep -q "not attached: a running probe-gen"'
WHY="$(ip -n gen link show pg)"
check "probe_stamp stays attached to pg for its flows" \
	eval 'ip -n gen link show pg | grep -q "prog/xdp id [0-9]* name probe_stamp"'
check "two probe-gens at once, each flow counted whole" \
	eval 'sink_has 10 0 600 && sink_has 11 5 400'

# Several flows from one probe-gen: one wake-up per tick sends them all.
sink_start ps
run_split gen -m xdp -i pg -d "$PS_MAC" -f 12,13,14 -v 7,8,9 -n 300 -r 1000
sink_stop
check "one probe-gen sends three flows (xdp)" said "probe-gen: flow 12 sent 300 (xdp)
probe-gen: flow 13 sent 300 (xdp)
probe-gen: flow 14 sent 300 (xdp)"
timed "... each received whole in its VLAN" \
	eval 'sink_has 12 7 300 && sink_has 13 8 300 && sink_has 14 9 300'
expect_err "flows and VLANs pair up" 2 "3 flows but 2 VLANs" \
	gen -i pg -d "$PS_MAC" -f 1,2,3 -v 7,8 -n 1

# Tagged and untagged flows in one probe-gen: one run a tick sends them
# all, the program writing each frame's tag or none. VLAN devices on ps
# take only their VLAN's frames: flow 15 must reach ps.7 alone, flow 17
# ps.9 alone, and untagged flow 16 neither.
ip link add link ps name ps.7 type vlan id 7 && ip link set ps.7 up
ip link add link ps name ps.9 type vlan id 9 && ip link set ps.9 up
probe-sink -i ps.7 -o /tmp/probe-vlan7.json &
probe-sink -i ps.9 -o /tmp/probe-vlan9.json &
sink_start ps
run_split gen -m xdp -i pg -d "$PS_MAC" -f 15,16,17 -v 7,-,9 -n 400 -r 1000
sink_stop
wait
V7=$(cat /tmp/probe-vlan7.json 2>/dev/null)
V9=$(cat /tmp/probe-vlan9.json 2>/dev/null)
check "one probe-gen sends tagged and untagged flows (xdp)" said \
	"probe-gen: flow 15 sent 400 (xdp)
probe-gen: flow 16 sent 400 (xdp)
probe-gen: flow 17 sent 400 (xdp)"
timed "... each received whole, in order from seq 0, with its VLAN" \
	eval 'sink_has 15 7 400 && sink_has 16 0 400 && sink_has 17 9 400'
timed "... each tagged as its own on the wire, the untagged one not" \
	eval 'only_flow "$V7" 15 7 400 && only_flow "$V9" 17 9 400'
ip link del ps.7
ip link del ps.9
rm -f /tmp/probe-vlan7.json /tmp/probe-vlan9.json

sink_start ps
gen -m xdp -i pg -d "$PS_MAC" -f 7 -r 1000 >/tmp/probe_xdp.out 2>&1 &
gen=$!
sleep 1
# ip netns exec waits for its child: signal probe-gen itself.
kill $(pidof probe-gen)
wait "$gen"
RC=$?
OUT=$(cat /tmp/probe_xdp.out)
sink_stop
sent=$(printf '%s' "$OUT" | sed -n 's/^probe-gen: flow 7 sent \([0-9]*\) (xdp)$/\1/p')
WHY="probe-gen said '$OUT' (exit $RC)"
check "xdp stops on SIGTERM and reports what it sent" \
	test "$RC" -eq 0 -a -n "$sent"
check "... exactly what the sink got" sink_has 7 0 "${sent:-x}"

# --- virtio_net (two NICs on a QEMU hub) ---------------------------------
A=$(nic_by_mac 52:54:00:12:00:01)
B=$(nic_by_mac 52:54:00:12:00:02)
if [ -z "$A" ] || [ -z "$B" ]; then
	skip "xdp on virtio_net" "no hub NIC pair (VM_NICS=2)"
else
	ip link set "$A" up && ip link set "$B" up
	sink_start "$B"
	run_split probe-gen -m xdp -i "$A" -d 52:54:00:12:00:02 -f 8 -n 500 -r 1000
	sink_stop
	check "xdp sends on virtio_net (probe_stamp loaded for ndo_xdp_xmit)" \
		said "probe-gen: flow 8 sent 500 (xdp)"
	check "... received whole through the hub" sink_has 8 0 500
	WHY="$(ip link show "$A")"
	check "... and leaves it loaded for the NIC's other flows" \
		eval 'ip link show "$A" | grep -q "prog/xdp id [0-9]* name probe_stamp"'
	# QEMU's virtio-net drops VLANs the guest has not registered (its
	# VLAN filter): a VLAN device registers 20, and receives the flow.
	ip link add link "$B" name "$B.20" type vlan id 20
	ip link set "$B.20" up
	sink_start "$B.20"
	export PROBE_GEN_DEBUG=1
	run_split probe-gen -i "$A" -d 52:54:00:12:00:02 -f 9 -v 20 -n 300 -r 1000
	unset PROBE_GEN_DEBUG
	sink_stop
	check "a second probe-gen (auto, tagged) sends xdp too" \
		said "probe-gen: flow 9 sent 300 (xdp)"
	check "... with its program in place of the first's, which has exited" \
		err_says "probe_stamp attached in place of an earlier"
	check "... received whole" sink_has 9 20 300
	ip link set dev "$A" xdp off
	ip link del "$B.20"
	ip link set "$A" down
	ip link set "$B" down
fi

tap_end
