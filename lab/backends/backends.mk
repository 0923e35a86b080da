# backends: what running a lab does to this host, behind the ops tables
# of ops.h: libvirt domains, the guest agent and QEMU's monitor
# (hv_libvirt, guest_agent, console), link bridges and taps over
# rtnetlink (hostnet), tcpdump per link (capture), identity channels
# (chan), and the services the project starts itself (services: libvirtd
# and virtlogd under their subreaper, reaper).
LIBRARIES += backends
backends_DIR := lab/backends
backends_SRCS := lab/backends/capture.c lab/backends/chan.c \
	lab/backends/console.c lab/backends/guest_agent.c \
	lab/backends/hostnet.c lab/backends/hv_libvirt.c \
	lab/backends/reaper.c lab/backends/services.c
backends_USES := model libmst util
backends_LDLIBS := -lvirt -lvirt-qemu -ljansson
