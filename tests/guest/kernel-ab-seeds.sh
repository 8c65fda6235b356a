#!/usr/bin/env bash
# make kernel-ab-seeds: kernel-ab of the stock 6.12 guest kernel against
# Safin's, and against Falcato's with fs.splice_needs_write at 0 and at 1
# (sysctl.K=V on its command line, read back in the guest), each guest running
# workloads/guest-seeds.ini, the probe and pipebench; then, per pair, the
# fingerprint rows that differ and `zcbench before-after` with the new side
# as the measured "after". kernel-ab-seeds.sh KERNELS OUT
#   ZC_SEEDS_PAIRS="stock-vs-safin ..."  only these pairs (default: all three)
# A pair whose OUT/PAIR/kernel-ab.json says both sides came back from the
# same two images is kept, not booted again: under TCG a pair takes minutes,
# so an interrupted run (or one pair run early) is finished by running the
# same command with the same OUT.
set -u
cd "$(dirname "$0")/../.."
K=$1 OUT=$2
ZCBENCH=${ZCBENCH:-bench/zcbench}
W=${ZC_SEEDS_WORKLOAD:-workloads/guest-seeds.ini}
PB=${ZC_SEEDS_PIPEBENCH:---chunk=64k --duration=0.3 --repetitions=3}
all=(stock-vs-safin stock-vs-falcato-snw0 stock-vs-falcato-snw1)
read -r -a pairs <<<"${ZC_SEEDS_PAIRS:-${all[*]}}"
declare -A new=([stock-vs-safin]=safin-v1 [stock-vs-falcato-snw0]=falcato-v1 [stock-vs-falcato-snw1]=falcato-v1)
declare -A extra=([stock-vs-safin]="" [stock-vs-falcato-snw0]="--new-sysctl fs.splice_needs_write=0"
	[stock-vs-falcato-snw1]="--new-sysctl fs.splice_needs_write=1")
for p in "${pairs[@]}"; do
	[ -n "${new[$p]:-}" ] || { echo "ZC_SEEDS_PAIRS: no pair '$p' (known: ${all[*]})" >&2; exit 2; }
	for n in stock "${new[$p]}"; do
		[ -s "$K/$n-bzImage" ] || { echo "$K/$n-bzImage missing: make kernels" >&2; exit 2; }
	done
done
mkdir -p "$OUT" || exit 1
# Both sides back, from these very images (kernel-ab.json names them and
# their kernel-build records' hashes): nothing to redo.
done_already() { # PAIR BASE NEW
	local j=$1/kernel-ab.json
	[ -s "$j" ] || return 1
	jq -e --arg b "$2" --arg n "$3" --arg bs "$(jq -r '.image.sha256 // ""' "$2.json" 2>/dev/null)" \
		--arg ns "$(jq -r '.image.sha256 // ""' "$3.json" 2>/dev/null)" \
		'.base.ok and .new.ok and .base.image == $b and .new.image == $n and
		 ((.base.build.image.sha256 // "") == $bs) and ((.new.build.image.sha256 // "") == $ns)' \
		"$j" >/dev/null 2>&1
}
rc=0
for p in "${pairs[@]}"; do
	if done_already "$OUT/$p" "$K/stock-bzImage" "$K/${new[$p]}-bzImage"; then
		echo "kernel-ab $p: kept (both sides already in $OUT/$p/ from these images)"
		continue
	fi
	# What an earlier attempt left (a side that came back then but not now)
	# must not pass for this attempt's results.
	rm -rf "${OUT:?}/$p" "$OUT/$p.log"
	t0=$(date +%s)
	# shellcheck disable=SC2086 # extra is a list of words
	"$ZCBENCH" kernel-ab --base "$K/stock-bzImage" --new "$K/${new[$p]}-bzImage" ${extra[$p]} \
		--workload "$W" --pipebench="$PB" --out "$OUT/$p" >"$OUT/$p.log" 2>&1
	r=$?
	[ $r -eq 0 ] || rc=1
	echo "kernel-ab $p: exit $r, $(( $(date +%s) - t0 )) s, load $(cut -d' ' -f1-3 /proc/loadavg)" \
		"(everything in $OUT/$p/, its output in $OUT/$p.log)"
done
{
	for p in "${all[@]}"; do
		d=$OUT/$p
		[ -e "$d" ] || continue
		echo
		echo "=============== $p ==============="
		if [ ! -s "$d/base.json" ] || [ ! -s "$d/new.json" ]; then
			echo "a side failed: see $d/kernel-ab.json and $OUT/$p.log"
			continue
		fi
		jq -r '"accel \(.accel); base \(.base.release); new \(.new.release)\(if (.new.sysctls|length) > 0 then " with " + (.new.sysctls|to_entries|map("sysctl.\(.key)=\(.value)")|join(" ")) else "" end)",
			(.base, .new | "  \(.release): \(.boot_run_s | floor) s boot to power-off, \(.build.image.sha256 // null | if . then "image sha256 " + .[0:16] + "..." else "no kernel-build record beside the image" end)")' "$d/kernel-ab.json"
		echo "-- fingerprint entries that differ (base | new):"
		grep '^\*' "$d/fingerprints.txt" | grep -v -e '^\* verdicts ' -e '^\* label ' -e '^\* kernel_release ' ||
			echo "   (none besides the release)"
		echo "-- labels:"
		jq -r '"  base: " + .fingerprint.label' "$d/base.json"
		jq -r '"  new:  " + .fingerprint.label' "$d/new.json"
		echo "-- zcbench before-after (after = the new guest, measured):"
		# pipebench's files only when both guests wrote one (a failed
		# pipebench must not cost the table of the runs).
		args=("$d/base.json") after=(--after "$d/new.json")
		if [ -s "$d/base-pipebench.json" ] && [ -s "$d/new-pipebench.json" ]; then
			args+=("$d/base-pipebench.json") after+=(--after "$d/new-pipebench.json")
		else
			echo "   (no pipebench patterns: a guest wrote no pipebench.json, see $d/*/guest/pipebench.log)"
		fi
		"$ZCBENCH" before-after "${args[@]}" "${after[@]}" | tee "$d/before-after.txt"
	done
} | tee "$OUT/summary.txt"
echo
echo "kernel-ab-seeds: summary in $OUT/summary.txt"
exit $rc
