#!/usr/bin/env bash
# make bench-peers: workloads/peers.ini (zcbench copy/splice against HAProxy,
# send/sendfile against iperf3, interleaved rounds), then the ratios with
# their spread. A missing haproxy or iperf3 leaves its runs out, saying why
# (zcbench list's reason). Extra arguments go to zcbench run (e.g.
# --repetitions=7 --duration=5); --counters=bpf unless they name --counters,
# so each ratio shows its contenders' syscalls per MB and bytes per call.
set -u
cd "$(dirname "$0")/.."
. benchmarks/bench_lib.sh
bench_header bench-peers
ZCBENCH=${ZCBENCH:-bench/zcbench}
OUT=${OUT:-results}
WORKLOAD=${WORKLOAD:-workloads/peers.ini}

# Which peer modes cannot run here, and why.
list=$("$ZCBENCH" list)
only=()
skipped=0
for r in $(sed -n 's/^\[run \(.*\)\]$/\1/p' "$WORKLOAD"); do
	mode=$(awk -v r="[run $r]" '$0 == r { on = 1; next } /^\[/ { on = 0 }
		on && $1 ~ /^(source|proxy)$/ && $3 ~ /^(haproxy|iperf3)/ { print $3 }' "$WORKLOAD")
	why=""
	[ -n "$mode" ] && why=$(printf '%s\n' "$list" | grep -A1 "^  $mode " |
		sed -n 's/^ *unavailable: //p')
	if [ -n "$why" ]; then
		echo "bench-peers: skipping run $r ($mode): $why"
		skipped=$((skipped + 1))
	else
		only+=("--only=$r")
	fi
done
[ ${#only[@]} -gt 0 ] || { echo "bench-peers: nothing to run" >&2; exit 1; }
[ "$skipped" -gt 0 ] || only=()

counters=(--counters=bpf)
for a in "$@"; do
	case $a in --counters*) counters=() ;; esac
done

log=$(mktemp)
"$ZCBENCH" run "$WORKLOAD" --out "$OUT" "${only[@]}" "${counters[@]}" "$@" | tee "$log"
rc=${PIPESTATUS[0]}
f=$(sed -n 's/^results: \([^ ]*\).*/\1/p' "$log")
rm -f "$log"
[ -n "$f" ] || { echo "bench-peers: the run wrote no results (exit $rc)" >&2; exit 1; }
[ "$rc" -eq 130 ] && exit 130
bash benchmarks/peers-ratios.sh "$f"
bench_verdict "$(bench_headline "$f" | jq -r '[.[] | select(.value != null)] | length') ratios with a figure, \
$skipped run(s) skipped (program missing), zcbench run exit $rc; results: $f"
exit "$rc"
