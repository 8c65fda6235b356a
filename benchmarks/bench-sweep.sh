#!/usr/bin/env bash
# make bench-sweep: workloads/splice-sweep.ini (copy against splice, zcbench
# and HAProxy, over the pipe size and the chunk) through bench-peers.sh
# (a missing haproxy leaves its runs out, saying why; --counters=bpf), then
# the pictures: zcbench plot of that file into plots/out/sweep/
# (sweep_pipe.png, sweep_chunk.png and the dashboard). Pipes past
# fs.pipe-max-size need CAP_SYS_RESOURCE, which a container's root may lack:
# as root the sysctl is raised to the largest pipe_size for the run and put
# back on exit, Ctrl-C included (a SIGKILL leaves it raised: the old value is
# printed first). Extra arguments go to zcbench run.
set -u
cd "$(dirname "$0")/.."
. benchmarks/bench_lib.sh
bench_header bench-sweep
ZCBENCH=${ZCBENCH:-bench/zcbench}
export WORKLOAD=${WORKLOAD:-workloads/splice-sweep.ini}
PLOTS=${PLOTS:-plots/out/sweep}
OUT=${OUT:-results}
export OUT

max=4194304
sysctl=/proc/sys/fs/pipe-max-size
old=$(cat "$sysctl")
if [ "$old" -lt "$max" ]; then
	if [ -w "$sysctl" ]; then
		echo "bench-sweep: fs.pipe-max-size $old -> $max for the sweep (put back on exit)"
		bench_on_exit 'echo "$old" >"$sysctl"'
		trap 'exit 130' INT TERM
		echo "$max" >"$sysctl" || exit 1
	else
		echo "bench-sweep: fs.pipe-max-size is $old and not writable here: pipes past it fail" >&2
	fi
fi
log=$(mktemp)
bash benchmarks/bench-peers.sh "$@" | tee "$log"
rc=${PIPESTATUS[0]}
f=$(sed -n 's/^results: \([^ ]*\).*/\1/p' "$log")
rm -f "$log"
[ -n "$f" ] || exit "$rc"
plotted="splice/copy against pipe size and chunk in $PLOTS/sweep_pipe.png, $PLOTS/sweep_chunk.png, $PLOTS/index.html"
"$ZCBENCH" plot --out "$PLOTS" "$f" || { rc=1 plotted="zcbench plot failed (above)"; }
bench_verdict "$([ "$rc" -eq 0 ] && echo "ok" || echo "exit $rc"): $plotted; results: $f"
exit "$rc"
