#!/bin/sh
# Guest test suite for mstd's operator controls (issue 33, part 1).
#
# Runs as root INSIDE the guest VM (busybox sh, iproute2, mstctl and mstd
# on PATH); never on the build host: it creates bridges and veths.
# Prints "ok N - ..." / "not ok N - ..." (+ "# reason") lines and a plan.
#
# Two bridges in the initial network namespace (user-space STP needs
# it), VLAN 10 -> MSTI 1 on both:
#   ctA.a1 -- b1.ctB          (at start)
#   ctA.a2 -- b2.ctB          (joins while mstd runs)
# ctA (02:00:00:00:00:0a) is the root of every tree. ctB starts with no
# region name: its region is its MAC as text, a boundary until the run-
# time change makes it ctA's region.

. /lab/lib/guest.sh

A=ctA
B=ctB

# json_get KEY: KEY's value in the JSON on stdin (its last one), quotes
# dropped; basic regexes only (busybox sed).
json_get() {
	sed -n -e "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p;t" \
		-e "s/.*\"$1\":\([^,}]*\).*/\1/p"
}

# tree_json BR PORT TREE: the JSON of PORT in TREE (0 = CIST, else the
# MSTID) from `mstctl -j stp show`, its tree's fields before it.
tree_json() {
	mstctl -j stp show dev "$1" port "$2" | sed 's/{"msti":/\n&/g' |
		grep "^{\"msti\":$3,"
}

# field BR PORT TREE KEY: KEY's value for PORT in TREE (the port's own
# when the tree has one of that name too: it comes last).
field() {
	tree_json "$1" "$2" "$3" | json_get "$4"
}

# counter BR PORT KEY: a per-port value (guards, counters, speed).
counter() {
	mstctl -j stp show dev "$1" port "$2" |
		sed 's/{"port":"[^"]*","ifindex"/\n&/g' | tail -1 | json_get "$3"
}

# bridge_field BR KEY: a bridge-wide value of `stp show -j`.
bridge_field() {
	mstctl -j stp show dev "$1" | sed 's/"trees":.*//' | json_get "$2"
}

is_field() {
	got=$(field "$1" "$2" "$3" "$4")
	WHY="$1 $2 tree $3 $4: '$got', want '$5'"
	[ "$got" = "$5" ]
}

is_counter() {
	got=$(counter "$1" "$2" "$3")
	WHY="$1 $2 $3: '$got', want '$4'"
	[ "$got" = "$4" ]
}

# kstate PORT: the kernel's CIST state of a bridge port.
kstate() {
	case $(cat "/sys/class/net/$1/brport/state" 2>/dev/null) in
	0) echo disabled ;; 1) echo listening ;; 2) echo learning ;;
	3) echo forwarding ;; 4) echo blocking ;; *) echo "?" ;;
	esac
}

is_kstate() {
	got=$(kstate "$1")
	WHY="$1: kernel state $got, want $2"
	[ "$got" = "$2" ]
}

# kmsti BR VID: the kernel's MSTI of VID (mstctl show dev BRIDGE).
kmsti() {
	mstctl -j show dev "$1" | sed 's/{"vlan":/\n&/g' |
		sed -n "s/^{\"vlan\":$2,\"msti\":\([0-9]*\).*/\1/p" | head -1
}

is_kmsti() {
	got=$(kmsti "$1" "$2")
	WHY="$1 VID $2: kernel MSTI '$got', want '$3'"
	[ "$got" = "$3" ]
}

is_sysfs() {
	got=$(cat "/sys/class/net/$1/bridge/$2")
	WHY="$1 $2: $got, want $3"
	[ "$got" = "$3" ]
}

port_up() {
	p=$1
	bridge vlan add dev "$p" vid 10 || return 1
	bridge vlan add dev "$p" vid 20 || return 1
	ip link set dev "$p" up
}

setup() {
	mkdir -p /run /tmp/mstd
	for b in $A $B; do
		case $b in "$A") mac=02:00:00:00:00:0a ;; *) mac=02:00:00:00:00:0b ;; esac
		ip link add name "$b" address "$mac" type bridge \
			vlan_filtering 1 vlan_default_pvid 0 || return 1
		mstctl enable dev "$b" || return 1
		ip link set dev "$b" type bridge stp_state 1 || return 1
		bridge vlan add dev "$b" vid 10 self || return 1
		bridge vlan add dev "$b" vid 20 self || return 1
		mstctl vlan set dev "$b" vid 10 msti 1 || return 1
	done
	ip link add a1 type veth peer name b1 || return 1
	ip link set dev a1 master $A || return 1
	ip link set dev b1 master $B || return 1
	cat >/tmp/mstd/$A.conf <<EOF
bridge $A
region ctl
msti 1 vlans 10
priority cist 4096
priority 1 4096
max_age 6
forward_delay 4
EOF
	# No region: the bridge's MAC. a2/b2 are not named: they join later.
	cat >/tmp/mstd/$B.conf <<EOF
bridge $B
msti 1 vlans 10
max_age 6
forward_delay 4
port b1 edge no
EOF
	for b in $A $B; do
		ip link set dev "$b" up || return 1
	done
	port_up a1 && port_up b1
}

cleanup() {
	for b in $A $B; do
		[ -r "/run/mstd.$b.pid" ] && kill "$(cat "/run/mstd.$b.pid")"
	done 2>/dev/null
	sleep 0.3
	ip link del $A 2>/dev/null
	ip link del $B 2>/dev/null
	ip link del a1 2>/dev/null
	ip link del a2 2>/dev/null
	tc qdisc del dev a1 root 2>/dev/null
	[ -d /lab/results ] && cp /tmp/mstd/ct*.log /lab/results/ 2>/dev/null
}

test_start() {
	ok=1
	for b in $A $B; do
		run mstd -c "/tmp/mstd/$b.conf" -l "/tmp/mstd/$b.log" -v
		[ "$RC" -eq 0 ] || { ok=0; WHY="$b: $OUT"; }
	done
	if [ $ok = 1 ]; then
		pass "mstd starts on both bridges"
	else
		fail "mstd starts on both bridges" "$WHY"
	fi
	check "no region given: the region name is the bridge's MAC" \
		wait_until 5 eval '[ "$(bridge_field $B region)" = 02:00:00:00:00:0b ]'
	check "the differing regions meet at a boundary" \
		wait_until 20 is_field $B b1 0 boundary true
	check "veth reports 10 Gb/s" is_counter $B b1 speed_mbps 10000
	check "the path cost follows the link speed (Table 13-4: 2000)" \
		is_field $B b1 1 int_path_cost 2000
	check "... marked auto" is_field $B b1 0 ext_cost_source auto
}

test_region() {
	expect_ok "set region at run time" mstctl stp set dev $B region ctl
	check "same region now: no boundary" \
		wait_until 20 is_field $B b1 0 boundary false
	check "MSTI 1: b1 is the root port" wait_until 20 is_field $B b1 1 role root
	check "MSTI 1: b1 forwards" wait_until 20 is_field $B b1 1 state forwarding
	run mstctl -j stp show dev $B port b1
	case "$OUT" in
	*'"designated_root":"1001.02000000000a"'*'"designated_bridge":"1001.02000000000a"'*'"designated_port":"8.001"'*'"info_received":true'*'"disputed":false,"proposing":false'*'"agreed":'*'"learning":true,"forwarding":true'*)
		pass "stp show -j: the designated vector and flags of a root port" ;;
	*) fail "stp show -j: the designated vector and flags of a root port" "$OUT" ;;
	esac
	case "$OUT" in
	*'"tc_while":'*'"last_tc_ms_ago":'*) pass "stp show -j: tc_while and time since the last TC per port" ;;
	*) fail "stp show -j: tc_while and time since the last TC per port" "$OUT" ;;
	esac
}

test_port_joins() {
	ip link add a2 type veth peer name b2
	ip link set dev a2 master $A
	ip link set dev b2 master $B
	port_up a2
	port_up b2
	check "a port that joins ctB while mstd runs is taken in" \
		wait_until 10 is_field $B b2 0 role alternate
	check "... and blocks in the kernel (no loop with b1)" \
		is_kstate b2 blocking
	check "... its peer a2 on ctA becomes designated and forwards" \
		wait_until 20 is_field $A a2 0 state forwarding
	check "ports_added counts it" \
		eval '[ "$(bridge_field $B ports_added)" = 1 ]'
	ip link set dev a2 nomaster
	check "a port that leaves is out: disabled" \
		wait_until 10 is_field $A a2 0 role disabled
	ip link set dev a2 master $A
	port_up a2
	check "back in the bridge: the same port again" \
		wait_until 20 is_field $A a2 0 state forwarding
	check "... still one port added" \
		eval '[ "$(bridge_field $A ports_added)" = 1 ]'
}

test_bpdu_guard() {
	expect_ok "bpdu_guard on b2" mstctl stp set dev $B port b2 bpdu_guard yes
	check "a BPDU trips BPDU guard" wait_until 10 is_counter $B b2 guard_tripped true
	check "... the port is disabled" is_field $B b2 0 role disabled
	check "... and blocks" is_kstate b2 blocking
	n=$(counter $B b2 guard_trips)
	expect_ok "recover by hand" mstctl stp recover dev $B port b2
	check "the guard trips again on the next BPDU" \
		wait_until 10 eval '[ "$(counter $B b2 guard_trips)" -gt "$n" ]'
	grep -q "BPDU guard: enabled again (by management)" /tmp/mstd/$B.log
	check "the log says the port was recovered by management" [ $? = 0 ]
	expect_ok "guard_recovery 2 s" mstctl stp set dev $B guard_recovery 2
	n=$(counter $B b2 guard_trips)
	expect_ok "recover (to start the timed cycle)" mstctl stp recover dev $B port b2
	check "timed recovery: the port comes back by itself and trips again" \
		wait_until 15 eval '[ "$(counter $B b2 guard_trips)" -ge $((n + 2)) ]'
	expect_ok "bpdu_guard off" mstctl stp set dev $B port b2 bpdu_guard no
	check "the port is alternate again" wait_until 20 is_field $B b2 0 role alternate
}

test_mstis() {
	expect_ok "create MSTI 5 with VLAN 20 on ctA" \
		mstctl stp set dev $A msti 5 vlans 20
	check "the kernel maps VLAN 20 to MSTI 5" wait_until 5 is_kmsti $A 20 5
	check "stp show has tree 5" eval 'tree_json $A a1 5 | grep -q role'
	check "another VID map on one side: a region boundary" \
		wait_until 20 is_field $B b1 0 boundary true
	expect_ok "the same on ctB" mstctl stp set dev $B msti 5 vlans 20
	check "same digest again: no boundary" \
		wait_until 20 is_field $B b1 0 boundary false
	check "MSTI 5 forwards on b1" wait_until 20 is_field $B b1 5 state forwarding
	expect_ok "delete MSTI 5 on both" sh -c \
		"mstctl stp delete dev $A msti 5 && mstctl stp delete dev $B msti 5"
	check "the kernel maps VLAN 20 back to the CIST" wait_until 5 is_kmsti $A 20 0
	check "tree 5 is gone from stp show" \
		eval '! tree_json $A a1 5 | grep -q role'
}

test_settings() {
	expect_err "max_hops out of range is refused with its range" 1 \
		'max_hops "41": want 6..40' mstctl stp set dev $A max_hops 41
	expect_err "a timer pair breaking 13.25 is refused" 1 \
		"need 2 * (forward_delay - 1) >= max_age" \
		mstctl stp set dev $A max_age 20
	check "refusals are counted" \
		eval '[ "$(bridge_field $A ctl_refused)" -ge 2 ]'
	check "mstd still runs after refusals" [ -S /run/mstd.$A.sock ]
	expect_ok "max_hops 10" mstctl stp set dev $A max_hops 10
	check "MSTI 1 remaining hops on ctB follow (10 - 1)" \
		wait_until 10 eval '[ "$(field $B b1 1 remaining_hops)" = 9 ]'
	expect_ok "ageing_time 600" mstctl stp set dev $A ageing_time 600
	check "the kernel's ageing time is 600 s" is_sysfs $A ageing_time 60000
	expect_ok "ext_cost 7 on b1" mstctl stp set dev $B port b1 ext_cost 7
	check "... shown as set" is_field $B b1 0 ext_cost_source set
	expect_ok "root_guard on b1" mstctl stp set dev $B port b1 root_guard yes
	check "root guard: b1 is no root port, root_inconsistent" \
		wait_until 10 is_field $B b1 0 root_inconsistent true
	expect_ok "root_guard off" mstctl stp set dev $B port b1 root_guard no
	check "b1 is root port again" wait_until 10 is_field $B b1 0 role root
}

# STP compatibility: where MSTP flushes (a topology change, a port
# leaving forwarding), the FDB ages in forward delay (4 s here) instead:
# the bridge's ageing time drops to 4 s for 4 s, then goes back.
test_stp_rapid_ageing() {
	expect_ok "force_version stp on both" sh -c \
		"mstctl stp set dev $A force_version stp && mstctl stp set dev $B force_version stp"
	# BEGIN's flush (TCM INACTIVE) is the first to age fast.
	check "STP compatibility ages in forward delay, no flush (ageing_time 400)" \
		wait_until 10 is_sysfs $A ageing_time 400
	check "the bridges speak STP" wait_until 30 is_field $B b1 0 state forwarding
	check "... and the ageing time is back to 600 s after" \
		wait_until 30 is_sysfs $A ageing_time 60000
	expect_ok "force_version mstp again" sh -c \
		"mstctl stp set dev $A force_version mstp && mstctl stp set dev $B force_version mstp"
	check "MSTP again: b1 forwards" wait_until 30 is_field $B b1 1 state forwarding
}

# Loop guard: BPDUs from ctA stop reaching b1 (netem drops them on a1),
# b1's information ages out; 13.35 would make it a Designated Port, loop
# guard keeps it discarding until BPDUs come again.
test_loop_guard() {
	expect_ok "loop_guard on b1" mstctl stp set dev $B port b1 loop_guard yes
	tc qdisc add dev a1 root netem loss 100% || { fail "netem on a1" "tc"; return; }
	check "b1 hears nothing: loop inconsistent" \
		wait_until 20 is_field $B b1 0 loop_inconsistent true
	# Past 2 x forward delay (8 s) a Designated Port would forward.
	sleep 10
	check "... and still discards 10 s on, where 13.35 would forward" \
		is_field $B b1 0 state discarding
	check "... still loop inconsistent" \
		is_field $B b1 0 loop_inconsistent true
	check "b2 took over as root port" is_field $B b2 0 role root
	tc qdisc del dev a1 root
	check "BPDUs again: b1 is root port again" \
		wait_until 20 is_field $B b1 0 role root
	check "... and no longer loop inconsistent" \
		is_field $B b1 0 loop_inconsistent false
	expect_ok "loop_guard off" mstctl stp set dev $B port b1 loop_guard no
}

# RTM_DELLINK: a port that is deleted is out; its index stays.
test_port_deleted() {
	ip link del a2
	check "a deleted port is out of the protocol (disabled)" \
		wait_until 10 is_field $B b2 0 role disabled
	check "... b1 stays root port" is_field $B b1 0 role root
}

main() {
	if [ "$(id -u)" != 0 ]; then
		echo "not ok - mstd_controls.sh runs as root inside the guest"
		echo "1..1"
		exit 1
	fi
	trap cleanup EXIT
	if ! setup; then
		fail "set up two bridges" "a setup command failed"
		tap_end
		exit 1
	fi
	pass "set up two bridges (MST on, VLAN 10 -> MSTI 1)"
	test_start
	test_region
	test_port_joins
	test_bpdu_guard
	test_mstis
	test_settings
	test_stp_rapid_ageing
	test_loop_guard
	test_port_deleted
	if [ "$FAILED" -ne 0 ]; then
		for b in $A $B; do
			mstctl stp show dev "$b" | sed 's/^/# /'
			tail -15 "/tmp/mstd/$b.log" | sed 's/^/#   /'
		done
	fi
	tap_end
}

main "$@"
