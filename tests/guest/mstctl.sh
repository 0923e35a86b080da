#!/bin/sh
# Guest test suite for mstctl and the kernel bridge's MST mode.
#
# Runs as root INSIDE the guest VM (busybox sh, iproute2 ip/bridge, mstctl
# on PATH); never on the build host: it creates bridges, veths and network
# namespaces. Prints "ok N - ..." / "not ok N - ..." (+ "# reason") lines
# and a plan at the end; exits non-zero if anything failed.
#
# Topology: br0 (vlan_filtering, MST on) with ports p1, p2; their veth peers
# e1, e2 live in namespaces ns1, ns2 with VLAN interfaces for 10, 20, 30.
# VLANs 10 and 20 are in MSTI 1, VLAN 30 in MSTI 2.

. /lab/lib/guest.sh

# vlan_state PORT VID: the per-VLAN state `bridge -d vlan show` reports
# (a "vlan-id" line, possibly a range like 40-42, then a "state" line).
vlan_state() {
	bridge -d vlan show dev "$1" | awk -v vid="$2" '
		function range(f,  n, r) {
			if (f !~ /^[0-9]+(-[0-9]+)?$/)
				return 0
			n = split(f, r, "-")
			lo = r[1] + 0
			hi = (n > 1 ? r[2] : r[1]) + 0
			return 1
		}
		BEGIN { lo = -1; hi = -1; vid += 0 }
		$1 == "state" {
			if (vid >= lo && vid <= hi) { print $2; exit }
			next
		}
		{ if (!range($1)) range($2) }'
}

# vlan_state_is PORT VID STATE
vlan_state_is() {
	got=$(vlan_state "$1" "$2")
	WHY="$1 vid $2 is '$got', want '$3'"
	[ "$got" = "$3" ]
}

# msti_state_is PORT MSTI STATE: from `mstctl -j show dev PORT`.
msti_state_is() {
	got=$(mstctl -j show dev "$1")
	WHY="mstctl -j show dev $1: $got (want msti $2 $3)"
	printf '%s' "$got" | grep -qF "{\"msti\":$2,\"state\":\"$3\"}"
}

# vid_msti_is BRIDGE VID MSTI: from `mstctl -j show dev BRIDGE`.
vid_msti_is() {
	got=$(mstctl -j show dev "$1")
	WHY="mstctl -j show dev $1: $got (want vid $2 msti $3)"
	printf '%s' "$got" | grep -qF "{\"vlan\":$2,\"msti\":$3}"
}

# pings NS ADDR: one echo answered within 2 s (a few tries for ARP).
pings() {
	ip netns exec "$1" ping -c 1 -W 2 "$2" >/dev/null 2>&1 ||
		ip netns exec "$1" ping -c 1 -W 2 "$2" >/dev/null 2>&1
}

# silent NS ADDR: nothing answers within 3 s.
silent() {
	! ip netns exec "$1" ping -c 3 -W 1 "$2" >/dev/null 2>&1
}

# fdb_has PORT MAC VID: a dynamic (not static, not permanent) entry.
fdb_has() {
	dump_has_dynamic "$(bridge fdb show dev "$1")" "$2" "$3"
}

# dump_has_dynamic DUMP MAC VID: the same, in a dump taken earlier, so a
# check reads the table as it was right after the operation it tests.
dump_has_dynamic() {
	printf '%s\n' "$1" | grep "^$2 vlan $3 " | grep -qv 'static\|permanent'
}

fdb_has_static() {
	bridge fdb show dev "$1" | grep "^$2 vlan $3 " | grep -q static
}

MAC1=02:00:00:00:01:01
MAC2=02:00:00:00:02:02
MACS=02:00:00:00:00:99
MON_PID=

cleanup() {
	[ -n "$MON_PID" ] && kill "$MON_PID" 2>/dev/null
	for l in br0 br1 br2 p1 p2 q1 lone0; do
		ip link del "$l" 2>/dev/null
	done
	for n in ns1 ns2; do
		ip netns del "$n" 2>/dev/null
	done
	rm -f /tmp/mstctl-monitor.out
}

# must CMD...: a setup step; says which one failed.
must() {
	"$@" && return 0
	echo "# setup step failed: $*"
	return 1
}

setup() {
	mkdir -p /var/run/netns /run/netns 2>/dev/null
	cleanup
	must ip netns add ns1 || return 1
	must ip netns add ns2 || return 1
	# MST must be on before a port joins: joining adds the PVID VLAN
	must ip link add br0 type bridge vlan_filtering 1 || return 1
	must mstctl enable dev br0 || return 1
	must ip link set br0 up || return 1
	for i in 1 2; do
		must ip link add "p$i" type veth peer name "e$i" \
			netns "ns$i" || return 1
		must ip link set "p$i" master br0 || return 1
		must ip link set "p$i" up || return 1
		for vid in 10 20 30; do
			must bridge vlan add dev "p$i" vid "$vid" || return 1
		done
		must ip -n "ns$i" link set "e$i" \
			address "02:00:00:00:0$i:0$i" || return 1
		must ip -n "ns$i" link set lo up || return 1
		must ip -n "ns$i" link set "e$i" up || return 1
		for vid in 10 20 30; do
			must ip -n "ns$i" link add link "e$i" \
				name "e$i.$vid" type vlan id "$vid" || return 1
			must ip -n "ns$i" addr add "10.0.$vid.$i/24" \
				dev "e$i.$vid" || return 1
			must ip -n "ns$i" link set "e$i.$vid" up || return 1
			# no ARP: a late probe would relearn a flushed entry
			must ip -n "ns$i" neigh replace "10.0.$vid.$((3 - i))" \
				lladdr "02:00:00:00:0$((3 - i)):0$((3 - i))" \
				dev "e$i.$vid" nud permanent || return 1
		done
	done
}

# ---- bridge-level commands --------------------------------------------------

test_enable_and_show() {
	run mstctl -j show dev br0
	case $OUT in
	*'"mst_enabled":true'*'"vlan_filtering":true'*)
		pass "show dev br0 reports MST enabled" ;;
	*)	fail "show dev br0 reports MST enabled" "$OUT" ;;
	esac
	run mstctl show dev br0
	case $OUT in
	"br0 mst_enabled 1 vlan_filtering 1"*)
		pass "show dev br0 in text" ;;
	*)	fail "show dev br0 in text" "$OUT" ;;
	esac
	check "VLANs start in the CIST (msti 0)" vid_msti_is br0 10 0
}

test_vlan_mapping() {
	expect_ok "vlan set vid 10 msti 1" \
		mstctl vlan set dev br0 vid 10 msti 1
	expect_ok "vlan set vid 20 msti 1" \
		mstctl vlan set dev br0 vid 20 msti 1
	expect_ok "vlan set vid 30 msti 2" \
		mstctl vlan set dev br0 vid 30 msti 2
	check "vid 10 maps to msti 1" vid_msti_is br0 10 1
	check "vid 20 maps to msti 1" vid_msti_is br0 20 1
	check "vid 30 maps to msti 2" vid_msti_is br0 30 2

	# gotcha: a new MSTI's port state starts disabled
	check "new msti 1 starts disabled on p1" msti_state_is p1 1 disabled
	check "new msti 2 starts disabled on p2" msti_state_is p2 2 disabled
	check "vid 10 follows msti 1: disabled" vlan_state_is p1 10 disabled
	check "vid 30 follows msti 2: disabled" vlan_state_is p2 30 disabled
	check "vid 1 stays in the CIST: forwarding" \
		vlan_state_is p1 1 forwarding

	# a range in one request
	for vid in 40 41 42; do
		bridge vlan add dev p1 vid "$vid"
	done
	expect_ok "vlan set a range vid 40-42 msti 3" \
		mstctl vlan set dev br0 vid 40-42 msti 3
	run mstctl show dev br0
	case $OUT in
	*"40-42      3"*) pass "show dev br0 prints the range 40-42" ;;
	*)	fail "show dev br0 prints the range 40-42" "$OUT" ;;
	esac
	run mstctl -j show dev br0
	case $OUT in
	*'{"vlan":40,"vlanEnd":42,"msti":3}'*)
		pass "JSON shows the range 40-42 in msti 3" ;;
	*)	fail "JSON shows the range 40-42 in msti 3" "$OUT" ;;
	esac
	check "vid 41 follows new msti 3: disabled" \
		vlan_state_is p1 41 disabled
}

# ---- port states and traffic ------------------------------------------------

test_port_states() {
	for p in p1 p2; do
		for m in 1 2; do
			expect_ok "set dev $p msti $m state forwarding" \
				mstctl set dev "$p" msti "$m" state forwarding
		done
	done
	check "msti 1 on p1 reads back forwarding" \
		msti_state_is p1 1 forwarding
	check "vid 10 on p1 follows: forwarding" vlan_state_is p1 10 forwarding
	check "vid 20 on p1 follows: forwarding" vlan_state_is p1 20 forwarding
	check "vid 30 on p2 follows: forwarding" vlan_state_is p2 30 forwarding

	run mstctl show
	case $OUT in
	"port              msti"*"p1"*"state forwarding"*)
		pass "show lists ports per MSTI like bridge mst" ;;
	*)	fail "show lists ports per MSTI like bridge mst" "$OUT" ;;
	esac

	for s in listening learning; do
		expect_ok "set dev p1 msti 2 state $s" \
			mstctl set dev p1 msti 2 state "$s"
		check "vid 30 on p1 follows: $s" vlan_state_is p1 30 "$s"
	done
	expect_ok "set dev p1 msti 2 state forwarding again" \
		mstctl set dev p1 msti 2 state forwarding
}

test_traffic() {
	WHY="no answer from 10.0.10.2"
	check "VLAN 10 carries traffic while msti 1 forwards" \
		wait_until 20 pings ns1 10.0.10.2
	WHY="no answer from 10.0.30.2"
	check "VLAN 30 carries traffic while msti 2 forwards" \
		wait_until 20 pings ns1 10.0.30.2

	expect_ok "set dev p1 msti 1 state blocking" \
		mstctl set dev p1 msti 1 state blocking
	check "vid 10 on p1 follows: blocking" vlan_state_is p1 10 blocking
	check "vid 20 on p1 follows: blocking" vlan_state_is p1 20 blocking
	check "vid 30 on p1 unaffected: forwarding" \
		vlan_state_is p1 30 forwarding
	check "msti 1 on p1 reads back blocking" msti_state_is p1 1 blocking
	WHY="10.0.10.2 still answers through a blocking port"
	check "VLAN 10 traffic stops when p1 blocks in msti 1" \
		silent ns1 10.0.10.2
	WHY="10.0.20.2 still answers through a blocking port"
	check "VLAN 20 (same msti) stops too" silent ns1 10.0.20.2
	WHY="no answer from 10.0.30.2"
	check "VLAN 30 keeps flowing meanwhile" pings ns1 10.0.30.2

	expect_ok "set dev p1 msti 1 state forwarding" \
		mstctl set dev p1 msti 1 state forwarding
	WHY="no answer from 10.0.10.2"
	check "VLAN 10 flows again after forwarding" \
		wait_until 20 pings ns1 10.0.10.2
}

# ---- FDB flush ----------------------------------------------------------------

test_flush() {
	for vid in 10 20 30; do
		pings ns1 "10.0.$vid.2"
	done
	bridge fdb add "$MACS" dev p1 vlan 10 master static
	WHY="$(bridge fdb show dev p1)"
	check "learnt $MAC1 on p1 in VLANs 10, 20, 30" \
		eval 'fdb_has p1 $MAC1 10 && fdb_has p1 $MAC1 20 &&
		      fdb_has p1 $MAC1 30 && fdb_has p2 $MAC2 10'

	expect_ok "flush dev p1 vid 10,20" mstctl flush dev p1 vid 10,20
	fdb=$(bridge fdb show dev p1)
	WHY="$fdb"
	check "flush removed p1's dynamic entry in VLAN 10" \
		eval '! dump_has_dynamic "$fdb" $MAC1 10'
	WHY="$fdb"
	check "flush removed p1's dynamic entry in VLAN 20" \
		eval '! dump_has_dynamic "$fdb" $MAC1 20'
	WHY="$fdb"
	check "flush kept p1's dynamic entry in VLAN 30" \
		dump_has_dynamic "$fdb" "$MAC1" 30
	WHY="$fdb"
	check "flush kept the static entry in VLAN 10" \
		fdb_has_static p1 "$MACS" 10
	WHY="$(bridge fdb show dev p2)"
	check "flush kept p2's entry in VLAN 10" fdb_has p2 "$MAC2" 10
	bridge fdb del "$MACS" dev p1 vlan 10 master 2>/dev/null
}

# ---- errors: message and exit code ----------------------------------------------

test_errors() {
	expect_usage "mstctl --help prints its usage" "Usage: mstctl [-j|--json]" \
		mstctl --help
	ip link add lone0 type veth peer name lone1
	ip link add br2 type bridge vlan_filtering 1
	ip link add q1 type veth peer name q2
	ip link set q1 master br2

	expect_err "unknown device" 2 'unknown device "nosuch0"' \
		mstctl set dev nosuch0 msti 1 state blocking
	expect_err "unknown device for enable" 2 'unknown device "nosuch0"' \
		mstctl enable dev nosuch0
	expect_err "port not in a bridge" 2 "lone0 is not a bridge port" \
		mstctl set dev lone0 msti 1 state blocking
	expect_err "flush on a port not in a bridge" 2 \
		"lone0 is not a bridge port" mstctl flush dev lone0 vid 10
	expect_err "enable on a non-bridge" 2 "lone0 is not a bridge" \
		mstctl enable dev lone0
	expect_err "MSTI 0 rejected by set" 2 "MSTI 0 is outside 1..4094" \
		mstctl set dev p1 msti 0 state blocking
	expect_err "MSTI 4095 rejected by set" 2 "MSTI 4095 is outside 1..4094" \
		mstctl set dev p1 msti 4095 state blocking
	expect_err "MSTI 4095 rejected by vlan set" 2 \
		"MSTI 4095 is outside 0..4094" \
		mstctl vlan set dev br0 vid 10 msti 4095
	expect_err "VID 0 rejected by flush" 2 'VID "0" is outside 1..4094' \
		mstctl flush dev p1 vid 0
	expect_err "VID 4095 rejected by flush" 2 \
		'VID "4095" is outside 1..4094' mstctl flush dev p1 vid 10,4095
	expect_err "VID 4095 rejected by vlan set" 2 \
		'VID "4095" is outside 1..4094' \
		mstctl vlan set dev br0 vid 4095 msti 1
	expect_err "unknown state" 2 'unknown state "discarding"' \
		mstctl set dev p1 msti 1 state discarding
	expect_err "missing argument" 2 'set needs "state"' \
		mstctl set dev p1 msti 1
	expect_err "unknown command" 2 'unknown command "frobnicate"' \
		mstctl frobnicate
	expect_err "MST disabled: vlan set refused" 1 "MST is disabled on br2" \
		mstctl vlan set dev br2 vid 1 msti 1
	expect_err "MST disabled: the kernel refuses a port state" 1 \
		"Can't modify MST state when MST is disabled" \
		mstctl set dev q1 msti 1 state blocking
	expect_err "kernel extack: VLAN range that does not exist" 1 \
		"Vlan in range doesn't exist" \
		mstctl vlan set dev br0 vid 10-20 msti 1
	check "the failed range left vid 10 in msti 1" vid_msti_is br0 10 1
}

# ---- the kernel's gotchas ------------------------------------------------------------

test_gotchas() {
	# q1 joined br2 with the default PVID VLAN 1: MST can't be toggled
	expect_err "enable with VLANs present fails with the kernel's text" 1 \
		"MST mode can't be changed while VLANs exist" \
		mstctl enable dev br2
	run mstctl -j show dev br2
	case $OUT in
	*'"mst_enabled":false'*) pass "the failed enable left MST off" ;;
	*)	fail "the failed enable left MST off" "$OUT" ;;
	esac

	# a bridge without ports can toggle freely
	ip link add br1 type bridge vlan_filtering 1
	expect_ok "enable MST on an empty bridge" mstctl enable dev br1
	expect_ok "disable MST on an empty bridge" mstctl disable dev br1
	run mstctl -j show dev br1
	case $OUT in
	*'"mst_enabled":false'*) pass "disable reads back as off" ;;
	*)	fail "disable reads back as off" "$OUT" ;;
	esac

	# the mapping is lost when the last port leaves the VLAN
	bridge vlan del dev p1 vid 30
	check "vid 30 keeps msti 2 while p2 still has it" vid_msti_is br0 30 2
	bridge vlan del dev p2 vid 30
	bridge vlan add dev p1 vid 30
	check "vid 30 is back in the CIST after its last port left" \
		vid_msti_is br0 30 0
	expect_ok "re-apply vid 30 msti 2" \
		mstctl vlan set dev br0 vid 30 msti 2
	check "vid 30 maps to msti 2 again" vid_msti_is br0 30 2
	bridge vlan add dev p2 vid 30

	# setting a state in an MSTI the port has no VLAN in does nothing
	expect_ok "set an msti without VLANs on the port succeeds" \
		mstctl set dev p2 msti 3 state forwarding
	case $OUT in
	*"warning: p2 has no VLAN in MSTI 3"*)
		pass "set warns that the kernel kept no state" ;;
	*)	fail "set warns that the kernel kept no state" "$OUT" ;;
	esac
	run mstctl -j show dev p2
	case $OUT in
	*'"msti":3'*) fail "p2 has no msti 3 entry" "$OUT" ;;
	*)	pass "p2 has no msti 3 entry" ;;
	esac
	# a VLAN joining a port takes the port's CIST state, not its MSTI's
	bridge vlan add dev p2 vid 40
	check "vid 40 joining p2 starts in p2's CIST state (forwarding)" \
		vlan_state_is p2 40 forwarding
	# a VLAN mapped into an MSTI inherits that MSTI's state on the port
	expect_ok "set dev p1 msti 3 state blocking" \
		mstctl set dev p1 msti 3 state blocking
	bridge vlan add dev p1 vid 43
	check "vid 43 starts forwarding in the CIST" \
		vlan_state_is p1 43 forwarding
	expect_ok "map vid 43 into msti 3" \
		mstctl vlan set dev br0 vid 43 msti 3
	check "vid 43 inherits msti 3's blocking state on p1" \
		vlan_state_is p1 43 blocking
}

# ---- monitor ---------------------------------------------------------------------------

monitor_saw() {
	grep -qF "$1" /tmp/mstctl-monitor.out
}

test_monitor() {
	mstctl -j monitor >/tmp/mstctl-monitor.out 2>&1 &
	MON_PID=$!
	# the subscription is in place once the first event shows up
	wait_until 10 eval 'bridge vlan add dev p1 vid 50 &&
		bridge vlan del dev p1 vid 50 && monitor_saw "\"vlan\":50"'
	bridge vlan add dev p1 vid 51
	mstctl vlan set dev br0 vid 51 msti 4
	WHY="$(cat /tmp/mstctl-monitor.out)"
	check "monitor reports a VLAN's new msti" wait_until 10 monitor_saw \
		'{"event":"vlan","deleted":false,"ifname":"br0","vlan":51,"msti":4}'
	pings ns1 10.0.10.2
	mstctl flush dev p1 vid 10
	WHY="$(cat /tmp/mstctl-monitor.out)"
	check "monitor reports the flushed FDB entry" wait_until 10 \
		monitor_saw "\"event\":\"fdb\",\"deleted\":true,\"mac\":\"$MAC1\",\"ifname\":\"p1\",\"vlan\":10"
	kill "$MON_PID" 2>/dev/null
	wait "$MON_PID" 2>/dev/null
	MON_PID=

	mstctl monitor >/tmp/mstctl-monitor.out 2>&1 &
	MON_PID=$!
	wait_until 10 eval 'bridge vlan add dev p1 vid 52 &&
		bridge vlan del dev p1 vid 52 && monitor_saw "vid 52"'
	mstctl vlan set dev br0 vid 51 msti 5
	WHY="$(cat /tmp/mstctl-monitor.out)"
	check "monitor prints one text line per change" wait_until 10 \
		monitor_saw "vlan br0 vid 51 msti 5"
	kill "$MON_PID" 2>/dev/null
	wait "$MON_PID" 2>/dev/null
	MON_PID=
}

main() {
	if ! command -v mstctl >/dev/null; then
		echo "not ok - mstctl on PATH"
		echo "1..1"
		exit 1
	fi
	if [ -z "$IP" ] || [ -z "$BRIDGE" ]; then
		echo "not ok - iproute2 ip and bridge installed"
		echo "# found ip '$IP', bridge '$BRIDGE'"
		echo "1..1"
		exit 1
	fi
	trap cleanup EXIT
	if ! setup; then
		fail "set up br0, p1, p2, ns1, ns2" "a setup command failed"
		tap_end
		exit 1
	fi
	pass "set up br0 with MST on, p1 and p2 into ns1 and ns2"
	test_enable_and_show
	test_vlan_mapping
	test_port_states
	test_traffic
	test_flush
	test_errors
	test_gotchas
	test_monitor
	tap_end
}

main "$@"
