#!/usr/bin/env bash
# make bench-scale: workloads/scale.ini on loopback, then across network
# namespaces (veth, RPS/RFS steering; needs root), then for each the scaling
# table (zcbench scale) and the sizing table for 10, 40 and 100 Gbit/s
# (zcbench size). Extra arguments go to both runs (e.g. --repetitions=1).
set -u
cd "$(dirname "$0")/.."
. benchmarks/bench_lib.sh
. benchmarks/bench-hosts.sh
bench_header bench-scale
bench_hosts bench-scale workloads/scale.ini "$@"
for f in "${files[@]}"; do
	echo
	echo "== $(jq -r .host.name "$f"): $f"
	"$ZCBENCH" scale "$f"
	echo
	"$ZCBENCH" size --target 10G,40G,100G "$f"
done
bench_verdict "scaling and sizing tables above for $(for f in "${files[@]}"; do jq -r .host.name "$f"; done | paste -sd " " - | sed "s/ /, /g")$([ "$(id -u)" -ne 0 ] && echo " (netns skipped: not root)")"
