# Small in-guest tools for tests.
PROGRAMS += ethsend
GUEST_PROGRAMS += ethsend
ethsend_SRCS := lab/tools/ethsend.c
ethsend_USES := libmst util

# Captures for the decode cross-check (tests/decode) and bench/decode.
PROGRAMS += bpdu-pcap
bpdu-pcap_SRCS := lab/tools/bpdu_pcap.c lab/tools/bpdu_pcap_cases.c
bpdu-pcap_USES := libmst util
bpdu-pcap_LDLIBS := -lpcap
