#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bench-dma SECONDS [SPIKE [MAXSPIKES]]: the kernel's dma_map_benchmark on QEMU's edu device
# (PCI 1234:11e8, "-device edu"), bound to the dma_map_benchmark driver
# through driver_override (the benchmark).  For 1 and 2 threads, and as many
# threads as vCPUs if there are more (the performance patches), and granules of 1 and 16
# pages, each for SECONDS, it reports
#   map_us_tT_gG, map_sd_tT_gG, unmap_us_tT_gG, unmap_sd_tT_gG
# (average and standard deviation in microseconds, as the tool prints them)
# and nslabs_boot / nslabs_after, and where the kernel has the counters of
# patch 0017, dma_hiwater_start and dma_hiwater: io_tlb_used_hiwater reset
# before the benchmark and read after it (higher: the maps bounced).  With SPIKE, the bench's warm-up first
# (warm_up in guest-lib.sh, on the virtio disk), as bench-fio.sh runs it,
# so that a growing kernel is measured on the pools it grew.
# shellcheck source=tests/guest/guest-lib.sh
. /tests/guest-lib.sh

seconds=$1
spike=${2:+/tests/fio/$2}
maxspikes=${3:-4}
case "$seconds" in
''|*[!0-9]*) fail "SECONDS must be a number, not '$seconds'"; exit 2 ;;
esac
[ -z "$spike" ] || [ -f "$spike" ] || { fail "no fio job file $spike"; exit 2; }

dev=
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor")" = 0x1234 ] && [ "$(cat "$d/device")" = 0x11e8 ] && dev=${d##*/}
done
[ -n "$dev" ] || { fail "no edu device (1234:11e8): run QEMU with -device edu"; exit 2; }
drv=/sys/bus/pci/drivers/dma_map_benchmark
[ -d "$drv" ] || { fail "no dma_map_benchmark driver (CONFIG_DMA_MAP_BENCHMARK)"; exit 2; }
[ -e "/sys/bus/pci/devices/$dev/driver" ] &&
	echo "$dev" > "/sys/bus/pci/devices/$dev/driver/unbind"
echo dma_map_benchmark > "/sys/bus/pci/devices/$dev/driver_override"
echo "$dev" > "$drv/bind" || { fail "cannot bind $dev to dma_map_benchmark"; exit 1; }
echo "harness: $dev bound to $(basename "$(readlink "/sys/bus/pci/devices/$dev/driver")")"

report nslabs_boot "$(swiotlb_read io_tlb_nslabs)"
if [ -n "$spike" ]; then
	warm_up "$spike" "$maxspikes" || exit 1
fi
if [ -e "$SWIOTLB/io_tlb_used_hiwater" ]; then
	echo 0 > "$SWIOTLB/io_tlb_used_hiwater"
	report dma_hiwater_start "$(swiotlb_read io_tlb_used_hiwater)"
fi
status=0
threads="1 2"
ncpus=$(grep -c '^processor' /proc/cpuinfo)
[ "$ncpus" -gt 2 ] && threads="$threads $ncpus"
report ncpus "$ncpus"
for t in $threads; do
	for g in 1 16; do
		out=$(dma_map_benchmark -t "$t" -g "$g" -s "$seconds" 2>&1)
		echo "$out"
		# average map latency(us):0.5 standard deviation:0.2
		# shellcheck disable=SC2046 # four words on purpose
		set -- $(echo "$out" | sed -n 's/^average \(un\)*map latency(us):\([0-9.]*\) standard deviation:\([0-9.]*\)$/\2 \3/p')
		if [ $# -ne 4 ]; then
			fail "dma_map_benchmark -t $t -g $g printed no latencies"
			status=1
			continue
		fi
		report "map_us_t${t}_g$g" "$1"
		report "map_sd_t${t}_g$g" "$2"
		report "unmap_us_t${t}_g$g" "$3"
		report "unmap_sd_t${t}_g$g" "$4"
	done
done
report nslabs_after "$(swiotlb_read io_tlb_nslabs)"
[ ! -e "$SWIOTLB/io_tlb_used_hiwater" ] ||
	report dma_hiwater "$(swiotlb_read io_tlb_used_hiwater)"
exit "$status"
