#!/usr/bin/env bash
# kernel-ab end to end under qemu (TCG here, KVM where it works): Debian's
# prebuilt cloud kernel, the same image as base and new, a very short
# workload. Then the three failure kinds: a guest that panics, one that
# hangs (timeout), one that boots but never reports; the other side's
# results must survive each. About 2-3 minutes under TCG.
set -u
cd "$(dirname "$0")/../.."
Z=${ZCBENCH:-bench/zcbench}
fail() { echo "FAIL: $*"; exit 1; }
for p in qemu-system-x86_64 cpio depmod; do
	command -v $p >/dev/null || { echo "skip: $p not installed (make deps)"; exit 77; }
done
[ -x /bin/busybox ] || { echo "skip: busybox-static not installed (make deps)"; exit 77; }
img=$(bash tests/guest/fetch-kernel.sh); rc=$?
[ $rc -eq 0 ] || exit $rc
rel=${img##*/vmlinuz-}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
W=workloads/guest-smoke.ini
jget() { python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): d=d[k] if k in d else None if isinstance(d,dict) else d
print("null" if d is None else d)' "$@"; }

echo "== 1: $img as base and new"
s=$(date +%s)
"$Z" kernel-ab --base "$img" --new "$img" --workload $W --out "$t/ab" >"$t/ab.out" 2>&1; rc=$?
echo "   kernel-ab took $(( $(date +%s) - s )) s (exit $rc)"
[ $rc -eq 0 ] || { cat "$t/ab.out"; fail "kernel-ab exit $rc"; }
accel=$(jget "$t/ab/kernel-ab.json" accel)
for side in base new; do
	f=$t/ab/$side.json
	[ -s "$f" ] || fail "no $side.json came back"
	[ "$(jget "$f" meta.kernel.release)" = "$rel" ] || fail "$side.json: release $(jget "$f" meta.kernel.release), want $rel"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if "fingerprint" in d else 1)' "$f" ||
		fail "$side.json has no fingerprint key"
	[ "$(jget "$f" accel)" = "$accel" ] || fail "$side.json: accel $(jget "$f" accel), want $accel"
	grep -q 'zcbench-guest: done' "$t/ab/$side/console.log" || fail "$side console log incomplete"
	echo "   $side: $(jget "$f" guest.boot_run_s) s boot+run, accel $accel, release $rel"
done
grep -q 'kernel fingerprints' "$t/ab.out" || fail "fingerprints not printed side by side"
if [ "$accel" = tcg ]; then
	grep -q 'software emulation' "$t/ab/comparison.txt" || fail "no TCG warning in comparison.txt"
fi
if grep -q 'no `compare` command' "$t/ab/comparison.txt"; then
	echo "   note: compare is not built yet; table assertion skipped"
else
	# 0 or 1 (past compare's regression threshold): either way a table.
	grep -Eq '\(exit [01]\)' "$t/ab/comparison.txt" || fail "compare failed: $(head -n 20 "$t/ab/comparison.txt")"
	grep -q 'proxy-copy' "$t/ab/comparison.txt" || fail "comparison has no row for proxy-copy"
fi
if grep -q 'probe unavailable' "$t/ab.out"; then
	echo "   note: probe is not built yet; fingerprint contents not checked"
else
	[ -s "$t/ab/base-probe.json" ] || fail "probe ran but base-probe.json missing"
	grep -q 'fingerprint entries differ' "$t/ab.out" || fail "fingerprints printed empty"
fi

echo "== 2: new hangs (timeout), base results kept"
"$Z" kernel-ab --accel tcg --base "$img" --new "$img" --workload $W --out "$t/hang" --timeout 60 \
	--new-append "rdinit=/bin/busybox sleep 100000" -- --only proxy-copy >"$t/hang.out" 2>&1; rc=$?
[ $rc -eq 1 ] || { cat "$t/hang.out"; fail "hang: exit $rc, want 1"; }
[ -s "$t/hang/base.json" ] || fail "hang: base results lost"
[ ! -e "$t/hang/new.json" ] || fail "hang: new.json exists"
grep -q 'did not finish in' "$t/hang.out" || fail "hang: no timeout reason: $(cat "$t/hang.out")"
grep -q 'Linux version' "$t/hang/new/console.log" || fail "hang: console log not kept"

echo "== 3: base panics, new never reports (no virtio_console module)"
m=$t/mods/lib/modules/$rel
src=${img%/boot/*}/lib/modules/$rel
mkdir -p "$m/kernel/drivers/virtio"
cp "$src"/kernel/drivers/virtio/virtio{,_ring,_pci,_pci_legacy_dev,_pci_modern_dev}.ko "$m/kernel/drivers/virtio/"
"$Z" kernel-ab --accel tcg --base "$img" --new "$img" --workload $W --out "$t/bad" --timeout 120 \
	--base-append "rdinit=/nope" --new-modules "$m" -- --only proxy-copy >"$t/bad.out" 2>&1; rc=$?
[ $rc -eq 1 ] || { cat "$t/bad.out"; fail "bad: exit $rc, want 1"; }
grep -q 'base: FAILED.*panicked' "$t/bad.out" || fail "panic not reported: $(cat "$t/bad.out")"
grep -q 'Kernel panic' "$t/bad/base/console.log" || fail "panic console log not kept"
grep -q 'new: FAILED.*never sent' "$t/bad.out" || fail "silent guest not reported: $(cat "$t/bad.out")"
grep -q 'no virtio-serial port' "$t/bad/new/console.log" || fail "silent guest's console log not kept"
[ "$(jget "$t/bad/kernel-ab.json" base.ok)" = False ] || fail "kernel-ab.json: base.ok"
echo ok
