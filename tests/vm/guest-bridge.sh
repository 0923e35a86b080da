# In-guest: a VLAN-filtering bridge with two ports (veths into network
# namespaces) passes traffic in a shared VLAN and filters the rest.
set -u
n=0
check() { # check DESCRIPTION COMMAND...
	n=$((n + 1))
	d=$1
	shift
	if out=$("$@" 2>&1); then
		echo "ok $n - $d"
	else
		echo "not ok $n - $d"
		echo "$out" | sed 's/^/# /'
	fi
}

ip link add br0 type bridge vlan_filtering 1
ip link set br0 up
for i in 1 2; do
	ip netns add ns$i
	ip link add v$i type veth peer name eth0 netns ns$i
	ip link set v$i master br0
	bridge vlan del dev v$i vid 1
	bridge vlan add dev v$i vid 10 pvid untagged
	ip link set v$i up
	ip -n ns$i addr add 192.0.2.$i/24 dev eth0
	ip -n ns$i link set eth0 up
	ip -n ns$i link set lo up
done

check "bridge has vlan_filtering on" \
	sh -c 'ip -d link show br0 | grep -q "vlan_filtering 1"'
check "ns1 reaches ns2 through br0 in VLAN 10" \
	ip netns exec ns1 ping -c 2 -W 2 192.0.2.2
bridge vlan del dev v2 vid 10
bridge vlan add dev v2 vid 20 pvid untagged
check "ports in different VLANs do not reach each other" \
	sh -c '! ip netns exec ns1 ping -c 2 -W 1 192.0.2.2'
echo "1..$n"
