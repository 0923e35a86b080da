#!/bin/sh
# The guest's self-test: what a node of the lab needs from the kernel and
# the image, checked from inside a booted guest. Prints TAP. Runs as root
# in the guest only (it creates a bridge).
PATH=/usr/sbin:/usr/bin:/sbin:/bin
n=0 failed=0
t() { # t DESCRIPTION COMMAND...: one TAP line for COMMAND's exit status
	desc=$1
	shift
	n=$((n + 1))
	if "$@" >/tmp/selftest.out 2>&1; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		sed 's/^/# /' /tmp/selftest.out
		failed=$((failed + 1))
	fi
}
has_cfg() { [ -e "$1" ]; }
release_ok() { uname -r | grep -Eq -- '-mstlab(-debug)?$'; }
bridge_mst() {
	/usr/sbin/ip link add selftest0 type bridge vlan_filtering 1 &&
		mstctl enable dev selftest0 &&
		mstctl -j show dev selftest0 | grep -Eq '"mst_enabled": ?true'
	rc=$?
	/usr/sbin/ip link del selftest0 2>/dev/null
	return $rc
}
jit_on() { [ "$(cat /proc/sys/net/core/bpf_jit_enable)" = 1 ]; }
share_ok() { grep -q ' /lab 9p ' /proc/mounts; }

echo "# kernel $(uname -r) $(uname -v)"
t "kernel carries the project's local version (-mstlab[-debug])" release_ok
t "lab share mounted over 9p" share_ok
t "bridge in MST mode through mstctl" bridge_mst
t "802.1Q VLAN devices" has_cfg /proc/net/vlan/config
t "BPF JIT enabled" jit_on
t "debugfs mounted" grep -q ' /sys/kernel/debug debugfs ' /proc/mounts
t "tcpdump runs" tcpdump --version
t "tc with netem" /usr/sbin/tc qdisc add dev lo root netem delay 1ms
/usr/sbin/tc qdisc del dev lo root 2>/dev/null
t "guest agent running" pidof qemu-ga
echo "1..$n"
[ "$failed" = 0 ]
