#!/usr/bin/env bash
# kernel-ab refuses bad input before any guest starts: missing options, a
# missing image, a file that is not a bzImage, bad counts, a bad workload.
set -u
Z=${ZCBENCH:-bench/zcbench}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
W=workloads/guest-smoke.ini

# A minimal file with a boot header, enough for the image check.
python3 - "$t/bzImage" <<'P'
import sys
b = bytearray(0x800); b[0x202:0x206] = b"HdrS"; b[0x20e] = 0; b[0x20f] = 4
b[0x600:0x610] = b"6.0.0-fake #1\0\0\0"
open(sys.argv[1], "wb").write(b)
P
echo 'not a kernel' > "$t/notakernel"

expect2() { # expect2 'message' args...
	local msg=$1; shift
	"$Z" kernel-ab "$@" >"$t/o" 2>&1; local rc=$?
	[ $rc -eq 2 ] || fail "kernel-ab $*: exit $rc, want 2: $(cat "$t/o")"
	grep -q -- "$msg" "$t/o" || fail "kernel-ab $*: no '$msg' in: $(cat "$t/o")"
	[ ! -e "$t/out" ] || fail "kernel-ab $*: created the output folder before failing"
}
expect2 '--new is required' --base "$t/bzImage" --workload $W --out "$t/out"
expect2 'No such file' --base "$t/missing" --new "$t/bzImage" --workload $W --out "$t/out"
expect2 'not an x86 bzImage' --base "$t/bzImage" --new "$t/notakernel" --workload $W --out "$t/out"
expect2 'cpus' --base "$t/bzImage" --new "$t/bzImage" --workload $W --cpus 0 --out "$t/out"
expect2 'host-cpus' --base "$t/bzImage" --new "$t/bzImage" --workload $W --host-cpus x --out "$t/out"
expect2 'mem' --base "$t/bzImage" --new "$t/bzImage" --workload $W --mem 12 --out "$t/out"
expect2 'accel' --base "$t/bzImage" --new "$t/bzImage" --workload $W --accel xen --out "$t/out"
expect2 'nope.ini' --base "$t/bzImage" --new "$t/bzImage" --workload "$t/nope.ini" --out "$t/out"
expect2 'duration' --base "$t/bzImage" --new "$t/bzImage" --workload $W --out "$t/out" -- --duration=-1
expect2 'unknown option' --base "$t/bzImage" --new "$t/bzImage" --workload $W --frobnicate 1
"$Z" kernel-ab --help | grep -q -- '--host-cpus' || fail "--help lacks --host-cpus"
echo ok
