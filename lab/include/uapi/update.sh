#!/bin/sh
# Refresh the vendored uapi headers from a kernel source tree, with the same
# clean-up `make headers_install` does: drop the _UAPI guard prefix and keep
# only the userspace side of `#ifndef __KERNEL__` blocks.
# usage: lab/include/uapi/update.sh [/path/to/linux-source]
set -eu
src=${1:-/work/ref/linux-source-6.1}
dst=$(dirname "$0")/linux
headers="netlink.h rtnetlink.h if_link.h if_addr.h neighbour.h if_bridge.h"

for h in $headers; do
	sed -E 's@#(ifndef|define|endif[[:space:]]*/[*])[[:space:]]*_UAPI@#\1 @' \
		"$src/include/uapi/linux/$h" |
	awk '
	# Track #if nesting; drop "#ifndef __KERNEL__" and its own #endif.
	/^#[[:space:]]*if/ {
		depth++
		if ($0 ~ /^#[[:space:]]*ifndef[[:space:]]+__KERNEL__[[:space:]]*$/) {
			drop[depth] = 1
			next
		}
	}
	/^#[[:space:]]*endif/ {
		if (drop[depth]) { drop[depth] = 0; depth--; next }
		depth--
	}
	{ print }' > "$dst/$h.tmp"
	mv "$dst/$h.tmp" "$dst/$h"
done
