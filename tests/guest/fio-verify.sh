#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# fio-verify JOBFILE: run a fio verify job from /tests/fio while sampling the
# swiotlb, and report what the host asserts on:
#   nslabs_boot, nslabs_after   io_tlb_nslabs before and after the load
#   used_boot                   io_tlb_used before the load
#   hiwater_start, hiwater      io_tlb_used_hiwater reset just before the
#                               load, and after it: above hiwater_start
#                               only if the load mapped a bounce buffer
#                               (kernels with the counters of patch 0017)
#   used_max, nslabs_max        largest io_tlb_used / io_tlb_nslabs sampled
#   fio_status, fio_errors      fio's exit status, sum of per-job errors
#   fio_jobs                    number of job reports
#   write_kib, read_kib         KiB written and read (verify reads) in all
# Exit status: fio's exit status, or 1 if its report is missing.
# shellcheck source=tests/guest/guest-lib.sh
. /tests/guest-lib.sh

job=/tests/fio/$1
[ -f "$job" ] || { fail "no fio job file $job"; exit 2; }

report nslabs_boot "$(swiotlb_read io_tlb_nslabs)"
report used_boot "$(swiotlb_read io_tlb_used)"
# A reset sets the mark to what is in use now: whatever the load maps
# raises it, however briefly, where a sample can miss it.
if [ -e "$SWIOTLB/io_tlb_used_hiwater" ]; then
	echo 0 > "$SWIOTLB/io_tlb_used_hiwater"
	report hiwater_start "$(swiotlb_read io_tlb_used_hiwater)"
fi
sampler_start
echo "harness: fio $job"
fio --eta=never --output-format=json --output=/tmp/fio.json "$job"
status=$?
sampler_stop
report nslabs_after "$(swiotlb_read io_tlb_nslabs)"
# The counters of patch 0017 (absent on the base kernel and on v7).
if [ -e "$SWIOTLB/io_tlb_used_hiwater" ]; then
	report hiwater "$(swiotlb_read io_tlb_used_hiwater)"
	report used_after "$(swiotlb_read io_tlb_used)"
	echo 0 > "$SWIOTLB/io_tlb_used_hiwater"
	report hiwater_reset "$(swiotlb_read io_tlb_used_hiwater)"
fi
if [ -e "$SWIOTLB/io_tlb_transient_nslabs" ]; then
	report transient_after "$(swiotlb_read io_tlb_transient_nslabs)"
fi
report fio_status "$status"

fio_json /tmp/fio.json > /tmp/fio.report
# fio's JSON report: one entry of "jobs" per job; io_kbytes is what the
# job wrote, and read back to verify.
jq -r '.jobs[] | "harness: fio job \(.jobname): error \(.error), written \(.write.io_kbytes) KiB in \(.write.runtime) ms, verified \(.read.io_kbytes) KiB in \(.read.runtime) ms"' \
	/tmp/fio.report > /dev/console 2>&1
fio_summary io_kbytes read_kib write_kib || exit 1
[ "$status" -eq 0 ] || fail "fio exited with status $status"
exit "$status"
