# Shared by the VM tests (sourced): boot the built kernel and initramfs in
# QEMU directly (TCG, no libvirt), with a NoCloud seed, the lab share over
# 9p and qemu-guest-agent on a unix socket. Everything a VM uses lives in
# its own directory; vm_cleanup (run on exit) kills what is still running.
#
#   vm_start DIR USER_DATA_FILE [EXTRA_CMDLINE]   vm_seed + vm_launch
#   vm_qga DIR JSON                                one guest-agent exchange
#   vm_wait_exit DIR TIMEOUT                       0 if QEMU exited by itself
#   vm_console DIR                                 the serial console log
#
# KERNEL=NAME boots build/kernel-NAME (scripts/kernel-name: default, debug,
# 6.12, 6.12-debug); BZIMAGE, when set, names the image itself.
# VM_CPU and VM_SMP pick the CPU model and topology (qemu64, 1 vCPU);
# VM_EXTRA_ARGS adds QEMU arguments (our own words, split on spaces).
# VM_NICS=N adds N virtio-net NICs on one QEMU hub (what one sends, all
# the others receive): a wire inside the guest for tests. A hub port has
# one queue pair, so virtio_net's XDP transmit shares the TX queue.

if [[ -z ${BZIMAGE:-} ]]; then
	vm_kernel=$(scripts/kernel-name "${KERNEL:-default}") || exit 2
	BZIMAGE=${BUILD:-build}/kernel-${vm_kernel%% *}/arch/x86/boot/bzImage
fi
: "${INITRAMFS:=${BUILD:-build}/initramfs.cpio.lz4}"
: "${VM_MEMORY:=256}"
: "${VM_CPU:=qemu64}"
: "${VM_SMP:=1}"
VM_PIDS=()

vm_start() {
	vm_seed "$1" "$2" && vm_launch "$1" "${3:-}"
}

vm_seed() { # vm_seed DIR USER_DATA_FILE: the NoCloud seed disk
	local dir=$1 user_data=$2
	mkdir -p "$dir/share"
	printf 'instance-id: %s\nlocal-hostname: %s\n' \
		"$(basename "$dir")" "$(basename "$dir")" >"$dir/meta-data"
	cloud-localds --filesystem vfat "$dir/seed.img" "$user_data" \
		"$dir/meta-data"
}

vm_nic_args() { # one -netdev/-device pair per NIC of VM_NICS
	local i
	for ((i = 0; i < ${VM_NICS:-0}; i++)); do
		printf -- '-netdev hubport,id=hub%d,hubid=0 ' "$i"
		printf -- '-device virtio-net-pci,netdev=hub%d,mac=52:54:00:12:00:%02x ' \
			"$i" $((i + 1))
	done
}

# The image's on-demand programs (tcpdump, ethtool, bash), which the
# guest mounts read-only at /tools: build-initramfs puts them beside the
# image (build/initramfs.cpio.lz4 -> build/initramfs.tools).
vm_tools_args() {
	local img=${VM_INITRAMFS:-$INITRAMFS} tools
	tools=$(dirname "$img")/$(basename "$img" | cut -d. -f1).tools
	[[ -d $tools ]] &&
		printf -- '-virtfs local,path=%s,mount_tag=tools,security_model=none,readonly=on,id=tools ' "$tools"
}

vm_launch() { # vm_launch DIR [EXTRA_CMDLINE]: QEMU in the background
	local dir=$1 extra=${2:-} up=
	# As mstlab does (lab/model/plan_xml.c): fixed maps let TCG reuse a
	# program's translations; a one-vCPU guest skips two spins of its boot.
	[[ $VM_SMP == 1 ]] && up='noapictimer noreplace-smp'
	# shellcheck disable=SC2046 # the NIC arguments are words
	qemu-system-x86_64 -machine pc,accel=tcg -m "$VM_MEMORY" \
		-cpu "$VM_CPU" -smp "$VM_SMP" \
		-nodefaults -no-user-config -display none -no-reboot \
		-kernel "$BZIMAGE" -initrd "${VM_INITRAMFS:-$INITRAMFS}" \
		-append "console=ttyS0 panic=-1 no_timer_check acpi=noirq norandmaps $up ${VM_CMDLINE-loglevel=4} $extra" \
		-chardev file,id=con,path="$dir/console.log" \
		-serial chardev:con \
		-drive file="$dir/seed.img",if=virtio,format=raw,readonly=on \
		-virtfs local,path="$dir/share",mount_tag=lab,security_model=none,id=lab \
		-device virtio-serial-pci \
		-chardev socket,id=qga,path="$dir/qga.sock",server=on,wait=off \
		-device virtserialport,chardev=qga,name=org.qemu.guest_agent.0 \
		-device virtio-balloon-pci,free-page-reporting=on \
		-pidfile "$dir/qemu.pid" -nic none $(vm_nic_args) $(vm_tools_args) \
		${VM_EXTRA_ARGS:-} \
		>"$dir/qemu.log" 2>&1 &
	echo $! >"$dir/qemu.pid.shell"
	VM_PIDS+=($!)
}

vm_running() { kill -0 "$(cat "$1/qemu.pid.shell")" 2>/dev/null; }

# One request to the guest agent, after a guest-sync so that a reply left
# over from an earlier, timed-out exchange cannot be taken for this one.
# socat runs as a coprocess: closing its input would hang up the channel
# before the agent answers.
vm_qga() {
	local dir=$1 json=$2 id=$RANDOM$RANDOM line synced= pid in out
	coproc QGA { exec socat - "UNIX-CONNECT:$dir/qga.sock" 2>/dev/null; }
	# bash forgets a coprocess's variables once it ends: copy them now.
	pid=${QGA_PID:-} in=${QGA[1]:-} out=${QGA[0]:-}
	[[ -n $pid && -n $in && -n $out ]] || return 0
	printf '{"execute":"guest-sync","arguments":{"id":%s}}\n%s\n' \
		"$id" "$json" >&"$in" 2>/dev/null
	while read -r -t 5 line <&"$out"; do
		if [[ -n $synced ]]; then
			echo "$line"
			break
		fi
		[[ $line == *"\"return\": $id"* ]] && synced=1
	done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 0
}

# Waits for the agent to answer a guest-ping; prints the seconds it took.
vm_wait_agent() {
	local dir=$1 timeout=$2 start=$EPOCHREALTIME
	while :; do
		if [[ -S $dir/qga.sock ]] &&
			[[ $(vm_qga "$dir" '{"execute":"guest-ping"}') == *'"return": {}'* ]]; then
			echo "$start $EPOCHREALTIME" | awk '{printf "%.2f\n", $2 - $1}'
			return 0
		fi
		vm_running "$dir" || return 1
		vm_panicked "$dir" && return 1
		(($(echo "$EPOCHREALTIME - $start > $timeout" | bc))) && return 1
		sleep 0.1
	done
}

vm_panicked() { grep -qs 'Kernel panic' "$1/console.log"; }

vm_wait_exit() {
	local dir=$1 timeout=$2 i
	for ((i = 0; i < timeout * 10; i++)); do
		vm_running "$dir" || return 0
		sleep 0.1
	done
	return 1
}

vm_console() { cat "$1/console.log" 2>/dev/null; }

vm_cleanup() {
	local pid
	for pid in "${VM_PIDS[@]}"; do
		kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	done
	VM_PIDS=()
}
