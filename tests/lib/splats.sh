# The kernel's own reports of trouble, an extended regex for dmesg lines
# (sourced; tests/vm/guest-run puts it at /lab/lib/splats.sh). Report
# lines only: a stack trace's frames (lock_*, lockdep_*) are not one, and
# an RCU stall on the debug kernel under a loaded TCG host is timing.
KERNEL_SPLATS='WARNING:|BUG:|KASAN:|UBSAN:|possible (recursive|circular) locking|inconsistent lock state|suspicious RCU usage|sleeping function called'
