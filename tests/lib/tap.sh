# TAP for the in-guest suites (sourced; tests/vm/guest-run puts it at
# /lab/lib/tap.sh). `say STATUS DESCRIPTION` prints "ok N - ..." or
# "not ok N - ..." followed by the last TAP_TAIL (15) lines of the files
# in TAP_DIAG (what the failed command said) as comments.
n=0 failed=0
say() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		# shellcheck disable=SC2086 # TAP_DIAG is a list of files
		sed 's/^/# /' $TAP_DIAG 2>/dev/null | tail -n "${TAP_TAIL:-15}"
		failed=$((failed + 1))
	fi
}
