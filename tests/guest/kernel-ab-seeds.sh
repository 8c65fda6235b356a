#!/usr/bin/env bash
# make kernel-ab-seeds: kernel-ab of the stock 6.12 guest kernel against
# Safin's, and against Falcato's with fs.splice_needs_write at 0 and at 1
# (sysctl.K=V on its command line, read back in the guest), each guest running
# workloads/guest-seeds.ini, the probe and pipebench; then, per pair, the
# fingerprint rows that differ and `zcbench before-after` with the new side
# as the measured "after". kernel-ab-seeds.sh KERNELS OUT
set -u
cd "$(dirname "$0")/../.."
K=$1 OUT=$2
ZCBENCH=${ZCBENCH:-bench/zcbench}
W=${ZC_SEEDS_WORKLOAD:-workloads/guest-seeds.ini}
PB=${ZC_SEEDS_PIPEBENCH:---chunk=64k --duration=0.3 --repetitions=3}
for n in stock safin-v1 falcato-v1; do
	[ -s "$K/$n-bzImage" ] || { echo "$K/$n-bzImage missing: make kernels" >&2; exit 2; }
done
mkdir -p "$OUT" || exit 1
pairs=(stock-vs-safin stock-vs-falcato-snw0 stock-vs-falcato-snw1)
declare -A new=([stock-vs-safin]=safin-v1 [stock-vs-falcato-snw0]=falcato-v1 [stock-vs-falcato-snw1]=falcato-v1)
declare -A extra=([stock-vs-safin]="" [stock-vs-falcato-snw0]="--new-sysctl fs.splice_needs_write=0"
	[stock-vs-falcato-snw1]="--new-sysctl fs.splice_needs_write=1")
rc=0
for p in "${pairs[@]}"; do
	t0=$(date +%s)
	# shellcheck disable=SC2086 # extra is a list of words
	"$ZCBENCH" kernel-ab --base "$K/stock-bzImage" --new "$K/${new[$p]}-bzImage" ${extra[$p]} \
		--workload "$W" --pipebench="$PB" --out "$OUT/$p" >"$OUT/$p.log" 2>&1
	r=$?
	[ $r -eq 0 ] || rc=1
	echo "kernel-ab $p: exit $r, $(( $(date +%s) - t0 )) s (everything in $OUT/$p/, its output in $OUT/$p.log)"
done
{
	for p in "${pairs[@]}"; do
		d=$OUT/$p
		echo
		echo "=============== $p ==============="
		if [ ! -s "$d/base.json" ] || [ ! -s "$d/new.json" ]; then
			echo "a side failed: see $d/kernel-ab.json and $OUT/$p.log"
			continue
		fi
		jq -r '"accel \(.accel); base \(.base.release); new \(.new.release)\(if (.new.sysctls|length) > 0 then " with " + (.new.sysctls|to_entries|map("sysctl.\(.key)=\(.value)")|join(" ")) else "" end)"' "$d/kernel-ab.json"
		echo "-- fingerprint entries that differ (base | new):"
		grep '^\*' "$d/fingerprints.txt" | grep -v -e '^\* verdicts ' -e '^\* label ' -e '^\* kernel_release '
		echo "-- labels:"
		jq -r '"  base: " + .fingerprint.label' "$d/base.json"
		jq -r '"  new:  " + .fingerprint.label' "$d/new.json"
		echo "-- zcbench before-after (after = the new guest, measured):"
		"$ZCBENCH" before-after "$d/base.json" "$d/base-pipebench.json" --after "$d/new.json" \
			--after "$d/new-pipebench.json" | tee "$d/before-after.txt"
	done
} | tee "$OUT/summary.txt"
echo
echo "kernel-ab-seeds: summary in $OUT/summary.txt"
exit $rc
