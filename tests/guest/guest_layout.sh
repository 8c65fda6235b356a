#!/usr/bin/env bash
# The guest has the filesystem layout a host has: /run writable, /tmp,
# /var/tmp and /dev/shm sticky and world-writable (mode 1777), so no probe is
# skipped in a guest for a reason the host would not have: every probe the
# guest skips, the host skips too, with the same reason (the host's own probe
# run is the reference). With build/kernels/falcato-v1-bzImage (make kernels)
# the guest has fs.splice_needs_write, so the probes that set it need
# /run/zcbench-probe.lock: base boots with it at 0 (the probe sets it to 1
# and back), new with sysctl.fs.splice_needs_write=1 on the command line,
# which kernel-ab checks the guest reads back. Without that image, Debian's
# cloud kernel (tests/guest/fetch-kernel.sh) checks the layout alone.
# ZC_LAYOUT_IMAGE=BZIMAGE: another kernel that has the sysctl.
. "$(dirname "$0")/../lib.sh"
for p in qemu-system-x86_64 cpio; do
	command -v $p >/dev/null || skip "$p not installed (make deps)"
done
[ -x /bin/busybox ] || skip "busybox-static not installed (make deps)"
img=${ZC_LAYOUT_IMAGE:-build/kernels/falcato-v1-bzImage}
snw=()
if [ -s "$img" ]; then
	snw=(--new-sysctl fs.splice_needs_write=1)
else
	img=$(bash tests/guest/fetch-kernel.sh); rc=$?
	[ $rc -eq 0 ] || exit $rc
fi
jqc() { jq -e "$@" >/dev/null; }
echo "== guest kernel $img"
"$ZCBENCH" probe --json >"$TMP/host-probe.json" 2>"$TMP/host-probe.err" || fail "host probe: $(cat "$TMP/host-probe.err")"
"$ZCBENCH" kernel-ab --base "$img" --new "$img" "${snw[@]}" --workload workloads/guest-smoke.ini \
	--out "$TMP/ab" -- --only proxy-copy >"$TMP/ab.out" 2>&1; rc=$?
[ $rc -eq 0 ] || { tail -n 30 "$TMP/ab.out"; fail "kernel-ab exit $rc"; }

for side in base new; do
	l=$TMP/ab/$side/guest/layout.txt
	[ -s "$l" ] || fail "$side: the guest wrote no layout.txt"
	check "$side: /run writable" grep -qx '/run 755 yes' "$l"
	for d in /tmp /var/tmp /dev/shm; do
		check "$side: $d mode 1777, writable" grep -qx "$d 1777 yes" "$l"
	done
	p=$TMP/ab/$side-probe.json
	[ -s "$p" ] || fail "$side: no probe JSON came back"
	# Every probe the guest skipped, with its reason, and whether the host
	# skipped the same probe for the same reason.
	jq -r --slurpfile h "$TMP/host-probe.json" '.probes | to_entries[] | select(.value.verdict == "skipped") |
		"\(.key)\t\(.value.detail)\t\(($h[0].probes[.key] // {}) as $hp |
			($hp.verdict == "skipped" and $hp.detail == .value.detail))"' "$p" >"$TMP/skips-$side"
	while IFS=$'\t' read -r name why same; do
		check "$side: $name skipped as on the host ($why)" [ "$same" = true ]
	done <"$TMP/skips-$side"
	echo "   $side: $(wc -l <"$TMP/skips-$side") probe(s) skipped in the guest (each checked against the host above)"
done
if [ ${#snw[@]} -gt 0 ]; then
	check "base: the probe set fs.splice_needs_write=1 and back (the lock in /run)" \
		jqc '.sysctl_changed_and_restored == true and .probes.splice_file_unpriv_snw1.verdict != "skipped"' "$TMP/ab/base-probe.json"
	check "new: booted with the sysctl at 1, read back" \
		jqc '.new.sysctls_seen["fs.splice_needs_write"] == "1" and .new.ok' "$TMP/ab/kernel-ab.json"
	check "new: the fingerprint says 1" jqc '.probes.splice_needs_write.verdict == "1"' "$TMP/ab/new-probe.json"
fi
finish
