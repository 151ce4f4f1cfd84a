#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The watch of scripts/vm/qemu-run.sh on a stand-in QEMU, no kernel: it
# reaches its verdict, and while the guest writes nothing it starts no
# process but sleep (why: scripts/vm/qemu-run.sh, before its watch loop).
# The stand-in writes the boot marker, waits 2 s for the watch to see it,
# is silent for QUIET s (6), then reports exit=0 and exits.  In the silent
# time the watch must run grep, tr and awk (classify-log.sh runs all
# three) fewer times than once a second; the old watch ran them five
# times a second.  About 10 s.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/../../scripts/lib.sh"
tmp=$(mktemp -d) || die $EX_MISSING "cannot create a temporary directory"
trap 'rm -rf "$tmp"' EXIT
status=0
quiet=${QUIET:-6}
[[ $quiet =~ ^[1-9][0-9]*$ ]] || die $EX_USAGE "QUIET must be a positive number, not '$quiet'"

touch "$tmp/bzImage" "$tmp/initrd"
mkdir -p "$tmp/bin"
# The stand-in opens the monitor's output FIFO, as QEMU does, or
# qemu-run.sh would wait for it forever.  It marks its silent time in
# CALLS, where each call of a counted tool adds a line.
cat > "$tmp/bin/qemu-system-x86_64" << 'STANDIN'
#!/bin/bash
for a; do
	case $a in
	file,id=con,path=*) con=${a#*path=} ;;
	file,id=result,path=*) res=${a#*path=} ;;
	pipe:*) mon=${a#pipe:} ;;
	esac
done
exec 3> "$mon.out"
echo "harness: init started" >> "$con"
sleep 2
echo quiet-start >> "$CALLS"
sleep "$QUIET"
echo quiet-end >> "$CALLS"
echo "exit=0" >> "$res"
STANDIN
for t in grep tr awk; do
	# shellcheck disable=SC2016 # $CALLS and $@ are the wrapper's own
	printf '#!/bin/sh\necho %s >> "$CALLS"\nexec /usr/bin/%s "$@"\n' "$t" "$t" > "$tmp/bin/$t"
done
chmod +x "$tmp/bin/qemu-system-x86_64" "$tmp/bin/grep" "$tmp/bin/tr" "$tmp/bin/awk"

: > "$tmp/calls"
env PATH="$tmp/bin:$PATH" CALLS="$tmp/calls" QUIET="$quiet" "$PROJECT_TOP/scripts/vm/qemu-run.sh" \
	-k "$tmp/bzImage" -i "$tmp/initrd" -t x -o "$tmp/run" > "$tmp/out" 2>&1
got=$?
verdict=$(grep -E '^(PASS|FAIL|CRASH|TIMEOUT):' "$tmp/out" | tail -n 1)
if [ "$got" = "$EX_OK" ] && [[ "$verdict" == PASS:* ]]; then
	record PASS harness.watch.verdict "status $got: $verdict"
else
	record FAIL harness.watch.verdict "want status $EX_OK and PASS, got $got: ${verdict:-$(tail -n 1 "$tmp/out")}"
	status=1
fi
calls=$(sed -n '/^quiet-start$/,/^quiet-end$/p' "$tmp/calls" | grep -cvx 'quiet-start\|quiet-end')
if ! grep -qx quiet-end "$tmp/calls"; then
	record FAIL harness.watch.quiet "the stand-in did not reach the end of its silence"
	status=1
elif [ "$calls" -lt "$quiet" ]; then
	record PASS harness.watch.quiet "$calls calls of grep, tr and awk in $quiet silent s"
else
	record FAIL harness.watch.quiet "$calls calls of grep, tr and awk in $quiet silent s: the watch runs them when nothing was written"
	status=1
fi
exit $status
