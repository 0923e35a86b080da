# mstp-core-bench: CPU per BPDU received and per tick of the MSTP core,
# in the unit tests' simulated ring (bench/mstp runs it). Optimised like
# the programs, not sanitised like the tests.
PROGRAMS += mstp-core-bench
mstp-core-bench_SRCS := bench/mstp_core.c
mstp-core-bench_USES := mstpsim

# mstnl-states-bench: one MSTP event's kernel state writes, one request
# each against one batch (bench/mstp kernel runs it in a guest).
PROGRAMS += mstnl-states-bench
mstnl-states-bench_SRCS := bench/mstnl_states.c
mstnl-states-bench_USES := libmst

# mstp-loop-bench: the simulator's loop campaigns at scale (thousands of
# random meshes, one and several regions, every link failed and restored;
# and the timed model's campaign); prints the figures and a replay command
# for each seed with a loop.
PROGRAMS += mstp-loop-bench
mstp-loop-bench_SRCS := bench/mstp_loops.c bench/loops_timing.c
mstp-loop-bench_USES := mstpsim
