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

dmesg | grep -q "amd_smu_sim: boot handshake: $sockets messages\? answered"
say $? "amd_hsmp's probe sent one TEST per socket ($sockets)"

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
echo 'msg=0x06 action=drop count=1' >/sys/kernel/debug/amd_smu_sim/sock0/fault
run hsmpctl show 0
[ $? = 1 ] && has 'did not answer within 100 ms' /tmp/hsmp.err
say $? "a dropped message: hsmpctl says the SMU did not answer"
run hsmpctl -d /dev/nonexistent show
[ $? = 1 ] && has 'does not exist' /tmp/hsmp.err
say $? "a missing device is named"
echo 1 >/sys/kernel/debug/amd_smu_sim/reset

dmesg | grep -E "$KERNEL_SPLATS|initcall order|amd_smu_sim: bad" >/tmp/hsmp.out
[ ! -s /tmp/hsmp.out ]
say $? "no kernel warnings"
exit $((failed > 0))
