#!/bin/sh
# fio-verify JOBFILE: run a fio verify job from /tests/fio while sampling the
# swiotlb, and report what the host asserts on:
#   nslabs_boot, nslabs_after   io_tlb_nslabs before and after the load
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
sampler_start
echo "harness: fio $job"
fio --eta=never --output-format=terse --terse-version=3 --output=/tmp/fio.terse "$job"
status=$?
sampler_stop
report nslabs_after "$(swiotlb_read io_tlb_nslabs)"
# The counters of follow-up fix 8 (absent on the base kernel and on v7).
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

# terse v3, one line per job: field 3 jobname, 5 error, 6 read KiB,
# 9 read ms, 47 write KiB, 50 write ms.  Other lines are not job reports.
awk -F';' '$1 == 3 { n++; err += $5; r += $6; w += $47;
	printf "harness: fio job %s: error %s, written %s KiB in %s ms, verified %s KiB in %s ms\n", $3, $5, $47, $50, $6, $9 > "/dev/stderr" }
	END { printf "%d %d %d %d\n", n, err, r, w }' /tmp/fio.terse > /tmp/fio.sum 2>/dev/console
read -r jobs errors rkib wkib < /tmp/fio.sum
report fio_jobs "${jobs:-0}"
report fio_errors "${errors:--1}"
report read_kib "${rkib:-0}"
report write_kib "${wkib:-0}"
[ "${jobs:-0}" -gt 0 ] || { fail "fio wrote no job report"; exit 1; }
[ "$status" -eq 0 ] || fail "fio exited with status $status"
exit "$status"
