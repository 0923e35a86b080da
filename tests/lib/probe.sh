# Helpers for the in-guest probe suites (tests/guest/probe_*.sh; sourced:
# tests/vm/guest-run puts this at /lab/lib/probe.sh). TAP with a reason
# line after a failure, and probe-gen / probe-sink runners.

PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

# busybox sh prefers its own ip applet: call iproute2's by its path.
find_iproute2() {
	for d in /usr/sbin /usr/bin /sbin /bin; do
		if [ -x "$d/$1" ] && "$d/$1" -V 2>&1 | grep -q "^$1 utility"; then
			echo "$d/$1"
			return 0
		fi
	done
	return 1
}
IP=$(find_iproute2 ip)
ip() { "$IP" "$@"; }
N=0
FAILED=0
OUT=
RC=0
WHY=
ERR_FILE=/tmp/probe-suite.err

pass() {
	N=$((N + 1))
	echo "ok $N - $1"
}

fail() {
	N=$((N + 1))
	FAILED=$((FAILED + 1))
	echo "not ok $N - $1"
	echo "# $2" | tr '\n' ' '
	echo
}

skip() {
	N=$((N + 1))
	echo "ok $N - $1 # SKIP $2"
}

# run CMD...: stdout in OUT, stderr in ERR, exit code in RC.
run() {
	OUT=$("$@" 2>"$ERR_FILE")
	RC=$?
	ERR=$(cat "$ERR_FILE")
}

# check DESC CMD...: the command succeeds; WHY says what went wrong.
check() {
	desc=$1
	shift
	if "$@"; then
		pass "$desc"
	else
		fail "$desc" "${WHY:-'$*' is false}"
	fi
	WHY=
}

# expect_err DESC CODE TEXT CMD...: exit code CODE, one stderr line
# naming TEXT.
expect_err() {
	desc=$1
	code=$2
	text=$3
	shift 3
	run "$@"
	lines=$(printf '%s\n' "$ERR" | grep -c .)
	if [ "$RC" -ne "$code" ]; then
		fail "$desc" "'$*' exited $RC, want $code: $ERR"
	elif ! printf '%s' "$ERR" | grep -qF -- "$text"; then
		fail "$desc" "'$*' said '$ERR', want '$text'"
	elif [ "$lines" -ne 1 ]; then
		fail "$desc" "'$*' printed $lines lines, want 1: $ERR"
	else
		pass "$desc"
	fi
}

SINK_PID=
SINK_JSON=/tmp/probe-suite.json

# sink_start IFACE [NETNS]: a probe-sink counting what arrives on IFACE.
sink_start() {
	rm -f "$SINK_JSON"
	if [ -n "${2:-}" ]; then
		ip netns exec "$2" probe-sink -i "$1" -o "$SINK_JSON" &
	else
		probe-sink -i "$1" -o "$SINK_JSON" &
	fi
	SINK_PID=$!
	# It binds its socket right away; give it a moment to run at all.
	sleep 0.5
}

# sink_stop: ends the sink; its JSON is in SINK.
sink_stop() {
	sleep 0.5	# the last frames may still be on the way
	# Signal probe-sink itself: `ip netns exec` would die at once and
	# not wait for the sink to write its report.
	kill $(pidof probe-sink) 2>/dev/null
	wait "$SINK_PID" 2>/dev/null
	SINK_PID=
	SINK=$(cat "$SINK_JSON" 2>/dev/null)
}

# sink_has FLOW VID RECEIVED: the flow arrived whole, in order, once.
sink_has() {
	WHY="sink: $SINK (want flow $1 vid $2 received $3)"
	printf '%s' "$SINK" | grep -qF "{\"flow\":$1,\"vid\":$2,\"received\":$3,\"lost\":0,\"duplicated\":0,\"reordered\":0,"
}

# said TEXT: probe-gen's stdout (its final line) is TEXT.
said() {
	WHY="probe-gen printed '$OUT' (stderr '$ERR', exit $RC), want '$1'"
	[ "$RC" -eq 0 ] && [ "$OUT" = "$1" ]
}

# err_says REGEX: probe-gen's stderr matches.
err_says() {
	WHY="stderr '$ERR', want /$1/"
	printf '%s' "$ERR" | grep -q -- "$1"
}

# uptime_cs: the guest's uptime in hundredths of a second.
uptime_cs() {
	sed 's/^\([0-9]*\)\.\([0-9]*\) .*/\1\2/' /proc/uptime
}

# gen ARGS...: probe-gen in the generator's namespace.
gen() { ip netns exec gen probe-gen "$@"; }

# veth_setup: veth pg in namespace gen (where probe-gen runs), its peer
# ps here with address PS_MAC, both up. veth_cleanup undoes it and ends
# the programs.
veth_setup() {
	mkdir -p /var/run/netns /run/netns 2>/dev/null
	veth_cleanup
	ip netns add gen &&
		ip link add ps type veth peer name pg netns gen &&
		ip link set ps address "$PS_MAC" &&
		ip link set ps up && ip -n gen link set pg up
}

veth_cleanup() {
	[ -n "$SINK_PID" ] && kill "$SINK_PID" 2>/dev/null
	pidof probe-gen >/dev/null && kill $(pidof probe-gen)
	ip link del ps 2>/dev/null
	ip netns del gen 2>/dev/null
	rm -f "$SINK_JSON" "$ERR_FILE"
}

# tap_end: the plan line; the exit code says whether all passed.
tap_end() {
	echo "1..$N"
	[ "$FAILED" -eq 0 ]
}
