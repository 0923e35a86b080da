#!/bin/sh
# In-guest checks of the hsmp-host role: the emulated SMU under the
# unmodified amd_hsmp driver (hsmp-test, the C suite) and hsmpctl. On a CPU
# that is not AMD family 19h neither the emulator nor /dev/hsmp may appear.
# Prints TAP; run by tests/vm/hsmp-test.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
TAP_DIAG="/tmp/hsmp.out /tmp/hsmp.err"
. /lab/lib/tap.sh
. /lab/lib/splats.sh
run() { "$@" >/tmp/hsmp.out 2>/tmp/hsmp.err; }
has() { grep -q -- "$1" "$2"; }

run hsmpctl --help
[ $? = 0 ] && has '^usage: hsmpctl' /tmp/hsmp.out && [ ! -s /tmp/hsmp.err ]
say $? "hsmpctl --help prints its usage"

if ! grep -q '^cpu family.*: 25$' /proc/cpuinfo; then
	[ ! -e /dev/hsmp ] && [ ! -d /sys/bus/platform/devices/amd_smu_sim ]
	say $? "not family 19h: no emulator, no /dev/hsmp"
	run hsmpctl show
	[ $? = 1 ] && has 'does not exist' /tmp/hsmp.err
	say $? "hsmpctl says there is no HSMP here"
	exit $((failed > 0))
fi

if grep -q 'amd_smu_sim.hsmp_bios=0' /proc/cmdline; then
	[ ! -e /dev/hsmp ] && [ -d /sys/kernel/debug/amd_smu_sim ]
	say $? "HSMP disabled in the BIOS: the emulator is there, /dev/hsmp is not"
	dmesg | grep -q 'Is HSMP disabled in BIOS'
	say $? "amd_hsmp asks whether HSMP is disabled in the BIOS"
	dmesg | grep -q 'amd_smu_sim: boot handshake: no message answered'
	say $? "the emulator answered nothing"
	exit $((failed > 0))
fi

sockets=$(sed -n 's/.*amd_smu_sim\.sockets=\([0-9]*\).*/\1/p' /proc/cmdline)
sockets=${sockets:-1}
msgs=${HSMP_STRESS_MSGS:-10000}
[ "$sockets" = 1 ] && msgs=2000
sim=/sys/kernel/debug/amd_smu_sim
mount -t debugfs none /sys/kernel/debug 2>/dev/null

# The probe's messages, from the emulator's counts (nothing else has sent
# one yet): a TEST per socket; 6.12's amd_hsmp then reads socket 0's
# protocol version once (GET_PROTO_VER, 3h) to decide on the metrics table,
# 6.1's does not.
probe=$(for d in $sim/sock*; do grep '^msg ' $d/stats | tr '\n' ' '; echo; done)
first=$(echo "$probe" | head -1)
[ "$(echo "$probe" | wc -l)" = "$sockets" ] &&
	[ "$(echo "$probe" | tail -n +2 | grep -cvx 'msg 0x01 1 ')" = 0 ] &&
	{ [ "$first" = 'msg 0x01 1 ' ] || [ "$first" = 'msg 0x01 1 msg 0x03 1 ' ]; }
rc=$?
say $rc "amd_hsmp's probe sent one TEST per socket ($sockets), at most one GET_PROTO_VER besides"
[ $rc = 0 ] || echo "$probe" | sed 's/^/# probe: /'
boot=$((sockets + $(echo "$first" | grep -c 'msg 0x03')))
dmesg | grep -q "amd_smu_sim: boot handshake: $boot messages\? answered"
say $? "the emulator's boot handshake counted them ($boot)"

# The protocol of the part the CPU claims to be (AMD's E-SMI tables:
# Milan, family 19h models 0h-Fh, 2; Genoa, models 10h-1Fh, 5), unless
# the command line chose another, which the emulator then names.
model=$(sed -n 's/^model[[:space:]]*: \([0-9]*\)$/\1/p' /proc/cpuinfo | head -1)
part=2
[ "$model" -ge 16 ] && [ "$model" -le 31 ] && part=5
chosen=$(sed -n 's/.*amd_smu_sim\.proto_ver=\([0-9]*\).*/\1/p' /proc/cmdline)
run hsmpctl -j show 0
has "\"protocol\":${chosen:-$part}," /tmp/hsmp.out
say $? "model $model: the SMU answers protocol ${chosen:-$part} (the part's: $part)"
if [ -n "$chosen" ] && [ "$chosen" != "$part" ]; then
	dmesg | grep -q "amd_smu_sim: protocol mismatch: HSMP protocol $chosen chosen, but family 19h model $(printf %#x "$model") (.*) answers protocol $part"
	say $? "the kernel log names protocol $chosen as not the CPU's ($part)"
else
	! dmesg | grep -q 'amd_smu_sim: protocol mismatch'
	say $? "no protocol mismatch in the kernel log"
fi

# AMD's tools count sockets as CPUs / CPUID's logical processors per
# package: hsmpctl cpu does as they do (hsmp-test holds CPUID, sysfs and
# amd_nb against each other).
cpus=$(grep -c '^processor' /proc/cpuinfo)
run hsmpctl -j cpu
[ $? = 0 ] && has "\"cpus\":$cpus,\"logical_per_package\":$((cpus / sockets)),\"threads_per_core\":1,\"sockets\":$sockets}" /tmp/hsmp.out
say $? "hsmpctl cpu: $cpus CPUs, $((cpus / sockets)) per package, $sockets socket(s) as AMD's tools count them"

# The C suite prints TAP itself; renumber it into ours.
hsmp-test -n "$msgs" >/tmp/suite.tap 2>&1
rc=$?
while IFS= read -r line; do
	case $line in
	"ok "* | "not ok "*)
		n=$((n + 1))
		case $line in "not ok "*) failed=$((failed + 1)) ;; esac
		echo "$line" | sed -E "s/^(not )?ok [0-9]+ /\1ok $n /"
		;;
	"#"*) echo "$line" ;;
	esac
done </tmp/suite.tap
grep -q '^1\.\.' /tmp/suite.tap && [ $rc = 0 -o $failed -gt 0 ]
say $? "hsmp-test ran to the end (exit $rc)"

run hsmpctl show
[ $? = 0 ] && [ "$(grep -c '^socket ' /tmp/hsmp.out)" = "$sockets" ] &&
	has 'power_limit_mw' /tmp/hsmp.out && has 'core apic' /tmp/hsmp.out
say $? "hsmpctl show lists $sockets socket(s) with their metrics and cores"
run hsmpctl -j show
[ $? = 0 ] && has '"sockets":\[' /tmp/hsmp.out &&
	[ "$(grep -o '"socket":' /tmp/hsmp.out | wc -l)" = "$sockets" ]
say $? "hsmpctl -j show is one JSON document per socket list"
run hsmpctl set power-limit 0 300000
[ $? = 2 ] && has 'out of range (0..280000)' /tmp/hsmp.err
say $? "a power limit above the SMU's maximum is refused before the ioctl"
run hsmpctl set power-limit 0 200000 && run hsmpctl show 0 &&
	grep -Eq 'power_limit_mw +200000' /tmp/hsmp.out
say $? "hsmpctl set power-limit then show reads 200000 mW back"
run hsmpctl test 0 41 && has 'answer 42' /tmp/hsmp.out
say $? "hsmpctl test: the mailbox answers 41 + 1"
run hsmpctl set nbio-dpm 0 1 3 2
[ $? = 2 ] && has 'MIN must not exceed MAX' /tmp/hsmp.err
say $? "hsmpctl refuses min > max"
run hsmpctl show 5
[ $? = 2 ] && has 'socket 5 does not exist' /tmp/hsmp.err
say $? "hsmpctl names a socket that does not exist"
echo 'msg=0x06 action=drop count=1' >$sim/sock0/fault
run hsmpctl show 0
[ $? = 1 ] && has 'did not answer within 100 ms' /tmp/hsmp.err
say $? "a dropped message: hsmpctl says the SMU did not answer"
run hsmpctl -d /dev/nonexistent show
[ $? = 1 ] && has 'does not exist' /tmp/hsmp.err
say $? "a missing device is named"
echo 1 >$sim/reset

# What a protocol lacks reads n/a (null in JSON), at every protocol: 2
# stops at 14h, 4 at 15h, 5 and 7 skip 15h (temp_mc).
nulls() { grep -o '"[a-z0-9_]*":null' /tmp/hsmp.out | sort -u | tr -d '":' | sed 's/null$//' | tr '\n' ' '; }
for p in 2 4 5 7; do
	case $p in
	2) want="cclk_limit_mhz fmax_mhz fmin_mhz freq_limit_mhz freq_limit_source svi_power_mw temp_mc " ;;
	4) want="cclk_limit_mhz fmax_mhz fmin_mhz freq_limit_mhz freq_limit_source svi_power_mw " ;;
	*) want="temp_mc " ;;
	esac
	echo $p >$sim/proto_ver
	run hsmpctl -j show
	rc=$?
	got=$(nulls)
	[ $rc = 0 ] && [ "$(grep -o "\"protocol\":$p," /tmp/hsmp.out | wc -l)" = "$sockets" ] &&
		[ "$got" = "$want" ] && run hsmpctl show && [ ! -s /tmp/hsmp.err ]
	say $? "protocol $p: hsmpctl show exits 0, n/a: ${want% }"
	[ "$got" = "$want" ] || echo "# got n/a: $got"
done
echo 2 >$sim/proto_ver
run hsmpctl dimm 0 0x80
[ $? = 0 ] && has 'dimm 0x80' /tmp/hsmp.out && [ "$(grep -c 'n/a$' /tmp/hsmp.out)" = 4 ]
say $? "protocol 2: hsmpctl dimm 0 0x80 reads n/a, exit 0"
run hsmpctl set boost 0 3000
[ $? = 0 ] && run hsmpctl show 0 && grep -Eq 'core apic [0-9]+ +boost limit 3000 MHz' /tmp/hsmp.out
say $? "protocol 2 (no Fmax/Fmin to ask): hsmpctl set boost 0 3000 still sets it"
echo 5 >$sim/proto_ver
run hsmpctl -j dimm 0 0x80 && cp /tmp/hsmp.out /tmp/dimm.hex &&
	run hsmpctl -j dimm 0 128 && cmp -s /tmp/hsmp.out /tmp/dimm.hex &&
	has '"dimm":128,' /tmp/hsmp.out && has '"power_mw":[0-9]' /tmp/hsmp.out
say $? "protocol 5: hsmpctl dimm 0 0x80 is dimm 0 128"
run hsmpctl test 0x0 0x29 && has 'answer 42' /tmp/hsmp.out
say $? "hsmpctl test 0x0 0x29: numbers in hex, the mailbox answers 42"
run hsmpctl set power-limit 0 0x
[ $? = 2 ] && has "'0x' is not a number (decimal, or hex after 0x)" /tmp/hsmp.err
say $? "hsmpctl refuses 0x without digits"
echo 1 >$sim/reset

dmesg | grep -E "$KERNEL_SPLATS|initcall order|amd_smu_sim: (bad|topology mismatch)" >/tmp/hsmp.out
[ ! -s /tmp/hsmp.out ]
say $? "no kernel warnings"
exit $((failed > 0))
