# In one mstd log (guest clock, "HH:MM:SS.mmm mstd[br] level: text"):
# from each "port NAME: link down" to the last role change and the last
# "topology change detected" that followed within 500 ms.
function ms(ts,   a) { split(ts, a, ":"); return ((a[1] * 60 + a[2]) * 60 + a[3]) * 1000 }
function flush() {
	if (down != "")
		printf "    mstd on %s, %s down: roles settled +%.0f ms, topology change +%.0f ms\n",
			node, port, role - down, tc - down
	down = ""
}
/: link down$/ && $4 == "port" && $5 ~ /[a-z]/ {
	flush()
	down = ms($1); role = tc = down; port = $5; sub(/:$/, "", port)
	next
}
down != "" && ms($1) - down > 500 { flush() }
down != "" && / -> / { role = ms($1) }
down != "" && /topology change detected/ { tc = ms($1) }
END { flush() }
