# HSMP tools for the hsmp-host role: hsmpctl (show/set over /dev/hsmp) and
# hsmp-test, the in-guest suite against the emulated SMU (kernel/src/...).
PROGRAMS += hsmpctl hsmp-test
GUEST_PROGRAMS += hsmpctl hsmp-test
hsmpctl_SRCS := lab/hsmp/hsmpctl.c lab/hsmp/hsmpctl_show.c \
	lab/hsmp/hsmpctl_cpu.c lab/hsmp/hsmp_cpuid.c \
	lab/hsmp/hsmpctl_set.c lab/hsmp/hsmp_dev.c
hsmpctl_USES := libmst util
hsmp-test_SRCS := lab/hsmp/hsmp_test.c lab/hsmp/hsmp_test_msgs.c \
	lab/hsmp/hsmp_test_faults.c lab/hsmp/hsmp_test_stress.c \
	lab/hsmp/hsmp_test_topology.c lab/hsmp/hsmp_cpuid.c \
	lab/hsmp/hsmp_sim.c lab/hsmp/hsmp_dev.c lab/hsmp/kernel_hz.c
hsmp-test_USES := util
hsmp-test_LDLIBS := -pthread

UNIT_TESTS += test_hsmp_cpuid
test_hsmp_cpuid_SRCS := tests/unit/test_hsmp_cpuid.c lab/hsmp/hsmp_cpuid.c
test_hsmp_cpuid_USES :=
