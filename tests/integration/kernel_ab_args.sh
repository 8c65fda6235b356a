#!/usr/bin/env bash
# kernel-ab refuses bad input before any guest starts: missing options, a
# missing image, a file that is not a bzImage, bad counts, a bad workload,
# a sysctl that is not K=V, pipebench flags pipebench would refuse.
. "$(dirname "$0")/../lib.sh"
W=workloads/guest-smoke.ini

# A minimal file with a boot header, enough for the image check.
python3 - "$TMP/bzImage" <<'P'
import sys
b = bytearray(0x800); b[0x202:0x206] = b"HdrS"; b[0x20e] = 0; b[0x20f] = 4
b[0x600:0x610] = b"6.0.0-fake #1\0\0\0"
open(sys.argv[1], "wb").write(b)
P
echo 'not a kernel' > "$TMP/notakernel"

expect2() { # expect2 'message' args...
	local msg=$1; shift
	"$ZCBENCH" kernel-ab "$@" >"$TMP/o" 2>&1; local rc=$?
	[ $rc -eq 2 ] || fail "kernel-ab $*: exit $rc, want 2: $(cat "$TMP/o")"
	grep -q -- "$msg" "$TMP/o" || fail "kernel-ab $*: no '$msg' in: $(cat "$TMP/o")"
	[ ! -e "$TMP/out" ] || fail "kernel-ab $*: created the output folder before failing"
}
expect2 '--new is required' --base "$TMP/bzImage" --workload $W --out "$TMP/out"
expect2 'No such file' --base "$TMP/missing" --new "$TMP/bzImage" --workload $W --out "$TMP/out"
expect2 'not an x86 bzImage' --base "$TMP/bzImage" --new "$TMP/notakernel" --workload $W --out "$TMP/out"
expect2 'cpus' --base "$TMP/bzImage" --new "$TMP/bzImage" --workload $W --cpus 0 --out "$TMP/out"
expect2 'host-cpus' --base "$TMP/bzImage" --new "$TMP/bzImage" --workload $W --host-cpus x --out "$TMP/out"
expect2 'mem' --base "$TMP/bzImage" --new "$TMP/bzImage" --workload $W --mem 12 --out "$TMP/out"
expect2 'accel' --base "$TMP/bzImage" --new "$TMP/bzImage" --workload $W --accel xen --out "$TMP/out"
expect2 'nope.ini' --base "$TMP/bzImage" --new "$TMP/bzImage" --workload "$TMP/nope.ini" --out "$TMP/out"
expect2 'duration' --base "$TMP/bzImage" --new "$TMP/bzImage" --workload $W --out "$TMP/out" -- --duration=-1
expect2 'unknown option' --base "$TMP/bzImage" --new "$TMP/bzImage" --workload $W --frobnicate 1
expect2 'new-sysctl.*not KEY=VALUE' --base "$TMP/bzImage" --new "$TMP/bzImage" --workload $W --new-sysctl splice_needs_write=1 --out "$TMP/out"
expect2 'base-sysctl.*not KEY=VALUE' --base "$TMP/bzImage" --new "$TMP/bzImage" --workload $W --base-sysctl 'fs.x=1 init=/bin/sh' --out "$TMP/out"
expect2 'new-sysctl.*not KEY=VALUE' --base "$TMP/bzImage" --new "$TMP/bzImage" --workload $W --new-sysctl fs.splice_needs_write= --out "$TMP/out"
expect2 'pipebench.*--chunk' --base "$TMP/bzImage" --new "$TMP/bzImage" --workload $W --pipebench=--chunk=3k --out "$TMP/out"
expect2 'pipebench.*unknown option' --base "$TMP/bzImage" --new "$TMP/bzImage" --workload $W --pipebench=--frob --out "$TMP/out"
"$ZCBENCH" kernel-ab --help | grep -q -- '--host-cpus' || fail "--help lacks --host-cpus"
"$ZCBENCH" kernel-ab --help | grep -q -- '--new-sysctl K=V' || fail "--help lacks --new-sysctl"
echo ok
