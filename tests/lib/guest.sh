# What every in-guest suite (tests/guest/*.sh) needs, sourced from
# /lab/lib/guest.sh, where tests/vm/guest-run puts it: iproute2 by its
# path, TAP lines with a reason after a failure, and command runners.

PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

# busybox sh prefers its own ip applet to any PATH entry: find iproute2's
# binaries and call them by their paths.
find_iproute2() {
	for d in /usr/sbin /usr/bin /sbin /bin /usr/local/sbin /usr/local/bin
	do
		if [ -x "$d/$1" ] && "$d/$1" -V 2>&1 | grep -q "^$1 utility"; then
			echo "$d/$1"
			return 0
		fi
	done
	return 1
}
IP=$(find_iproute2 ip)
BRIDGE=$(find_iproute2 bridge)
TC=$(find_iproute2 tc)
ip() { "$IP" "$@"; }
bridge() { "$BRIDGE" "$@"; }
tc() { "$TC" "$@"; }

N=0
FAILED=0
OUT=
ERR=
RC=0
WHY=
ERR_FILE=/tmp/guest-suite.$$.err

pass() {
	N=$((N + 1))
	echo "ok $N - $1"
}

# fail DESC REASON: the reason on one comment line, whatever it spans.
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

# tap_end: the plan line; the exit code says whether all passed.
tap_end() {
	echo "1..$N"
	[ "$FAILED" -eq 0 ] || echo "# $FAILED of $N failed"
	[ "$FAILED" -eq 0 ]
}

# run CMD...: what it printed, stdout and stderr together as a user sees
# them, in OUT; its exit code in RC.
run() {
	OUT=$("$@" 2>&1)
	RC=$?
}

# run_split CMD...: stdout in OUT, stderr in ERR, exit code in RC.
run_split() {
	OUT=$("$@" 2>"$ERR_FILE")
	RC=$?
	ERR=$(cat "$ERR_FILE")
	rm -f "$ERR_FILE"
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

# expect_ok DESC CMD...: exit code 0.
expect_ok() {
	desc=$1
	shift
	run "$@"
	if [ "$RC" -eq 0 ]; then
		pass "$desc"
	else
		fail "$desc" "'$*' exited $RC: $OUT"
	fi
}

# expect_err DESC CODE TEXT CMD...: exit code CODE, and one line on
# stderr naming TEXT, nothing on stdout.
expect_err() {
	desc=$1
	code=$2
	text=$3
	shift 3
	run_split "$@"
	lines=$(printf '%s\n' "$ERR" | grep -c .)
	if [ "$RC" -ne "$code" ]; then
		fail "$desc" "'$*' exited $RC, want $code: $ERR"
	elif ! printf '%s' "$ERR" | grep -qF -- "$text"; then
		fail "$desc" "'$*' said '$ERR', want '$text'"
	elif [ "$lines" -ne 1 ]; then
		fail "$desc" "'$*' printed $lines lines, want 1: $ERR"
	elif [ -n "$OUT" ]; then
		fail "$desc" "'$*' printed '$OUT' on stdout besides the error"
	else
		pass "$desc"
	fi
}

# expect_usage DESC TEXT CMD...: a help request: exit 0, stdout starting
# with TEXT, nothing on stderr.
expect_usage() {
	desc=$1
	text=$2
	shift 2
	run_split "$@"
	case "$RC:$OUT" in
	"0:$text"*)
		if [ -z "$ERR" ]; then
			pass "$desc"
		else
			fail "$desc" "'$*' also said '$ERR' on stderr"
		fi ;;
	*) fail "$desc" "'$*' exited $RC, printed '$OUT' ($ERR)" ;;
	esac
}

# on_debug_kernel: the KASAN/lockdep flavour, which under TCG is too slow
# for checks that need a guest's normal speed (tests/run debug is there
# for the kernel's reports).
on_debug_kernel() {
	case $(uname -r) in
	*-debug) return 0 ;;
	esac
	return 1
}

# timed DESC CMD...: check, for one that needs the guest's normal speed
# (pace, timing, a receiver keeping up): skipped on the debug kernel.
timed() {
	if on_debug_kernel; then
		skip "$1" "needs normal speed, not the debug kernel's"
		WHY=
	else
		check "$@"
	fi
}

# now_ms: the guest's uptime in ms, monotonic enough for durations.
now_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# wait_until SECS CMD...: polls CMD every 0.1 s for SECS seconds by the
# clock (each poll runs several programs, slow under TCG), then once more.
wait_until() {
	end=$(( $(now_ms) + $1 * 1000 ))
	shift
	while [ "$(now_ms)" -lt "$end" ]; do
		"$@" && return 0
		sleep 0.1
	done
	"$@"
}
