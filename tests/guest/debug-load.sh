#!/bin/sh
# debug-load JOBFILE: issue 8's load for the debug kernel: the fio verify
# job of fio-verify.sh (same reports), then a kmemleak scan.  Reports also
#   kmemleak_leaks   objects kmemleak suspects after the load (-1: the
#                    kernel has no kmemleak); the suspects go to the console
# Exit status: that of fio-verify.sh.
. /tests/lib.sh

/tests/fio-verify.sh "$1"
status=$?
leaks=/sys/kernel/debug/kmemleak
if [ -w "$leaks" ]; then
	# kmemleak reports only objects older than 5 s, and only after they
	# were unreferenced in two scans.
	sleep 6
	echo scan > "$leaks"
	echo scan > "$leaks"
	n=$(grep -c '^unreferenced object' "$leaks")
	[ "$n" -gt 0 ] && head -n 60 "$leaks"
	report kmemleak_leaks "$n"
else
	report kmemleak_leaks -1
fi
exit "$status"
