#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Boot a kernel in QEMU (TCG), run one guest test, tell how it ended.
#
# usage: scripts/vm/qemu-run.sh -k BZIMAGE -i INITRD -t TEST -o OUTDIR
#                            [-a ARGS] [-c CMDLINE] [-d DISK]...
#                            [-s SMP] [-m MEM] [-x QEMU_ARG]...
#   -t TEST     guest test, tests/guest/TEST.sh (harness.test=TEST)
#   -a ARGS     its arguments, comma separated (harness.args=ARGS)
#   -c CMDLINE  more kernel parameters, e.g. "swiotlb=512,force"
#   -d DISK     add a disk on a raw image in $SHM_DIR: "virtio" is
#               virtio-blk-pci with iommu_platform=on (/dev/vda),
#               "virtio-sync" the same with ioeventfd=off (BENCH_DISK),
#               "nvme" an NVMe controller (/dev/nvme0n1), "virtio-mmio" a
#               virtio-blk with iommu_platform=on on a virtio-mmio
#               transport (QEMU_ARCH=arm64: the first goes to the
#               transport with the highest address); repeatable
#   -s SMP      vCPUs (default 2), -m MEM memory in MiB (default 1024)
#   -x ARG      one more word for QEMU's command line, e.g. -x -icount
#               -x shift=2,sleep=off, or -x -device -x edu; repeatable
#
# Writes OUTDIR/console.log (the serial console, then "harness-host:" lines
# saying why QEMU stopped), OUTDIR/result.txt (what the guest wrote on the
# harness.result virtio-serial port) and OUTDIR/qemu.cmd.  Exits with the
# status of scripts/vm/classify-log.sh: EX_OK, EX_TESTFAIL, EX_CRASH or
# EX_TIMEOUT; and EX_MISSING / EX_DISK / EX_USAGE before booting.
#
# Environment:
#   QEMU_ARCH      x86_64 (default) or arm64 (make test-arm64: QEMU's virt
#                  machine, a Cortex-A57, the console on ttyAMA0)
#   QEMU           the emulator (default qemu-system-x86_64, or
#                  qemu-system-aarch64 for arm64)
#   QEMU_MACHINE   its machine type (default q35, or virt for arm64; make
#                  bench SMP=N uses pc)
#   ACCEL          tcg (default) or kvm, where /dev/kvm works; the timeouts
#                  are set for TCG, and -icount needs it (EX_USAGE with kvm)
#   BOOT_TIMEOUT   s from start until the guest init prints its marker (60)
#   TEST_TIMEOUT   s from that marker until the result (300)
#   CRASH_GRACE    s to keep running after a crash report, for the rest of
#                  the trace (10); a stall or lockup never ends by itself
#   SHUTDOWN_TIMEOUT s from the result until QEMU exits (30)
#   DISK_SIZE      size of each disk image (default 512M)
#   SHM_DIR        where the images go (default /dev/shm)
#   LAST_LINES     console lines to print when the run did not pass (40)
#   INTERACTIVE=1  console on stdin/stdout too (for the shell test)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

kernel='' initrd='' test='' args='' cmdline='' outdir='' smp=2 mem=1024
disks=() extra=()
while getopts "k:i:t:a:c:d:o:s:m:x:" opt; do
	case "$opt" in
	k) kernel=$OPTARG ;;
	i) initrd=$OPTARG ;;
	t) test=$OPTARG ;;
	a) args=$OPTARG ;;
	c) cmdline=$OPTARG ;;
	d) disks+=("$OPTARG") ;;
	o) outdir=$OPTARG ;;
	s) smp=$OPTARG ;;
	m) mem=$OPTARG ;;
	x) extra+=("$OPTARG") ;;
	*) die $EX_USAGE "see the usage at the top of $0" ;;
	esac
done
{ [ -n "$kernel" ] && [ -n "$initrd" ] && [ -n "$test" ] && [ -n "$outdir" ]; } ||
	die $EX_USAGE "-k, -i, -t and -o are required"
case "${QEMU_ARCH:-x86_64}" in
x86_64) qemu=${QEMU:-qemu-system-x86_64} machine=${QEMU_MACHINE:-q35}
	console_dev=ttyS0 cpu=() qemu_pkg=qemu-system-x86 ;;
arm64) qemu=${QEMU:-qemu-system-aarch64} machine=${QEMU_MACHINE:-virt}
	console_dev=ttyAMA0 cpu=(-cpu cortex-a57) qemu_pkg=qemu-system-arm ;;
*) die $EX_USAGE "QEMU_ARCH must be x86_64 or arm64, not '$QEMU_ARCH'" ;;
esac
boot_timeout=${BOOT_TIMEOUT:-60}
test_timeout=${TEST_TIMEOUT:-300}
crash_grace=${CRASH_GRACE:-10}
shutdown_timeout=${SHUTDOWN_TIMEOUT:-30}
disk_size=${DISK_SIZE:-512M}
shm=${SHM_DIR:-/dev/shm}

command -v "$qemu" >/dev/null ||
	die $EX_MISSING "$qemu not found (apt-get install $qemu_pkg)"
[ -f "$kernel" ] || die $EX_MISSING "no kernel image $kernel"
[ -f "$initrd" ] || die $EX_MISSING "no initramfs $initrd"
accel=${ACCEL:-tcg}
case "$accel" in
tcg) ;;
kvm)
	[ -w /dev/kvm ] || die $EX_MISSING "ACCEL=kvm, but /dev/kvm is missing or not writable"
	[[ " ${extra[*]} " != *" -icount "* ]] ||
		die $EX_USAGE "-icount needs TCG: ACCEL=kvm cannot run it (unset ACCEL)"
	;;
*) die $EX_USAGE "ACCEL must be tcg or kvm, not '$accel'" ;;
esac

mkdir -p "$outdir"
log=$outdir/console.log
result=$outdir/result.txt
: > "$log"
: > "$result"

images=()
qemu_pid=
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	[ -n "$qemu_pid" ] && kill "$qemu_pid" 2>/dev/null
	[ ${#images[@]} -eq 0 ] || rm -f "${images[@]}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

disk_args=()
n=0
for d in "${disks[@]}"; do
	img=$(mktemp "$shm/swiotlb-harness-$d.XXXXXX.img" 2>/dev/null) ||
		die $EX_DISK "cannot create a disk image in $shm"
	images+=("$img")
	truncate -s "$disk_size" "$img" || die $EX_DISK "cannot size $img to $disk_size"
	drive=(-drive "file=$img,format=raw,if=none,id=disk$n,cache=unsafe")
	case "$d" in
	virtio) disk_args+=("${drive[@]}"
		-device "virtio-blk-pci,drive=disk$n,iommu_platform=on,disable-legacy=on") ;;
	# ioeventfd=off: the guest's notify runs the device model in the
	# vCPU thread, at that instruction, not in QEMU's main loop whenever
	# it gets to it (bench.sh's BENCH_DISK; docs/RESULTS.md has what it
	# did to the noise).
	virtio-sync) disk_args+=("${drive[@]}"
		-device "virtio-blk-pci,drive=disk$n,iommu_platform=on,disable-legacy=on,ioeventfd=off") ;;
	nvme) disk_args+=("${drive[@]}" -device "nvme,serial=swiotlb$n,drive=disk$n") ;;
	# A virtio-mmio transport of version 2 (the legacy one has no
	# feature bits above 31): iommu_platform=on offers
	# VIRTIO_F_ACCESS_PLATFORM, without which virtio bypasses the DMA
	# API, and so any restricted pool.
	virtio-mmio) disk_args+=(-global virtio-mmio.force-legacy=false "${drive[@]}"
		-device "virtio-blk-device,drive=disk$n,iommu_platform=on") ;;
	*) die $EX_USAGE "unknown disk type '$d' (virtio, virtio-sync, nvme or virtio-mmio)" ;;
	esac
	n=$((n + 1))
done

append="console=$console_dev panic=-1 harness.test=$test${args:+ harness.args=$args}${cmdline:+ $cmdline}"
if [ "${INTERACTIVE:-0}" = 1 ]; then
	console=(-chardev "stdio,id=con,mux=on,signal=off,logfile=$log" -mon "chardev=con,mode=readline")
else
	# The monitor on two FIFOs: on a timeout the host asks it where every
	# vCPU is (info registers -a, saved in OUTDIR/cpus.txt), since a guest
	# that spins with interrupts off on all CPUs never prints a report.
	rm -f "$outdir/monitor.in" "$outdir/monitor.out"
	mkfifo "$outdir/monitor.in" "$outdir/monitor.out" ||
		die $EX_MISSING "cannot create the monitor FIFOs in $outdir"
	console=(-chardev "file,id=con,path=$log" -monitor "pipe:$outdir/monitor")
fi
cmd=("$qemu" -accel "$accel" -machine "$machine" "${cpu[@]}" -smp "$smp" -m "$mem"
	-nographic -no-reboot -nic none
	-kernel "$kernel" -initrd "$initrd" -append "$append"
	"${console[@]}" -serial chardev:con
	-device "virtio-serial-pci,id=vser"
	-chardev "file,id=result,path=$result"
	-device "virtserialport,bus=vser.0,chardev=result,name=harness.result"
	"${disk_args[@]}" "${extra[@]}")
printf '%q ' "${cmd[@]}" > "$outdir/qemu.cmd"
echo >> "$outdir/qemu.cmd"
echo "+ $(cat "$outdir/qemu.cmd")" >&2
"${cmd[@]}" 2> "$outdir/qemu.stderr" &
qemu_pid=$!
if [ -p "$outdir/monitor.out" ]; then
	cat "$outdir/monitor.out" > "$outdir/monitor.log" &
	monitor_pid=$!
	exec {monitor_fd}<> "$outdir/monitor.in"
fi

# Watch the run: boot marker, result, crash reports, timeouts.  The watch
# shares the host with QEMU, whose I/O threads the benchmark times: each
# second it only reads what was appended to the console and the result
# (bash builtins) and looks closer (grep, classify-log.sh) only when
# something was.  A watch that ran classify-log.sh every second took
# bandwidth from the VMs it watched (docs/RESULTS.md has the measurement).
start=$SECONDS phase=boot phase_start=$SECONDS crash_at='' stop_reason=''
exec {log_fd}< "$log" {result_fd}< "$result"
# appended FD: read what was appended to FD since the last call; status 0
# if anything was (a line without its newline yet counts too).
appended() {
	local line got=1
	while IFS= read -r -u "$1" line || [ -n "$line" ]; do
		got=0 line=''
	done
	return "$got"
}
stop() {
	stop_reason=$1
	if [ -n "${monitor_fd:-}" ] && [ "${2:-}" = timeout ]; then
		# Pause the guest first: the dump is then of the state that
		# timed out, and the guest cannot finish its test meanwhile.
		printf "stop\ninfo registers -a\n" 1>&"$monitor_fd" || true
		sleep 2
		cp "$outdir/monitor.log" "$outdir/cpus.txt" 2>/dev/null || true
	fi
	kill "$qemu_pid" 2>/dev/null || true
}
while kill -0 "$qemu_pid" 2>/dev/null; do
	sleep 1
	now=$SECONDS
	log_new=1
	appended "$log_fd" || log_new=0
	if [ "$log_new" = 1 ] && [ "$phase" = boot ] && grep -aq '^harness: init started' "$log"; then
		info "booted in $((now - start)) s; running test '$test'"
		phase=test phase_start=$now
	fi
	# The result counts only once the guest is booted: read on until then.
	if [ "$phase" = test ] && appended "$result_fd" && grep -q '^exit=' "$result"; then
		info "test finished in $((now - phase_start)) s"
		phase=shutdown phase_start=$now
	fi
	if [ "$log_new" = 1 ] && [ -z "$crash_at" ] && [ "$phase" != shutdown ]; then
		set +e
		"$(dirname "$0")/classify-log.sh" "$log" >/dev/null 2>&1
		[ $? = "$EX_CRASH" ] && crash_at=$now && info "crash report on the console"
		set -e
	fi
	if [ -n "$crash_at" ] && [ $((now - crash_at)) -ge "$crash_grace" ]; then
		stop "killed $crash_grace s after a crash report"
	elif [ "$phase" = boot ] && [ $((now - phase_start)) -ge "$boot_timeout" ]; then
		stop "boot timeout after $boot_timeout s" timeout
	elif [ "$phase" = test ] && [ $((now - phase_start)) -ge "$test_timeout" ]; then
		stop "test timeout after $test_timeout s" timeout
	elif [ "$phase" = shutdown ] && [ $((now - phase_start)) -ge "$shutdown_timeout" ]; then
		stop "shutdown timeout after $shutdown_timeout s (the result was in)"
	fi
done
set +e
wait "$qemu_pid"
qemu_status=$?
set -e
qemu_pid=
if [ -n "${monitor_fd:-}" ]; then
	exec {monitor_fd}>&-
	wait "$monitor_pid" 2>/dev/null || true
	rm -f "$outdir/monitor.in" "$outdir/monitor.out"
fi
# The console may end in the middle of a line: start the host's on its own.
[ -s "$log" ] && [ -n "$(tail -c 1 "$log")" ] && echo >> "$log"
if [ -n "$stop_reason" ]; then
	echo "harness-host: $stop_reason" >> "$log"
else
	echo "harness-host: qemu exited with status $qemu_status after $((SECONDS - start)) s" >> "$log"
	if [ "$qemu_status" != 0 ] && [ -s "$outdir/qemu.stderr" ]; then
		sed 's/^/  qemu: /' "$outdir/qemu.stderr" >&2
	fi
fi

set +e
verdict=$("$(dirname "$0")/classify-log.sh" "$log" "$result")
status=$?
set -e
echo "$verdict"
if [ "$status" != "$EX_OK" ]; then
	echo "--- last ${LAST_LINES:-40} lines of $log:"
	tail -n "${LAST_LINES:-40}" "$log" | tr -d '\r'
	echo "---"
	obj=${kernel%/arch/x86/boot/bzImage}
	if [ "$status" = "$EX_CRASH" ] && [ -f "$obj/vmlinux" ] && [ -f "$obj/source/scripts/decode_stacktrace.sh" ]; then
		echo "decode the trace: $obj/source/scripts/decode_stacktrace.sh $obj/vmlinux < $log"
	fi
fi
exit "$status"
