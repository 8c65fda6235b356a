#!/usr/bin/env bash
# make bench-lean: is zcbench's timed loop as lean as a hand-written one?
# The proxy (device under test) is zcbench's own role, then the bare loop in
# benchmarks/bare_proxy.c (same syscalls), alternating, in one invocation each
# pair; the controller measures the DUT core for both the same way (its
# /proc/stat at the window edges). Prints the ratio of Gbps per core.
set -eu
cd "$(dirname "$0")/.."
. benchmarks/bench_lib.sh
bench_header bench-lean
ZCBENCH=${ZCBENCH:-bench/zcbench}
PAIRS=${PAIRS:-5}
out=$(mktemp -d /tmp/zc-lean.XXXXXX)
bench_on_exit 'rm -rf "$out"'
cat >"$out/w.ini" <<INI
[workload]
warmup = 0.5
duration = ${DURATION:-3}
repetitions = 1
chunk = 64k
pipe_size = 1M
INI
for m in copy splice; do
	printf '\n[run zc-%s]\ntopology = proxy\nproxy = %s\n' "$m" "$m" >>"$out/w.ini"
done
for i in $(seq "$PAIRS"); do
	for m in copy splice; do
		$ZCBENCH run "$out/w.ini" --only "zc-$m" --out "$out/zc" >/dev/null
		$ZCBENCH run "$out/w.ini" --only "zc-$m" --exec-proxy build/bare_proxy --out "$out/bare" >/dev/null
	done
done
# gbps_per_core from the controller's /proc/stat view for both sides, so the
# two are measured identically.
q='.runs[] | select(.status == "ok") | [.key.proxy, (.samples[0].gbps / (.samples[0].controller_dut_busy_s / .options.duration))] | @tsv'
printf '%-8s %14s %14s %8s\n' mode "zcbench Gb/c" "bare Gb/c" ratio
verdict=()
for m in copy splice; do
	z=$(jq -r "$q" "$out"/zc/*.json | awk -v m=$m '$1 == m {print $2}' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
	b=$(jq -r "$q" "$out"/bare/*.json | awk -v m=$m '$1 == m {print $2}' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
	awk -v m=$m -v z="$z" -v b="$b" 'BEGIN { printf "%-8s %14.2f %14.2f %7.3fx  (target >= 0.95)\n", m, z, b, z / b }'
	verdict+=("$(awk -v m=$m -v z="$z" -v b="$b" 'BEGIN {
		if (b > 0) printf "%s %.3fx %s", m, z / b, (z / b >= 0.95 ? "(meets >= 0.95)" : "(BELOW 0.95)")
		else printf "%s no figure", m }')")
done
echo "(median of $PAIRS alternating pairs; loopback; $(nproc) CPUs)"
bench_verdict "zcbench over the bare loop, Gbit/s per core: ${verdict[0]}, ${verdict[1]}"
