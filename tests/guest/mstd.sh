#!/bin/sh
# Guest test suite for mstd, the MSTP daemon.
#
# Runs as root INSIDE the guest VM (busybox sh, iproute2, mstctl and mstd
# on PATH); never on the build host: it creates bridges and veths.
# Prints "ok N - ..." / "not ok N - ..." (+ "# reason") lines and a plan.
#
# Topology: a ring of four bridges br1..br4, all in the initial network
# namespace (the kernel runs /sbin/bridge-stp, and so allows user-space
# STP, only there), joined by veth pairs:
#   br1.b1p2 -- b2p1.br2.b2p2 -- b3p1.br3.b3p2 -- b4p1.br4.b4p2 -- b1p1.br1
# VLAN 10 -> MSTI 1, VLAN 20 -> MSTI 2, one region.  br1 is the CIST and
# MSTI 1 root, br3 the MSTI 2 root, so the blocked ports differ:
#   CIST and MSTI 1: b3p2 alternate;  MSTI 2: b1p1 alternate.

. /lab/lib/guest.sh

T0=0

# kstate PORT MSTI: the kernel's state of PORT in MSTI (0 = the port
# state), from `mstctl -j show dev PORT` and sysfs.
kstate() {
	if [ "$2" = 0 ]; then
		case $(cat "/sys/class/net/$1/brport/state") in
		0) echo disabled ;; 1) echo listening ;; 2) echo learning ;;
		3) echo forwarding ;; 4) echo blocking ;; *) echo "?" ;;
		esac
		return
	fi
	mstctl -j show dev "$1" |
		sed 's/{"msti":/\n&/g' | grep "^{\"msti\":$2," |
		sed 's/.*"state":"\([a-z]*\)".*/\1/'
}

# role BRIDGE PORT TREE: mstd's role and state of PORT ("alternate
# discarding"); TREE is cist or an MSTID.
role() {
	mstctl stp show dev "$1" port "$2" | awk -v tree="$3" -v port="$2" '
		$1 == "tree" { t = ($2 == "cist") ? "cist" : $3 }
		$1 == port && t == tree { print $2, $3 }'
}

PORTS="b1p1 b1p2 b2p1 b2p2 b3p1 b3p2 b4p1 b4p2"

# blocked_is MSTI "PORT..." : exactly these ports block in the kernel,
# every other ring port forwards.
blocked_is() {
	WHY=
	for p in $PORTS; do
		s=$(kstate "$p" "$1")
		want=forwarding
		case " $2 " in *" $p "*) want=blocking ;; esac
		[ "$s" = "$want" ] || WHY="$WHY $p:$s(want $want)"
	done
	[ -z "$WHY" ]
}

# states MSTI: "port:state ..." of every ring port.
states() {
	r=
	for p in $PORTS; do
		r="$r $p:$(kstate "$p" "$1")"
	done
	echo "$r"
}

# is_state PORT MSTI STATE
is_state() {
	[ "$(kstate "$1" "$2")" = "$3" ]
}

# log_gap BR1 TEXT1 BR2 TEXT2: ms between the last TEXT1 line in BR1's log
# and the last TEXT2 line in BR2's (one clock: same VM).
log_gap() {
	a=$(grep -F "$2" "/tmp/mstd/$1.log" | tail -1 | cut -d' ' -f1)
	b=$(grep -F "$4" "/tmp/mstd/$3.log" | tail -1 | cut -d' ' -f1)
	echo "$a $b" | awk -F'[ :]' '
		function ms(h, m, s) { return ((h * 60 + m) * 60 + s) * 1000 }
		NF == 6 { printf "%d", ms($4, $5, $6) - ms($1, $2, $3) }
		NF != 6 { printf "?" }'
}

# tc_quiet: no port of any tree of any mstd has tcWhile running.
tc_quiet() {
	! mstctl -j stp show | grep -q '"tc_while":[1-9]'
}

tc_count() {
	mstctl -j stp show dev "$1" | sed 's/{"msti":/\n&/g' |
		grep "^{\"msti\":$2," | sed 's/.*"tc_count":\([0-9]*\).*/\1/'
}

conf() {
	n=$1
	cat <<EOF
bridge br$n
region ring
revision 1
hello 2
max_age 6
forward_delay 4
max_hops 20
msti 1 vlans 10
msti 2 vlans 20
EOF
	case $n in
	1) echo "priority cist 4096"; echo "priority 1 4096" ;;
	3) echo "priority 2 4096" ;;
	esac
	echo "port b${n}p1 edge no"
	echo "port b${n}p2 edge no"
}

setup() {
	mkdir -p /run /tmp/mstd
	for n in 1 2 3 4; do
		ip link add name "br$n" address "02:00:00:00:00:0$n" type bridge \
			vlan_filtering 1 vlan_default_pvid 0 || return 1
		mstctl enable dev "br$n" || return 1
		# Before any port joins: ports come in blocking.
		ip link set dev "br$n" type bridge stp_state 1 || return 1
	done
	ip link add b1p2 type veth peer name b2p1 || return 1
	ip link add b2p2 type veth peer name b3p1 || return 1
	ip link add b3p2 type veth peer name b4p1 || return 1
	ip link add b4p2 type veth peer name b1p1 || return 1
	for n in 1 2 3 4; do
		for k in 1 2; do
			p=b${n}p$k
			ip link set dev "$p" master "br$n" || return 1
			bridge vlan add dev "$p" vid 10 || return 1
			bridge vlan add dev "$p" vid 20 || return 1
		done
		bridge vlan add dev "br$n" vid 10 self || return 1
		bridge vlan add dev "br$n" vid 20 self || return 1
		mstctl vlan set dev "br$n" vid 10 msti 1 || return 1
		mstctl vlan set dev "br$n" vid 20 msti 2 || return 1
		conf "$n" >"/tmp/mstd/br$n.conf"
	done
	for n in 1 2 3 4; do
		ip link set dev "br$n" up || return 1
		for k in 1 2; do
			ip link set dev "b${n}p$k" up || return 1
		done
	done
	return 0
}

cleanup() {
	for n in 1 2 3 4 6; do
		[ -r "/run/mstd.br$n.pid" ] && kill "$(cat "/run/mstd.br$n.pid")"
	done 2>/dev/null
	sleep 0.3
	for n in 1 2 3 4 5 6; do
		ip link del "br$n"
	done 2>/dev/null
	rm -f /run/bridge-stp.kernel
	[ -d /lab/results ] && cp /tmp/mstd/*.log /lab/results/ 2>/dev/null
	tc qdisc del dev b4p1 root 2>/dev/null
	tc qdisc del dev b3p2 root 2>/dev/null
	for p in b1p2 b2p2 b3p2 b4p2 b2p3 r6a; do
		ip link del "$p"
	done 2>/dev/null
}

test_start() {
	run sh -c "[ \$(cat /sys/class/net/br1/bridge/stp_state) = 2 ]"
	if [ "$RC" -eq 0 ]; then
		pass "stp_state 1 gives user-space STP (/sbin/bridge-stp)"
	else
		fail "stp_state 1 gives user-space STP (/sbin/bridge-stp)" \
			"br1 stp_state $(cat /sys/class/net/br1/bridge/stp_state)"
	fi
	expect_usage "mstd --help prints its usage" "Usage: mstd [-f]" \
		mstd --help
	run mstd -t -c /tmp/mstd/br1.conf
	case "$RC:$OUT" in
	0:*"bridge br1, 2 MSTIs, 2 ports"*) pass "mstd -t checks a config" ;;
	*) fail "mstd -t checks a config" "exit $RC: $OUT" ;;
	esac
	printf 'bridge br1\nmsti 1 vlans 10,5000\n' >/tmp/mstd/bad.conf
	run mstd -t -c /tmp/mstd/bad.conf
	case "$RC:$OUT" in
	1:*"bad.conf:2:17: VLAN 5000 out of range 1..4094"*)
		pass "mstd names the line and column of a bad config" ;;
	*) fail "mstd names the line and column of a bad config" \
		"exit $RC: $OUT" ;;
	esac
	ok=1
	T0=$(now_ms)
	for n in 1 2 3 4; do
		run mstd -c "/tmp/mstd/br$n.conf" -l "/tmp/mstd/br$n.log" -v
		[ "$RC" -eq 0 ] || { ok=0; WHY="br$n: $OUT"; }
	done
	if [ $ok = 1 ] && [ -S /run/mstd.br4.sock ]; then
		pass "mstd starts on four bridges and goes to the background"
	else
		fail "mstd starts on four bridges and goes to the background" \
			"$WHY"
	fi
	run mstd -c /tmp/mstd/br1.conf -f
	case "$RC:$OUT" in
	1:*"another mstd runs for br1"*) pass "a second mstd is refused" ;;
	*) fail "a second mstd is refused" "exit $RC: $OUT" ;;
	esac
}

test_converge() {
	if wait_until 60 blocked_is 1 "b3p2"; then
		pass "MSTI 1 converges: only b3p2 blocks ($(( $(now_ms) - T0 )) ms after start)"
	else
		fail "MSTI 1 converges: only b3p2 blocks" "$WHY"
	fi
	if wait_until 10 blocked_is 2 "b1p1"; then
		pass "MSTI 2 converges: only b1p1 blocks ($(( $(now_ms) - T0 )) ms after start)"
	else
		fail "MSTI 2 converges: only b1p1 blocks" "$WHY"
	fi
	if wait_until 10 blocked_is 0 "b3p2"; then
		pass "CIST converges: only b3p2 blocks"
	else
		fail "CIST converges: only b3p2 blocks" "$WHY"
	fi
	ok=1 WHY=
	for spec in "br2 b2p1 1 root forwarding" "br3 b3p2 1 alternate discarding" \
		"br3 b3p1 1 root forwarding" "br4 b4p2 1 root forwarding" \
		"br1 b1p1 2 alternate discarding" "br1 b1p2 2 root forwarding" \
		"br3 b3p1 2 designated forwarding" "br4 b4p1 2 root forwarding" \
		"br2 b2p2 2 root forwarding" "br3 b3p2 cist alternate discarding" \
		"br1 b1p1 cist designated forwarding"; do
		set -- $spec
		got=$(role "$1" "$2" "$3")
		[ "$got" = "$4 $5" ] || { ok=0; WHY="$WHY $1 $2 tree $3: '$got' want '$4 $5';"; }
	done
	if [ $ok = 1 ]; then
		pass "mstd reports the expected roles per tree"
	else
		fail "mstd reports the expected roles per tree" "$WHY"
	fi
	run mstctl -j stp show dev br3
	case "$OUT" in
	\[{\"bridge\":\"br3\",\"region\":\"ring\",\"revision\":1,*\"regional_root_id\":\"1000.020000000001\"*\"rx_bpdus\":*)
		pass "stp show -j: bridge, regional root, counters" ;;
	*) fail "stp show -j: bridge, regional root, counters" "$OUT" ;;
	esac
	run mstctl -j stp show
	n=$(printf '%s' "$OUT" | grep -o '{"bridge":"br[1-4]"' | wc -l)
	if [ "$n" -eq 4 ]; then
		pass "stp show without dev lists every mstd"
	else
		fail "stp show without dev lists every mstd" "$n bridges: $OUT"
	fi
}

# A carrier that comes up while mstd starts must not be lost. br6's one
# port r6a gets its carrier (peer r6b up) at a spread of moments around
# mstd's start-up (mstd up to 40 ms later, or the carrier up to 40 ms
# later), VLANs unmapped each time so mstd maps them as a seed's start
# does; mstd must see the link up every time.
r6a_seen_up() { [ "$(role br6 r6a cist)" != "disabled discarding" ]; }
br6_mstd_gone() { ! [ -e /run/mstd.br6.pid ]; }
secs() { echo "$1" | awk '{ print ($1 < 0 ? -$1 : $1) / 1000 }'; }
test_start_race() {
	t="a carrier that comes up while mstd starts is seen"
	ip link add name br6 type bridge vlan_filtering 1 vlan_default_pvid 0 &&
		mstctl enable dev br6 &&
		ip link set dev br6 type bridge stp_state 1 &&
		ip link add r6a type veth peer name r6b &&
		ip link set dev r6a master br6 &&
		bridge vlan add dev r6a vid 10 && bridge vlan add dev r6a vid 20 &&
		ip link set dev r6a up && ip link set dev br6 up || {
		fail "$t" "setting up br6 failed"
		return
	}
	printf 'bridge br6\nregion race\nmsti 1 vlans 10\nmsti 2 vlans 20\nport r6a edge no\n' \
		>/tmp/mstd/br6.conf
	lost= n=0
	for ms in -40 -20 -10 -5 0 1 2 3 4 5 6 7 8 9 10 12 14 16 20 30 40; do
		mstctl vlan set dev br6 vid 10 msti 0
		mstctl vlan set dev br6 vid 20 msti 0
		# ms < 0: mstd starts that much after the carrier; else later.
		(if [ "$ms" -gt 0 ]; then sleep "$(secs "$ms")"; fi
		 ip link set dev r6b up) &
		up=$!
		[ "$ms" -lt 0 ] && sleep "$(secs "$ms")"
		run mstd -c /tmp/mstd/br6.conf -l /tmp/mstd/br6.log
		wait "$up"
		wait_until 3 r6a_seen_up || lost="$lost ${ms}ms:$(role br6 r6a cist)"
		[ -r /run/mstd.br6.pid ] && kill "$(cat /run/mstd.br6.pid)"
		wait_until 3 br6_mstd_gone
		ip link set dev r6b down
		n=$((n + 1))
	done
	if [ -z "$lost" ]; then
		pass "$t ($n starts, carrier -40..+40 ms)"
	else
		fail "$t" "mstd saw no link up with the carrier at (mstd start +):$lost"
	fi
	ip link del r6a
	ip link del br6
}

# The br3-br4 link is MSTI 2's root path of br4 but blocked (b3p2) in
# MSTI 1: losing it must move MSTI 2 to b1p1 and leave MSTI 1 alone.
test_failover() {
	# The start's TCs run for tcWhile (hello + 1 s) after the last port
	# went forwarding: let them end so the counts below mean this event.
	wait_until 20 tc_quiet
	m1=$(states 1)
	tc1=
	for n in 1 2 3 4; do tc1="$tc1 $(tc_count "br$n" 1)"; done
	t=$(now_ms)
	ip link set dev b4p1 down
	wait_until 30 is_state b1p1 2 forwarding
	dt=$(( $(now_ms) - t ))
	if wait_until 10 blocked_is 2 "b3p2 b4p1"; then
		pass "MSTI 2 reconverges after b4p1 goes down: b1p1 forwards (seen after $dt ms; mstd logs: $(log_gap br4 'port b4p1: link down' br1 'port b1p1 tree 2: kernel state forwarding') ms)"
	else
		fail "MSTI 2 reconverges after b4p1 goes down: b1p1 forwards" \
			"$WHY"
	fi
	got=$(role br4 b4p2 2)
	if [ "$got" = "root forwarding" ]; then
		pass "br4 takes b4p2 as MSTI 2 root port"
	else
		fail "br4 takes b4p2 as MSTI 2 root port" "b4p2: $got"
	fi
	sleep 2
	m1b=$(states 1)
	want=$(printf '%s' "$m1" | sed 's/b3p2:blocking/b3p2:disabled/; s/b4p1:forwarding/b4p1:disabled/')
	tc1b=
	for n in 1 2 3 4; do tc1b="$tc1b $(tc_count "br$n" 1)"; done
	ok=1
	for p in b1p1 b1p2 b2p1 b2p2 b3p1 b4p2; do
		case "$m1b" in
		*" $p:forwarding"*) ;;
		*) ok=0 ;;
		esac
	done
	if [ $ok = 1 ] && [ "$tc1" = "$tc1b" ]; then
		pass "MSTI 1 untouched: same forwarding ports, no TC (tc counts br1-4:$tc1b)"
	else
		fail "MSTI 1 untouched: same forwarding ports, no TC" \
			"before $m1 tc$tc1; after $m1b tc$tc1b (want like $want)"
	fi
	t=$(now_ms)
	ip link set dev b4p1 up
	if wait_until 30 blocked_is 2 "b1p1" && wait_until 10 blocked_is 1 "b3p2"; then
		pass "link back: both MSTIs return to their trees ($(( $(now_ms) - t )) ms)"
	else
		fail "link back: both MSTIs return to their trees" "$WHY"
	fi
	# The down port's CIST state is refused (-ENETDOWN) as it should be;
	# nothing else in the batches may be.
	errs=$(mstctl -j stp show | grep -o '"port":"[^"]*"\|"kernel_errors":[0-9]*')
	n=$(printf '%s\n' "$errs" | grep -c '"kernel_errors":0$')
	if [ "$n" -eq 8 ]; then
		pass "every kernel state write of the failover was applied (8 ports)"
	else
		fail "every kernel state write of the failover was applied" \
			"$n of 8 ports without errors: $(echo $errs)"
	fi
}

test_control() {
	run mstctl stp set dev br2 bridge priority 2 0
	# br4 is two hops from br2 either way and prefers br3 (MSTI 2
	# priority 4096) over br1: b4p2 blocks.
	if [ "$RC" -eq 0 ] && wait_until 30 blocked_is 2 "b4p2"; then
		pass "stp set bridge priority makes br2 the MSTI 2 root (b4p2 blocks)"
	else
		fail "stp set bridge priority makes br2 the MSTI 2 root" \
			"exit $RC $OUT; $WHY"
	fi
	run mstctl stp set dev br2 bridge priority 2 32768
	wait_until 30 blocked_is 2 "b1p1" || true
	run mstctl stp set dev br2 bridge priority 2 100
	case "$RC:$OUT" in
	1:*"bridge priority must be 0..61440 in steps of 4096"*)
		pass "a bad priority is refused with a reason" ;;
	*) fail "a bad priority is refused with a reason" "exit $RC: $OUT" ;;
	esac
	run mstctl stp set dev br2 port nope edge yes
	case "$RC:$OUT" in
	1:*"no port \"nope\" on br2"*) pass "an unknown port is refused" ;;
	*) fail "an unknown port is refused" "exit $RC: $OUT" ;;
	esac
	run mstctl stp mcheck dev br2 port b2p1
	if [ "$RC" -eq 0 ]; then
		pass "stp mcheck"
	else
		fail "stp mcheck" "exit $RC: $OUT"
	fi
	run mstctl stp show dev br9
	case "$RC:$OUT" in
	1:*"no mstd for br9"*) pass "stp show for a bridge without mstd fails" ;;
	*) fail "stp show for a bridge without mstd fails" "exit $RC: $OUT" ;;
	esac
}

test_vlan_remap() {
	# The kernel drops the mapping when the last member leaves a VLAN;
	# mstd must map it again when it returns.
	mstctl vlan set dev br2 vid 20 msti 0
	if wait_until 5 sh -c 'mstctl -j show dev br2 | grep -qF "{\"vlan\":20,\"msti\":2}"'; then
		pass "mstd re-applies a VID -> MSTI mapping changed behind its back"
	else
		fail "mstd re-applies a VID -> MSTI mapping changed behind its back" \
			"$(mstctl -j show dev br2)"
	fi
	if wait_until 10 blocked_is 2 "b1p1"; then
		pass "MSTI 2 states hold after the re-map"
	else
		fail "MSTI 2 states hold after the re-map" "$WHY"
	fi
}

# Silent failure: the br3-br4 link keeps its carrier but drops every frame
# (netem loss 100% both ways): MSTI 2 must move to b1p1 once br4's root
# port info ages out (3 x hello = 6 s), then come back when frames flow.
test_silent_failure() {
	t=$(now_ms)
	if ! tc qdisc add dev b4p1 root netem loss 100% ||
	   ! tc qdisc add dev b3p2 root netem loss 100%; then
		fail "silent failure: netem drops every frame on br3-br4" \
			"tc qdisc add failed"
		return
	fi
	wait_until 30 is_state b1p1 2 forwarding
	dt=$(( $(now_ms) - t ))
	if is_state b1p1 2 forwarding && [ "$dt" -le 15000 ]; then
		pass "silent failure: MSTI 2 moves to b1p1 after BPDU ageing ($dt ms)"
	else
		fail "silent failure: MSTI 2 moves to b1p1 after BPDU ageing" \
			"after $dt ms: $(states 2)"
	fi
	tc qdisc del dev b4p1 root
	tc qdisc del dev b3p2 root
	t=$(now_ms)
	if wait_until 30 blocked_is 2 "b1p1" && wait_until 10 blocked_is 1 "b3p2"; then
		pass "frames flow again: both MSTIs return ($(( $(now_ms) - t )) ms)"
	else
		fail "frames flow again: both MSTIs return" "$WHY"
	fi
}

# counter BRIDGE PORT NAME: one of mstd's per-port counters.
counter() {
	mstctl -j stp show dev "$1" port "$2" |
		sed "s/.*\"$3\":\([0-9]*\).*/\1/"
}

# Malformed BPDUs sent from b4p1 arrive on br3's b3p2: counted, dropped.
test_malformed() {
	# The TCs of the tests before (the silent failure's return) must be
	# over, or their last BPDUs land in the window counted below.
	wait_until 20 tc_quiet
	inv=$(counter br3 b3p2 rx_invalid)
	bad=$(counter br3 b3p2 rx_bad_frames)
	tcs="$(tc_count br3 0) $(tc_count br3 1) $(tc_count br3 2)"
	zeros=00000000000000000000000000000000000000000000000000000000000000
	d=01:80:c2:00:00:00
	# protocol identifier 1; BPDU type 0x55; 3 octets; 802.3 length 1500
	ok=1
	ethsend -i b4p1 -d $d "0026 424203 0001 00 00 $zeros" || ok=0
	ethsend -i b4p1 -d $d "0026 424203 0000 00 55 $zeros" || ok=0
	ethsend -i b4p1 -d $d "0006 424203 000000" || ok=0
	ethsend -i b4p1 -d $d "05dc 424203 0000 02 02 $zeros" || ok=0
	sleep 1
	inv2=$(counter br3 b3p2 rx_invalid)
	bad2=$(counter br3 b3p2 rx_bad_frames)
	if [ $ok = 1 ] && [ "$inv2" -eq $((inv + 3)) ] &&
	   [ "$bad2" -eq $((bad + 1)) ]; then
		pass "malformed BPDUs are counted (rx_invalid $inv -> $inv2, rx_bad_frames $bad -> $bad2)"
	else
		fail "malformed BPDUs are counted" \
			"sent ok=$ok; rx_invalid $inv -> $inv2, rx_bad_frames $bad -> $bad2"
	fi
	tcs2="$(tc_count br3 0) $(tc_count br3 1) $(tc_count br3 2)"
	if blocked_is 1 "b3p2" && blocked_is 2 "b1p1" && blocked_is 0 "b3p2" &&
	   [ "$tcs" = "$tcs2" ]; then
		pass "malformed BPDUs change no state and cause no TC"
	else
		fail "malformed BPDUs change no state and cause no TC" \
			"$WHY; tc $tcs -> $tcs2"
	fi
}

# A kernel-STP (802.1D) bridge br5 with priority 0 joins br2: it becomes
# the CIST root through br2's boundary port b2p3; the MSTIs stay put.
test_legacy_peer() {
	kill "$(cat /run/mstd.br2.pid)"
	wait_until 5 sh -c '! [ -S /run/mstd.br2.sock ]'
	echo br5 >>/run/bridge-stp.kernel
	ok=1
	ip link add name br5 address 02:00:00:00:00:05 type bridge \
		priority 0 forward_delay 400 max_age 600 || ok=0
	ip link set dev br5 type bridge stp_state 1 || ok=0
	ip link add b2p3 type veth peer name b5p1 || ok=0
	ip link set dev b2p3 master br2 || ok=0
	bridge vlan add dev b2p3 vid 10 || ok=0
	bridge vlan add dev b2p3 vid 20 || ok=0
	ip link set dev b5p1 master br5 || ok=0
	ip link set dev br5 up && ip link set dev b5p1 up &&
		ip link set dev b2p3 up || ok=0
	echo "port b2p3 edge no" >>/tmp/mstd/br2.conf
	run mstd -c /tmp/mstd/br2.conf -l /tmp/mstd/br2.log -v
	st=$(cat /sys/class/net/br5/bridge/stp_state)
	if [ $ok = 1 ] && [ "$RC" -eq 0 ] && [ "$st" = 1 ]; then
		pass "kernel-STP br5 (stp_state $st) joins br2, mstd restarted"
	else
		fail "kernel-STP br5 joins br2, mstd restarted" \
			"setup ok=$ok, mstd exit $RC $OUT, br5 stp_state $st"
	fi
	t=$(now_ms)
	if wait_until 60 sh -c '[ "$(cat /sys/class/net/b2p3/brport/state)" = 3 ] &&
	   [ "$(cat /sys/class/net/b5p1/brport/state)" = 3 ]'; then
		pass "boundary link to the STP bridge forwards ($(( $(now_ms) - t )) ms)"
	else
		fail "boundary link to the STP bridge forwards" \
			"b2p3 $(kstate b2p3 0), b5p1 $(kstate b5p1 0)"
	fi
	run mstctl -j stp show dev br2 port b2p3
	case "$OUT" in
	*'"port":"b2p3","role":"root","state":"forwarding"'*'"boundary":true,"send_rstp":false'*)
		pass "br2 sees b2p3 as a root port to a legacy STP boundary" ;;
	*) fail "br2 sees b2p3 as a root port to a legacy STP boundary" "$OUT" ;;
	esac
	run mstctl -j stp show dev br4
	case "$OUT" in
	*'"root_id":"0000.020000000005"'*)
		pass "the region's CIST root is the STP bridge br5" ;;
	*) fail "the region's CIST root is the STP bridge br5" "$OUT" ;;
	esac
	if wait_until 10 blocked_is 1 "b3p2" && wait_until 10 blocked_is 2 "b1p1"; then
		pass "MSTI 1 and 2 keep their trees under the external root"
	else
		fail "MSTI 1 and 2 keep their trees under the external root" "$WHY"
	fi
	# br2 is now the CIST regional root; br4 is two hops away either way
	# and prefers br1 (CIST priority 4096): b4p1 blocks in the CIST.
	if wait_until 10 blocked_is 0 "b4p1"; then
		pass "the CIST re-roots at br2: b4p1 blocks"
	else
		fail "the CIST re-roots at br2: b4p1 blocks" "$WHY"
	fi
}

main() {
	if [ "$(id -u)" != 0 ] || [ ! -d /sys/class/net ]; then
		echo "not ok - mstd.sh runs as root inside the guest"
		echo "1..1"
		exit 1
	fi
	trap cleanup EXIT
	if ! setup; then
		fail "set up the ring of four bridges" "a setup command failed"
		tap_end
		exit 1
	fi
	pass "set up the ring of four bridges (MST on, VLAN 10/20 -> MSTI 1/2)"
	test_start
	test_start_race
	test_converge
	test_failover
	test_silent_failure
	test_control
	test_vlan_remap
	test_malformed
	test_legacy_peer
	# CPU of mstd on br1 (2 ports, 3 trees, hello 2 s) over its life,
	# TCG-inflated: user + system ticks (1/100 s) and seconds alive.
	pid=$(cat /run/mstd.br1.pid 2>/dev/null)
	[ -n "$pid" ] && awk -v up="$(cut -d' ' -f1 /proc/uptime)" '
		{ sub(/^.*\) /, ""); cpu = ($12 + $13) * 10; age = up - $20 / 100
		  printf "# mstd br1 cpu: %d ms in %.0f s alive (%.2f ms/s)\n",
			cpu, age, cpu / age }' "/proc/$pid/stat"
	if [ "$FAILED" -ne 0 ]; then
		for n in 1 2 3 4; do
			mstctl stp show dev "br$n" | sed 's/^/# /'
		done
	fi
	for n in 1 2 3 4; do
		echo "# br$n log tail:"
		tail -5 "/tmp/mstd/br$n.log" | sed 's/^/#   /'
	done
	tap_end
}

main "$@"
