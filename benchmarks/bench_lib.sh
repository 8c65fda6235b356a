# Sourced by every benchmarks/bench-*.sh (the make bench-* targets), not run: one
# output style for the long benchmarks (README.md, "Long benchmarks").
#   bench_header NAME   first: what ran where (date, git sha, CPU model,
#                       cores, kernel, load average), so a pasted output
#                       says on its own how loaded the machine was;
#   bench_verdict TEXT  last: the time taken and the load average after,
#                       then one line "NAME: TEXT";
#   bench_on_exit CMD   clean-up run when the script exits, however it exits,
#                       before the last line (instead of a trap of its own).
# A script that exits before its verdict still ends with "NAME: no verdict
# (exit N)". A bench-*.sh run by another one (bench-sweep runs bench-peers)
# prints no header and no time of its own, only its verdict line: the outer
# one's cover it.

BENCH_NAME=
BENCH_T0=
BENCH_DONE=
BENCH_NESTED=
BENCH_CLEANUP=()

# bench_headline FILE: the headline rows zcbench computes for a results file
# (report --json's, without the emulated after rows), as the file's own
# "headline" held them before schema 1.10: a JSON array.
bench_headline() {
	"${ZCBENCH:-bench/zcbench}" report --json "$1" |
		jq '[.files[0].headline[] | select(.side != "after, emulated")]'
}

bench_machine() {
	local model cores cpus
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
	[ -n "$model" ] || model=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
	cpus=$(nproc)
	# physical cores: distinct (socket, core) pairs
	cores=$(lscpu -p=socket,core 2>/dev/null | grep -v '^#' | sort -u | wc -l)
	[ "${cores:-0}" -gt 0 ] || cores=$cpus
	echo "machine: ${model:-unknown CPU}, $cores cores ($cpus CPUs), kernel $(uname -r)"
}

bench_sha() {
	local sha
	sha=$(git rev-parse --short HEAD 2>/dev/null) || { echo "not a git tree"; return; }
	git diff --quiet HEAD 2>/dev/null || sha+="-dirty"
	echo "$sha"
}

bench_header() {
	BENCH_NAME=$1
	BENCH_T0=$(date +%s)
	trap bench_exit EXIT
	if [ -n "${ZC_BENCH_OUTER:-}" ]; then BENCH_NESTED=1; return 0; fi
	export ZC_BENCH_OUTER=$BENCH_NAME
	echo "== $BENCH_NAME, $(date -u '+%Y-%m-%d %H:%M UTC'), git $(bench_sha)"
	bench_machine
	echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
}

bench_on_exit() { BENCH_CLEANUP=("$*" "${BENCH_CLEANUP[@]}"); }

bench_cleanup() {
	local c
	for c in "${BENCH_CLEANUP[@]}"; do eval "$c"; done
	BENCH_CLEANUP=()
}

bench_verdict() {
	bench_cleanup
	if [ -z "$BENCH_NESTED" ]; then
		echo
		echo "took $(($(date +%s) - BENCH_T0)) s, load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
	fi
	echo "$BENCH_NAME: $*"
	BENCH_DONE=1
}

bench_exit() {
	local rc=$?
	[ -n "$BENCH_DONE" ] && return
	bench_verdict "no verdict (exit $rc)"
}
