#!/usr/bin/env bash
# make bench-scale: workloads/scale.ini on loopback, then across network
# namespaces (veth, RPS/RFS steering; needs root), then for each the scaling
# table (zcbench scale) and the sizing table for 10, 40 and 100 Gbit/s
# (zcbench size). Extra arguments go to both runs (e.g. --repetitions=1).
set -u
cd "$(dirname "$0")/.."
ZCBENCH=${ZCBENCH:-bench/zcbench}
OUT=${OUT:-results}
files=()
for host in loopback netns; do
	if [ "$host" = netns ] && [ "$(id -u)" -ne 0 ]; then
		echo "== netns: skipped (network namespaces need root)"
		continue
	fi
	echo "== $host (hosts/$host.ini)"
	log=$(mktemp)
	"$ZCBENCH" run workloads/scale.ini --host "hosts/$host.ini" --out "$OUT" "$@" | tee "$log"
	rc=${PIPESTATUS[0]}
	f=$(sed -n 's/^results: \([^ ]*\).*/\1/p' "$log")
	rm -f "$log"
	[ -n "$f" ] || { echo "bench-scale: the $host run wrote no results (exit $rc)" >&2; exit 1; }
	[ "$rc" -eq 130 ] && exit 130
	files+=("$f")
done
for f in "${files[@]}"; do
	echo
	echo "== $(jq -r .host.name "$f"): $f"
	"$ZCBENCH" scale "$f"
	echo
	"$ZCBENCH" size --target 10G,40G,100G "$f"
done
