# After each carrier link-down, the first BPDU each bridge port sent
# within 2 s that differs from the last one it sent before: when each
# bridge reacted, on the captures' clock. Input files: "MAC node:port"
# lines, then (one stream) "ev SCENARIO LINK T0" lines followed by
# `mstlab decode` lines ("N TIME SRC-MAC fields...") in time order.
NR == FNR { name[$1] = $2; next }
$1 == "ev" { t0[++ne] = $4; label[ne] = $2 " " $3; next }
{
	t = $2; m = $3; c = $0
	sub(/^[^ ]+ [^ ]+ [^ ]+ /, "", c)
	# Passing a link-down: what every port said last before it.
	while (next_ev <= ne && t >= t0[next_ev]) {
		for (k in cur)
			before[next_ev, k] = cur[k]
		next_ev++
	}
	for (i = 1; i < next_ev; i++)
		if (t < t0[i] + 2 && !((i, m) in first) && c != before[i, m]) {
			first[i, m] = t - t0[i]
			order[i] = order[i] " " m
		}
	cur[m] = c
}
BEGIN { next_ev = 1 }
END {
	for (i = 1; i <= ne; i++) {
		n = split(order[i], ms, " ")
		line = ""
		for (j = 1; j <= n; j++)
			line = line sprintf("  %s +%.0f", (ms[j] in name ? name[ms[j]] : ms[j]),
					    first[i, ms[j]] * 1000)
		printf "    first changed BPDU, %s:%s ms\n", label[i], line
	}
}
