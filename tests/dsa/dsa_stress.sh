#!/bin/sh
# Random VLAN, MSTI, port-state and FDB operations through the bridge on
# the emulated switch, then the three views must agree: the bridge's, the
# driver's (devlink regions, read back through the switch registers) and
# the emulator's tables. Prints TAP; run by tests/vm/dsa-test.
# 10,000 operations unless the kernel command line says dsa_stress_ops=N
# (the debug kernel is slower); dsa_stress_seed=N draws others.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
SIM=/sys/kernel/debug/mv88e6xxx_sim
DEV=mdio_bus/mvsim-smi:00
cmdline_arg() { sed -n "s/.*$1=\([0-9]*\).*/\1/p" /proc/cmdline; }
ops=$(cmdline_arg dsa_stress_ops)
ops=${ops:-10000}
seed=$(cmdline_arg dsa_stress_seed)
seed=${seed:-1}
TAP_DIAG=/tmp/stress.out TAP_TAIL=20
. /lab/lib/tap.sh
. /lab/lib/splats.sh

# Only this suite's kernel messages count (dsa.sh ran in this guest before).
dmesg_base=$(dmesg | wc -l)
ip link add br0 type bridge vlan_filtering 1
mstctl enable dev br0
for l in lan1 lan2 lan3 lan4 lan5; do
	ip link set $l master br0
	ip link set $l up
done
ip link set br0 up

# The operations, drawn once: VIDs 2..33, MSTIs 0..5, five ports.
awk -v n="$ops" -v seed="$seed" 'BEGIN {
	srand(seed)
	split("disabled listening learning forwarding blocking", st, " ")
	for (i = 0; i < n; i++) {
		p = "lan" int(1 + rand() * 5); v = 2 + int(rand() * 32)
		r = rand()
		if (r < 0.30)      print "bridge vlan add dev " p " vid " v (rand() < 0.5 ? " untagged" : "")
		else if (r < 0.45) print "bridge vlan del dev " p " vid " v
		else if (r < 0.60) print "mstctl vlan set dev br0 vid " v " msti " int(rand() * 6)
		else if (r < 0.85) print "mstctl set dev " p " msti " int(1 + rand() * 5) " state " st[int(1 + rand() * 5)]
		else if (r < 0.95) printf "bridge fdb add 02:00:00:00:%02x:%02x dev %s vlan %d master static\n", int(rand() * 4), v, p, v
		else               printf "bridge fdb del 02:00:00:00:%02x:%02x dev %s vlan %d master\n", int(rand() * 4), v, p, v
	}
}' >/tmp/stress.ops
start=$(cut -d' ' -f1 /proc/uptime)
refused=0
while read -r line; do
	# Many draws are refused by the kernel (no such VLAN, MSTI not in
	# use): that is the point, they must leave everything consistent.
	$line >/dev/null 2>&1 || refused=$((refused + 1))
done </tmp/stress.ops
end=$(cut -d' ' -f1 /proc/uptime)
echo "# $ops operations in $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", b - a }') s, $refused refused by the kernel"

# --- the bridge's view vs the emulator's VTU ---------------------------------
# JSON objects with "vlan" and maybe "vlanEnd" (a range): one line per VID.
expand() {
	awk '{ v = $0; sub(/.*"vlan":/, "", v); v += 0; e = v
		if ($0 ~ /"vlanEnd":/) { e = $0; sub(/.*"vlanEnd":/, "", e); e += 0 }
		for (i = v; i <= e; i++) print i, $0 }'
}
# bridge: "port vid u|t" for every lan port membership.
bridge -j vlan show | tr -d ' \n' | sed 's/},{"ifname"/}\n{"ifname"/g' >/tmp/stress.json
for l in lan1 lan2 lan3 lan4 lan5; do
	grep "\"ifname\":\"$l\"" /tmp/stress.json | grep -o '{"vlan":[^}]*}' | expand |
		awk -v l=$l '{ print l, $1, ($2 ~ /Untagged/ ? "u" : "t") }'
done >/tmp/stress.bridge
# emulator: the same from debugfs vtu ("vid fid F sid S members").
awk '{ m = $6; for (p = 1; p <= 5; p++) { c = substr(m, p, 1)
	if (c == "u" || c == "t") print "lan" p, $1, c } }' $SIM/vtu >/tmp/stress.sim
sort /tmp/stress.bridge >/tmp/stress.b; sort /tmp/stress.sim >/tmp/stress.s
diff /tmp/stress.b /tmp/stress.s >/tmp/stress.out
say $? "VLAN membership and tagging: the bridge and the switch's VTU agree ($(wc -l </tmp/stress.b) memberships)"

# --- MSTI mapping: VIDs of one MSTI share one SID, the CIST is SID 0 -----------
mstctl -j show dev br0 | tr -d ' \n' | grep -o '{"vlan":[^}]*}' | expand |
	awk '{ m = $2; sub(/.*"msti":/, "", m); print $1, m + 0 }' | sort -n >/tmp/stress.msti
awk 'NR == FNR { sid[$1] = $5; next }
	($1 in sid) { if ($2 == 0 && sid[$1] != 0) bad = bad " " $1 "(msti 0, sid " sid[$1] ")"
		if ($2 != 0 && (($2 in s2m) ? s2m[$2] != sid[$1] : 0)) bad = bad " " $1
		if ($2 != 0) { s2m[$2] = sid[$1]; m2s[sid[$1]] = m2s[sid[$1]] " " $2 } }
	END { for (s in m2s) { split(m2s[s], a, " "); for (i in a) if (a[i] != a[1]) bad = bad " sid" s }
		if (bad != "") { print "mismatch:" bad; exit 1 } }' $SIM/vtu /tmp/stress.msti >/tmp/stress.out
say $? "every MSTI in use has one SID of its own; CIST VLANs use SID 0"

# --- per-port MSTI states: the bridge's vs the STU -------------------------------
# "port msti state" as the bridge reports them (MSTIs with VLANs on the port).
bridge_states() {
	for l in lan1 lan2 lan3 lan4 lan5; do
		mstctl -j show dev $l | tr -d ' \n' | grep -o '{"msti":[0-9]*,"state":"[a-z]*"}' |
			sed "s/{\"msti\":\([0-9]*\),\"state\":\"\([a-z]*\)\"}/$l \1 \2/"
	done | awk '$2 != 0'
}
# Prints the pairs where the bridge and the STU differ.
compare_states() {
	bridge_states | while read -r l msti state; do
		vid=$(awk -v m="$msti" '$2 == m { print $1; exit }' /tmp/stress.msti)
		sid=$(awk -v v="$vid" '$1 == v { print $5 }' $SIM/vtu)
		[ -n "$sid" ] || continue	# no port has the VLAN: no VTU entry
		got=$(awk -v s="$sid" -v p="${l#lan}" '$1 == s { print substr($2, p, 1) }' $SIM/stu)
		case $state in
		forwarding) want=f ;; learning) want=l ;; *) want=b ;;
		esac
		[ "$got" = "$want" ] || echo "$l msti $msti (sid $sid): bridge $state, stu $got"
	done
}
compare_states >/tmp/stress.diverged
# 6.1's mv88e6xxx loads a new SID with every user port blocking, whatever
# the bridge says about the ports of that MSTI (mv88e6xxx_mst_get), so a
# SID that was purged and re-created can lag until mstd sets the states
# again. Say how often; then set every state again and require agreement.
echo "# $(wc -l </tmp/stress.diverged) port/MSTI states differed before re-assertion"
sed 's/^/#   /' /tmp/stress.diverged | head -5
bridge_states | while read -r l msti state; do
	mstctl set dev $l msti $msti state $state
done
compare_states >/tmp/stress.out
[ ! -s /tmp/stress.out ]
say $? "per-port MSTI states: once set again, the bridge and the STU agree ($(bridge_states | wc -l) states)"

# --- static FDB entries: the bridge's vs the ATU ----------------------------------
bridge_fdb() {
	bridge fdb show br br0 | awk '/static/ && / vlan / && $1 ~ /^02:00:00:00:/ {
		for (i = 1; i <= NF; i++) { if ($i == "dev") d = $(i+1); if ($i == "vlan") v = $(i+1) }
		print $1, d, v }' | sort -u
}
missing_fdb() { # entries of the bridge the ATU lacks, on ports in the VLAN
	bridge_fdb | while read -r mac dev vid; do
		fid=$(awk -v v="$vid" '$1 == v { print $3 }' $SIM/vtu)
		member=$(awk -v v="$vid" -v p="${dev#lan}" '$1 == v { print substr($6, p, 1) }' $SIM/vtu)
		p=$((${dev#lan} - 1))
		[ "$member" = "-" ] && continue		# see nonmember_fdb
		grep -q "^ *$fid $mac e 0*$(printf %x $((1 << p)))$" $SIM/atu ||
			echo "$mac $dev vlan $vid (fid ${fid:-none})"
	done
}
# Static entries on a port for a VLAN the port is not in: the bridge
# accepts and offloads them, yet some are not in the ATU afterwards. Not
# understood yet (kernel or emulator): counted, not judged.
nonmember_fdb() {
	bridge_fdb | while read -r mac dev vid; do
		member=$(awk -v v="$vid" -v p="${dev#lan}" '$1 == v { print substr($6, p, 1) }' $SIM/vtu)
		[ "$member" = "-" ] || continue
		fid=$(awk -v v="$vid" '$1 == v { print $3 }' $SIM/vtu)
		grep -qi "^ *$fid $mac " $SIM/atu || echo "$mac $dev vlan $vid"
	done
}
missing_fdb >/tmp/stress.diverged
# A VLAN deleted from every port and added again gets a fresh FID; the
# bridge keeps its static entries but nothing loads them into the new
# FID. Say how often; then add every entry again and require agreement.
echo "# $(wc -l </tmp/stress.diverged) static FDB entries missing before re-adding"
sed 's/^/#   /' /tmp/stress.diverged | head -5
bridge_fdb | while read -r mac dev vid; do
	bridge fdb del $mac dev $dev vlan $vid master 2>/dev/null
	bridge fdb add $mac dev $dev vlan $vid master static
done
# DSA loads FDB entries from a workqueue: give it time.
t=150
while missing_fdb >/tmp/stress.out && [ -s /tmp/stress.out ] && [ $t -gt 0 ]; do
	sleep 0.1
	t=$((t - 1))
done
# For the first one still missing: what the bridge and the switch hold.
if [ -s /tmp/stress.out ]; then
	read -r mac dev _ vid _ </tmp/stress.out
	{
		echo "bridge:"; bridge fdb show br br0 | grep -i "$mac"
		echo "port vlans:"; bridge vlan show dev "$dev" | tr -s ' \n' ' '; echo
		echo "atu:"; grep -i "$mac" $SIM/atu
	} >>/tmp/stress.out 2>&1
fi
! grep -q ' (fid ' /tmp/stress.out
say $? "static FDB entries on VLAN members: once added again, every one is in the ATU ($(bridge_fdb | wc -l) entries)"
echo "# $(nonmember_fdb | wc -l) static entries on ports outside their VLAN are not in the ATU"

# --- the driver's view: its regions, read back through the switch registers ----
region_bytes() { # region_bytes REGION: the snapshot as one line of hex bytes
	devlink region new $DEV/$1 snapshot 3 >/dev/null 2>&1
	devlink region dump $DEV/$1 snapshot 3 | sed 's/^[0-9a-f]* //' | tr -s '\n ' '  '
	devlink region del $DEV/$1 snapshot 3 2>/dev/null
}
HEX='function h(s,  n, i) { n = 0
	for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return n }'
# stu: 12-byte entries {sid, vid (0x1000 valid), data[3], resvd}, LE u16s;
# port p's state is bits (p % 4) * 4 + 2 of data[p / 4].
region_bytes stu | awk "$HEX"' { for (i = 1; i + 11 <= NF; i += 12) {
	if (int(h($(i + 3) $(i + 2)) / 4096) % 2 == 0) continue
	line = sprintf("%2d ", h($(i + 1) $i))
	for (p = 0; p < 7; p++) {
		d = h($(i + 5 + 2 * int(p / 4)) $(i + 4 + 2 * int(p / 4)))
		for (k = 0; k < p % 4 * 4 + 2; k++) d = int(d / 2)	# no ^ in busybox awk
		line = line substr("dblf", d % 4 + 1, 1) }
	print line } }' >/tmp/stress.drv
diff /tmp/stress.drv $SIM/stu >/tmp/stress.out
say $? "the driver's stu region and the emulator's STU are identical ($(wc -l </tmp/stress.drv) SIDs)"
# vtu: 16-byte entries {fid, sid, op, vid (0x1000 valid), data[3], resvd}.
vtu_drv=$(region_bytes vtu | awk "$HEX"' { for (i = 1; i + 15 <= NF; i += 16)
	if (int(h($(i + 7) $(i + 6)) / 4096) % 2) print h($(i + 7) $(i + 6)) % 4096, h($(i + 1) $i) % 4096, h($(i + 3) $(i + 2)) }' | tee /tmp/stress.drv | wc -l)
awk '{ print $1, $3, $5 }' $SIM/vtu | diff /tmp/stress.drv - >/tmp/stress.out
say $? "the driver's vtu region and the emulator's VTU agree on VID, FID and SID ($vtu_drv VLANs)"

dmesg | tail -n +$((dmesg_base + 1)) |
	grep -E "$KERNEL_SPLATS|mv88e6085.*(error|failed)" >/tmp/stress.out
[ ! -s /tmp/stress.out ]
say $? "no kernel warnings, KASAN or lockdep reports, no driver errors"

# Tearing the bridge down makes 6.1 DSA delete host FDB entries of VLANs
# already gone from the VTU (-EOPNOTSUPP in the log): after the checks.
ip link del br0
exit $((failed > 0))
