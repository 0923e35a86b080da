# mstp: the MSTP protocol core (802.1Q-2018 clause 13), one file per
# state machine. Pure C, no OS calls: mstd drives it through struct
# mstp_ops, the simulator (lab/mstpsim) in virtual time.
LIBRARIES += mstp
mstp_DIR := lab/mstp
mstp_SRCS := lab/mstp/mstp_bridge.c lab/mstp/mstp_rx.c \
	lab/mstp/mstp_roles.c lab/mstp/mstp_prt.c lab/mstp/mstp_tc.c \
	lab/mstp/mstp_tx.c
mstp_USES := libmst
mstp_LDLIBS :=
